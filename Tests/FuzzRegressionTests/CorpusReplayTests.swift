import Foundation
import FuzzChecks
import Testing

/// Every input of Tests/Fuzz/Corpus (the seeds, and each input a fuzz run once crashed on) goes
/// through its harness's check in the ordinary test run: a reader that traps again fails here,
/// without libFuzzer.
@Suite struct CorpusReplayTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus").path

  @Test(arguments: FuzzChecks.all.keys.sorted())
  func everyCorpusInput_PassesItsCheck(harness: String) throws {
    let folder = Self.corpus + "/" + harness
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(!names.isEmpty, "each harness has seeds")
    let check = try #require(FuzzChecks.all[harness])
    for name in names {
      check(try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))))
    }
  }

  @Test func everyCorpusFolder_HasAHarness() throws {
    let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).sorted()
    #expect(folders == FuzzChecks.all.keys.sorted())
  }
}
