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
import WaterflowTestSupport

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

  @Test func testVerifySnapshot_TemplateCells_MatchTheirReference() throws {
    // The user's own cells: the notes feed's template, its data imported from JSON lines.
    let subject = WaterflowSnapshotSubject(
      scene: try Scene(contentsOf: Self.root + "/Assets/Feeds/notes.json"), offset: 300, step: 50)
    let failure = verifySnapshot(
      of: subject, as: .waterflow, named: "notes", record: .never,
      snapshotDirectory: Self.directory, testName: "feeds")
    #expect(failure == nil)
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

  @Test func testFacts_RideInTheReferencePNG_AndExplainAFailure() throws {
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("waterflow-snapshot-\(UUID().uuidString)").path
    // Recording writes the facts into the reference PNG's text.
    _ = verifySnapshot(
      of: try subject(offset: 600), as: .waterflow, named: "facts", record: .all,
      snapshotDirectory: dir, testName: "t")
    let reference = try Data(contentsOf: URL(fileURLWithPath: dir + "/t.facts.png"))
    let snapshot = Diffing<WaterflowSnapshot>.waterflow().fromData(reference)
    #expect(snapshot.image.width == 375 && snapshot.facts?.offset == 600)
    #expect(snapshot.facts?.cells.isEmpty == false)
    // A top margin one point larger: every cell moved down, and the message says so.
    let json = try String(contentsOfFile: Self.root + "/Assets/Scenes/reference.json", encoding: .utf8)
      .replacingOccurrences(of: "\"top\": 10", with: "\"top\": 11")
    let moved = WaterflowSnapshotSubject(
      scene: try Scene(data: Data(json.utf8), path: Self.root + "/Assets/Scenes/moved.json"),
      offset: 600, step: 50)
    let failure = try #require(
      verifySnapshot(
        of: moved, as: .waterflow, named: "facts", record: .never,
        snapshotDirectory: dir, testName: "t"))
    #expect(failure.contains("layout changed:"), "\(failure)")
    #expect(failure.contains("actual: ") && failure.contains("/snapshots/"), "artifacts are named")
  }

  /// A two-column scene with a header, prices and badges: texts of three kinds.
  private static func pricedScene(price: String = "129.90") throws -> WaterflowSnapshotSubject {
    let prices = ["29.90", price, "8.50", "129.90"]
    let items = prices.enumerated().map { i, p in
      #"{"height": \#([90, 110, 80][i % 3]), "price": "\#(p)"}"#
    }
    let json = #"""
      {"viewport": {"width": 200, "height": 240, "scale": 2}, "columns": 2, "seed": 5,
       "header": {"height": 30, "text": "New arrivals"}, "items": [\#(items.joined(separator: ", "))]}
      """#
    return WaterflowSnapshotSubject(
      scene: try Scene(data: Data(json.utf8), path: root + "/Assets/Scenes/priced.json"),
      options: RenderOptions(scale: 2))
  }

  /// What the strategy makes of a subject.
  private static func snapshot(_ subject: WaterflowSnapshotSubject) -> WaterflowSnapshot {
    var taken: WaterflowSnapshot?
    Snapshotting<WaterflowSnapshotSubject, WaterflowSnapshot>.waterflow.snapshot(subject).run {
      taken = $0
    }
    return taken!
  }

  @Test func testAnotherStack_TextIsCheckedByContent_AndAPriceStillFails() throws {
    let diffing = Diffing<WaterflowSnapshot>.waterflow()
    let recorded = Self.snapshot(try Self.pricedScene())
    let stack = try #require(recorded.stack)
    var other = stack
    other.cairo = stack.cairo == "1.18.4" ? "1.16.0" : "1.18.4"
    // The stack rides in the reference PNG with the facts.
    var reference = diffing.fromData(diffing.toData(recorded))
    #expect(reference.stack == stack)
    #expect(reference.facts?.texts?.map(\.text) == recorded.facts?.texts?.map(\.text))
    /// The subject drawn now, its text anti-aliased as another stack draws it.
    func drawnElsewhere(_ subject: WaterflowSnapshotSubject) -> WaterflowSnapshot {
      var shot = Self.snapshot(subject)
      let rects = (shot.facts?.texts ?? []).map { PixelRect(textBox: $0.box, scale: 2, growth: 1) }
      blendTextAsAnotherStackWould(
        &shot.image.pixels, width: shot.image.width,
        rects: rects.map { ($0.x, $0.y, $0.width, $0.height) })
      return shot
    }
    let drifted = drawnElsewhere(try Self.pricedScene())
    // On the recording stack the drift is a failure: pixels are all there is to go by.
    let sameStack = try #require(diffing.diffV2(reference, drifted))
    #expect(sameStack.0.contains("pixels differ") && !sameStack.0.contains("font stack differs"))

    reference.stack = other
    #expect(diffing.diffV2(reference, drifted) == nil, "text drift alone passes on another stack")
    let repriced = try #require(diffing.diffV2(reference, drawnElsewhere(try Self.pricedScene(price: "139.90"))))
    #expect(repriced.0.contains("content changed: item 1 price 129.90 → 139.90"), "\(repriced.0)")
    #expect(
      repriced.0.contains(
        "font stack differs (cairo \(other.cairo) → \(stack.cairo)): \(recorded.facts?.texts?.count ?? 0) text boxes checked by content"),
      "\(repriced.0)")

    // A reference that does not name its stack is compared by pixels, and says how to fix that.
    reference.stack = nil
    let unnamed = try #require(diffing.diffV2(reference, drifted))
    #expect(unnamed.0.contains("does not name the font stack that drew it"))
  }

  @Test func testCI_NeverRecords() throws {
    #expect(waterflowRecordMode(.all, environment: ["CI": "true"]) == .never)
    #expect(waterflowRecordMode(.missing, environment: ["CI": "1"]) == .never)
    #expect(waterflowRecordMode(.all, environment: ["CI": "false"]) == .all)
    #expect(waterflowRecordMode(nil, environment: [:]) == nil)
    // Under that mode a missing reference fails and nothing is written.
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("waterflow-snapshot-ci-\(UUID().uuidString)").path
    let failure = verifySnapshot(
      of: try subject(offset: 0), as: .waterflow, named: "new",
      record: waterflowRecordMode(.all, environment: ["CI": "true"]), snapshotDirectory: dir,
      testName: "ci")
    #expect(failure != nil)
    #expect(!FileManager.default.fileExists(atPath: dir + "/ci.new.png"))
  }

  @Test func testFailedRender_IsAFailureNotACrash() throws {
    let failure = try #require(
      verifySnapshot(
        of: try subject(offset: 600), as: .waterflow(fontPath: "/nonexistent/font.ttf"),
        named: "scrolled", record: .never, snapshotDirectory: Self.directory,
        testName: "reference"))
    #expect(failure.contains("Newly-taken snapshot@0×0 does not match reference@375×667."))
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
