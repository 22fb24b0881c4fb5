// WaterflowGolden.docc, "Golden Testing": a scroll checked frame by frame, run here against the
// committed goldens of reference/reuse (the manifest's sequence from 0 to 400 in steps of 100).
// doc: expect-golden-sequence begin
import Testing
import WaterflowGolden
import WaterflowScene

@Test func referenceReuse() throws {
  let scene = try Scene(contentsOf: "Assets/Scenes/reference.json")
  // Every frame from 0 to 400 pt in steps of 100, against reference/reuse.00 … reference/reuse.04:
  try expectGoldenSequence(of: scene, from: 0, to: 400, step: 100, named: "reference/reuse")
}
// doc: expect-golden-sequence end
