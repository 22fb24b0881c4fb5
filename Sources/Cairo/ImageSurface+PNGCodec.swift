package import PNGCodec

// Surfaces to PNG files and to `RGBAImage`s, with Waterflow's codec. Here, in the wrapper, so that
// the codec itself never loads cairo (`waterflow diff` decodes, compares and encodes without it);
// `package`, so that no Cairo type enters PNGCodec's public API: library users encode
// `RGBAImage`s.

extension ImageSurface {
  /// Encodes the surface as a PNG file, with Waterflow's fast encoder.
  ///
  /// Opaque surfaces become RGB files; others RGBA with straight alpha. The bytes depend only
  /// on the pixels and the compression level.
  ///
  /// - Parameter compression: How hard to compress; `.default` suits rendered frames.
  /// - Returns: The bytes of a PNG file.
  package func pngData(compression: PNGCompression = .default) -> [UInt8] {
    withPooledEncoder(compression) { $0.encode(self) }
  }

  /// Encodes the surface as PNG in one piece on the calling thread only, for callers that already
  /// run one encode per core. The pixels equal ``pngData(compression:)``'s; the bytes differ.
  package func pngDataOnThisThread(compression: PNGCompression = .default) -> [UInt8] {
    withPooledEncoder(compression) { $0.encode(self, concurrently: false) }
  }
}

extension PNGEncoder {
  /// Encodes a surface as PNG.
  ///
  /// - Parameters:
  ///   - surface: The surface; its premultiplied pixels are un-premultiplied.
  ///   - concurrently: Whether a big image is cut in two bands compressed on two cores. Callers
  ///     that already keep every core busy (frame sequences) pass `false` and get one band: other
  ///     bytes (slightly smaller), the same pixels, and the same bytes on every run.
  /// - Returns: The bytes of a PNG file.
  package func encode(_ surface: ImageSurface, concurrently: Bool = true) -> [UInt8] {
    surface.withUnsafePixels { buffer, stride in
      encode(
        premultiplied: buffer.baseAddress!, width: surface.width, height: surface.height,
        stride: stride, concurrently: concurrently)
    }
  }
}

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
