// WaterflowSnapshotTesting.docc, "Snapshot Testing from Swift": the test example, compiled and
// run here against the committed goldens, and the swift-snapshot-testing calls, compiled with
// the SnapshotTesting trait.
// doc: expect-golden begin
import Testing
import WaterflowGolden
import WaterflowScene

@Test func referenceScrolled() throws {
  let scene = try Scene(contentsOf: "Assets/Scenes/reference.json")
  try expectGolden(of: scene, at: 600, step: 50, named: "reference/scrolled")
  // Options leave the record mode (WATERFLOW_RECORD, CI) alone:
  try expectGolden(
    of: scene, at: 600, step: 50, named: "reference/scrolled",
    tolerance: .pixels(4), maskedCells: [7], fontPath: nil)
}
// doc: expect-golden end

#if SnapshotTesting
import SnapshotTesting
import WaterflowSnapshotTesting
import WaterflowView

/// Compiled, not called: `assertSnapshot` records on a first run.
func snapshotTestingSnippet(scene: Scene, view: WaterflowView) {
  // doc: assert-snapshot begin
  assertSnapshot(of: WaterflowSnapshotSubject(scene: scene, offset: 600, step: 50),
                 as: .waterflow(tolerance: .pixels(4)))
  assertSnapshot(of: view, as: .waterflow(at: 600, step: 50))
  // doc: assert-snapshot end
}
#endif
