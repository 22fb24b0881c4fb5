import Foundation
import PNGCodec
import Testing

/// The inputs `make fuzz` found, each kept in Tests/Fuzz/Corpus as `finding-*`, with what the
/// reader must now do with it.
@Suite struct FindingsTests {
  static func finding(_ harness: String, _ name: String) throws -> [UInt8] {
    try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: CorpusReplayTests.corpus + "/\(harness)/\(name)")))
  }

  /// 91 bytes (CRCs repaired, as the harness does) whose IHDR claims 134217730×2 RGBA-16 pixels: the decoder allocated 2 GB for the
  /// inflated rows before finding the data short. It now refuses at once, naming both sizes.
  @Test func pngWithHugeIHDR_AndLittleData_IsRefusedBeforeAllocating() throws {
    let bytes = try Self.finding("PNGDecoder", "finding-oom-huge-ihdr.png")
    let error = #expect(throws: PNGDecodingError.self) { try RGBAImage(pngData: bytes) }
    #expect(error?.code == .corrupt)
    #expect(error?.reason.contains("cannot hold the 2147483682 bytes") == true)
    #expect(error?.reason.contains("134217730×2") == true)
  }
}
