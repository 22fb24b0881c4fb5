// PNG decoding into straight RGBA, exactly as the file stores it.
//
// Why our own decoder on top of libdeflate rather than libpng:
// - libpng's classic API reports errors by `longjmp` out of the error callback, and libpng requires
//   that callback never to return. Swift cannot `setjmp`, and unwinding through Swift frames with
//   `longjmp` is undefined, so a corrupt file would have to abort the process.
// - libpng's simplified API (`png_image_*`) has no longjmp problem, but it converts to sRGB using
//   gAMA/cHRM/iCCP when it thinks the file gamma is not sRGB, and composites over bKGD on request.
//   Golden images must compare the bytes that were written, as pixelmatch's pngjs does
//   (oracle README §2: gamma-correcting 8a changes the counts).
// What is left is small: chunk walking with CRC checks, one zlib inflate (libdeflate verifies
// Adler-32), filter reconstruction, Adam7 scattering and sample expansion. Ancillary chunks other
// than tRNS are ignored by design.

internal import PNGKernels

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// An error that explains why a PNG file could not be decoded.
///
/// The description names the file (when there is one) and the reason, for example
/// `"Cannot decode PNG 'a.png': not a PNG file (bad signature)"`.
public struct PNGDecodingError: Error, Hashable, Sendable,
  CustomStringConvertible
{
  /// The kind of failure; more kinds may be added.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let rawValue: String

    /// The file could not be opened or read.
    public static let unreadable = Code(rawValue: "unreadable")
    /// The data does not start with the PNG signature.
    public static let notPNG = Code(rawValue: "notPNG")
    /// The data is a PNG, but damaged: bad CRC, truncated, bad zlib stream, bad filter, and so on.
    public static let corrupt = Code(rawValue: "corrupt")
    /// The data is a valid PNG that uses a feature this decoder does not implement.
    public static let unsupported = Code(rawValue: "unsupported")

    /// The kind's name, for example `corrupt`.
    public var description: String { rawValue }
  }

  /// What went wrong.
  public let code: Code
  /// The file being decoded, or nil when decoding bytes from memory.
  public let path: String?
  /// A human-readable reason, without the file name.
  public let reason: String

  /// The file name and the reason, for example `Cannot decode PNG 'a.png': no IDAT chunk`.
  public var description: String {
    "Cannot decode PNG\(path.map { " '\($0)'" } ?? ""): \(reason)"
  }
}

extension RGBAImage {
  /// Decodes a PNG file into straight 8-bit RGBA, ignoring gamma, colour profiles and background.
  ///
  /// Supports every colour type (grey, RGB, palette, grey+alpha, RGBA), every bit depth
  /// (1, 2, 4, 8, 16) and Adam7 interlacing. tRNS is applied; gAMA, sRGB, iCCP, cHRM and bKGD are
  /// ignored, so the pixels are the stored samples, as pngjs (and so pixelmatch) reads them.
  /// 16-bit samples are scaled to 8 bits with rounding, `round(v × 255 / 65535)`, as pngjs does;
  /// 1-, 2- and 4-bit grey is scaled to the full 0...255 range.
  ///
  /// ```swift
  /// let image = try RGBAImage(contentsOfPNGFile: "Golden/Layout/3-columns.png")
  /// ```
  ///
  /// - Parameter path: The file to read.
  /// - Throws: `PNGDecodingError` naming `path`: `.unreadable` (missing file, permission),
  ///   `.notPNG`, `.corrupt` or `.unsupported`.
  public init(contentsOfPNGFile path: String) throws(PNGDecodingError) {
    let bytes: [UInt8]
    do {
      bytes = try readWholeFile(path)
    } catch {
      throw PNGDecodingError(
        code: .unreadable, path: path, reason: error.reason)
    }
    do {
      self = try bytes.withUnsafeBufferPointer { buffer throws(DecodeFailure) in
        try decodePNG(buffer)
      }
    } catch {
      throw PNGDecodingError(code: error.code, path: path, reason: error.reason)
    }
  }

  /// Decodes PNG data held in memory into straight 8-bit RGBA; see `init(contentsOfPNGFile:)`.
  ///
  /// - Parameter pngData: The complete PNG file contents.
  /// - Throws: `PNGDecodingError` with a nil `path`: `.notPNG`, `.corrupt` or `.unsupported`.
  public init(pngData: [UInt8]) throws(PNGDecodingError) {
    do {
      self = try pngData.withUnsafeBufferPointer {
        buffer throws(DecodeFailure) in
        try decodePNG(buffer)
      }
    } catch {
      throw PNGDecodingError(code: error.code, path: nil, reason: error.reason)
    }
  }
}

// MARK: - Internals

/// The internal failure, turned into a `PNGDecodingError` once the caller adds the path.
struct DecodeFailure: Error {
  var code: PNGDecodingError.Code
  var reason: String

  static func corrupt(_ reason: String) -> DecodeFailure {
    .init(code: .corrupt, reason: reason)
  }
  static func unsupported(_ reason: String) -> DecodeFailure {
    .init(code: .unsupported, reason: reason)
  }
}

private struct ReadFailure: Error {
  var reason: String
}

private func readWholeFile(_ path: String) throws(ReadFailure) -> [UInt8] {
  guard let file = fopen(path, "rb") else {
    throw ReadFailure(reason: String(cString: strerror(errno)))
  }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var status = stat()
  if fstat(fileno(file), &status) == 0, status.st_size > 0 {
    bytes.reserveCapacity(Int(status.st_size))
  }
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes {
      fread($0.baseAddress, 1, $0.count, file)
    }
    if count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
    if count < chunk.count {
      // A directory opens fine on Linux; the read then fails with EISDIR.
      if ferror(file) != 0 {
        throw ReadFailure(reason: String(cString: strerror(errno)))
      }
      break
    }
  }
  return bytes
}

private let pngSignature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

private struct Header {
  var width: Int
  var height: Int
  var bitDepth: Int
  var colorType: Int
  var interlaced: Bool

  /// Samples per pixel for the colour type.
  var channels: Int {
    switch colorType {
    case 0, 3: 1
    case 2: 3
    case 4: 2
    default: 4
    }
  }
  /// Filter stride: bytes per complete pixel, at least 1.
  var filterStride: Int { max(1, channels * bitDepth / 8) }
  func rowBytes(width: Int) -> Int { (width * channels * bitDepth + 7) / 8 }
}

/// Adam7 passes as (x0, y0, dx, dy); a non-interlaced image is the single pass (0, 0, 1, 1).
private let adam7: [(Int, Int, Int, Int)] = [
  (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4),
  (1, 0, 2, 2), (0, 1, 1, 2),
]

private func readUInt32(_ p: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
  UInt32(p[at]) << 24 | UInt32(p[at + 1]) << 16 | UInt32(p[at + 2]) << 8
    | UInt32(p[at + 3])
}

private func fourCC(_ p: UnsafeBufferPointer<UInt8>, _ at: Int) -> String {
  String(decoding: p[at..<at + 4], as: UTF8.self)
}

private func decodePNG(_ data: UnsafeBufferPointer<UInt8>) throws(DecodeFailure)
  -> RGBAImage
{
  guard data.count >= 8, data.prefix(8).elementsEqual(pngSignature) else {
    throw DecodeFailure(code: .notPNG, reason: "not a PNG file (bad signature)")
  }

  var header: Header?
  var palette: [UInt8] = []  // RGB triples
  var transparency: [UInt8] = []
  var compressed: [UInt8] = []
  var sawIEND = false
  var offset = 8
  while offset < data.count {
    guard data.count - offset >= 12 else {
      throw .corrupt("truncated chunk at byte \(offset)")
    }
    let length = Int(readUInt32(data, offset))
    guard length <= 0x7FFF_FFFF, length <= data.count - offset - 12 else {
      throw .corrupt(
        "truncated chunk '\(fourCC(data, offset + 4))' at byte \(offset)")
    }
    let type = fourCC(data, offset + 4)
    let body = UnsafeBufferPointer(
      rebasing: data[offset + 8..<offset + 8 + length])
    let storedCRC = readUInt32(data, offset + 8 + length)
    let crc = UInt32(
      crc32(0, data.baseAddress! + offset + 4, count: length + 4))
    guard crc == storedCRC else {
      throw .corrupt("CRC mismatch in chunk '\(type)'")
    }
    offset += 12 + length

    if header == nil && type != "IHDR" {
      throw .corrupt("first chunk is '\(type)', not 'IHDR'")
    }
    switch type {
    case "IHDR":
      guard header == nil else { throw .corrupt("more than one IHDR chunk") }
      header = try parseHeader(body)
    case "PLTE":
      guard length % 3 == 0, length > 0, length <= 768 else {
        throw .corrupt(
          "PLTE length \(length) is not 3 to 768 bytes in steps of 3")
      }
      palette = Array(body)
    case "tRNS":
      transparency = Array(body)
    case "IDAT":
      compressed.append(contentsOf: body)
    case "IEND":
      sawIEND = true
    default:
      // Bit 5 of the first letter clear (upper case) marks a critical chunk we must understand.
      if let first = type.utf8.first, first & 0x20 == 0 {
        throw .unsupported("unknown critical chunk '\(type)'")
      }
    }
    if sawIEND { break }
  }
  guard let header else { throw .corrupt("no IHDR chunk") }
  guard !compressed.isEmpty else { throw .corrupt("no IDAT chunk") }
  if header.colorType == 3 && palette.isEmpty {
    throw .corrupt("palette image without PLTE")
  }

  let passes = header.interlaced ? adam7 : [(0, 0, 1, 1)]
  var expected = 0
  for (x0, y0, dx, dy) in passes {
    let w = (header.width - x0 + dx - 1) / dx
    let h = (header.height - y0 + dy - 1) / dy
    if w > 0 && h > 0 { expected += h * (1 + header.rowBytes(width: w)) }
  }
  // DEFLATE inflates at most 1032-fold (a 258-byte match per two bits), so IDAT data this short
  // cannot fill the image: refuse it before allocating what IHDR claims. A 91-byte file that
  // says 134217730×2 pixels would otherwise take 2 GB (found by make fuzz).
  guard expected <= compressed.count * 1032 else {
    throw .corrupt(
      "\(compressed.count) bytes of image data cannot hold the \(expected) bytes that IHDR's "
        + "\(header.width)×\(header.height) pixels need (truncated)")
  }
  if !header.interlaced && header.bitDepth == 8
    && (header.colorType == 6 || (header.colorType == 2 && transparency.isEmpty))
  {
    return try decodeRGBOrRGBA8(
      compressed, header: header, inflatedCount: expected)
  }
  var raw = [UInt8](repeating: 0, count: expected)
  try inflate(compressed, into: &raw)

  let pixelCount = header.width * header.height
  let converter = try SampleConverter(
    header: header, palette: palette, transparency: transparency)
  let pixels = try [UInt8](unsafeUninitializedCapacity: pixelCount * 4) {
    (out, initialized) throws(DecodeFailure) in
    // Interlaced images are scattered pass by pass, so start from a defined state.
    if header.interlaced { out.initialize(repeating: 0) }
    try raw.withUnsafeMutableBufferPointer { raw throws(DecodeFailure) in
      var passStart = 0
      for (x0, y0, dx, dy) in passes {
        let w = (header.width - x0 + dx - 1) / dx
        let h = (header.height - y0 + dy - 1) / dy
        guard w > 0 && h > 0 else { continue }
        let rowBytes = header.rowBytes(width: w)
        try unfilter(
          raw.baseAddress! + passStart, rows: h, rowBytes: rowBytes,
          stride: header.filterStride)
        for row in 0..<h {
          let source = raw.baseAddress! + passStart + row * (rowBytes + 1) + 1
          let y = y0 + row * dy
          let destination = out.baseAddress! + (y * header.width + x0) * 4
          try converter.convert(
            row: source, count: w, into: destination, pixelStep: dx * 4)
        }
        passStart += h * (rowBytes + 1)
      }
    }
    initialized = pixelCount * 4
  }
  return RGBAImage(width: header.width, height: header.height, pixels: pixels)
}

/// Decodes the two layouts screenshots use, 8-bit RGBA and 8-bit RGB without tRNS, in the one
/// buffer the pixels end in.
///
/// The rows are inflated into the tail of the pixel array, unfiltered there, then moved (RGBA)
/// or widened to RGBA (RGB) towards the front, row by row: a second
/// full-size buffer and a zero-fill of either would cost more than the unfiltering (a 1500×2668
/// RGB file: 12 MB inflated, 16 MB of pixels, 28 MB before, 16 MB now).
/// Widening forward never overtakes the bytes still to be read: row `y`, pixel `x` is written
/// at `4(wy + x)` and read from `(w − 1)h + (3w + 1)y + 1 + 3x`, which is never smaller when
/// `y < h` and `x < w`.
private func decodeRGBOrRGBA8(
  _ compressed: [UInt8], header: Header, inflatedCount: Int
) throws(DecodeFailure) -> RGBAImage {
  let width = header.width
  let height = header.height
  let count = width * height * 4
  let channels = header.channels
  let rowBytes = width * channels
  // RGBA rows inflate to one byte more per row than the pixels take: they start at the front and
  // are compacted; RGB rows take less, and sit at the back.
  let capacity = max(count, inflatedCount)
  let offset = capacity - inflatedCount
  var failure: DecodeFailure?
  let pixels = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
    let base = buffer.baseAddress!
    adviseHugePages(base, count: capacity)
    do throws(DecodeFailure) {
      try inflate(
        compressed,
        into: UnsafeMutableRawBufferPointer(start: base + offset, count: inflatedCount))
      // Row by row, while the row is in cache: row y + 1 is unfiltered first, as it needs row
      // y's bytes where they were inflated, which moving row y may overwrite.
      // Four Paeth rows in a row are unfiltered together with the vector unit (kernels.h's
      // waterflow_paeth_rgb_quad: photos are mostly Paeth rows, and four chains side by side took
      // a golden check of 200 goldens at scale 2 from 0.700 to 0.632 s), two together otherwise
      // (`paethRGBPair`).
      let line = { (y: Int) in base + offset + y * (rowBytes + 1) }
      try unfilterRow(line(0), previous: nil, rowBytes: rowBytes, stride: channels, row: 0)
      var unfiltered = 1
      for row in 0..<height {
        if unfiltered == row + 1, unfiltered < height {
          let next = unfiltered
          if channels == 3, next + 3 < height, line(next)[0] == 4, line(next + 1)[0] == 4,
            line(next + 2)[0] == 4, line(next + 3)[0] == 4,
            VectorRowFilter.unfilterPaethRGBRows(
              (line(next) + 1, line(next + 1) + 1, line(next + 2) + 1, line(next + 3) + 1),
              above: line(next - 1) + 1, pixels: width)
          {
            unfiltered += 4
          } else if channels == 3, width >= 3, next + 1 < height, line(next)[0] == 4,
            line(next + 1)[0] == 4
          {
            paethRGBPair(
              upper: line(next) + 1, lower: line(next + 1) + 1, above: line(next - 1) + 1,
              pixels: width)
            unfiltered += 2
          } else {
            try unfilterRow(
              line(next), previous: line(next - 1) + 1, rowBytes: rowBytes, stride: channels,
              row: next)
            unfiltered += 1
          }
        }
        let destination = base + row * width * 4
        if channels == 4 {
          memmove(destination, line(row) + 1, rowBytes)
        } else {
          widenRGBRow(line(row) + 1, into: destination, count: width)
        }
      }
      initialized = count
    } catch {
      failure = error
      initialized = 0
    }
  }
  if let failure { throw failure }
  return RGBAImage(width: width, height: height, pixels: pixels)
}

/// Asks for 2 MiB pages for the parts of a big, fresh buffer they fit in, before it is written.
///
/// Why: each 4 KiB page of a new buffer is a fault, charged and listed one by one; the kernel work
/// for the ~2,000 pages two 750×1334 images take was a tenth of `waterflow diff`'s time. The
/// encoder does the same for its rows (PNGEncoder.filteredRows). The pages are written whole, so
/// the resident size is the same.
private func adviseHugePages(_ base: UnsafeMutablePointer<UInt8>, count: Int) {
  #if os(Linux)
    guard count >= 1 << 21 else { return }
    let page = UInt(getpagesize())
    let start = UInt(bitPattern: base) & ~(page - 1)
    let end = UInt(bitPattern: base) + UInt(count)
    _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), MADV_HUGEPAGE)
  #endif
}

/// Widens `count` RGB pixels to opaque RGBA; `destination` may overlap `source` from below
/// (see `decodeRGBOrRGBA8`), so each group is read whole before it is written.
@inline(__always)
private func widenRGBRow(
  _ source: UnsafeMutablePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>,
  count: Int
) {
  let from = UnsafeRawPointer(source)
  let to = UnsafeMutableRawPointer(destination)
  // Sixteen pixels a step with the vector unit (the source starts `width` bytes or more past the
  // destination, see `decodeRGBOrRGBA8`), then four from three words: no per-byte loads or
  // stores in the common case. Word by word this loop was a twelfth of a `golden check`.
  var x = VectorRowFilter.widenRGBRow(source, width: count, into: destination)
  while x + 4 <= count {
    let w0 = UInt32(littleEndian: from.loadUnaligned(fromByteOffset: 3 * x, as: UInt32.self))
    let w1 = UInt32(littleEndian: from.loadUnaligned(fromByteOffset: 3 * x + 4, as: UInt32.self))
    let w2 = UInt32(littleEndian: from.loadUnaligned(fromByteOffset: 3 * x + 8, as: UInt32.self))
    let opaque: UInt32 = 0xFF00_0000
    let p0 = w0 | opaque
    let p1 = (w0 >> 24 | w1 << 8) | opaque
    let p2 = (w1 >> 16 | w2 << 16) | opaque
    let p3 = w2 >> 8 | opaque
    to.storeBytes(
      of: SIMD4<UInt32>(p0.littleEndian, p1.littleEndian, p2.littleEndian, p3.littleEndian),
      toByteOffset: 4 * x, as: SIMD4<UInt32>.self)
    x += 4
  }
  while x < count {
    let r = source[3 * x]
    let g = source[3 * x + 1]
    let b = source[3 * x + 2]
    destination[4 * x] = r
    destination[4 * x + 1] = g
    destination[4 * x + 2] = b
    destination[4 * x + 3] = 255
    x += 1
  }
}

private func parseHeader(_ body: UnsafeBufferPointer<UInt8>)
  throws(DecodeFailure) -> Header
{
  guard body.count == 13 else {
    throw .corrupt("IHDR is \(body.count) bytes, not 13")
  }
  let width = Int(readUInt32(body, 0))
  let height = Int(readUInt32(body, 4))
  let bitDepth = Int(body[8])
  let colorType = Int(body[9])
  guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF
  else {
    throw .corrupt("invalid size \(width)×\(height)")
  }
  // Refuse what would not fit in memory rather than trap on an allocation.
  guard width.multipliedReportingOverflow(by: height).partialValue <= 1 << 30,
    !width.multipliedReportingOverflow(by: height).overflow
  else { throw .unsupported("image of \(width)×\(height) pixels is too large") }
  let allowedDepths: [Int] =
    switch colorType {
    case 0: [1, 2, 4, 8, 16]
    case 3: [1, 2, 4, 8]
    case 2, 4, 6: [8, 16]
    default: []
    }
  guard !allowedDepths.isEmpty else {
    throw .corrupt("invalid colour type \(colorType)")
  }
  guard allowedDepths.contains(bitDepth) else {
    throw .corrupt(
      "bit depth \(bitDepth) is invalid for colour type \(colorType)")
  }
  guard body[10] == 0 else {
    throw .unsupported("compression method \(body[10])")
  }
  guard body[11] == 0 else { throw .unsupported("filter method \(body[11])") }
  guard body[12] <= 1 else {
    throw .unsupported("interlace method \(body[12])")
  }
  return Header(
    width: width, height: height, bitDepth: bitDepth, colorType: colorType,
    interlaced: body[12] == 1)
}

private func inflate(_ compressed: [UInt8], into raw: inout [UInt8])
  throws(DecodeFailure)
{
  var failure: DecodeFailure?
  raw.withUnsafeMutableBytes { output in
    do throws(DecodeFailure) {
      try inflate(compressed, into: output)
    } catch {
      failure = error
    }
  }
  if let failure { throw failure }
}

private func inflate(_ compressed: [UInt8], into raw: UnsafeMutableRawBufferPointer)
  throws(DecodeFailure)
{
  let result = compressed.withUnsafeBytes { input in
    zlibDecompress(input, into: raw)
  }
  switch result {
  case .success(let produced):
    guard produced == raw.count else {
      throw .corrupt(
        "image data is \(produced) bytes, IHDR needs \(raw.count) (truncated)")
    }
  case .tooLong:
    throw .corrupt("image data is longer than IHDR's size allows")
  case .corrupt:
    throw .corrupt("bad zlib stream in IDAT")
  }
}

/// Reverses the PNG row filters in place; each row is a filter-type byte followed by `rowBytes`.
private func unfilter(
  _ base: UnsafeMutablePointer<UInt8>, rows: Int, rowBytes: Int, stride bpp: Int
) throws(DecodeFailure) {
  var previous: UnsafeMutablePointer<UInt8>? = nil
  for row in 0..<rows {
    let line = base + row * (rowBytes + 1)
    try unfilterRow(line, previous: previous, rowBytes: rowBytes, stride: bpp, row: row)
    previous = line + 1
  }
}

/// Reverses the filter of one row, `line` (the filter-type byte, then `rowBytes`), given the
/// unfiltered row above (nil for the first row of a pass).
@inline(__always)
private func unfilterRow(
  _ line: UnsafeMutablePointer<UInt8>, previous: UnsafeMutablePointer<UInt8>?, rowBytes: Int,
  stride bpp: Int, row: Int
) throws(DecodeFailure) {
  let filter = line[0]
  let cur = line + 1
  switch (filter, previous) {
  case (0, _), (2, nil):
    break  // None; Up on the first row adds zero.
  case (1, _):
    for i in bpp..<max(bpp, rowBytes) { cur[i] &+= cur[i - bpp] }
  case (2, let prev?):
    upRow(cur, prev, count: rowBytes)
  case (3, nil):
    for i in bpp..<max(bpp, rowBytes) { cur[i] &+= cur[i - bpp] >> 1 }
  case (3, let prev?):
    for i in 0..<min(bpp, rowBytes) { cur[i] &+= prev[i] >> 1 }
    for i in bpp..<max(bpp, rowBytes) {
      cur[i] &+= UInt8((UInt16(cur[i - bpp]) + UInt16(prev[i])) >> 1)
    }
  case (4, nil):
    // Paeth with a zero row above reduces to Sub.
    for i in bpp..<max(bpp, rowBytes) { cur[i] &+= cur[i - bpp] }
  case (4, let prev?) where bpp == 4:
    paethRGBA(cur, prev, pixels: rowBytes / 4)
  case (4, let prev?) where bpp == 3:
    paethRGB(cur, prev, pixels: rowBytes / 3)
  case (4, let prev?):
    for i in 0..<min(bpp, rowBytes) { cur[i] &+= prev[i] }
    for i in bpp..<max(bpp, rowBytes) {
      cur[i] &+= paeth(cur[i - bpp], prev[i], prev[i - bpp])
    }
  default:
    throw .corrupt("unknown filter type \(filter) on row \(row)")
  }
}

/// Up: adds the row above, sixteen bytes at a time (the two rows never overlap, but the compiler
/// cannot know that and kept the byte loop).
@inline(__always)
private func upRow(
  _ cur: UnsafeMutablePointer<UInt8>, _ prev: UnsafeMutablePointer<UInt8>, count: Int
) {
  let row = UnsafeMutableRawPointer(cur)
  let above = UnsafeRawPointer(prev)
  var i = 0
  while i + 16 <= count {
    let sum =
      row.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
      &+ above.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
    row.storeBytes(of: sum, toByteOffset: i, as: SIMD16<UInt8>.self)
    i += 16
  }
  while i < count {
    cur[i] &+= prev[i]
    i += 1
  }
}

@inline(__always)
private func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
  // |p − a|, |p − b|, |p − c| for p = a + b − c, written so the selects compile to cmov.
  let pa = abs(Int(b) - Int(c))
  let pb = abs(Int(a) - Int(c))
  let pc = abs(Int(a) + Int(b) - 2 * Int(c))
  return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
}

/// Paeth for 8-bit RGBA rows, four channels at a time.
///
/// Paeth is the filter encoders pick most for screenshots, and its byte-serial dependency makes
/// the scalar loop the decoder's hot spot; the four channels of a pixel are independent.
private func paethRGBA(
  _ cur: UnsafeMutablePointer<UInt8>, _ prev: UnsafeMutablePointer<UInt8>,
  pixels: Int
) {
  let raw = UnsafeMutableRawPointer(cur)
  let above = UnsafeRawPointer(prev)
  var a = SIMD4<Int16>(repeating: 0)
  var c = SIMD4<Int16>(repeating: 0)
  for px in 0..<pixels {
    let b = SIMD4<Int16>(
      truncatingIfNeeded: above.loadUnaligned(
        fromByteOffset: px * 4, as: SIMD4<UInt8>.self))
    let x = SIMD4<Int16>(
      truncatingIfNeeded: raw.loadUnaligned(
        fromByteOffset: px * 4, as: SIMD4<UInt8>.self))
    let pa = simdAbs(b &- c)
    let pb = simdAbs(a &- c)
    let pc = simdAbs(a &+ b &- c &- c)
    var predictor = c
    predictor.replace(with: b, where: pb .<= pc)
    predictor.replace(with: a, where: (pa .<= pb) .& (pa .<= pc))
    let value = (x &+ predictor) & 0xFF
    raw.storeBytes(
      of: SIMD4<UInt8>(truncatingIfNeeded: value), toByteOffset: px * 4,
      as: SIMD4<UInt8>.self)
    a = value
    c = b
  }
}

/// Paeth for 8-bit RGB rows, as `paethRGBA` does it, four bytes a pixel.
///
/// Each store's fourth byte lands on the next pixel's first, still filtered: that pixel's bytes
/// are loaded before the store and the next store overwrites the byte, so all four lanes are
/// computed and stored whole. (Masking the fourth lane made the compiler split every load and
/// the Paeth selection into scalar pieces: no faster than byte by byte.) The last pixel, whose
/// fourth byte lies past the row, is loaded and stored byte by byte.
private func paethRGB(
  _ cur: UnsafeMutablePointer<UInt8>, _ prev: UnsafeMutablePointer<UInt8>,
  pixels: Int
) {
  guard pixels > 1 else {
    for i in 0..<(3 * pixels) { cur[i] &+= prev[i] }
    return
  }
  let raw = UnsafeMutableRawPointer(cur)
  let above = UnsafeRawPointer(prev)
  let last = (pixels - 1) &* 3
  @inline(__always) func lastPixel() -> SIMD4<UInt8> {
    SIMD4(cur[last], cur[last + 1], cur[last + 2], 0)
  }
  var a = SIMD4<Int16>(repeating: 0)
  var c = SIMD4<Int16>(repeating: 0)
  // Loaded one pixel ahead, before the store that overwrites its first byte; loading after that
  // store would also stall, as the store cannot be forwarded to a load at another offset.
  var next = raw.loadUnaligned(fromByteOffset: 0, as: SIMD4<UInt8>.self)
  var offset = 0
  while offset < last {
    let b = SIMD4<Int16>(
      truncatingIfNeeded: above.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
    let x = SIMD4<Int16>(truncatingIfNeeded: next)
    next =
      offset &+ 3 < last
      ? raw.loadUnaligned(fromByteOffset: offset &+ 3, as: SIMD4<UInt8>.self) : lastPixel()
    // As in `paethRGBPair`, written out: a call here is not inlined, and costs a third.
    let pa = absolute(b &- c)
    let pb = absolute(a &- c)
    let pc = absolute(a &+ b &- c &- c)
    let bOverC = ~((pc &- pb) &>> 15)
    let aOverRest = ~((pb &- pa) &>> 15) & ~((pc &- pa) &>> 15)
    var predictor = c ^ ((b ^ c) & bOverC)
    predictor ^= (a ^ predictor) & aOverRest
    let value = (x &+ predictor) & 0xFF
    raw.storeBytes(
      of: SIMD4<UInt8>(truncatingIfNeeded: value), toByteOffset: offset,
      as: SIMD4<UInt8>.self)
    a = value
    c = b
    offset &+= 3
  }
  let b = SIMD4<Int16>(Int16(prev[last]), Int16(prev[last + 1]), Int16(prev[last + 2]), 0)
  for i in 0..<3 {
    cur[last + i] = next[i] &+ paeth(
      UInt8(truncatingIfNeeded: a[i]), UInt8(truncatingIfNeeded: b[i]),
      UInt8(truncatingIfNeeded: c[i]))
  }
}

/// Paeth for two consecutive 8-bit RGB rows at once, `upper` below `above` and `lower` below
/// `upper`: pixel x of the upper row and pixel x − 1 of the lower row share one vector.
///
/// Paeth is a chain through every pixel of a row, so one row at a time leaves the vector unit
/// mostly waiting; the lower row needs only upper-row pixels finished one step earlier (its b is
/// the upper row's last result, its c the one before), so the two chains run side by side. The
/// stores overrun each pixel by one byte as `paethRGB`'s do, and for the same reason are safe.
/// Needs at least 3 pixels.
private func paethRGBPair(
  upper: UnsafeMutablePointer<UInt8>, lower: UnsafeMutablePointer<UInt8>,
  above: UnsafeMutablePointer<UInt8>, pixels: Int
) {
  let up = UnsafeMutableRawPointer(upper)
  let down = UnsafeMutableRawPointer(lower)
  let top = UnsafeRawPointer(above)
  // Pixel 0 of the upper row: Paeth with nothing to the left is the byte above.
  for i in 0..<3 { upper[i] &+= above[i] }
  var a = SIMD8<Int16>(
    Int16(upper[0]), Int16(upper[1]), Int16(upper[2]), 0, 0, 0, 0, 0)
  var c = SIMD8<Int16>(
    Int16(above[0]), Int16(above[1]), Int16(above[2]), 0, 0, 0, 0, 0)
  var nextUpper = up.loadUnaligned(fromByteOffset: 3, as: SIMD4<UInt8>.self)
  var nextLower = down.loadUnaligned(fromByteOffset: 0, as: SIMD4<UInt8>.self)
  var x = 1
  while x < pixels - 1 {
    let aboveX = top.loadUnaligned(fromByteOffset: x &* 3, as: SIMD4<UInt8>.self)
    // b: the byte above each lane's pixel; the lower lane's is the upper row's last result.
    let b = SIMD8<Int16>(
      lowHalf: SIMD4<Int16>(truncatingIfNeeded: aboveX), highHalf: a.lowHalf)
    let raw = SIMD8<Int16>(
      lowHalf: SIMD4<Int16>(truncatingIfNeeded: nextUpper),
      highHalf: SIMD4<Int16>(truncatingIfNeeded: nextLower))
    nextUpper = up.loadUnaligned(fromByteOffset: (x &+ 1) &* 3, as: SIMD4<UInt8>.self)
    nextLower = down.loadUnaligned(fromByteOffset: x &* 3, as: SIMD4<UInt8>.self)
    // Masks and selects in integer arithmetic: `replace(with:where:)` on eight lanes compiled
    // to a loop over the lanes. Distances are at most 510, so differences keep their sign.
    let pa = absolute(b &- c)
    let pb = absolute(a &- c)
    let pc = absolute(a &+ b &- c &- c)
    let bOverC = ~((pc &- pb) &>> 15)  // all ones where pb <= pc
    let aOverRest = ~((pb &- pa) &>> 15) & ~((pc &- pa) &>> 15)  // where pa <= pb, pa <= pc
    var predictor = c ^ ((b ^ c) & bOverC)
    predictor ^= (a ^ predictor) & aOverRest
    let value = (raw &+ predictor) & 0xFF
    up.storeBytes(
      of: SIMD4<UInt8>(truncatingIfNeeded: value.lowHalf), toByteOffset: x &* 3,
      as: SIMD4<UInt8>.self)
    down.storeBytes(
      of: SIMD4<UInt8>(truncatingIfNeeded: value.highHalf), toByteOffset: (x &- 1) &* 3,
      as: SIMD4<UInt8>.self)
    a = value
    c = b
    x &+= 1
  }
  // The upper row's last pixel, and the lower row's last two, byte by byte from the bytes kept.
  let last = (pixels - 1) * 3
  for i in 0..<3 {
    upper[last + i] = nextUpper[i] &+ paeth(upper[last + i - 3], above[last + i], above[last + i - 3])
  }
  for i in 0..<3 {
    lower[last - 3 + i] = nextLower[i] &+ paeth(lower[last - 6 + i], upper[last - 3 + i], upper[last - 6 + i])
  }
  for i in last..<(last + 3) {
    lower[i] &+= paeth(lower[i - 3], upper[i], upper[i - 3])
  }
}

@inline(__always)
private func simdAbs(_ v: SIMD4<Int16>) -> SIMD4<Int16> {
  v.replacing(with: 0 &- v, where: v .< 0)
}

/// |v| for each lane, with shifts rather than selects (see `paethRGBPair`).
@inline(__always)
private func absolute(_ v: SIMD4<Int16>) -> SIMD4<Int16> {
  let sign = v &>> 15
  return (v ^ sign) &- sign
}

/// |v| for each lane, with shifts rather than selects (see `paethRGBPair`).
@inline(__always)
private func absolute(_ v: SIMD8<Int16>) -> SIMD8<Int16> {
  let sign = v &>> 15
  return (v ^ sign) &- sign
}

/// Expands one row of unfiltered samples into RGBA.
private struct SampleConverter {
  let header: Header
  /// 256 RGBA entries for palette images.
  var paletteRGBA: [UInt8] = []
  let paletteCount: Int
  /// The tRNS colour key for grey (one value) or RGB (three values), in raw sample units.
  var colourKey: [Int]?

  init(header: Header, palette: [UInt8], transparency: [UInt8])
    throws(DecodeFailure)
  {
    self.header = header
    paletteCount = palette.count / 3
    switch header.colorType {
    case 3:
      guard transparency.count <= paletteCount else {
        throw .corrupt("tRNS has more entries than PLTE")
      }
      paletteRGBA = [UInt8](repeating: 0, count: 256 * 4)
      for i in 0..<paletteCount {
        paletteRGBA[i * 4] = palette[i * 3]
        paletteRGBA[i * 4 + 1] = palette[i * 3 + 1]
        paletteRGBA[i * 4 + 2] = palette[i * 3 + 2]
        paletteRGBA[i * 4 + 3] = i < transparency.count ? transparency[i] : 255
      }
    case 0 where transparency.count >= 2:
      colourKey = [Int(transparency[0]) << 8 | Int(transparency[1])]
    case 2 where transparency.count >= 6:
      colourKey = (0..<3).map {
        Int(transparency[$0 * 2]) << 8 | Int(transparency[$0 * 2 + 1])
      }
    default:
      break
    }
  }

  @inline(__always)
  private func scale16(_ p: UnsafePointer<UInt8>) -> (raw: Int, scaled: UInt8) {
    let v = Int(p[0]) << 8 | Int(p[1])
    return (v, UInt8((v * 255 * 2 + 65535) / (65535 * 2)))
  }

  func convert(
    row src: UnsafeMutablePointer<UInt8>, count: Int,
    into dst: UnsafeMutablePointer<UInt8>,
    pixelStep: Int
  ) throws(DecodeFailure) {
    var d = dst
    switch (header.colorType, header.bitDepth) {
    case (6, 8):
      if pixelStep == 4 {
        d.update(from: src, count: count * 4)
      } else {
        for x in 0..<count {
          d[0] = src[x * 4]
          d[1] = src[x * 4 + 1]
          d[2] = src[x * 4 + 2]
          d[3] = src[x * 4 + 3]
          d += pixelStep
        }
      }
    case (6, _):
      for x in 0..<count {
        for c in 0..<4 { d[c] = scale16(src + x * 8 + c * 2).scaled }
        d += pixelStep
      }
    case (2, 8):
      let key = colourKey
      for x in 0..<count {
        let r = src[x * 3]
        let g = src[x * 3 + 1]
        let b = src[x * 3 + 2]
        d[0] = r
        d[1] = g
        d[2] = b
        d[3] =
          (key.map { $0[0] == Int(r) && $0[1] == Int(g) && $0[2] == Int(b) }
            ?? false) ? 0 : 255
        d += pixelStep
      }
    case (2, _):
      for x in 0..<count {
        let r = scale16(src + x * 6)
        let g = scale16(src + x * 6 + 2)
        let b = scale16(src + x * 6 + 4)
        d[0] = r.scaled
        d[1] = g.scaled
        d[2] = b.scaled
        let keyed =
          colourKey.map { $0[0] == r.raw && $0[1] == g.raw && $0[2] == b.raw }
          ?? false
        d[3] = keyed ? 0 : 255
        d += pixelStep
      }
    case (4, 8):
      for x in 0..<count {
        let v = src[x * 2]
        d[0] = v
        d[1] = v
        d[2] = v
        d[3] = src[x * 2 + 1]
        d += pixelStep
      }
    case (4, _):
      for x in 0..<count {
        let v = scale16(src + x * 4).scaled
        d[0] = v
        d[1] = v
        d[2] = v
        d[3] = scale16(src + x * 4 + 2).scaled
        d += pixelStep
      }
    case (0, 16):
      for x in 0..<count {
        let v = scale16(src + x * 2)
        d[0] = v.scaled
        d[1] = v.scaled
        d[2] = v.scaled
        d[3] = colourKey?[0] == v.raw ? 0 : 255
        d += pixelStep
      }
    case (0, let depth):
      let factor = 255 / ((1 << depth) - 1)
      let key = colourKey?[0]
      for x in 0..<count {
        let raw = subByteSample(src, x, depth)
        let v = UInt8(raw * factor)
        d[0] = v
        d[1] = v
        d[2] = v
        d[3] = key == raw ? 0 : 255
        d += pixelStep
      }
    case (3, let depth):
      for x in 0..<count {
        let index = depth == 8 ? Int(src[x]) : subByteSample(src, x, depth)
        guard index < paletteCount else {
          throw .corrupt(
            "palette index \(index) is outside the \(paletteCount)-entry PLTE")
        }
        d[0] = paletteRGBA[index * 4]
        d[1] = paletteRGBA[index * 4 + 1]
        d[2] = paletteRGBA[index * 4 + 2]
        d[3] = paletteRGBA[index * 4 + 3]
        d += pixelStep
      }
    default:
      preconditionFailure("colour type and depth were validated in parseHeader")
    }
  }
}

/// Sample `x` of a row packed at `depth` bits per sample, most significant bits first.
@inline(__always)
private func subByteSample(
  _ row: UnsafeMutablePointer<UInt8>, _ x: Int, _ depth: Int
) -> Int {
  if depth == 8 { return Int(row[x]) }
  let bit = x * depth
  let shift = 8 - depth - (bit & 7)
  return Int(row[bit >> 3] >> UInt8(shift)) & ((1 << depth) - 1)
}
