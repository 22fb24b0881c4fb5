import Foundation
import PNGCodec
import Testing
import WaterflowGolden
import WaterflowTestSupport

/// Goldens kept per font stack, in `stacks/<stack>/`: each stack records and checks its own,
/// pixel for pixel.
@Suite struct PerStackGoldenTests {
  static let debian12 = FontStackFingerprint(
    cairo: "1.16.0", pixman: "0.42.2", freetype: "2.12.1", font: "DejaVuSans.ttf",
    fontHash: "fnv1a64:adadfef763426946")
  static var debian13: FontStackFingerprint {
    var s = debian12
    (s.cairo, s.pixman, s.freetype) = ("1.18.4", "0.44.0", "2.13.3")
    return s
  }

  static func image(_ shade: UInt8) -> RGBAImage {
    RGBAImage(width: 12, height: 8, filledWith: (shade, shade, shade, 255))
  }

  static func manifest(in dir: String, perStack: Bool) throws -> GoldenManifest {
    try FileManager.default.createDirectory(atPath: dir + "/G", withIntermediateDirectories: true)
    try """
      {\(perStack ? #""perStack": true, "# : "")"goldens": [{"name": "shop/top", "scene": "s.json"}]}
      """.write(toFile: dir + "/G/manifest.json", atomically: true, encoding: .utf8)
    return try GoldenManifest(contentsOf: dir + "/G/manifest.json")
  }

  @Test func folderName_IsReadable_AndTellsApartStacksThatDifferInAnything() {
    #expect(Self.debian12.folderName.hasPrefix("cairo-1.16.0_pixman-0.42.2_freetype-2.12.1_"))
    #expect(Self.debian12.folderName.count == "cairo-1.16.0_pixman-0.42.2_freetype-2.12.1_".count + 8)
    #expect(Self.debian12.folderName == Self.debian12.folderName)
    var otherFont = Self.debian12
    otherFont.fontHash = "fnv1a64:0000000000000001"
    #expect(otherFont.folderName != Self.debian12.folderName)
    var odd = Self.debian12
    odd.freetype = "2.13.3+dfsg/1 x"
    #expect(odd.folderName.hasPrefix("cairo-1.16.0_pixman-0.42.2_freetype-2.13.3-dfsg-1-x_"))
  }

  @Test func manifest_PerStack_PutsTheGoldensInTheStacksFolder() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-per-stack")
    let plain = try Self.manifest(in: dir, perStack: false)
    #expect(plain.perStack == false)
    #expect(plain.goldenDirectory(for: Self.debian12, perStack: false) == dir + "/G")
    let manifest = try Self.manifest(in: dir, perStack: true)
    #expect(manifest.perStack)
    #expect(
      manifest.goldenDirectory(for: Self.debian13, perStack: true)
        == dir + "/G/stacks/" + Self.debian13.folderName)
  }

  @Test func eachStack_RecordsAndChecksItsOwnFolder_PixelForPixel() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-per-stack")
    let manifest = try Self.manifest(in: dir, perStack: true)
    func store(_ stack: FontStackFingerprint, _ mode: RecordMode) -> GoldenStore {
      GoldenStore(
        directory: manifest.goldenDirectory(for: stack, perStack: true),
        configuration: GoldenConfiguration(recordMode: mode, artifactsDirectory: dir + "/a"))
    }
    #expect(try store(Self.debian12, .missing).check(Self.image(200), named: "shop/top", fingerprint: Self.debian12).status == .recordedNew)
    // Debian 13 has no golden of its own yet: missing, never compared with Debian 12's.
    let missing = try store(Self.debian13, .never).check(
      Self.image(201), named: "shop/top", fingerprint: Self.debian13)
    #expect(missing.status == .missing)
    #expect(missing.message.contains("/G/stacks/\(Self.debian13.folderName)/shop/top.png"))
    // Recorded there, each stack passes on its own pixels, and a 1-level change fails.
    _ = try store(Self.debian13, .missing).check(Self.image(201), named: "shop/top", fingerprint: Self.debian13)
    let thirteen = try store(Self.debian13, .never).check(
      Self.image(201), named: "shop/top", fingerprint: Self.debian13)
    #expect(thirteen.status == .matched && thirteen.crossStack == nil)
    #expect(try store(Self.debian12, .never).check(Self.image(200), named: "shop/top", fingerprint: Self.debian12).status == .matched)
    let changed = try store(Self.debian12, .never).check(
      Self.image(230), named: "shop/top", fingerprint: Self.debian12)
    #expect(changed.status == .failed && changed.fontStackChanges.isEmpty)
    // Each folder notes its own stack.
    for stack in [Self.debian12, Self.debian13] {
      let path = store(stack, .never).fingerprintPath
      #expect(try FontStackFingerprint.read(from: path) == stack)
    }
    // Prune owns every stack's copy, and finds an orphan in any of them.
    #expect(manifest.orphans() == [])
    let stray = "stacks/\(Self.debian13.folderName)/shop/old.png"
    try Data(Self.image(1).pngData()).write(to: URL(fileURLWithPath: dir + "/G/" + stray))
    #expect(manifest.orphans() == [stray])
  }

  @Test func goldenNamesUnderStacks_AreRefused() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-per-stack")
    try #"{"goldens": [{"name": "stacks/top", "scene": "s.json"}]}"#
      .write(toFile: dir + "/m.json", atomically: true, encoding: .utf8)
    #expect {
      try GoldenManifest(contentsOf: dir + "/m.json")
    } throws: { error in
      "\(error)".contains("lies under 'stacks/', where goldens kept per font stack live")
    }
  }
}

extension PerStackGoldenTests {
  /// The font configuration's rules are part of the stack: a fingerprint file from before them
  /// reads without them and names the change, and this process's own fingerprint has them.
  @Test func fontRules_AreInTheFingerprint_AndNamedWhenTheyChange() throws {
    let dir = try makeTemporaryDirectory(prefix: "fingerprint-rules")
    let path = dir + "/fingerprint.json"
    let old = #"{"cairo": "1.16.0", "pixman": "0.42.2", "freetype": "2.12.1", "font": "DejaVuSans.ttf", "fontHash": "fnv1a64:1"}"#
    try Data(old.utf8).write(to: URL(fileURLWithPath: path))
    let recorded = try #require(try FontStackFingerprint.read(from: path))
    #expect(recorded.rules == "")
    var now = recorded
    now.rules = "synthetic bold"
    #expect(now.changes(since: recorded) == ["font rules (none) → synthetic bold"])
    // Written and read back, the rules stay.
    try Data(now.fileContents).write(to: URL(fileURLWithPath: path))
    #expect(try FontStackFingerprint.read(from: path) == now)
    #expect(String(decoding: now.fileContents, as: UTF8.self).contains(#""rules" : "synthetic bold""#))
  }
}
