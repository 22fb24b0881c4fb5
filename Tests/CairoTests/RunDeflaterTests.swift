import Cairo
import PNGKernels
import PNGCodec
import Foundation
import Testing
import WaterflowTestSupport

/// The run encoder behind `PNGCompression.frames`: every file must inflate, with zlib (through
/// cairo's PNG reader) and with libdeflate (through `RGBAImage(pngData:)`), to exactly the pixels
/// that were encoded, whatever the image's shape and content.
@Suite struct RunDeflaterTests {}

// MARK: - Fixtures

/// A small deterministic generator, so that failures reproduce.
private struct TestGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state >> 33
  }
  mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Checks that `png` inflates to `expected` with libdeflate (`RGBAImage(pngData:)`) and, through
/// cairo's reader, with zlib, where it must read back exactly as the same image written by
/// libdeflate does (cairo premultiplies, which rounds translucent pixels either way).
private func expectRoundTrip(
  _ png: [UInt8], equals expected: RGBAImage, _ label: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  // Compared outside #expect, so that a failure prints the label, not megabytes of pixels.
  let byLibdeflate = try RGBAImage(pngData: png) == expected
  #expect(byLibdeflate, "libdeflate: \(label)", sourceLocation: sourceLocation)
  let byZlib = try ImageSurface(
    contentsOfPNGFile: writeTemporaryFile(png, named: "run.png"))
  let reference = try ImageSurface(
    contentsOfPNGFile: writeTemporaryFile(
      expected.pngData(), named: "reference.png"))
  let same = argbPixels(of: byZlib) == argbPixels(of: reference)
  #expect(same, "zlib: \(label)", sourceLocation: sourceLocation)
}

/// An image of random rectangles, with random alpha when `translucent`: runs, repeated rows,
/// and edges at every offset.
private func randomBlocks(
  width: Int, height: Int, translucent: Bool, using g: inout TestGenerator
) -> RGBAImage {
  var pixels = [UInt8](repeating: 255, count: width * height * 4)
  for _ in 0..<(1 + g.next(6)) {
    let x0 = g.next(width)
    let y0 = g.next(height)
    let w = 1 + g.next(width - x0)
    let h = 1 + g.next(height - y0)
    let colour: [UInt8] = [
      UInt8(g.next(256)), UInt8(g.next(256)), UInt8(g.next(256)),
      translucent ? UInt8(g.next(256)) : 255,
    ]
    for y in y0..<(y0 + h) {
      for x in x0..<(x0 + w) {
        pixels.replaceSubrange(
          (4 * (y * width + x))..<(4 * (y * width + x) + 4), with: colour)
      }
    }
  }
  return RGBAImage(width: width, height: height, pixels: pixels)
}

// MARK: - Round trips

extension RunDeflaterTests {
  @Test func renderedFrame_RoundTrips_ThroughZlibAndLibdeflate() throws {
    let surface = try makeTestFrame(width: 750, height: 1334)
    let png = surface.pngData(compression: .frames)
    #expect(png[25] == 2, "an opaque frame is RGB")
    try expectRoundTrip(
      png, equals: RGBAImage(surface: surface), "750×1334 frame")
  }

  @Test func translucentSurface_RoundTrips() throws {
    let surface = try ImageSurface(width: 320, height: 200)
    let context = try Context(surface)
    drawTestFrame(on: context, width: 320, height: 200, count: 4)
    // A transparent band and a half-transparent one: the RGBA path.
    setPixels(of: surface, rows: 50..<60) { _, _ in 0 }
    setPixels(of: surface, rows: 100..<120) { _, _ in 0x8040_2010 }
    let png = surface.pngData(compression: .frames)
    #expect(png[25] == 6)
    try expectRoundTrip(png, equals: RGBAImage(surface: surface), "translucent")
  }

  @Test func randomImages_OfEveryShape_RoundTrip() throws {
    var g = TestGenerator(state: 2026)
    // Widths 1…3 make rows shorter than a match; the rest cover every alignment of the
    // 8-byte compare and rows that end mid-word.
    for trial in 0..<120 {
      let width = trial < 12 ? 1 + trial % 3 : 1 + g.next(70)
      let height = 1 + g.next(40)
      let translucent = trial % 2 == 1
      let image = randomBlocks(
        width: width, height: height, translucent: translucent, using: &g)
      try expectRoundTrip(
        image.pngData(compression: .frames), equals: image,
        "trial \(trial): \(width)×\(height), translucent \(translucent)")
    }
  }

  @Test func noise_IsStored_NotExpanded() throws {
    // Random bytes do not compress: the encoder must fall back to stored blocks instead of
    // Huffman codes that would make the file larger than the pixels.
    var g = TestGenerator(state: 7)
    let width = 400
    let height = 300
    let pixels = (0..<(width * height * 4)).map { i in
      i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: g.next())
    }
    let image = RGBAImage(width: width, height: height, pixels: pixels)
    let png = image.pngData(compression: .frames)
    try expectRoundTrip(png, equals: image, "noise")
    let raw = height * (3 * width + 1)
    #expect(
      png.count < raw + raw / 200 + 100, "\(png.count) bytes for \(raw) raw")
  }

  @Test func manyTokens_SpanSeveralBlocks_AndRoundTrip() throws {
    // Two-colour noise: a token every pixel or two, so a 700×700 image needs several blocks,
    // each with its own codes; and it still compresses.
    var g = TestGenerator(state: 11)
    let width = 700
    let height = 700
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for i in 0..<(width * height) where g.next(2) == 0 {
      pixels[4 * i] = 0
      pixels[4 * i + 1] = 0
      pixels[4 * i + 2] = 0
    }
    let image = RGBAImage(width: width, height: height, pixels: pixels)
    let png = image.pngData(compression: .frames)
    try expectRoundTrip(png, equals: image, "two-colour noise")
    #expect(png.count < width * height, "\(png.count) bytes")
  }

  @Test func rowsLongerThanTheWindow_RoundTrip() throws {
    // 9,000 RGBA pixels make a 36,001-byte row: the row above is out of DEFLATE's 32 KiB reach.
    let surface = try ImageSurface(width: 9000, height: 6)
    setPixels(of: surface) { x, y in x < 4000 || y == 3 ? 0x8000_0080 : 0 }
    try expectRoundTrip(
      surface.pngData(compression: .frames),
      equals: RGBAImage(surface: surface), "9000×6")
  }
}

// MARK: - Bytes

extension RunDeflaterTests {
  @Test func encoding_IsDeterministic_AcrossEncodersAndInterleavedImages()
    throws
  {
    let frame = try makeTestFrame(width: 300, height: 400)
    let encoder = PNGEncoder(compression: .frames)
    let first = encoder.encode(frame)
    var g = TestGenerator(state: 3)
    _ = encoder.encode(
      randomBlocks(width: 50, height: 9, translucent: true, using: &g))
    #expect(encoder.encode(frame) == first)
    #expect(PNGEncoder(compression: .frames).encode(frame) == first)
    #expect(frame.pngDataOnThisThread(compression: .frames) == first)
  }

  @Test func renderedFrame_StaysWithinTenPercentOfLibdeflate() throws {
    // A broken matcher still round-trips but balloons the file; libdeflate level 6 with the
    // same Up filter is the yardstick (measured: 4.9 % larger over a 60-frame scroll).
    let surface = try makeTestFrame(width: 750, height: 1334)
    let runs = surface.pngData(compression: .frames).count
    let libdeflate = surface.pngData(
      compression: PNGCompression(level: 6, filtering: .up)
    ).count
    #expect(
      Double(runs) <= 1.10 * Double(libdeflate),
      "runs \(runs) bytes, libdeflate \(libdeflate)")
  }

  @Test func chunks_AreValid_WhenCheckedByPngcheck() throws {
    let png = try makeTestFrame(width: 400, height: 300).pngData(
      compression: .frames)
    let result = try ExternalProgram.pngcheck.run(
      [try writeTemporaryFile(png, named: "runs.png")])
    #expect(result.status == 0, "\(result.output)")
  }
}

// MARK: - Pinned bytes

/// An opaque frame without text rendering, so that its bytes depend on no library version:
/// a background, rectangles, and a 7×10 noise glyph stamped 16 times (repeats for the hash probe).
private func syntheticFrame(width: Int, height: Int, seed: UInt64) -> [UInt32] {
  var g = TestGenerator(state: seed)
  var pixels = [UInt32](repeating: 0xfff2_f2f5, count: width * height)
  for _ in 0..<6 {
    let x0 = g.next(width)
    let y0 = g.next(height)
    let w = 1 + g.next(max(1, width / 2))
    let h = 1 + g.next(max(1, height / 2))
    let colour = 0xff00_0000 | UInt32(g.next(1 << 24))
    for y in y0..<min(height, y0 + h) {
      for x in x0..<min(width, x0 + w) { pixels[y * width + x] = colour }
    }
  }
  let glyph = (0..<70).map { _ in UInt32(g.next(256)) }
  for _ in 0..<16 {
    let x0 = g.next(max(1, width - 7))
    let y0 = g.next(max(1, height - 10))
    for dy in 0..<10 {
      for dx in 0..<7 where y0 + dy < height && x0 + dx < width {
        let v = glyph[dy * 7 + dx]
        pixels[(y0 + dy) * width + x0 + dx] = 0xff00_0000 | v << 16 | v << 8 | v
      }
    }
  }
  return pixels
}

/// What `encode` gives with an encoder that uses the CPU's vector kernels and with one that keeps
/// to the portable code: the two must be byte for byte alike.
private func bothWays(_ encode: (PNGEncoder) -> [UInt8]) -> (vector: [UInt8], portable: [UInt8]) {
  let vector = PNGEncoder(compression: .frames)
  let portable = PNGEncoder(compression: .frames)
  portable.usesVectorFilter = false
  return (encode(vector), encode(portable))
}

/// FNV-1a, 64 bits.
private func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
  bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
}

extension RunDeflaterTests {
  /// The digests were taken from the encoder before its filter pass and row search were made
  /// faster (issue 28), with a plain Up filter: speed-ups must keep every byte. Rows of photos
  /// got Paeth and their own coding in issue 43; frames without them kept every byte, which the
  /// first two digests hold. The 13×9 frame's noise glyphs fill whole rows: its digest was taken
  /// again then.
  @Test(arguments: [
    (257, 120, 28 as UInt64, 0x0960_5312_c9ba_d0e9 as UInt64),
    (750, 400, 1334, 0xb0a1_0f39_24df_969b),
    (13, 9, 3, 0x6975_b9a0_7f18_3ac2),
  ])
  func framesEncoding_KeepsItsBytes(
    width: Int, height: Int, seed: UInt64, digest: UInt64
  ) throws {
    let pixels = syntheticFrame(width: width, height: height, seed: seed)
    let surface = try ImageSurface(width: width, height: height)
    setPixels(of: surface) { x, y in pixels[y * width + x] }
    let png = surface.pngData(compression: .frames)
    #expect(
      fnv1a64(png) == digest,
      "\(width)×\(height): \(String(fnv1a64(png), radix: 16))")
    // The straight-RGBA path filters its own way; the bytes are the same.
    #expect(RGBAImage(surface: surface).pngData(compression: .frames) == png)
  }

  @Test func opaqueSurface_EncodesLikeItsImage_AtEveryWidth() throws {
    // The surface path compares and packs pixels in groups of eight and four; every remainder
    // and a difference in each position of a group must give the image path's bytes.
    var g = TestGenerator(state: 31)
    for width in Array(1...40) + [63, 64, 65, 250] {
      let height = 1 + g.next(12)
      let pixels = syntheticFrame(width: width, height: height, seed: UInt64(width))
      let surface = try ImageSurface(width: width, height: height)
      setPixels(of: surface) { x, y in
        // A single changed pixel now and then, at every offset within a group.
        y % 3 == 1 && x == (y * 5) % width ? 0xff12_3456 : pixels[y * width + x]
      }
      let png = surface.pngData(compression: .frames)
      #expect(png[25] == 2, "width \(width): RGB")
      #expect(
        png == RGBAImage(surface: surface).pngData(compression: .frames),
        "width \(width)×\(height)")
    }
  }

  @Test func surface_WithOneTranslucentPixelLate_IsEncodedAsRGBA() throws {
    // The opaque path learns of alpha while it filters: a translucent pixel in the last row and
    // the last, partial group must still send the image down the RGBA path, whole.
    for width in [7, 8, 13] {
      let surface = try ImageSurface(width: width, height: 5)
      setPixels(of: surface) { x, y in
        x == width - 1 && y == 4 ? 0x8040_2010 : 0xff33_6699
      }
      let png = surface.pngData(compression: .frames)
      #expect(png[25] == 6, "width \(width): RGBA")
      try expectRoundTrip(png, equals: RGBAImage(surface: surface), "width \(width)")
    }
  }
}

extension RunDeflaterTests {
  /// The frame encoder's Up filter runs with AVX2 where the CPU has it, in Swift elsewhere: both
  /// must give every byte alike, and send a frame with a translucent pixel down the RGBA path.
  @Test(.enabled(if: VectorRowFilter.isAvailable, "the vector filter needs AVX2"))
  func vectorFilter_GivesTheSwiftFiltersBytes() throws {
    var g = TestGenerator(state: 77)
    #expect(PNGEncoder(compression: .frames).usesVectorFilter)
    // Every remainder of eight pixels, rows equal to the one above and rows that differ in one
    // pixel or in all, and a translucent pixel in some.
    for width in Array(1...40) + [63, 64, 65, 250, 750] {
      let height = 2 + g.next(10)
      let base = syntheticFrame(width: width, height: height, seed: UInt64(width) &+ 5)
      let translucent = width % 5 == 0 ? (x: g.next(width), y: 1 + g.next(height - 1)) : nil
      let surface = try ImageSurface(width: width, height: height)
      setPixels(of: surface) { x, y in
        if let t = translucent, t.x == x, t.y == y { return 0x8040_2010 }
        if y % 4 == 2 { return 0xff00_0000 | UInt32(g.next(1 << 24)) }
        return y % 3 == 1 && x == (y * 7) % width ? 0xff65_4321 : base[y * width + x]
      }
      let (vector, swift) = bothWays { $0.encode(surface, concurrently: false) }
      #expect(vector == swift, "width \(width)×\(height)")
      #expect(vector[25] == (translucent == nil ? 2 : 6), "width \(width): colour type")
    }
  }
}

// MARK: - Photo rows

/// Premultiplied ARGB pixels like a photo's: smooth gradients with a little noise, so that most
/// bytes change from row to row by a few units; alpha varies smoothly when `translucent`.
private func photoLike(
  width: Int, height: Int, translucent: Bool, using g: inout TestGenerator
) -> [UInt32] {
  var pixels = [UInt32](repeating: 0, count: width * height)
  let phase = g.next(64)
  for y in 0..<height {
    for x in 0..<width {
      let alpha = translucent ? 96 + (x * 5 + y * 3 + phase) % 160 : 255
      func channel(_ base: Int, _ dx: Int, _ dy: Int) -> UInt32 {
        let value = (base + dx * x + dy * y + g.next(5)) % 256
        return UInt32(value * alpha / 255)
      }
      pixels[y * width + x] =
        UInt32(alpha) << 24 | channel(40, 3, 2) << 16 | channel(90, 1, 4) << 8
        | channel(200, 2, 1)
    }
  }
  return pixels
}

/// The filter type of each row of a PNG whose one IDAT holds `rows` rows of `rowBytes` bytes.
private func filterTypes(of png: [UInt8], rows: Int, rowBytes: Int) -> [UInt8] {
  var at = 8
  var idat: [UInt8] = []
  while at + 8 <= png.count {
    let length =
      Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
    if png[(at + 4)..<(at + 8)].elementsEqual("IDAT".utf8) {
      idat += png[(at + 8)..<(at + 8 + length)]
    }
    at += 12 + length
  }
  var raw = [UInt8](repeating: 0, count: rows * (rowBytes + 1))
  let inflated = idat.withUnsafeBytes { input in
    raw.withUnsafeMutableBytes { zlibDecompress(input, into: $0) }
  }
  guard case .success(let count) = inflated, count == raw.count else { return [] }
  return (0..<rows).map { raw[$0 * (rowBytes + 1)] }
}

extension RunDeflaterTests {
  /// Rows of photos are Paeth-filtered and coded as zero chunks and literals: at 40 widths, opaque
  /// and translucent, the file passes libpng's checks (pngcheck) and decodes to the surface's
  /// pixels with libdeflate and zlib, and the photo coding did take the rows.
  @Test func photoRows_DecodeToTheirPixels_AndPassPngcheck_AtFortyWidths() throws {
    var g = TestGenerator(state: 2026)
    var files: [String] = []
    for width in Array(1...36) + [63, 97, 256, 750] {
      for translucent in [false, true] {
        let height = 3 + g.next(9)
        let pixels = photoLike(width: width, height: height, translucent: translucent, using: &g)
        let surface = try ImageSurface(width: width, height: height)
        setPixels(of: surface) { x, y in pixels[y * width + x] }
        let png = surface.pngData(compression: .frames)
        let label = "\(width)×\(height)\(translucent ? " translucent" : "")"
        try expectRoundTrip(png, equals: RGBAImage(surface: surface), label)
        let types = filterTypes(
          of: png, rows: height, rowBytes: width * (translucent ? 4 : 3))
        #expect(types.count == height, "\(label): inflates")
        // One pixel wide, a row has no left neighbours: Paeth would be Up.
        #expect(
          width == 1 || types.dropFirst().contains(4), "\(label): photo rows are Paeth: \(types)")
        files.append(try writeTemporaryFile(png, named: "photo-\(width)-\(translucent).png"))
      }
    }
    #expect(files.count == 80)
    let result = try ExternalProgram.pngcheck.run(files)
    #expect(result.status == 0, "\(result.output)")
  }

  /// Rows after a photo row are filtered in one pass where the CPU has AVX-512: the same bytes as
  /// the separate passes, at every remainder of sixteen pixels, through photo rows, rows equal to
  /// the one above, card edges and text rows that follow them, and a translucent pixel met in a
  /// photo (the frame is then encoded as RGBA by the other path, both ways).
  @Test(.enabled(if: PhotoRows.isFused, "the one-pass kernel needs AVX-512 with VBMI"))
  func photoRows_OnePass_GivesTheSeparatePassesBytes() throws {
    var g = TestGenerator(state: 43)
    for width in Array(1...40) + [47, 48, 49, 95, 750] {
      for translucentRow in [nil, 8] as [Int?] {
        let photo = photoLike(width: width, height: 6, translucent: false, using: &g)
        let ui = syntheticFrame(width: width, height: 6, seed: UInt64(width))
        // Photo, a repeated row, photo, a card edge (one colour), UI rows, photo again.
        let rows: [(Int) -> UInt32] = [
          { photo[0 * width + $0] }, { photo[1 * width + $0] }, { photo[1 * width + $0] },
          { photo[2 * width + $0] }, { _ in 0xff80_8080 }, { ui[2 * width + $0] },
          { ui[3 * width + $0] }, { photo[3 * width + $0] }, { photo[4 * width + $0] },
          { photo[5 * width + $0] },
        ]
        let surface = try ImageSurface(width: width, height: rows.count)
        setPixels(of: surface) { x, y in
          y == translucentRow && x == width / 2 ? 0x8040_2010 : rows[y](x)
        }
        let separate = PNGEncoder(compression: .frames)
        separate.usesFusedPhotoRows = false
        let label = "\(width)×\(rows.count)\(translucentRow == nil ? "" : " translucent")"
        let png = PNGEncoder(compression: .frames).encode(surface, concurrently: false)
        #expect(png == separate.encode(surface, concurrently: false), "\(label)")
        try expectRoundTrip(png, equals: RGBAImage(surface: surface), label)
      }
    }
  }

  @Test(.enabled(if: VectorRowFilter.isAvailable, "the vector kernels need AVX2"))
  func photoRows_VectorKernels_GiveThePortableBytes() throws {
    var g = TestGenerator(state: 5)
    for width in Array(1...40) + [95, 750] {
      for translucent in [false, true] {
        let height = 2 + g.next(8)
        var pixels = photoLike(width: width, height: height, translucent: translucent, using: &g)
        // Bursts of noise in a smooth photo: rare bytes get the longest codes, so that four codes
        // in a row pass 56 bits, which the vector coder leaves to the portable one.
        if width >= 95 {
          for _ in 0..<6 {
            let start = g.next(width * height - 16)
            for i in start..<(start + 16) { pixels[i] = 0xff00_0000 | UInt32(g.next(1 << 24)) }
          }
        }
        let surface = try ImageSurface(width: width, height: height)
        setPixels(of: surface) { x, y in pixels[y * width + x] }
        let image = RGBAImage(surface: surface)
        let fromSurface = bothWays { $0.encode(surface, concurrently: false) }
        let fromImage = bothWays { $0.encode(image) }
        #expect(
          fromSurface.vector == fromSurface.portable,
          "surface \(width)×\(height) translucent: \(translucent)")
        #expect(
          fromImage.vector == fromImage.portable,
          "image \(width)×\(height) translucent: \(translucent)")
      }
    }
  }

  /// A smooth photo with faint noise, so that all but three byte values are rare and get the
  /// longest codes, and bursts of noise, where four such codes in a row pass 56 bits: the vector
  /// coder hands those to the portable one, and the bits must not change.
  @Test(.enabled(if: VectorRowFilter.isAvailable, "the vector kernels need AVX2"))
  func photoRows_LongCodes_GiveThePortableBytes() throws {
    var g = TestGenerator(state: 57)
    let (width, height) = (750, 60)
    var pixels = [UInt32](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        let v = UInt32((x + y) / 4 % 256) + UInt32(g.next(2))
        pixels[y * width + x] = 0xff00_0000 | v << 16 | v << 8 | v
      }
    }
    for _ in 0..<2 {
      let start = g.next(width * height - 40)
      for i in start..<(start + 40) { pixels[i] = 0xff00_0000 | UInt32(g.next(1 << 24)) }
    }
    let surface = try ImageSurface(width: width, height: height)
    setPixels(of: surface) { x, y in pixels[y * width + x] }
    let (png, portable) = bothWays { $0.encode(surface, concurrently: false) }
    let same = png == portable
    #expect(same, "the vector coder's bits differ from the portable coder's")
    let types = filterTypes(of: png, rows: height, rowBytes: 3 * width)
    #expect(types.filter { $0 == 4 }.count > height / 2, "photo rows: \(types)")
    try expectRoundTrip(png, equals: RGBAImage(surface: surface), "long codes")
  }

  /// Rows of UI under a photo, up to 48 rows below its last row, are coded as photo rows once
  /// the frame has had 16 photo rows; rows farther down, and those of a frame with fewer photo
  /// rows, keep the Up filter and the run search. Either way the surface's and the straight
  /// image's paths and the vector and portable coders give the same bytes, which decode to the
  /// frame.
  @Test(arguments: [40, 8])
  func rowsNearPhotos_AreCodedAsPhotoRows(photoRows: Int) throws {
    var g = TestGenerator(state: 4343)
    let width = 240
    let height = photoRows + 150
    var pixels = photoLike(width: width, height: photoRows, translucent: false, using: &g)
    // Under it, flat UI with a few glyph pixels a row: far fewer than a quarter of its bytes
    // change from the row above.
    for y in photoRows..<height {
      for x in 0..<width {
        let glyph = (0..<10).contains { (y * 7 + $0 * 23) % width == x }
        pixels.append(glyph ? 0xff20_2020 + UInt32(y % 7) : 0xffee_eeee)
      }
    }
    let surface = try ImageSurface(width: width, height: height)
    setPixels(of: surface) { x, y in pixels[y * width + x] }
    let (png, portable) = bothWays { $0.encode(surface, concurrently: false) }
    let same = png == portable
    #expect(same, "the portable filter and coder give other bytes")
    let image = RGBAImage(surface: surface)
    let viaImage = image.pngData(compression: .frames)
    #expect(viaImage == png, "the straight image's path gives other bytes")
    try expectRoundTrip(png, equals: image, "\(photoRows) photo rows")
    let types = filterTypes(of: png, rows: height, rowBytes: 3 * width)
    let near = types[photoRows..<(photoRows + 47)]
    let far = types[(photoRows + 50)...]
    if photoRows >= 16 {
      #expect(near.allSatisfy { $0 == 4 }, "near: \(Array(near))")
    } else {
      #expect(near.allSatisfy { $0 == 2 }, "near: \(Array(near))")
    }
    #expect(far.allSatisfy { $0 == 2 }, "far: \(Array(far))")
  }

  /// The literal codes of photo rows are counted on every fourth row, so a block's size is an
  /// estimate: smooth rows sampled and noise between them cost far more bits than it says. The
  /// output must still hold them all (it was reserved from the estimate, and the noise wrote past
  /// its end), and the file decode to the frame.
  @Test func photoRows_CostlierThanTheirSample_StillFitAndDecode() throws {
    var g = TestGenerator(state: 808)
    let width = 300
    let height = 160
    let smooth = photoLike(width: width, height: height, translucent: false, using: &g)
    let surface = try ImageSurface(width: width, height: height)
    setPixels(of: surface) { x, y in
      y % 4 == 1 ? smooth[y * width + x] : 0xff00_0000 | UInt32(g.next(1 << 24))
    }
    let png = PNGEncoder(compression: .frames).encode(surface, concurrently: false)
    let types = filterTypes(of: png, rows: height, rowBytes: 3 * width)
    #expect(types.filter { $0 == 4 }.count > height / 2, "photo rows: \(types)")
    try expectRoundTrip(png, equals: RGBAImage(surface: surface), "noise between sampled rows")
  }

  /// A photo frame's bytes, pinned when the photo coding was made (issue 43), so that speed-ups
  /// keep every byte.
  @Test func photoFrame_KeepsItsBytes() throws {
    var g = TestGenerator(state: 43)
    let pixels = photoLike(width: 301, height: 90, translucent: false, using: &g)
    let surface = try ImageSurface(width: 301, height: 90)
    setPixels(of: surface) { x, y in pixels[y * 301 + x] }
    let png = surface.pngData(compression: .frames)
    #expect(fnv1a64(png) == 0x8ee4_b390_b64e_4536, "\(String(fnv1a64(png), radix: 16))")
    #expect(RGBAImage(surface: surface).pngData(compression: .frames) == png)
  }
}

extension RunDeflaterTests {
  /// Rows equal to the row above are not written to the encoder's buffer, which it keeps between
  /// images: no byte of a file may depend on what an earlier image left there. Frames with long
  /// stretches of repeated rows, glyph repeats found across rows, and noise bands (stored blocks)
  /// are encoded by an encoder that has just encoded noise, and by a fresh one.
  @Test func unwrittenRows_NeverLeakAnEarlierImage() throws {
    var g = TestGenerator(state: 404)
    for (width, height) in [(87, 60), (90, 200), (300, 160), (750, 400), (1001, 90)] {
      let dirty = PNGEncoder(compression: .frames)
      let noise = try ImageSurface(width: width, height: height)
      setPixels(of: noise) { _, _ in 0xff00_0000 | UInt32(g.next(1 << 24)) }
      _ = dirty.encode(noise, concurrently: false)
      var pixels = syntheticFrame(width: width, height: height, seed: UInt64(width))
      // A band of noise (stored), then repeated rows, then the same noise again (far matches).
      let band = height / 3
      for y in band..<(band + 4) {
        for x in 0..<width { pixels[y * width + x] = 0xff00_0000 | UInt32(g.next(1 << 24)) }
      }
      for y in (band + 4)..<(band + 24) where y < height {
        for x in 0..<width { pixels[y * width + x] = pixels[(band + 3) * width + x] }
      }
      let surface = try ImageSurface(width: width, height: height)
      setPixels(of: surface) { x, y in pixels[y * width + x] }
      let fresh = PNGEncoder(compression: .frames).encode(surface, concurrently: false)
      let reused = dirty.encode(surface, concurrently: false)
      // Compared outside #expect, so that a failure prints the size, not the files.
      let same = reused == fresh
      #expect(same, "\(width)×\(height): bytes depend on the earlier image")
      try expectRoundTrip(reused, equals: RGBAImage(surface: surface), "\(width)×\(height)")
    }
  }
}
