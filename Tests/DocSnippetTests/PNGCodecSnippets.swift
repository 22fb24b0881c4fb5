// PNGCodec.docc, "Encoding and Decoding PNG": compiled and run here.
import Foundation
import Testing
import WaterflowTestSupport
// doc: png-codec begin
import PNGCodec

// doc: png-codec end

@Suite struct PNGCodecSnippetTests {
  /// The article, whose output blocks show what these examples print.
  static func article() throws -> String {
    try String(
      contentsOfFile: packageRoot + "/Sources/PNGCodec/PNGCodec.docc/Articles/EncodingPNG.md", encoding: .utf8)
  }

  @Test func anImage_RoundTripsThroughEitherEncoder() throws {
    // doc: png-codec begin
    // Two pixels: opaque red, and blue at half alpha (straight, not premultiplied).
    let image = RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 128])
    let png = image.pngData()                          // libdeflate in two bands, level 6
    let frame = image.pngData(compression: .frames)    // the run encoder, for frame sequences
    let decoded = try RGBAImage(pngData: png)
    print(decoded == image, try RGBAImage(pngData: frame) == image)
    // doc: png-codec end
    #expect(decoded == image)
    #expect(try Self.article().contains("```\ntrue true\n```"))
    #expect(try RGBAImage(pngData: frame) == image)
  }

  @Test func notAPNG_IsAnErrorThatSaysWhy() throws {
    // doc: png-codec-error begin
    do {
      _ = try RGBAImage(pngData: Array("{}".utf8))
    } catch {
      print(error.code, error.reason)
    }
    // doc: png-codec-error end
    let error = #expect(throws: PNGDecodingError.self) { try RGBAImage(pngData: Array("{}".utf8)) }
    #expect(try Self.article().contains("```\n\(error!.code) \(error!.reason)\n```"))
  }
}
