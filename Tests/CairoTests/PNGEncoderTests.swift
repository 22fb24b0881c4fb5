import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowTestSupport

@Suite struct PNGEncoderTests {}

// MARK: - Fixtures

/// A surface with transparent and semi-transparent pixels: every alpha and colour rounding case.
private func makeTranslucentSurface() throws -> ImageSurface {
  let surface = try ImageSurface(width: 256, height: 64)
  let context = try Context(surface)
  for x in 0..<256 {
    // Alpha steps across x; colour varies down the rows, so premultiplication rounds differently.
    context.setSource(
      red: Double(x % 7) / 6, green: 0.5, blue: Double(255 - x) / 255,
      alpha: Double(x) / 255)
    context.rectangle(x: Double(x), y: 0, width: 1, height: 48)
    context.fill()
  }
  context.setSource(red: 1, green: 1, blue: 1, alpha: 0.7)
  context.draw(
    TextLayout("translucent text", fonts: makeTestFonts(), size: 14), x: 4, baselineY: 60)
  try context.checkStatus()
  return surface
}

/// Colour type byte of a PNG's IHDR: 2 for RGB, 6 for RGBA.
private func colorType(_ png: [UInt8]) -> UInt8 { png[25] }

// MARK: - Round trips

extension PNGEncoderTests {
  @Test func roundTrip_OpaqueFrame_DecodesToIdenticalPixels() throws {
    let surface = try makeTestFrame(width: 300, height: 500)
    let png = surface.pngData()
    #expect(colorType(png) == 2)
    let decoded = try ImageSurface(
      contentsOfPNGFile: writeTemporaryFile(png, named: "opaque.png"))
    #expect(decoded.width == 300 && decoded.height == 500)
    #expect(argbPixels(of: decoded) == argbPixels(of: surface))
  }

  @Test func roundTrip_Translucent_DecodesLikeCairosOwnPNG() throws {
    let surface = try makeTranslucentSurface()
    let ours = surface.pngData()
    #expect(colorType(ours) == 6)
    let oursDecoded = try ImageSurface(
      contentsOfPNGFile: writeTemporaryFile(ours, named: "ours.png"))
    let cairos = try ImageSurface(
      contentsOfPNGFile: writeTemporaryFile(
        surface.cairoPNGData(), named: "cairo.png"))
    #expect(argbPixels(of: oursDecoded) == argbPixels(of: cairos))
    // Straight RGBA is the exchange format: both decode to the same straight pixels.
    #expect(RGBAImage(surface: oursDecoded) == RGBAImage(surface: surface))
  }

  @Test(arguments: [PNGCompression.fast, .default, .best])
  func roundTrip_EveryLevel_DecodesToIdenticalPixels(
    compression: PNGCompression
  ) throws {
    let surface = try makeTranslucentSurface()
    let png = surface.pngData(compression: compression)
    let decoded = try ImageSurface(
      contentsOfPNGFile: writeTemporaryFile(png, named: "level.png"))
    #expect(RGBAImage(surface: decoded) == RGBAImage(surface: surface))
  }

  @Test func roundTrip_LargeImages_StitchedFromBands_DecodeToIdenticalPixels()
    throws
  {
    // Images of 1 MiB or more are compressed in two bands and joined; check both colour types.
    let opaque = try makeTestFrame(width: 750, height: 1334)
    let translucent = try ImageSurface(width: 700, height: 700)
    let context = try Context(translucent)
    drawTestFrame(on: context, width: 700, height: 700, count: 9)
    context.setSource(red: 0, green: 0, blue: 0, alpha: 0)
    context.rectangle(x: 0, y: 300, width: 700, height: 100)
    context.fill()  // no-op over
    translucent.withUnsafeMutablePixels { buffer, stride in
      // Punch a transparent band across the band boundary at row 350.
      for y in 330..<370 {
        (buffer.baseAddress! + y * stride).initializeMemory(
          as: UInt8.self, repeating: 0, count: 700 * 4)
      }
    }
    for (surface, type) in [(opaque, UInt8(2)), (translucent, 6)] {
      let png = surface.pngData()
      #expect(colorType(png) == type)
      let decoded = try ImageSurface(
        contentsOfPNGFile: writeTemporaryFile(png, named: "large.png"))
      #expect(RGBAImage(surface: decoded) == RGBAImage(surface: surface))
      let check = try ExternalProgram.pngcheck.run(
        [try writeTemporaryFile(png, named: "l.png")])
      #expect(check.status == 0, "\(check.output)")
    }
  }

  @Test func bandsInTurn_GiveTheSameBytesAsBandsOnTwoCores() throws {
    // Big enough for two bands: one piece would make the first comparison hold trivially.
    let surface = try makeTestFrame(width: 750, height: 1334)
    let image = RGBAImage(surface: surface)
    for compression in [PNGCompression(level: 7), .fast] {
      let encoder = PNGEncoder(compression: compression)
      let inTurn = encoder.encode(image, bandsInTurn: true)
      // Compared as Bools: a failing comparison of two arrays this size prints for minutes.
      let sameAsTwoCores = inTurn == encoder.encode(image)
      let sameAsOnePiece = inTurn == encoder.encode(surface, concurrently: false)
      #expect(sameAsTwoCores, "\(compression)")
      #expect(!sameAsOnePiece, "\(compression): two bands, not one piece")
    }
  }

  @Test func rgbaImage_EncodesToSameBytesAsItsSurface() throws {
    for surface in [
      try makeTestFrame(width: 200, height: 300), try makeTranslucentSurface(),
    ] {
      #expect(RGBAImage(surface: surface).pngData() == surface.pngData())
    }
  }

  @Test func encoding_IsDeterministic_AndReusesEncoders() throws {
    let surface = try makeTestFrame(width: 300, height: 400)
    let encoder = PNGEncoder()
    let first = encoder.encode(surface)
    // A different size and colour type in between must not leave state behind.
    _ = encoder.encode(try makeTranslucentSurface())
    #expect(encoder.encode(surface) == first)
    #expect(surface.pngData() == first)
  }

  @Test func fileSize_NoLargerThanCairos() throws {
    let surface = try makeTestFrame(width: 750, height: 1334)
    let ours = surface.pngData()
    let cairos = try surface.cairoPNGData()
    #expect(
      ours.count <= cairos.count,
      "ours \(ours.count) bytes, cairo's \(cairos.count)")
  }

  @Test func chunks_HaveValidCRCs_WhenCheckedByPngcheck() throws {
    for (name, png) in [
      ("opaque.png", try makeTestFrame(width: 120, height: 90).pngData()),
      ("alpha.png", try makeTranslucentSurface().pngData()),
    ] {
      let result = try ExternalProgram.pngcheck.run(
        [try writeTemporaryFile(png, named: name)])
      #expect(result.status == 0, "\(result.output)")
    }
  }

  @Test func emptyImage_EncodesAsValidPNG() throws {
    let image = RGBAImage(width: 3, height: 2, filledWith: (0, 0, 0, 0))
    let decoded = try ImageSurface(
      contentsOfPNGFile: writeTemporaryFile(image.pngData(), named: "clear.png")
    )
    #expect(RGBAImage(surface: decoded) == image)
  }
}

extension PNGEncoderTests {
  /// A failed render reaches the encoder as a 0×0 image: it must give bytes, never trap (it used
  /// to hit a force unwrap of a buffer never allocated for 0 bytes).
  @Test(arguments: [PNGCompression.default, .best, .fast, .frames])
  func zeroSizedImage_EncodesWithoutTrapping(compression: PNGCompression) {
    let png = RGBAImage(width: 0, height: 0, pixels: []).pngData(compression: compression)
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    // Once the encoder made room for a real image, a 0×0 one after it still works.
    _ = RGBAImage(width: 2, height: 2, filledWith: (1, 2, 3, 255)).pngData(compression: compression)
    #expect(!RGBAImage(width: 0, height: 0, pixels: []).pngData(compression: compression).isEmpty)
  }
}

// MARK: - Un-premultiplying

extension PNGEncoderTests {
  @Test func unpremultiply_HalfAlphaRed_IsFullRedAtHalfAlpha() throws {
    let surface = try ImageSurface(width: 1, height: 1)
    let context = try Context(surface)
    context.setSource(red: 1, green: 0, blue: 0, alpha: 0.5)
    context.paint()
    // Cairo stores premultiplied native-endian ARGB: B, G, R, A = 0, 0, 128, 128 on little-endian.
    let stored = surface.withUnsafePixels { buffer, _ in Array(buffer.prefix(4))
    }
    #expect(stored == [0, 0, 128, 128])
    #expect(RGBAImage(surface: surface).pixels == [255, 0, 0, 128])
  }

  @Test func unpremultiply_RoundsLikeCairo() throws {
    let surface = try ImageSurface(width: 3, height: 1)
    surface.withUnsafeMutablePixels { buffer, _ in
      let words = buffer.bindMemory(to: UInt32.self)
      words[0] = 0x0000_0000  // transparent
      words[1] = 0x0301_0203  // a=3: (c*255 + 1) / 3
      words[2] = 0xff10_2030  // opaque
    }
    #expect(
      RGBAImage(surface: surface).pixels == [
        0, 0, 0, 0,
        85, 170, 255, 3,
        0x10, 0x20, 0x30, 255,
      ])
  }
}
