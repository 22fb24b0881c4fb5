internal import CCairo
internal import Foundation

/// The image formats ``ImageSurface/init(contentsOfImageFile:covering:)`` reads.
public enum ImageFileFormat: String, Sendable, CaseIterable {
  case png = "PNG"
  case jpeg = "JPEG"
  case webp = "WebP"

  /// The format of a file's first bytes, or nil with the name of what they are instead.
  ///
  /// The content decides, never the extension: product photos are often JPEGs named `.png`.
  static func sniff(_ head: [UInt8]) -> (format: ImageFileFormat?, name: String) {
    func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
      head.count >= offset + signature.count
        && Array(head[offset..<(offset + signature.count)]) == signature
    }
    let ascii = { (text: String) in Array(text.utf8) }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return (.png, "PNG") }
    if starts([0xFF, 0xD8, 0xFF]) { return (.jpeg, "JPEG") }
    if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) { return (.webp, "WebP") }
    if starts(ascii("GIF8")) { return (nil, "GIF") }
    if starts(ascii("BM")) { return (nil, "BMP") }
    if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return (nil, "TIFF") }
    if starts(ascii("ftypavif"), at: 4) { return (nil, "AVIF") }
    if starts(ascii("ftyphei"), at: 4) || starts(ascii("ftypmif1"), at: 4) { return (nil, "HEIF") }
    if starts(ascii("%PDF")) { return (nil, "PDF") }
    if starts(ascii("<")) || starts([0xEF, 0xBB, 0xBF, 0x3C]) { return (nil, "SVG or other XML/HTML") }
    return (nil, "unknown")
  }
}

extension ImageSurface {
  /// The most pixels an image file may declare: 64 megapixels, above a 48-megapixel phone
  /// camera's 8064 × 6048. A file is refused before any pixel is allocated, so a few hundred
  /// bytes that claim 30000 × 30000 cannot take gigabytes.
  public static let maximumImagePixels = 64_000_000

  /// Reads a PNG, JPEG (libjpeg-turbo) or WebP (libwebp) file, chosen by its content, into a
  /// new ARGB32 surface.
  ///
  /// - Parameters:
  ///   - path: The path of the image file.
  ///   - covering: The smallest size, in pixels, the image is drawn at: a JPEG is then decoded
  ///     at the smallest of libjpeg-turbo's scales (1/8, 2/8 … 8/8) that still covers it, and a
  ///     WebP scaled by libwebp as it decodes, so a 6000 × 4000 photo in a small cell never
  ///     takes 96 MB. Nil decodes every pixel. PNGs are always decoded whole.
  /// - Throws: A ``GraphicsError`` naming the file: `.fileNotReadable` if it is missing or
  ///   unreadable, `.unsupportedImage` (naming the format) for anything but PNG, JPEG and WebP,
  ///   `.imageTooLarge` (with its declared size and the limit) above ``maximumImagePixels``,
  ///   `.invalidPNG` or `.invalidImage` if it cannot be decoded.
  public convenience init(contentsOfImageFile path: String, covering: (width: Int, height: Int)? = nil) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      let reason =
        FileManager.default.fileExists(atPath: path) ? "is not readable" : "does not exist"
      throw GraphicsError(.fileNotReadable, path: path, "The image file '\(path)' \(reason).")
    }
    let bytes = [UInt8](data)
    let (format, name) = ImageFileFormat.sniff(Array(bytes.prefix(16)))
    if format != nil, let size = ImageFileFormat.pixelSize(of: bytes) {
      try Self.checkPixelCount(size, path: path)
    }
    switch format {
    case .png: try self.init(contentsOfPNGFile: path)
    case .jpeg: try self.init(jpeg: bytes, path: path, covering: covering)
    case .webp: try self.init(webp: bytes, path: path, covering: covering)
    case nil:
      throw GraphicsError(
        .unsupportedImage, path: path,
        "The file '\(path)' is \(name == "unknown" ? "in an unknown format" : "a \(name) image"): images must be PNG, JPEG or WebP."
      )
    }
  }

  /// Refuses a declared size above the limit, naming the file, the size and the limit.
  static func checkPixelCount(_ size: (width: Int, height: Int), path: String) throws(GraphicsError) {
    let (w, h) = size
    guard w > 0, h > 0 else { return }
    // Compared by division: a forged header's product could overflow.
    guard w <= maximumImagePixels / h else {
      let megapixels = String(format: "%.1f", Double(w) * Double(h) / 1e6)
      throw GraphicsError(
        .imageTooLarge, path: path,
        "The image '\(path)' declares \(w)×\(h) pixels (\(megapixels) megapixels), more than the limit of \(maximumImagePixels / 1_000_000) megapixels; resize it before using it.")
    }
  }

  private convenience init(jpeg bytes: [UInt8], path: String, covering: (width: Int, height: Int)?) throws {
    func failure(_ reason: String) -> GraphicsError {
      GraphicsError(
        .invalidImage, path: path, "The file '\(path)' could not be read as a JPEG image: \(reason).")
    }
    guard let handle = tjInitDecompress() else { throw failure("libjpeg-turbo did not start") }
    defer { tjDestroy(handle) }
    guard let (fullWidth, fullHeight) = jpegSize(bytes, handle: handle) else {
      throw failure(String(cString: tjGetErrorStr2(handle)))
    }
    let (width, height) = Self.jpegDecodeSize(
      width: fullWidth, height: fullHeight, covering: covering)
    try self.init(width: Int(width), height: Int(height))
    // Cairo's ARGB32 is a native-endian word: B, G, R, A in memory on little-endian machines.
    // libjpeg-turbo fills the alpha byte with 0xFF, so the pixels are already premultiplied.
    #if _endian(little)
      let layout = TJPF_BGRA
    #else
      let layout = TJPF_ARGB
    #endif
    // tjDecompress2 picks the scale whose size matches the width and height given.
    let status = withUnsafeMutablePixels { buffer, stride in
      tjDecompress2(
        handle, bytes, UInt(bytes.count), buffer.baseAddress!.assumingMemoryBound(to: UInt8.self),
        width, Int32(stride), height, layout.rawValue, TJFLAG_ACCURATEDCT)
    }
    guard status == 0 else { throw failure(String(cString: tjGetErrorStr2(handle))) }
  }

  /// The size a JPEG is decoded at: the smallest libjpeg-turbo scale of at most 1 whose size
  /// covers `covering`, or the full size.
  static func jpegDecodeSize(width: Int32, height: Int32, covering: (width: Int, height: Int)?)
    -> (Int32, Int32)
  {
    guard let covering, covering.width > 0, covering.height > 0 else { return (width, height) }
    var count: Int32 = 0
    guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
    var best = (width, height)
    for i in 0..<Int(count) {
      let f = factors[i]
      guard f.num <= f.denom else { continue }
      // TJSCALED: the dimension times the factor, rounded up.
      let w = Int32((Int(width) * Int(f.num) + Int(f.denom) - 1) / Int(f.denom))
      let h = Int32((Int(height) * Int(f.num) + Int(f.denom) - 1) / Int(f.denom))
      if Int(w) >= covering.width, Int(h) >= covering.height, Int(w) * Int(h) < Int(best.0) * Int(best.1) {
        best = (w, h)
      }
    }
    return best
  }

  /// The size a WebP is decoded at: the smallest size of at most its own that covers
  /// `covering`, keeping its aspect ratio, or the full size.
  static func webpDecodeSize(width: Int, height: Int, covering: (width: Int, height: Int)?)
    -> (width: Int, height: Int)
  {
    guard let covering, covering.width > 0, covering.height > 0, width > 0, height > 0 else {
      return (width, height)
    }
    let s = max(Double(covering.width) / Double(width), Double(covering.height) / Double(height))
    guard s < 1 else { return (width, height) }
    return (
      min(width, max(1, Int((Double(width) * s).rounded(.up)))),
      min(height, max(1, Int((Double(height) * s).rounded(.up))))
    )
  }

  private convenience init(webp bytes: [UInt8], path: String, covering: (width: Int, height: Int)?) throws {
    func failure(_ reason: String) -> GraphicsError {
      GraphicsError(
        .invalidImage, path: path, "The file '\(path)' could not be read as a WebP image: \(reason).")
    }
    var config = WebPDecoderConfig()
    guard WebPInitDecoderConfig(&config) != 0 else { throw failure("libwebp did not start") }
    guard WebPGetFeatures(bytes, bytes.count, &config.input) == VP8_STATUS_OK else {
      throw failure("its header is not valid")
    }
    guard config.input.has_animation == 0 else {
      throw GraphicsError(
        .unsupportedImage, path: path,
        "The file '\(path)' is an animated WebP image: images must be still PNG, JPEG or WebP.")
    }
    let fullWidth = Int(config.input.width)
    let fullHeight = Int(config.input.height)
    let (width, height) = Self.webpDecodeSize(width: fullWidth, height: fullHeight, covering: covering)
    if width != fullWidth || height != fullHeight {
      config.options.use_scaling = 1
      config.options.scaled_width = Int32(width)
      config.options.scaled_height = Int32(height)
    }
    try self.init(width: width, height: height)
    let hasAlpha = config.input.has_alpha != 0
    let decoded = withUnsafeMutablePixels { buffer, stride -> Bool in
      let out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
      #if _endian(little)
        config.output.colorspace = MODE_BGRA
      #else
        config.output.colorspace = MODE_ARGB
      #endif
      config.output.is_external_memory = 1
      config.output.u.RGBA.rgba = out
      config.output.u.RGBA.stride = Int32(stride)
      config.output.u.RGBA.size = buffer.count
      guard WebPDecode(bytes, bytes.count, &config) == VP8_STATUS_OK else { return false }
      WebPFreeDecBuffer(&config.output)
      // libwebp gives straight alpha; cairo wants each colour multiplied by it.
      if hasAlpha {
        for y in 0..<height {
          let row = out + y * stride
          for x in 0..<width {
            let p = row + 4 * x
            #if _endian(little)
              let a = UInt16(p[3])
              for c in 0..<3 { p[c] = UInt8((UInt16(p[c]) * a + 127) / 255) }
            #else
              let a = UInt16(p[0])
              for c in 1..<4 { p[c] = UInt8((UInt16(p[c]) * a + 127) / 255) }
            #endif
          }
        }
      }
      return true
    }
    guard decoded else { throw failure("libwebp could not decode it") }
  }
}

/// What an image file's header declares: its format and pixel size.
///
/// It also says the size the file is decoded at for a request, so that a cache of decoded
/// images can key on that size: a pure function of the file and the request, never of what was
/// decoded before.
public struct ImageFileHeader: Hashable, Sendable {
  /// The format, from the file's content.
  public var format: ImageFileFormat
  /// The width in pixels the header declares.
  public var width: Int
  /// The height in pixels the header declares.
  public var height: Int

  /// The header of an image file; nil when the file is missing or not a PNG, JPEG or WebP image.
  ///
  /// - Complexity: O(file size) to read it; the header itself is parsed in O(1).
  public init?(ofFile path: String) {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let bytes = [UInt8](data)
    guard let format = ImageFileFormat.sniff(Array(bytes.prefix(16))).format,
      let size = ImageFileFormat.pixelSize(of: bytes)
    else { return nil }
    self.init(format: format, width: size.width, height: size.height)
  }

  /// A header of a format and size.
  public init(format: ImageFileFormat, width: Int, height: Int) {
    self.format = format
    self.width = width
    self.height = height
  }

  /// The pixel size ``ImageSurface/init(contentsOfImageFile:covering:)`` decodes this file at
  /// for a request: a JPEG at the smallest of libjpeg-turbo's scales that covers it, a WebP at
  /// the smallest size that covers it, a PNG whole.
  ///
  /// - Complexity: O(1).
  public func decodedSize(covering: (width: Int, height: Int)?) -> (width: Int, height: Int) {
    switch format {
    case .png: return (width, height)
    case .jpeg:
      guard let w = Int32(exactly: width), let h = Int32(exactly: height) else { return (width, height) }
      let (dw, dh) = ImageSurface.jpegDecodeSize(width: w, height: h, covering: covering)
      return (Int(dw), Int(dh))
    case .webp: return ImageSurface.webpDecodeSize(width: width, height: height, covering: covering)
    }
  }
}

extension ImageFileFormat {
  /// The pixel size an image file declares in its header, without decoding its pixels; nil when
  /// the file is missing or not a PNG, JPEG or WebP image.
  ///
  /// Templates size an image element by the file's own aspect ratio when the data gives none,
  /// for every item at layout time: decoding each photo just for its size would cost far more.
  ///
  /// - Complexity: O(file size) to read it; the header itself is parsed in O(1).
  public static func pixelSize(ofFile path: String) -> (width: Int, height: Int)? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return pixelSize(of: [UInt8](data))
  }

  /// The pixel size an image's bytes declare in their header; nil when they are not a PNG,
  /// JPEG or WebP image or the header is broken.
  static func pixelSize(of bytes: [UInt8]) -> (width: Int, height: Int)? {
    switch sniff(Array(bytes.prefix(16))).format {
    case .png:
      // The IHDR chunk comes first: width and height as big-endian words at bytes 16 and 20.
      guard bytes.count >= 24 else { return nil }
      func word(_ at: Int) -> Int {
        bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
      }
      return (word(16), word(20))
    case .jpeg:
      guard let handle = tjInitDecompress() else { return nil }
      defer { tjDestroy(handle) }
      return jpegSize(bytes, handle: handle).map { (Int($0.0), Int($0.1)) }
    case .webp:
      var width: Int32 = 0
      var height: Int32 = 0
      guard WebPGetInfo(bytes, bytes.count, &width, &height) != 0 else { return nil }
      return (Int(width), Int(height))
    case nil:
      return nil
    }
  }
}

/// The size a JPEG's header declares, read with a TurboJPEG decompressor; nil when it is broken
/// (`tjGetErrorStr2(handle)` says why).
private func jpegSize(_ bytes: [UInt8], handle: tjhandle) -> (Int32, Int32)? {
  var width: Int32 = 0
  var height: Int32 = 0
  var subsampling: Int32 = 0
  var colorspace: Int32 = 0
  guard
    tjDecompressHeader3(
      handle, bytes, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0
  else { return nil }
  return (width, height)
}
