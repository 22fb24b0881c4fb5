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
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    var i = 0
    while i < pixels.count {
      pixels[i] = rgba.0
      pixels[i + 1] = rgba.1
      pixels[i + 2] = rgba.2
      pixels[i + 3] = rgba.3
      i += 4
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
