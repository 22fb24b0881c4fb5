import Cairo
import PNGCodec
import Foundation
import Testing

/// `RGBAImage(contentsOfPNGFile:)` and `RGBAImage(pngData:)` from Sources/Cairo/PNGDecoding.swift.
@Suite struct PNGDecodingTests {}

extension PNGDecodingTests {
  // MARK: - Oracle fixtures against Pillow

  /// FNV-1a of Pillow's `convert("RGBA").tobytes()`; Pillow applies no gamma, like pngjs.
  private static let pillowHashes: [(String, UInt64)] = [
    ("2a.png", 0xb856_f822_c68d_aa9f),  // palette, no tRNS
    ("7a.png", 0x536b_bd70_70cf_b411),  // palette
    ("4a.png", 0x91af_36aa_8229_cb00),  // RGB with sRGB
    ("4b.png", 0xbbb6_b90f_3c9c_a368),  // RGBA with bKGD
    ("8a.png", 0xb7ea_f1df_9c26_fda5),  // RGBA with gAMA 0.45455 and sRGB
  ]

  @Test(arguments: pillowHashes)
  func testDecode_OracleFixture_MatchesPillowBytes(
    _ name: String, _ hash: UInt64
  ) throws {
    let image = try RGBAImage(contentsOfPNGFile: OracleFixtures.path(name))
    #expect(fnv1a(image.pixels) == hash)
  }

  @Test func testDecode_PaletteFixture_IsOpaqueWithPaletteColours() throws {
    let image = try RGBAImage(contentsOfPNGFile: OracleFixtures.path("2a.png"))
    #expect(image.width == 256 && image.height == 256)
    #expect(
      Array(image.pixels[0..<8]) == [248, 244, 240, 255, 248, 244, 240, 255])
    #expect(
      stride(from: 3, to: image.pixels.count, by: 4).allSatisfy {
        image.pixels[$0] == 255
      })
  }

  @Test func testDecode_GammaFixture_KeepsStoredSamples() throws {
    // A decoder that applied gAMA 0.45455 would not keep 127/128/0/1 mid-image.
    let image = try RGBAImage(contentsOfPNGFile: OracleFixtures.path("8a.png"))
    let middle = image.pixels.count / 2
    #expect(
      Array(image.pixels[middle..<middle + 8]) == [
        127, 128, 0, 255, 127, 127, 1, 255,
      ])
  }

  // MARK: - Colour types and depths

  @Test(arguments: [1, 2, 4, 8, 16])
  func testDecode_Grey_ScalesToFullRange(_ depth: Int) throws {
    let maxValue = (1 << depth) - 1
    let writer = TestPNGWriter(
      width: 7, height: 3, bitDepth: depth, colorType: 0,
      sample: { x, y in [(x + y) % (maxValue + 1)] })
    let image = try RGBAImage(pngData: writer.encode())
    for y in 0..<3 {
      for x in 0..<7 {
        let raw = (x + y) % (maxValue + 1)
        let grey = UInt8((raw * 255 * 2 + maxValue) / (maxValue * 2))
        #expect(
          pixel(image, x, y) == [grey, grey, grey, 255],
          "(\(x),\(y)) at depth \(depth)")
      }
    }
  }

  @Test func testDecode_Grey16_RoundsLikePngjs() throws {
    // 0x00FF / 257 = 0.992 rounds to 1; taking the high byte would give 0.
    let values = [0x0000, 0x00FF, 0x0080, 0x807F, 0x8080, 0xFFFF]
    let writer = TestPNGWriter(
      width: values.count, height: 1, bitDepth: 16, colorType: 0,
      sample: { x, _ in [values[x]] })
    let image = try RGBAImage(pngData: writer.encode())
    #expect(
      (0..<values.count).map { pixel(image, $0, 0)[0] } == [
        0, 1, 0, 128, 128, 255,
      ])
  }

  @Test func testDecode_GreyWithColourKey_MakesKeyTransparent() throws {
    var writer = TestPNGWriter(
      width: 4, height: 1, bitDepth: 4, colorType: 0,
      sample: { x, _ in [x * 5] })
    writer.transparency = [0, 5]
    let image = try RGBAImage(pngData: writer.encode())
    #expect((0..<4).map { pixel(image, $0, 0)[3] } == [255, 0, 255, 255])
    #expect(pixel(image, 1, 0) == [85, 85, 85, 0])
  }

  @Test(arguments: [8, 16])
  func testDecode_GreyAlpha_ExpandsToRGBA(_ depth: Int) throws {
    let scale = depth == 16 ? 257 : 1
    let writer = TestPNGWriter(
      width: 3, height: 2, bitDepth: depth, colorType: 4,
      sample: { x, y in [(x * 80 + y) * scale, (255 - x * 100) * scale] })
    let image = try RGBAImage(pngData: writer.encode())
    #expect(pixel(image, 2, 1) == [161, 161, 161, 55])
    #expect(pixel(image, 0, 0) == [0, 0, 0, 255])
  }

  @Test func testDecode_RGBWithColourKey_MakesOnlyExactMatchTransparent() throws
  {
    var writer = TestPNGWriter(
      width: 3, height: 1, bitDepth: 8, colorType: 2,
      sample: { x, _ in [10, 20, 30 + x] })
    writer.transparency = [0, 10, 0, 20, 0, 31]
    let image = try RGBAImage(pngData: writer.encode())
    #expect(pixel(image, 0, 0) == [10, 20, 30, 255])
    #expect(pixel(image, 1, 0) == [10, 20, 31, 0])
    #expect(pixel(image, 2, 0) == [10, 20, 32, 255])
  }

  @Test func testDecode_RGBA16_ScalesEachChannel() throws {
    let writer = TestPNGWriter(
      width: 1, height: 1, bitDepth: 16, colorType: 6,
      sample: { _, _ in [0xFFFF, 0x00FF, 0x8080, 0x7F7F] })
    let image = try RGBAImage(pngData: writer.encode())
    #expect(pixel(image, 0, 0) == [255, 1, 128, 127])
  }

  @Test(arguments: [1, 2, 4, 8])
  func testDecode_Palette_AppliesTRNS(_ depth: Int) throws {
    let entries = 1 << depth
    var writer = TestPNGWriter(
      width: 9, height: 2, bitDepth: depth, colorType: 3,
      sample: { x, y in [(x + y) % entries] })
    writer.palette = (0..<entries).flatMap { [UInt8($0), UInt8(255 - $0), 7] }
    // Shorter than the palette: the rest is opaque.
    writer.transparency = [0, 128]
    let image = try RGBAImage(pngData: writer.encode())
    #expect(pixel(image, 0, 0) == [0, 255, 7, 0])
    #expect(pixel(image, 1, 0) == [1, 254, 7, 128])
    let last = UInt8((8 + 1) % entries)
    #expect(
      pixel(image, 8, 1) == [
        last, 255 - last, 7, last < 2 ? (last == 0 ? 0 : 128) : 255,
      ])
  }

  // MARK: - Filters and interlacing

  @Test(arguments: [0, 1, 2, 3, 4])
  func testDecode_EachFilterType_ReconstructsPixels(_ filterType: Int) throws {
    var writer = TestPNGWriter(
      width: 17, height: 9, bitDepth: 8, colorType: 6, sample: Self.noise)
    writer.filter = { _ in UInt8(filterType) }
    let image = try RGBAImage(pngData: writer.encode())
    #expect(image.pixels == Self.noiseImage(width: 17, height: 9).pixels)
  }

  /// RGB rows are unfiltered four bytes a pixel with the last pixel done apart, and widened to
  /// RGBA in the buffer they were inflated into: widths of one, two and odd numbers of pixels,
  /// and of whole and partial 16-pixel steps of the vector widening (whose writes come closest
  /// to the bytes it has yet to read in the last row).
  @Test(arguments: [0, 1, 2, 3, 4], [1, 2, 3, 7, 16, 33, 47, 64])
  func testDecode_RGBEachFilterType_ReconstructsPixels(_ filterType: Int, _ width: Int)
    throws
  {
    var writer = TestPNGWriter(
      width: width, height: 9, bitDepth: 8, colorType: 2,
      sample: { Array(Self.noise($0, $1).prefix(3)) })
    writer.filter = { _ in UInt8(filterType) }
    let image = try RGBAImage(pngData: writer.encode())
    var expected = Self.noiseImage(width: width, height: 9)
    for i in stride(from: 3, to: expected.pixels.count, by: 4) { expected.pixels[i] = 255 }
    #expect(image.pixels == expected.pixels)
  }

  /// Runs of one to five Paeth rows: fours are unfiltered together (with the vector unit, from 8
  /// pixels), pairs together, the rest alone.
  @Test(arguments: [1, 2, 3, 4, 7, 8, 9, 33])
  func testDecode_RGBPaethRuns_ReconstructPixels(_ width: Int) throws {
    let filters: [UInt8] = [4, 4, 4, 2, 4, 4, 1, 4, 0, 4, 4, 3, 4, 4, 4, 4, 1, 4, 4, 4, 4, 4, 2]
    var writer = TestPNGWriter(
      width: width, height: filters.count, bitDepth: 8, colorType: 2,
      sample: { Array(Self.noise($0, $1).prefix(3)) })
    writer.filter = { filters[$0] }
    let image = try RGBAImage(pngData: writer.encode())
    var expected = Self.noiseImage(width: width, height: filters.count)
    for i in stride(from: 3, to: expected.pixels.count, by: 4) { expected.pixels[i] = 255 }
    #expect(image.pixels == expected.pixels)
  }

  @Test(arguments: [1, 2, 7, 33])
  func testDecode_RGBAEachFilterTypeInTurn_ReconstructsPixels(_ width: Int) throws {
    let writer = TestPNGWriter(
      width: width, height: 11, bitDepth: 8, colorType: 6, sample: Self.noise)
    let image = try RGBAImage(pngData: writer.encode())
    #expect(image.pixels == Self.noiseImage(width: width, height: 11).pixels)
  }

  @Test(arguments: [(1, 1), (2, 3), (8, 8), (13, 11), (33, 5)])
  func testDecode_Adam7_EqualsNonInterlaced(_ width: Int, _ height: Int) throws
  {
    var writer = TestPNGWriter(
      width: width, height: height, bitDepth: 8, colorType: 6,
      sample: Self.noise)
    writer.interlaced = true
    let image = try RGBAImage(pngData: writer.encode())
    #expect(
      image.pixels == Self.noiseImage(width: width, height: height).pixels)
  }

  @Test func testDecode_Adam7SubByteGrey_EqualsNonInterlaced() throws {
    var writer = TestPNGWriter(
      width: 11, height: 10, bitDepth: 2, colorType: 0,
      sample: { x, y in [(x * 3 + y) % 4] })
    let flat = try RGBAImage(pngData: writer.encode())
    writer.interlaced = true
    #expect(try RGBAImage(pngData: writer.encode()) == flat)
  }

  @Test func testDecode_AncillaryChunks_AreIgnored() throws {
    var writer = TestPNGWriter(
      width: 5, height: 5, bitDepth: 8, colorType: 6, sample: Self.noise)
    let plain = try RGBAImage(pngData: writer.encode())
    writer.ancillary = [
      ("gAMA", bigEndian(100_000)), ("bKGD", [0, 0, 0, 0, 0, 0]),
      ("tEXt", Array("a\0b".utf8)),
    ]
    #expect(try RGBAImage(pngData: writer.encode()) == plain)
  }

  // MARK: - Errors

  @Test func testDecode_MissingFile_ThrowsUnreadableNamingFile() {
    let path = "/nonexistent/waterflow/missing.png"
    let error = #expect(throws: PNGDecodingError.self) {
      try RGBAImage(contentsOfPNGFile: path)
    }
    #expect(error?.code == .unreadable)
    #expect(error?.description.contains(path) == true)
    #expect(error?.description.contains("No such file") == true)
  }

  @Test func testDecode_Directory_ThrowsUnreadable() {
    let error = #expect(throws: PNGDecodingError.self) {
      try RGBAImage(contentsOfPNGFile: OracleFixtures.directory.path)
    }
    #expect(error?.code == .unreadable)
  }

  @Test func testDecode_NotPNG_ThrowsNotPNGNamingFile() {
    let path = OracleFixtures.directory.appendingPathComponent("cases.json")
      .path
    let error = #expect(throws: PNGDecodingError.self) {
      try RGBAImage(contentsOfPNGFile: path)
    }
    #expect(error?.code == .notPNG)
    #expect(
      error?.description
        == "Cannot decode PNG '\(path)': not a PNG file (bad signature)")
  }

  @Test func testDecode_FlippedByte_ThrowsCorruptCRC() {
    var bytes = TestPNGWriter(
      width: 4, height: 4, bitDepth: 8, colorType: 6, sample: Self.noise
    ).encode()
    bytes[40] ^= 0x01
    let error = #expect(throws: PNGDecodingError.self) {
      try RGBAImage(pngData: bytes)
    }
    #expect(error?.code == .corrupt)
    #expect(error?.reason.contains("CRC") == true)
  }

  @Test func testDecode_Truncated_ThrowsCorrupt() {
    let bytes = TestPNGWriter(
      width: 4, height: 4, bitDepth: 8, colorType: 6, sample: Self.noise
    ).encode()
    let error = #expect(throws: PNGDecodingError.self) {
      try RGBAImage(pngData: Array(bytes.prefix(60)))
    }
    #expect(error?.code == .corrupt)
  }

  @Test func testDecode_ShortImageData_ThrowsCorrupt() throws {
    // Valid chunks, but the zlib stream holds one row fewer than IHDR promises.
    let writer = TestPNGWriter(
      width: 4, height: 4, bitDepth: 8, colorType: 6, sample: Self.noise)
    let rows = Array(writer.scanlines().dropLast(17))
    var bytes: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    appendChunk(
      "IHDR", bigEndian(4) + bigEndian(4) + [8, 6, 0, 0, 0], to: &bytes)
    appendChunk("IDAT", zlibStored(rows), to: &bytes)
    appendChunk("IEND", [], to: &bytes)
    let error = #expect(throws: PNGDecodingError.self) {
      try RGBAImage(pngData: bytes)
    }
    #expect(error?.code == .corrupt)
    #expect(error?.description.hasPrefix("Cannot decode PNG: ") == true)
  }

  @Test func testDecode_BadFilterType_ThrowsCorrupt() {
    var writer = TestPNGWriter(
      width: 4, height: 4, bitDepth: 8, colorType: 6, sample: Self.noise)
    writer.filter = { $0 == 2 ? 9 : 0 }
    let error = #expect(throws: PNGDecodingError.self) {
      try RGBAImage(pngData: writer.encode())
    }
    #expect(error?.reason == "unknown filter type 9 on row 2")
  }

  @Test func testDecode_PaletteIndexOutOfRange_ThrowsCorrupt() {
    var writer = TestPNGWriter(
      width: 2, height: 1, bitDepth: 8, colorType: 3,
      sample: { x, _ in [x * 3] })
    writer.palette = [1, 2, 3, 4, 5, 6]
    let error = #expect(throws: PNGDecodingError.self) {
      try RGBAImage(pngData: writer.encode())
    }
    #expect(error?.code == .corrupt)
  }

  @Test func testDecode_InvalidDepthForColourType_ThrowsCorrupt() {
    let writer = TestPNGWriter(
      width: 2, height: 1, bitDepth: 4, colorType: 6,
      sample: { _, _ in [0, 0, 0, 0] })
    let error = #expect(throws: PNGDecodingError.self) {
      try RGBAImage(pngData: writer.encode())
    }
    #expect(error?.reason == "bit depth 4 is invalid for colour type 6")
  }

  // MARK: - Helpers

  private static func noise(_ x: Int, _ y: Int) -> [Int] {
    [
      (x * 37 + y * 11) & 0xFF, (x * x + y * 7) & 0xFF, (x ^ y) * 13 & 0xFF,
      (200 + x * y) & 0xFF,
    ]
  }

  private static func noiseImage(width: Int, height: Int) -> RGBAImage {
    var pixels: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width { pixels += noise(x, y).map { UInt8($0) } }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }

  private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
    let i = (y * image.width + x) * 4
    return Array(image.pixels[i..<i + 4])
  }
}
