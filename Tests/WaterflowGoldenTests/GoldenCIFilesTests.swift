import Cairo
import Foundation
import PNGCodec
import Testing
import WaterflowGolden
import WaterflowGoldenReport
import WaterflowTestSupport

/// The files a golden run leaves for CI and for git: JUnit from `expectGolden`, annotations,
/// goldens that do not churn, and a fingerprint with one entry per golden.
@Suite struct GoldenCIFilesTests {
  static let stack = FontStackFingerprint(
    cairo: "1", pixman: "1", freetype: "1", font: "f.ttf", fontHash: "fnv1a64:0")
  static let other = FontStackFingerprint(
    cairo: "2", pixman: "1", freetype: "1", font: "f.ttf", fontHash: "fnv1a64:0")

  static func image(_ shade: UInt8) -> RGBAImage {
    RGBAImage(width: 30, height: 20, filledWith: (shade, shade, shade, 255))
  }

  @Test func annotation_EscapesDataAndPropertiesAsGitHubSays() {
    let a = GitHubAnnotation(
      file: "Golden/a,b:c%.png", title: "shop: top, 1", message: "50% off\nnext line\r")
    #expect(a.line == "::error file=Golden/a%2Cb%3Ac%25.png,title=shop%3A top%2C 1::50%25 off%0Anext line%0D")
    #expect(!a.line.contains("\n"))
  }

  /// `WATERFLOW_JUNIT` gives `expectGolden` a JUnit file, which junitparser reads back.
  @Test func junitLog_FromTheEnvironment_IsReadBackByJunitparser() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    #expect(GoldenJUnitLog.fromEnvironment([:], packageRoot: dir) == nil)
    let log = try #require(
      GoldenJUnitLog.fromEnvironment(["WATERFLOW_JUNIT": "out/g.xml"], packageRoot: dir))
    #expect(log.path == dir + "/out/g.xml")
    #expect(GoldenJUnitLog.fromEnvironment(["WATERFLOW_JUNIT": "out/g.xml"], packageRoot: dir) === log)
    let store = GoldenStore(
      directory: dir + "/Golden",
      configuration: .init(recordMode: .missing, artifactsDirectory: dir + "/a"))
    _ = try store.check(Self.image(200), named: "x/ok", fingerprint: Self.stack)
    _ = try store.check(Self.image(200), named: "x/bad", fingerprint: Self.stack)
    for (name, shade) in [("x/ok", UInt8(200)), ("x/bad", 20)] {
      let outcome = try store.check(Self.image(shade), named: name, fingerprint: Self.stack)
      try log.record(
        GoldenSequenceOutcome(name: name, offsets: [0], frames: [outcome], isSequence: false))
    }
    let script = """
      import sys
      from junitparser import JUnitXml, Failure
      for suite in JUnitXml.fromfile(sys.argv[1]):
          for case in suite:
              for r in case.result:
                  print(case.name, type(r).__name__, r.type, r.message, "diff.png" in (r.text or ""))
              if not case.result:
                  print(case.name, "passed")
      """
    try script.write(toFile: dir + "/read.py", atomically: true, encoding: .utf8)
    let read = try ExternalProgram.pythonJUnit.run([dir + "/read.py", log.path])
    #expect(read.status == 0, "\(read.stderr)")
    // Sorted by name, whatever order the tests ran in.
    #expect(read.stdout.hasPrefix("x/bad Failure mismatch "), "\(read.stdout)")
    #expect(read.stdout.hasSuffix("True\nx/ok passed\n"), "\(read.stdout)")
  }

  @Test func junit_EscapesMarkupAndKeepsLineBreaksInAttributes() {
    let xml = JUnitReport(
      name: "a<b", cases: [
        .init(
          name: "q\"&", classname: "golden", file: "f.png",
          failure: .init(type: "content", message: "one\ntwo", body: "<b>&\u{1}"))
      ]
    ).xml()
    #expect(xml.contains("name=\"a&lt;b\""))
    #expect(xml.contains("<testcase name=\"q&quot;&amp;\""))
    #expect(xml.contains("message=\"one&#10;two\">&lt;b&gt;&amp;\u{FFFD}</failure>"))
  }

  /// Re-recording the same pixels leaves the file's bytes alone, even when this encoder would
  /// write other bytes; different pixels are written.
  @Test func record_SamePixels_LeavesTheFileUntouched() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let store = GoldenStore(
      directory: dir, configuration: .init(recordMode: .all, artifactsDirectory: dir + "/a"))
    let path = store.path(for: "g")
    // The same pixels, encoded as another tool would (fast compression: other bytes).
    let foreign = Self.image(90).pngData(compression: .fast)
    try Data(foreign).write(to: URL(fileURLWithPath: path))
    #expect(foreign != GoldenStore.encoded(Self.image(90)))
    let same = try store.check(Self.image(90), named: "g", fingerprint: Self.stack)
    #expect(same.status == .recordedAll && same.unchanged)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(foreign))
    let changed = try store.check(Self.image(91), named: "g", fingerprint: Self.stack)
    #expect(!changed.unchanged)
    #expect(try RGBAImage(contentsOfPNGFile: path).pixels == Self.image(91).pixels)
  }

  /// One golden recorded on another stack gets an entry of its own; the folder's stack and the
  /// other goldens are untouched, and a file in the old format reads as before.
  @Test func record_OnAnotherStack_WritesOnlyThatGoldensEntry() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let store = GoldenStore(
      directory: dir, configuration: .init(recordMode: .all, artifactsDirectory: dir + "/a"))
    _ = try store.check(Self.image(1), named: "a", fingerprint: Self.stack)
    _ = try store.check(Self.image(2), named: "b", fingerprint: Self.stack)
    let old = try Data(contentsOf: URL(fileURLWithPath: store.fingerprintPath))
    #expect(old == Data(Self.stack.fileContents), "without entries, the old format, byte for byte")

    _ = try store.check(Self.image(3), named: "b", fingerprint: Self.other)
    let text = try String(contentsOfFile: store.fingerprintPath, encoding: .utf8)
    #expect(text.hasPrefix(String(decoding: Self.stack.fileContents.dropLast(3), as: UTF8.self)))
    #expect(text.contains(#"    "b" : {"cairo" : "2", "font" : "f.ttf", "#))
    #expect(!text.contains(#""a" :"#))
    // Older readers see the folder's stack.
    #expect(try FontStackFingerprint.read(from: store.fingerprintPath) == Self.stack)
    // Each golden is compared with its own stack.
    #expect(try store.fontStackChanges(to: Self.other, of: "b").isEmpty)
    #expect(try store.fontStackChanges(to: Self.other, of: "a") == ["cairo 1 → 2"])
    // Back on the folder's stack, the entry goes and the file is as it was.
    _ = try store.check(Self.image(4), named: "b", fingerprint: Self.stack)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store.fingerprintPath)) == old)
  }

  @Test func fingerprint_WithABadEntry_NamesTheFileAndField() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let path = dir + "/fingerprint.json"
    var text = String(decoding: Self.stack.fileContents, as: UTF8.self)
    text = String(text.dropLast(2)) + #", "goldens": {"g": {"cairo": "1"}}}"#
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let store = GoldenStore(directory: dir, configuration: .init(artifactsDirectory: dir + "/a"))
    let error = #expect(throws: GoldenError.self) {
      try store.fontStackChanges(to: Self.stack, of: "g")
    }
    #expect(error?.description.contains("\(path)") == true)
    #expect(error?.description.contains("goldens.g.pixman: missing") == true, "\(String(describing: error))")
  }

  /// The committed fingerprint is read and written back byte for byte.
  @Test func committedFingerprint_RoundTrips() throws {
    let path = GoldenTestSupport.goldenDirectory + "/fingerprint.json"
    let stack = try #require(try FontStackFingerprint.read(from: path))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(stack.fileContents))
  }
}
