// The README's Swift test example, compiled and run here against the committed goldens.
// README: golden-test begin
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
// README: golden-test end

@Test func readme_ShowsTheSwiftTestExampleVerbatim() throws {
  try GoldenTestSupport.expectREADMEShows(["golden-test"], of: #filePath)
}
