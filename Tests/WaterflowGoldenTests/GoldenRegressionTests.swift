import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowGolden
import WaterflowRender
import WaterflowScene

@testable import WaterflowView

/// The committed goldens catch real rendering bugs, and the unmodified render passes them.
@Suite struct GoldenRegressionTests {}

extension GoldenRegressionTests {
  // MARK: - Fixtures

  /// The committed goldens, checked without recording; artifacts go to a temporary folder.
  private func committed() throws -> GoldenStore {
    GoldenStore(
      directory: GoldenTestSupport.goldenDirectory,
      configuration: GoldenTestSupport.checking(
        artifacts: try GoldenTestSupport.temporaryDirectory()))
  }

  /// A controller scrolled as the manifest's entry does it (`offset`, in steps of `step`).
  private func controller(_ scene: Scene, offset: Double, step: Double)
    -> SceneController
  {
    let controller = SceneController(scene: scene)
    _ = controller.view.layoutSubviews()
    if step > 0 {
      controller.view.scroll(to: offset, step: step)
    } else {
      _ = controller.view.scroll(to: offset)
    }
    return controller
  }

  private func check(_ image: RGBAImage, _ name: String, _ renderer: Renderer)
    throws -> GoldenOutcome
  {
    try committed().check(
      image, named: name, fingerprint: GoldenTestSupport.fingerprint(renderer))
  }

  /// A cell fully inside the viewport.
  private func visibleCell(_ c: SceneController) throws -> (
    index: Int, cell: WaterflowCell
  ) {
    let top = c.view.contentOffset.y
    let bottom = top + c.view.bounds.height
    return try #require(
      c.view.displayed.first {
        $0.cell.frame.minY >= top && $0.cell.frame.maxY <= bottom
      })
  }

  // MARK: - Unmodified

  @Test(arguments: [
    ("reference/top", "reference", 0.0, 0.0),
    ("reference/scrolled", "reference", 600, 50), ("shop/top", "shop", 0, 0),
    ("shop/scrolled", "shop", 900, 100),
  ])
  func testCommittedGolden_UnmodifiedRender_Matches(
    name: String, scene: String, offset: Double, step: Double
  ) throws {
    let renderer = try Renderer()
    let c = controller(
      try GoldenTestSupport.scene(scene), offset: offset, step: step)
    let image = try renderer.image(
      of: c.view, options: RenderOptions(scale: 1))
    let outcome = try check(image, name, renderer)
    #expect(outcome.status == .matched, "\(outcome.message)")
  }

  // MARK: - Injected bugs

  @Test func testReferenceGolden_OneCellMisplaced_Fails() throws {
    let renderer = try Renderer()
    let c = controller(
      try GoldenTestSupport.scene("reference"), offset: 0, step: 0)
    let (_, cell) = try visibleCell(c)
    // A layout bug that moves one cell 3 points to the right.
    cell.frame = Rect(
      x: cell.frame.minX + 3, y: cell.frame.minY, width: cell.frame.width,
      height: cell.frame.height)
    let outcome = try check(
      try renderer.image(
        of: c.view, options: RenderOptions(scale: 1)),
      "reference/top", renderer)
    #expect(outcome.status == .failed)
    #expect((outcome.diff?.mismatched ?? 0) > 0)
    #expect(outcome.message.contains("Golden 'reference/top' does not match"))
  }

  @Test func testScrolledGolden_RecycledCellLostItsColour_Fails() throws {
    let renderer = try Renderer()
    let c = controller(
      try GoldenTestSupport.scene("reference"), offset: 600, step: 50)
    // A reuse bug: prepareForReuse clears the colour, so the recycled cell shows the placeholder.
    let recycled = try #require(
      c.view.displayed.first { $0.cell.reuseCount > 0 })
    recycled.cell.backgroundColor = nil
    let outcome = try check(
      try renderer.image(
        of: c.view, options: RenderOptions(scale: 1)),
      "reference/scrolled", renderer)
    #expect(outcome.status == .failed)
    // Most of the cell's area changes colour (the label and clipped edges aside).
    let area = Int(
      recycled.cell.frame.width * min(recycled.cell.frame.height, 100) * 0.5)
    #expect((outcome.diff?.mismatched ?? 0) > area)
  }

  @Test func testShopGolden_PriceBarOnePixelTaller_Fails() throws {
    let renderer = try Renderer()
    let c = controller(try GoldenTestSupport.scene("shop"), offset: 0, step: 0)
    let options = RenderOptions(scale: 1)
    let surface = try renderer.surface(
      of: c.view, options: options)
    let (_, cell) = try visibleCell(c)
    #expect(cell.price != nil)
    // The bar drawn one pixel taller: one more row of its translucent black above it.
    let context = try Context(surface)
    let top = cell.frame.maxY - 25 - c.view.contentOffset.y
    context.rectangle(
      x: cell.frame.minX, y: top - 1, width: cell.frame.width, height: 1)
    context.setSource(red: 0, green: 0, blue: 0, alpha: 0.3)
    context.fill()
    let outcome = try check(RGBAImage(surface: surface), "shop/top", renderer)
    #expect(outcome.status == .failed, "a one-pixel change must fail")
    // Every pixel of that row is over the threshold; pixelmatch excuses part of a one-pixel line
    // along an edge as anti-aliasing, but enough count to fail an exact tolerance.
    let diff = try #require(outcome.diff)
    #expect(diff.mismatched > 0)
    #expect(diff.mismatched + diff.antialiased == Int(cell.frame.width))
  }

  @Test
  func
    testReuseSequence_ColourLostFromFrameTwo_ReportsFirstFailingFrameAndCount()
    throws
  {
    let renderer = try Renderer()
    let c = controller(
      try GoldenTestSupport.scene("reference"), offset: 0, step: 0)
    var frames: [GoldenFrame] = []
    var broken: Set<Int> = []
    for (k, y) in [0.0, 100, 200, 300, 400].enumerated() {
      let pass = c.view.scroll(to: y)
      var restore: [(WaterflowCell, Color?)] = []
      if k == 2 || k == 4 {
        // The bug strikes on frames 2 and 4 only: a cell reused in that pass is drawn uncoloured.
        let id = try #require(pass.reused.first?.cell)
        let cell = try #require(
          c.view.displayed.first { $0.cell.instanceID == id }?.cell)
        restore.append((cell, cell.backgroundColor))
        cell.backgroundColor = nil
        broken.insert(k)
      }
      frames.append(
        GoldenFrame(
          offset: y,
          image: try renderer.image(
            of: c.view, options: RenderOptions(scale: 1))))
      for (cell, colour) in restore { cell.backgroundColor = colour }
    }
    let outcome = try committed().checkSequence(
      frames, named: "reference/reuse",
      fingerprint: GoldenTestSupport.fingerprint(renderer))
    #expect(outcome.firstFailingFrame == 2)
    #expect(outcome.failingFrameCount == 2)
    #expect(
      outcome.frames.map(\.status) == [
        .matched, .matched, .failed, .matched, .failed,
      ])
    #expect(
      outcome.message.hasPrefix(
        "Sequence 'reference/reuse': 2 of 5 frames fail; the first is frame 2 at offset 200.\nGolden 'reference/reuse.02' does not match"
      ))
  }

  @Test func testReuseSequence_Unmodified_AllFramesMatch() throws {
    let renderer = try Renderer()
    let manifest = try GoldenManifest(
      contentsOf: GoldenTestSupport.goldenDirectory + "/manifest.json")
    let entry = try #require(
      manifest.entries.first { $0.name == "reference/reuse" })
    let outcome = try committed().check(
      entry, renderer: renderer,
      fingerprint: GoldenTestSupport.fingerprint(renderer))
    #expect(
      outcome.frames.count == 5 && outcome.firstFailingFrame == nil,
      "\(outcome.message)")
  }
}
