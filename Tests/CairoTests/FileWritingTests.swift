import Cairo
import Foundation
import Testing
import WaterflowTestSupport

@Suite struct FileWritingTests {}

extension FileWritingTests {
  @Test func writeAtomically_WritesTheBytes_AndLeavesNoTemporaryFile() throws {
    let directory = try makeTemporaryDirectory()
    let path = directory + "/out.bin"
    try writeAtomically([1, 2, 3], to: path)
    try writeAtomically([4, 5], to: path)  // replaces
    #expect(
      try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == [4, 5])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory) == [
        "out.bin"
      ])
    let mode =
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]
      as? Int
    #expect(
      mode.map { $0 & 0o044 } == 0o044,
      "readable by others, like an ordinary file")
  }

  @Test func writeAtomically_MissingDirectory_ThrowsNamingThePath() {
    let path = "/nonexistent-waterflow-dir/frame.png"
    let error = #expect(throws: GraphicsError.self) {
      try writeAtomically([0], to: path)
    }
    #expect(error?.code == .fileNotWritable)
    #expect(error?.path == path)
    #expect(error?.description.contains(path) == true)
    #expect(error?.description.contains("does not exist") == true)
  }

  @Test func writeAtomically_ParentIsAFile_ThrowsNamingThePath() throws {
    let file = try writeTemporaryFile([0], named: "plain")
    let path = file + "/frame.png"
    let error = #expect(throws: GraphicsError.self) {
      try writeAtomically([0], to: path)
    }
    #expect(error?.description.contains(path) == true)
    #expect(error?.description.contains("not a directory") == true)
  }

  @Test func writeAtomically_UnwritableDirectory_ThrowsNamingThePath() {
    // /proc refuses new files even for root, unlike a chmod-ed directory.
    let path = "/proc/waterflow-frame.png"
    let error = #expect(throws: GraphicsError.self) {
      try writeAtomically([0], to: path)
    }
    #expect(error?.code == .fileNotWritable)
    #expect(error?.description.contains(path) == true)
  }
}
