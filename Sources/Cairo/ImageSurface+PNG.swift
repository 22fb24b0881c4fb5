internal import CCairo
internal import Foundation

extension ImageSurface {
  /// Reads a PNG file of any colour type and bit depth into a new ARGB32 surface.
  ///
  /// Cairo's loader (libpng) does the decoding; opaque files, which it loads as RGB24, are
  /// converted so that every surface is ARGB32.
  ///
  /// - Parameter path: The path of the PNG file.
  /// - Throws: A ``GraphicsError`` naming the file: `.fileNotReadable` if it is missing or
  ///   unreadable, `.invalidPNG` if it is not a PNG cairo can decode.
  public convenience init(contentsOfPNGFile path: String) throws {
    guard FileManager.default.isReadableFile(atPath: path) else {
      let reason =
        FileManager.default.fileExists(atPath: path)
        ? "is not readable" : "does not exist"
      throw GraphicsError(
        .fileNotReadable, path: path, "The PNG file '\(path)' \(reason).")
    }
    let loaded = cairo_image_surface_create_from_png(path)!
    let status = cairo_surface_status(loaded)
    guard status == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(loaded)
      throw GraphicsError(
        .invalidPNG, path: path, underlying: CairoError(status),
        "The file '\(path)' could not be read as a PNG image: \(CairoError(status))."
      )
    }
    if cairo_image_surface_get_format(loaded) == CAIRO_FORMAT_ARGB32 {
      try self.init(adopting: loaded)
      return
    }
    defer { cairo_surface_destroy(loaded) }
    try self.init(
      width: Int(cairo_image_surface_get_width(loaded)),
      height: Int(cairo_image_surface_get_height(loaded)))
    let cr = cairo_create(pointer)!
    defer { cairo_destroy(cr) }
    cairo_set_source_surface(cr, loaded, 0, 0)
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    cairo_paint(cr)
    try check(cairo_status(cr))
  }

  /// Encodes the surface as PNG with cairo's own writer (libpng and zlib).
  ///
  /// Slower than PNGCodec's `pngData(compression:)`; kept to compare against it.
  ///
  /// - Returns: The bytes of a PNG file.
  /// - Throws: A ``CairoError`` if cairo fails to write.
  public func cairoPNGData() throws(CairoError) -> [UInt8] {
    let sink = ByteSink()
    let status = cairo_surface_write_to_png_stream(
      pointer, ByteSink.write, Unmanaged.passUnretained(sink).toOpaque())
    try check(status)
    return sink.bytes
  }
}
