// Compiled only with the SnapshotTesting trait: `swift build --traits SnapshotTesting`, or
// `traits: ["SnapshotTesting"]` on the package dependency.
#if SnapshotTesting
import Cairo
import PNGCodec
import Foundation
import SnapshotTesting
import Testing
import WaterflowGolden
import WaterflowRender
import WaterflowScene
import WaterflowSnapshotTesting

/// The swift-snapshot-testing strategy: references in Golden/SnapshotTesting, our diff and tolerances.
@Suite struct SnapshottingWaterflowTests {}

extension SnapshottingWaterflowTests {
  // MARK: - Fixtures

  private static let root = packageRoot(containing: #filePath)!
  private static let directory = root + "/Golden/SnapshotTesting"

  private func subject(offset: Double, step: Double = 50) throws
    -> WaterflowSnapshotSubject
  {
    WaterflowSnapshotSubject(
      scene: try Scene(contentsOf: Self.root + "/Assets/Scenes/reference.json"),
      offset: offset, step: step)
  }

  // MARK: - Strategy

  @Test func testVerifySnapshot_SameRender_MatchesCommittedReference() throws {
    let failure = verifySnapshot(
      of: try subject(offset: 600), as: .waterflow, named: "scrolled",
      record: .never,
      snapshotDirectory: Self.directory, testName: "reference")
    #expect(failure == nil)
  }

  @Test func testVerifySnapshot_OfAView_MatchesTheSceneReference() throws {
    // Any view works; this one is driven by the reference scene's controller, so it must give
    // exactly the scene subject's committed picture.
    let controller = SceneController(
      scene: try Scene(contentsOf: Self.root + "/Assets/Scenes/reference.json"))
    let failure = verifySnapshot(
      of: controller.view, as: .waterflow(at: 600, step: 50), named: "scrolled",
      record: .never, snapshotDirectory: Self.directory, testName: "reference")
    #expect(failure == nil)
    let off = SceneController(
      scene: try Scene(contentsOf: Self.root + "/Assets/Scenes/reference.json"))
    #expect(
      verifySnapshot(
        of: off.view, as: .waterflow(at: 600), named: "scrolled",
        record: .never, snapshotDirectory: Self.directory, testName: "reference") != nil,
      "a jump recycles no cells, so its colours differ from the stepped reference")
  }

  @Test func testVerifySnapshot_OnePointOff_FailsWithCounts() throws {
    let failure = try #require(
      verifySnapshot(
        of: try subject(offset: 601, step: 1), as: .waterflow,
        named: "scrolled", record: .never,
        snapshotDirectory: Self.directory, testName: "reference"))
    #expect(
      failure.contains(
        "Newly-taken snapshot does not match reference (375×667):"))
    #expect(failure.contains("pixels differ"))
  }

  @Test func testDiffing_Tolerance_DecidesTheVerdict() {
    let white = RGBAImage(
      width: 10, height: 10, filledWith: (255, 255, 255, 255))
    var dotted = white
    dotted.pixels.replaceSubrange(0..<3, with: [0, 0, 0])
    let exact = Diffing<RGBAImage>.waterflow()
    let (message, attachments) = try! #require(exact.diffV2(white, dotted))
    #expect(
      message
        == "Newly-taken snapshot does not match reference (10×10): 1 of 100 pixels differ (1.0%). Allowed: 0 pixels."
    )
    #expect(attachments.count == 2)
    #expect(
      Diffing<RGBAImage>.waterflow(tolerance: .pixels(1)).diffV2(white, dotted)
        == nil)
    // Round trip through PNG data keeps the pixels.
    #expect(exact.fromData(exact.toData(dotted)) == dotted)
  }

  @Test func testDiffing_DifferentSizes_SaysBothSizes() {
    let small = RGBAImage(width: 2, height: 2, filledWith: (0, 0, 0, 255))
    let large = RGBAImage(width: 3, height: 2, filledWith: (0, 0, 0, 255))
    let (message, _) = try! #require(
      Diffing<RGBAImage>.waterflow().diffV2(small, large))
    #expect(message == "Newly-taken snapshot@3×2 does not match reference@2×2.")
  }
}
#endif  // SnapshotTesting
