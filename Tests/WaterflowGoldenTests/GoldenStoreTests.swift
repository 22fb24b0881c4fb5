import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowGolden
import WaterflowRender
import WaterflowScene

/// Record modes, the CI lock, artifacts, fingerprints and determinism of `GoldenStore`.
@Suite struct GoldenStoreTests {}

extension GoldenStoreTests {
  // MARK: - Fixtures

  private static let white = RGBAImage(
    width: 8, height: 6, filledWith: (255, 255, 255, 255))
  private static var blackDot: RGBAImage {
    var image = white
    image.pixels.replaceSubrange(0..<3, with: [0, 0, 0])
    return image
  }
  private static let stack = FontStackFingerprint(
    cairo: "1.16.0", pixman: "0.42.2", freetype: "2.12.1",
    font: "DejaVuSans.ttf", fontHash: "fnv1a64:0000000000000001")

  private func store(_ directory: String, _ mode: RecordMode, ci: Bool = false)
    -> GoldenStore
  {
    GoldenStore(
      directory: directory + "/Golden",
      configuration: GoldenConfiguration(
        recordMode: mode, isCI: ci, artifactsDirectory: directory + "/artifacts"
      ))
  }

  // MARK: - Record modes

  @Test func testCheck_MissingGoldenModeMissing_RecordsItAndFingerprint() throws
  {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let outcome = try store(dir, .missing).check(
      Self.white, named: "a/b", fingerprint: Self.stack)
    #expect(outcome.status == .recordedNew)
    #expect(
      try RGBAImage(contentsOfPNGFile: dir + "/Golden/a/b.png") == Self.white)
    #expect(
      try FontStackFingerprint.read(from: dir + "/Golden/fingerprint.json")
        == Self.stack)
    // Atomic writes leave no temporary files behind.
    #expect(
      GoldenTestSupport.files(in: dir + "/Golden") == [
        "a", "a/b.png", "fingerprint.json",
      ])
  }

  @Test func testCheck_MissingGoldenModeNever_FailsWithTheRecordCommand() throws
  {
    let dir = try GoldenTestSupport.temporaryDirectory()
    var s = store(dir, .never)
    s.configuration.recordHint = { "waterflow golden record \($0)" }
    let outcome = try s.check(Self.white, named: "x", fingerprint: Self.stack)
    #expect(outcome.status == .missing && outcome.isFailure)
    #expect(
      outcome.message.contains(
        "No golden 'x' at \(dir)/Golden/x.png, and the record mode is 'never'"))
    #expect(outcome.message.contains("waterflow golden record x"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/Golden/x.png"))
    #expect(
      FileManager.default.fileExists(atPath: dir + "/artifacts/x.actual.png"))
  }

  @Test(arguments: [RecordMode.missing, .failed, .all])
  func testCheck_CIWithAnyMode_NeverWritesGoldens(mode: RecordMode) throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    _ = try store(dir, .all).check(
      Self.white, named: "kept", fingerprint: Self.stack)
    let ci = store(dir, mode, ci: true)
    let missing = try ci.check(
      Self.white, named: "new", fingerprint: Self.stack)
    #expect(missing.status == .missing)
    #expect(
      missing.message.contains("CI is set, so goldens are never recorded here"))
    let changed = try ci.check(
      Self.blackDot, named: "kept", fingerprint: Self.stack)
    #expect(changed.status == .failed)
    #expect(
      try RGBAImage(contentsOfPNGFile: dir + "/Golden/kept.png") == Self.white)
    #expect(!FileManager.default.fileExists(atPath: dir + "/Golden/new.png"))
  }

  @Test func testCheck_ModeFailed_ReplacesOnlyTheFailingGolden() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    _ = try store(dir, .all).check(
      Self.white, named: "g", fingerprint: Self.stack)
    let same = try store(dir, .failed).check(
      Self.white, named: "g", fingerprint: Self.stack)
    #expect(same.status == .matched)
    let changed = try store(dir, .failed).check(
      Self.blackDot, named: "g", fingerprint: Self.stack)
    #expect(changed.status == .rerecorded)
    #expect(
      try RGBAImage(contentsOfPNGFile: dir + "/Golden/g.png") == Self.blackDot)
  }

  @Test func testEnvironment_RecordVariableAndCI_AreRead() throws {
    let local = try GoldenConfiguration.fromEnvironment([
      "WATERFLOW_RECORD": "failed"
    ])
    #expect(local.recordMode == .failed && local.effectiveRecordMode == .failed)
    let ci = try GoldenConfiguration.fromEnvironment([
      "WATERFLOW_RECORD": "all", "CI": "true",
    ])
    #expect(ci.isCI && ci.effectiveRecordMode == .never)
    #expect(
      try GoldenConfiguration.fromEnvironment(["CI": "false"]).isCI == false)
    #expect(try GoldenConfiguration.fromEnvironment([:]).recordMode == .missing)
    let error = #expect(throws: GoldenError.self) {
      try GoldenConfiguration.fromEnvironment(["WATERFLOW_RECORD": "yes"])
    }
    #expect(
      error?.description
        == "The value 'yes' is invalid for WATERFLOW_RECORD: use never, missing, failed or all."
    )
  }

  // MARK: - Failures

  @Test func testCheck_Mismatch_WritesThreeArtifactsAndNamesCounts() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    _ = try store(dir, .all).check(
      Self.white, named: "s/g", fingerprint: Self.stack)
    let outcome = try store(dir, .never).check(
      Self.blackDot, named: "s/g", fingerprint: Self.stack)
    #expect(outcome.status == .failed)
    #expect(
      outcome.message.hasPrefix(
        "Golden 's/g' does not match \(dir)/Golden/s/g.png (8×6): 1 of 48 pixels differ (2.083%), allowed 0 pixels."
      ))
    let artifacts = try #require(outcome.artifacts)
    #expect(try RGBAImage(contentsOfPNGFile: artifacts.expected!) == Self.white)
    #expect(try RGBAImage(contentsOfPNGFile: artifacts.actual) == Self.blackDot)
    // The expected image is the golden file itself; the others are frame-encoded, not libdeflate.
    let goldenBytes = FileManager.default.contents(atPath: dir + "/Golden/s/g.png")
    #expect(
      goldenBytes != nil && FileManager.default.contents(atPath: artifacts.expected!) == goldenBytes)
    #expect(
      FileManager.default.contents(atPath: artifacts.actual)
        == Data(Self.blackDot.pngData(compression: GoldenStore.artifactEncoding)))
    #expect(
      Self.blackDot.pngData(compression: GoldenStore.artifactEncoding)
        != Self.blackDot.pngData(compression: .fast))
    // expected | actual | diff, 4-pixel gaps; the diff panel marks the changed pixel red.
    let panels = try RGBAImage(contentsOfPNGFile: artifacts.diff!)
    #expect(panels.width == 8 * 3 + 8 && panels.height == 6)
    let diffOrigin = (8 + 4) * 2 * 4
    #expect(
      Array(panels.pixels[diffOrigin..<diffOrigin + 4]) == [255, 0, 0, 255])
  }

  @Test func testCheck_FontStackChanged_SaysSoFirst() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    _ = try store(dir, .all).check(
      Self.white, named: "g", fingerprint: Self.stack)
    var newer = Self.stack
    newer.freetype = "2.13.2"
    let outcome = try store(dir, .never).check(
      Self.blackDot, named: "g", fingerprint: newer)
    #expect(outcome.fontStackChanges == ["freetype 2.12.1 → 2.13.2"])
    #expect(
      outcome.message.hasPrefix(
        "The font stack differs from the one the goldens were recorded with (\(dir)/Golden/fingerprint.json): freetype 2.12.1 → 2.13.2."
      ))
  }

  @Test func testCheck_DifferentSize_FailsNamingBothSizes() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    _ = try store(dir, .all).check(
      Self.white, named: "g", fingerprint: Self.stack)
    let bigger = RGBAImage(
      width: 9, height: 6, filledWith: (255, 255, 255, 255))
    let outcome = try store(dir, .never).check(
      bigger, named: "g", fingerprint: Self.stack)
    #expect(outcome.status == .failed)
    #expect(outcome.message.contains("is 8×6, the rendered image is 9×6"))
  }

  @Test func testCheck_CorruptGolden_ThrowsNamingTheFile() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: dir + "/Golden", withIntermediateDirectories: true)
    try Data("not a png".utf8).write(
      to: URL(fileURLWithPath: dir + "/Golden/bad.png"))
    let error = #expect(throws: GoldenError.self) {
      try store(dir, .never).check(
        Self.white, named: "bad", fingerprint: Self.stack)
    }
    #expect(error?.code == .file)
    #expect(error?.description.contains("\(dir)/Golden/bad.png") == true)
  }

  /// A write that fails (a full disk; here a folder where the file should go, which the rename
  /// refuses) is one sentence: the path and the reason, each once.
  @Test func testRecord_WriteFails_NamesThePathOnce() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let path = dir + "/Golden/b2.png"
    try FileManager.default.createDirectory(
      atPath: path + "/in-the-way", withIntermediateDirectories: true)
    let error = #expect(throws: GoldenError.self) {
      try store(dir, .all).check(Self.white, named: "b2", fingerprint: Self.stack)
    }
    #expect(error?.code == .file)
    #expect(error?.description == "Cannot write '\(path)': \(String(cString: strerror(EISDIR))).")
  }

  // MARK: - Determinism

  @Test func testRecordThenCheck_SameRun_Passes() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let renderer = try Renderer()
    let shot = GoldenShot(
      scene: try GoldenTestSupport.scene("shop"),
      position: .offset(900, step: 100), options: RenderOptions(scale: 1))
    let first = try shot.frames(with: renderer)[0].image
    let recorded = try store(dir, .all).check(
      first, named: "shop", fingerprint: GoldenTestSupport.fingerprint(renderer)
    )
    #expect(recorded.status == .recordedAll)
    // A second render, from a new controller and renderer, is bit-identical.
    let second = try shot.frames(with: try Renderer())[0].image
    let checked = try store(dir, .never).check(
      second, named: "shop",
      fingerprint: GoldenTestSupport.fingerprint(renderer))
    #expect(checked.status == .matched)
    #expect(checked.diff?.identical == true)
  }
}

extension GoldenStoreTests {
  // MARK: - expectGolden

  @Test func testExpectGolden_FindsGoldenFromFilePathAndThrowsOnMismatch()
    throws
  {
    let scene = try GoldenTestSupport.scene("reference")
    let configuration = GoldenTestSupport.checking(
      artifacts: try GoldenTestSupport.temporaryDirectory())
    try expectGolden(
      of: scene, at: 600, step: 50, named: "reference/scrolled",
      configuration: configuration)
    let error = #expect(throws: GoldenError.self) {
      try expectGolden(
        of: scene, at: 601, step: 50, named: "reference/scrolled",
        configuration: configuration)
    }
    #expect(error?.code == .mismatch)
    #expect(
      error?.description.hasPrefix(
        "Golden 'reference/scrolled' does not match \(GoldenTestSupport.goldenDirectory)/reference/scrolled.png (375×667):"
      ) == true)
  }
}

extension GoldenStoreTests {
  // MARK: - Decoding ahead

  /// A store that decodes each golden while its entry renders (`decodesAhead`, for runs with a
  /// spare core) reports what one that decodes afterwards does: a match, a failure with its
  /// counts and artifacts, an unchanged re-record that leaves the file alone, and a corrupt file.
  @Test func testDecodesAhead_GivesTheSameOutcomes() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let shop = #"{"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 2, "items": [{"height": 80, "price": "1.00"}, {"height": 80, "price": "PRICE"}]}"#
    try shop.replacingOccurrences(of: "PRICE", with: "1.20").write(
      toFile: dir + "/shop.json", atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: dir + "/G", withIntermediateDirectories: true)
    try #"{"goldens": [{"name": "same", "scene": "../shop.json"}, {"name": "moved", "scene": "../shop.json", "offset": 0}, {"name": "bad", "scene": "../shop.json"}]}"#
      .write(toFile: dir + "/G/manifest.json", atomically: true, encoding: .utf8)
    let manifest = try GoldenManifest(contentsOf: dir + "/G/manifest.json")
    let renderer = try Renderer()
    let fingerprint = FontStackFingerprint(renderer: renderer)
    func store(_ mode: RecordMode, ahead: Bool) -> GoldenStore {
      var store = GoldenStore(
        directory: dir + "/G",
        configuration: GoldenConfiguration(recordMode: mode, artifactsDirectory: dir + "/a"))
      store.decodesAhead = ahead
      return store
    }
    for entry in manifest.entries {
      _ = try store(.all, ahead: false).check(entry, renderer: renderer, fingerprint: fingerprint)
    }
    // "moved" now differs (another price), "bad" is not a PNG any more.
    try shop.replacingOccurrences(of: "PRICE", with: "9.99").write(
      toFile: dir + "/shop.json", atomically: true, encoding: .utf8)
    let same = manifest.entries[0]
    try FileManager.default.removeItem(atPath: dir + "/G/same.png")
    _ = try store(.all, ahead: false).check(same, renderer: renderer, fingerprint: fingerprint)
    try Data("not a png".utf8).write(to: URL(fileURLWithPath: dir + "/G/bad.png"))
    let sameBytes = FileManager.default.contents(atPath: dir + "/G/same.png")

    func summary(_ outcome: GoldenSequenceOutcome) -> [String] {
      outcome.frames.map { "\($0.status) \($0.diff?.mismatched ?? -1) \($0.unchanged) \($0.message)" }
    }
    for mode in [RecordMode.never, .all] {
      let plain = try store(mode, ahead: false).check(manifest.entries[0], renderer: renderer, fingerprint: fingerprint)
      let ahead = try store(mode, ahead: true).check(manifest.entries[0], renderer: renderer, fingerprint: fingerprint)
      #expect(summary(ahead) == summary(plain))
      #expect(ahead.frames[0].status == (mode == .never ? .matched : .recordedAll))
      #expect(FileManager.default.contents(atPath: dir + "/G/same.png") == sameBytes)
    }
    let plain = try store(.never, ahead: false).check(manifest.entries[1], renderer: renderer, fingerprint: fingerprint)
    let ahead = try store(.never, ahead: true).check(manifest.entries[1], renderer: renderer, fingerprint: fingerprint)
    #expect(ahead.frames[0].status == .failed && ahead.frames[0].diff?.mismatched ?? 0 > 0)
    #expect(summary(ahead) == summary(plain))
    #expect(FileManager.default.fileExists(atPath: dir + "/a/moved.diff.png"))
    let errors = [false, true].map { ahead in
      #expect(throws: GoldenError.self) {
        try store(.never, ahead: ahead).check(manifest.entries[2], renderer: renderer, fingerprint: fingerprint)
      }
    }
    #expect(errors[0]?.description == errors[1]?.description)
    #expect(errors[1]?.description.contains("\(dir)/G/bad.png") == true)
  }
}
