#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// An image as straight (non-premultiplied) 8-bit RGBA pixels, row-major from the top-left corner.
///
/// This is the one pixel format Waterflow compares, decodes into and encodes from. Cairo's own
/// premultiplied, native-endian ARGB32 is converted to it once, in `RGBAImage(surface:)`.
public struct RGBAImage: Hashable, Sendable {
  /// The width in pixels.
  public let width: Int
  /// The height in pixels.
  public let height: Int
  /// `width × height × 4` bytes: R, G, B, A for each pixel.
  public var pixels: [UInt8]

  /// Creates an image from its pixels; `pixels.count` must be `width × height × 4`.
  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(width >= 0 && height >= 0, "image size must not be negative")
    precondition(
      pixels.count == width * height * 4,
      "pixel count must be width × height × 4")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// Creates an image filled with one colour.
  public init(
    width: Int, height: Int, filledWith rgba: (UInt8, UInt8, UInt8, UInt8)
  ) {
    precondition(width >= 0 && height >= 0, "image size must not be negative")
    // A word a pixel: byte by byte this was 5 % of a check whose failures each draw a grey
    // three-panel image.
    let word = UInt32(rgba.0) | UInt32(rgba.1) << 8 | UInt32(rgba.2) << 16 | UInt32(rgba.3) << 24
    let count = width * height
    let pixels = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
      if count > 0 {
        let raw = UnsafeMutableRawPointer(buffer.baseAddress!)
        let four = SIMD4<UInt32>(repeating: word.littleEndian)
        var i = 0
        while i + 4 <= count {
          raw.storeBytes(of: four, toByteOffset: 4 * i, as: SIMD4<UInt32>.self)
          i += 4
        }
        while i < count {
          raw.storeBytes(of: word.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
          i += 1
        }
      }
      initialized = count * 4
    }
    self.init(width: width, height: height, pixels: pixels)
  }
}

extension RGBAImage {
  /// Whether two images have the same size and the same pixels.
  ///
  /// One `memcmp` of the pixel bytes: the comparison Swift would synthesize walks the array a
  /// byte at a time, which was a sixth of a `golden record` whose goldens were unchanged (it
  /// compares each new render with the file on disk before deciding not to write it).
  ///
  /// - Complexity: O(*n*) for *n* pixels.
  public static func == (lhs: RGBAImage, rhs: RGBAImage) -> Bool {
    guard lhs.width == rhs.width, lhs.height == rhs.height else { return false }
    return lhs.pixels.withUnsafeBytes { a in
      rhs.pixels.withUnsafeBytes { b in
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
      }
    }
  }
}
