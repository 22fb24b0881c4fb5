package import Cairo

extension RGBAImage {
  /// Converts a surface's premultiplied, native-endian ARGB pixels to straight RGBA.
  ///
  /// Rounds as cairo's PNG writer does, `(c × 255 + a / 2) / a`, so this equals decoding the
  /// PNG cairo would write. Fully transparent pixels become 0, 0, 0, 0.
  ///
  /// - Parameter surface: The surface to read.
  package init(surface: ImageSurface) {
    let width = surface.width
    let height = surface.height
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) {
      out, count in
      surface.withUnsafePixels { buffer, stride in
        for y in 0..<height {
          let row = (buffer.baseAddress! + y * stride).assumingMemoryBound(
            to: UInt32.self)
          unpremultiplyRow(
            row, width: width, into: out.baseAddress! + y * width * 4)
        }
      }
      count = width * height * 4
    }
    self.init(width: width, height: height, pixels: pixels)
  }
}
