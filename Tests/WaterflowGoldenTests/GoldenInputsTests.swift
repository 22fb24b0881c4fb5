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
