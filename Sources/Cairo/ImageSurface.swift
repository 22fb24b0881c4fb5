internal import CCairo

/// A bitmap that cairo draws into: 32-bit premultiplied ARGB, in memory.
///
/// Each pixel is one native-endian `UInt32` with alpha in the top byte, and the colour
/// channels already multiplied by alpha, as cairo's `CAIRO_FORMAT_ARGB32` defines. Draw on it
/// through a ``Context``; read it with ``withUnsafePixels(_:)`` or `RGBAImage(surface:)`, save it
/// with `pngData(compression:)` (PNGCodec's encoder; both in ImageSurface+PNGCodec.swift).
///
/// ```swift
/// let surface = try ImageSurface(width: 1500, height: 2668)
/// let context = try Context(surface)
/// context.setSource(red: 0.9, green: 0.9, blue: 0.9)
/// context.paint()
/// let png = surface.pngData()
/// ```
public final class ImageSurface {
  /// Cairo's limit on each side of an image surface, in pixels.
  public static let maximumSide = 32767

  /// The `cairo_surface_t *`; owned, destroyed in `deinit`.
  let pointer: OpaquePointer
  /// The width in pixels.
  public let width: Int
  /// The height in pixels.
  public let height: Int
  /// The distance in bytes from one row to the next; at least `width × 4`.
  public let stride: Int

  /// Creates a surface of the given size, filled with transparent black.
  ///
  /// - Parameters:
  ///   - width: The width in pixels, from 1 to 32767.
  ///   - height: The height in pixels, from 1 to 32767.
  /// - Throws: A ``GraphicsError`` with code `.invalidSize` or `.surfaceTooLarge` for a size
  ///   out of range, or a ``CairoError`` if cairo cannot allocate the pixels.
  public init(width: Int, height: Int) throws {
    guard width > 0, height > 0 else {
      throw GraphicsError(
        .invalidSize,
        "The surface size \(width)×\(height) is invalid: width and height must be at least 1 pixel."
      )
    }
    guard width <= Self.maximumSide, height <= Self.maximumSide else {
      throw GraphicsError(
        .surfaceTooLarge,
        "The surface size \(width)×\(height) is too large: cairo allows at most \(Self.maximumSide) pixels per side."
      )
    }
    let surface = waterflow_image_surface_create(Int32(width), Int32(height))!
    try adoptSurface(surface)
    self.pointer = surface
    self.width = width
    self.height = height
    self.stride = Int(cairo_image_surface_get_stride(surface))
  }

  /// Takes ownership of an ARGB32 image surface that cairo created, such as one read from a PNG.
  init(adopting surface: OpaquePointer) throws(CairoError) {
    try adoptSurface(surface)
    precondition(
      cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32,
      "surface must be ARGB32")
    self.pointer = surface
    self.width = Int(cairo_image_surface_get_width(surface))
    self.height = Int(cairo_image_surface_get_height(surface))
    self.stride = Int(cairo_image_surface_get_stride(surface))
  }

  /// A second surface over the same pixels, for another thread to draw from.
  ///
  /// Cairo keeps per-use state in a surface object, so one object is never a source on two
  /// threads at once; the pixels can be, as long as nothing writes them. The copy keeps this
  /// surface's pixels alive, whichever is released first. Several threads may call this at once
  /// on a surface that nothing draws into any more and that was read (or flushed) before: the
  /// call only reads it.
  ///
  /// - Throws: A ``CairoError`` if cairo cannot make the surface.
  public func sharingPixels() throws(CairoError) -> ImageSurface {
    try ImageSurface(adopting: waterflow_image_surface_share(pointer)!)
  }

  deinit {
    cairo_surface_destroy(pointer)
  }

  /// Calls `body` with the pixels, after cairo has finished any pending drawing.
  ///
  /// The buffer holds `height` rows of `stride` bytes; each pixel is a native-endian,
  /// premultiplied ARGB `UInt32`. The buffer is valid only inside `body`.
  ///
  /// - Parameter body: A closure that reads the pixels and the row stride in bytes.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withUnsafePixels<R, E: Error>(
    _ body: (UnsafeRawBufferPointer, _ stride: Int) throws(E) -> R
  ) throws(E) -> R {
    // Cairo may batch drawing; flushing makes every earlier operation visible in memory.
    cairo_surface_flush(pointer)
    let data = UnsafeRawPointer(cairo_image_surface_get_data(pointer))
    return try body(
      UnsafeRawBufferPointer(start: data, count: stride * height), stride)
  }

  /// Calls `body` with the pixels to change them, then tells cairo they changed.
  ///
  /// Write premultiplied values: a colour channel must not exceed its pixel's alpha.
  ///
  /// - Parameter body: A closure that changes the pixels, given the row stride in bytes.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws; cairo is still told the pixels changed.
  public func withUnsafeMutablePixels<R, E: Error>(
    _ body: (UnsafeMutableRawBufferPointer, _ stride: Int) throws(E) -> R
  ) throws(E) -> R {
    cairo_surface_flush(pointer)
    // Cairo caches derived data (e.g. for use as a source); marking dirty discards it.
    defer { cairo_surface_mark_dirty(pointer) }
    let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(pointer))
    return try body(
      UnsafeMutableRawBufferPointer(start: data, count: stride * height), stride
    )
  }

  /// Whether every pixel is fully opaque.
  ///
  /// - Complexity: O(width × height).
  public var isOpaque: Bool {
    withUnsafePixels { buffer, stride in
      guard let base = buffer.baseAddress else { return true }
      // ARGB32 in native (little-endian) order: alpha is each pixel's high byte. Two pixels a
      // word: a byte at a time this was 1 % of a photo feed's first frame (each photo is checked
      // once, when it is decoded).
      let alphas: UInt64 = 0xff00_0000_ff00_0000
      for y in 0..<height {
        let row = base + y * stride
        var x = 0
        while x + 2 <= width {
          if row.loadUnaligned(fromByteOffset: 4 * x, as: UInt64.self) & alphas != alphas {
            return false
          }
          x += 2
        }
        if x < width && row.load(fromByteOffset: 4 * x, as: UInt32.self) >> 24 != 255 {
          return false
        }
      }
      return true
    }
  }

  /// A copy resized to a pixel size, filtered as drawing it scaled would filter it.
  ///
  /// A photo drawn smaller on every frame of a scroll costs a filtered downscale per frame (most
  /// of such a frame's time); drawing a copy made once at the drawn size costs a plain copy.
  ///
  /// - Throws: A ``CairoError`` if cairo cannot make the copy.
  public func resized(width newWidth: Int, height newHeight: Int) throws -> ImageSurface {
    let copy = try ImageSurface(width: max(1, newWidth), height: max(1, newHeight))
    let context = try Context(copy)
    cairo_scale(
      context.pointer, Double(copy.width) / Double(width), Double(copy.height) / Double(height))
    cairo_set_source_surface(context.pointer, pointer, 0, 0)
    let pattern = cairo_get_source(context.pointer)
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
    cairo_paint(context.pointer)
    try context.checkStatus()
    return copy
  }

  /// A copy a whole `factor` smaller on each side, each pixel the average of the `factor ×
  /// factor` block it covers (blocks cut by the right or bottom edge are dropped).
  ///
  /// For a preview of a large drawing: pixman's filtered downscale (``resized(width:height:)``)
  /// convolves every output pixel with a general kernel and cost more than encoding the full
  /// image, where a block average is a few additions a pixel.
  ///
  /// - Parameter factor: From 1 (a plain copy) to 16.
  /// - Throws: A ``CairoError`` if the copy cannot be made.
  /// - Complexity: O(width × height).
  public func shrunk(by factor: Int) throws -> ImageSurface {
    precondition((1...16).contains(factor), "a shrink factor is 1 to 16")
    let copy = try ImageSurface(width: max(1, width / factor), height: max(1, height / factor))
    // A surface smaller than one block gives one transparent pixel.
    let (outWidth, outHeight) = (width / factor, height / factor)
    let count = UInt64(factor * factor)
    // (x · reciprocal) >> 32 is x / count, rounded down, for every x below 2^17: the error is
    // under 2^-15, less than the 1/count steps between quotients.
    let reciprocal = ((1 << 32) + count - 1) / count
    let half = count / 2
    // Two channels per 32-bit lane (bytes 0 and 2, then 1 and 3): a block of at most 256 pixels
    // sums to at most 65,280 per channel, so the halves never carry into each other. Rows are
    // summed first, column by column (a loop the compiler vectorizes), then each block's columns.
    let low = UnsafeMutablePointer<UInt32>.allocate(capacity: outWidth * factor)
    let high = UnsafeMutablePointer<UInt32>.allocate(capacity: outWidth * factor)
    defer {
      low.deallocate()
      high.deallocate()
    }
    let columns = outWidth * factor
    withUnsafePixels { source, sourceStride in
      copy.withUnsafeMutablePixels { target, targetStride in
        for y in 0..<outHeight {
          low.update(repeating: 0, count: columns)
          high.update(repeating: 0, count: columns)
          for row in 0..<factor {
            let line = (source.baseAddress! + (y * factor + row) * sourceStride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<columns {
              let p = line[x]
              low[x] &+= p & 0x00FF_00FF
              high[x] &+= (p >> 8) & 0x00FF_00FF
            }
          }
          let out = (target.baseAddress! + y * targetStride).assumingMemoryBound(to: UInt32.self)
          for i in 0..<outWidth {
            var l: UInt32 = 0
            var h: UInt32 = 0
            for x in i * factor..<(i + 1) * factor {
              l &+= low[x]
              h &+= high[x]
            }
            func mean(_ sum: UInt32) -> UInt32 { UInt32(((UInt64(sum) + half) &* reciprocal) >> 32) }
            out[i] = mean(l & 0xFFFF) | mean(h & 0xFFFF) << 8 | mean(l >> 16) << 16 | mean(h >> 16) << 24
          }
        }
      }
    }
    return copy
  }

  /// The image painted over a solid colour: an opaque copy.
  ///
  /// - Throws: A ``CairoError`` if cairo cannot make the copy.
  public func flattened(over red: Double, _ green: Double, _ blue: Double) throws -> ImageSurface {
    let copy = try ImageSurface(width: width, height: height)
    let context = try Context(copy)
    context.setSource(red: red, green: green, blue: blue)
    context.paint()
    cairo_set_source_surface(context.pointer, pointer, 0, 0)
    cairo_paint(context.pointer)
    try context.checkStatus()
    return copy
  }
}
