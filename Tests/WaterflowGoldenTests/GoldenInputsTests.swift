import Foundation
import Testing
import WaterflowGolden

@Suite("Golden inputs") struct GoldenInputsTests {
  func inputs(_ pairs: [(String, String)]) -> GoldenInputs {
    GoldenInputs(inputs: pairs.map { GoldenInputs.Input(name: $0.0, value: $0.1) })
  }

  @Test("changes name each input: a new binary by its versions, files and fonts by name")
  func changes() {
    let old = inputs([
      ("binary", GoldenInputs.binary(version: "waterflow 0.1.0")), ("entry", "fnv1a64:1"),
      ("file ../a.json", "fnv1a64:2"), ("file ../b.jpg", "fnv1a64:3"), ("font A.ttf", "fnv1a64:4"),
    ])
    #expect(old.changes(since: old).isEmpty)
    let now = inputs([
      ("binary", GoldenInputs.binary(version: "waterflow 0.2.0")), ("entry", "fnv1a64:1"),
      ("file ../a.json", "fnv1a64:9"), ("file ../c.jpg", "fnv1a64:3"), ("font A.ttf", "fnv1a64:5"),
    ])
    let revision = GoldenInputs.rendererRevision
    #expect(
      now.changes(since: old) == [
        "binary waterflow 0.1.0, renderer revision \(revision) → waterflow 0.2.0, renderer revision \(revision)",
        "file ../a.json", "file ../c.jpg (new)", "font A.ttf", "file ../b.jpg (no longer read)",
      ])
    #expect(now.digest != old.digest)
    // The order inputs are given in does not matter.
    #expect(inputs([("b", "1"), ("a", "2")]).digest == inputs([("a", "2"), ("b", "1")]).digest)
  }
}

/// GoldenInputs describes a manifest entry field by field: a field added to one of these types
/// must be added to that description too, or `--changed` would skip a golden whose entry changed.
@Suite("Golden inputs: the entry's fields") struct GoldenInputsFieldTests {
  @Test("the described types have the fields the description names")
  func fieldCounts() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inputs-\(UUID())").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try #"{"goldens": [{"name": "a", "scene": "s.json"}]}"#.write(
      toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
    let manifest = try GoldenManifest(contentsOf: dir + "/manifest.json")
    let entry = try #require(manifest.entries.first)
    // name, scenePath, position, options, overview, diffOptions, tolerance, maskedCells,
    // screenshot, appearance
    #expect(Mirror(reflecting: entry).children.count == 10)
    // threshold, includeAA, alpha, aaColor, diffColor, diffColorAlt, diffMask, checkerboard,
    // masks, maskColor
    #expect(Mirror(reflecting: entry.diffOptions).children.count == 10)
    #expect(Mirror(reflecting: entry.tolerance).children.count == 2)
  }
}
