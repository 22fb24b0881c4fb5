import Foundation
import Testing
import WaterflowGolden
import WaterflowGoldenReport
import WaterflowRender

/// The review's logic without a server: groups, accept, the 409 on goldens changed since the
/// check, undo, and two accepts at once.
@Suite struct GoldenReviewTests {
  /// Six goldens recorded, then a top-margin change (five goldens) and a price change (one):
  /// the review of what the check found.
  struct Fixture {
    let dir: String
    let manifest: GoldenManifest
    let store: GoldenStore
    let renderer: Renderer
    let fingerprint: FontStackFingerprint
    let items: [GoldenReviewItem]

    init(missing: Bool = false) throws {
      dir = try GoldenTestSupport.temporaryDirectory()
      let grid = #"{"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 2, "margins": {"top": TOP, "left": 10, "right": 10, "bottom": 10, "column": 5, "row": 5}, "items": {"count": 40, "heights": [60, 90]}}"#
      let shop = #"{"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 2, "items": [{"height": 80, "price": "1.00"}, {"height": 80, "price": "1.20"}, {"height": 80, "price": "PRICE"}]}"#
      try grid.replacingOccurrences(of: "TOP", with: "10").write(toFile: dir + "/grid.json", atomically: true, encoding: .utf8)
      try shop.replacingOccurrences(of: "PRICE", with: "1.40").write(toFile: dir + "/shop.json", atomically: true, encoding: .utf8)
      try FileManager.default.createDirectory(atPath: dir + "/G", withIntermediateDirectories: true)
      let entries = [0, 100, 200, 300, 400].map { #"{"name": "grid/at\#($0)", "scene": "../grid.json", "offset": \#($0)}"# }
        + [#"{"name": "shop", "scene": "../shop.json"}"#]
        + (missing ? [#"{"name": "new", "scene": "../shop.json", "offset": 10}"#] : [])
      try #"{"goldens": [\#(entries.joined(separator: ", "))]}"#.write(toFile: dir + "/G/manifest.json", atomically: true, encoding: .utf8)
      manifest = try GoldenManifest(contentsOf: dir + "/G/manifest.json")
      renderer = try Renderer()
      fingerprint = FontStackFingerprint(renderer: renderer)
      let recording = GoldenStore(directory: dir + "/G", configuration: .init(recordMode: .all, artifactsDirectory: dir + "/a"))
      for entry in manifest.entries where entry.name != "new" {
        _ = try recording.check(entry, renderer: renderer, fingerprint: fingerprint)
      }
      try grid.replacingOccurrences(of: "TOP", with: "16").write(toFile: dir + "/grid.json", atomically: true, encoding: .utf8)
      try shop.replacingOccurrences(of: "PRICE", with: "2.50").write(toFile: dir + "/shop.json", atomically: true, encoding: .utf8)
      store = GoldenStore(directory: dir + "/G", configuration: GoldenTestSupport.checking(artifacts: dir + "/a"))
      var items: [GoldenReviewItem] = []
      for entry in manifest.entries {
        let outcome = try store.check(entry, renderer: renderer, fingerprint: fingerprint)
        if let item = GoldenReviewItem(outcome, digest: store.digest(of: entry.name), imageKey: { $0 }) {
          items.append(item)
        }
      }
      self.items = items
    }

    func review() -> GoldenReview {
      GoldenReview(items: items, manifest: manifest, store: store, renderer: renderer, fingerprint: fingerprint)
    }

    func bytes(_ name: String) -> Data? { FileManager.default.contents(atPath: dir + "/G/" + name) }

    /// Every file under the golden folder with its bytes.
    func snapshot() -> [String: Data] {
      Dictionary(uniqueKeysWithValues: GoldenTestSupport.files(in: dir + "/G").compactMap { path in
        FileManager.default.contents(atPath: dir + "/G/" + path).map { (path, $0) }
      })
    }
  }

  @Test func theSixFailures_FormTwoGroups_ThatNeverMixVerdicts() throws {
    let review = try Fixture().review()
    let groups = review.groups
    #expect(groups.count == 2)
    #expect(groups[0].cause.verdict == "layout")
    #expect(groups[0].cause.summary == "cells moved down 6 pt")
    #expect(groups[0].names == ["grid/at0", "grid/at100", "grid/at200", "grid/at300", "grid/at400"])
    #expect(groups[1].cause.verdict == "content")
    #expect(groups[1].cause.summary == "item 2 price 1.40 → 2.50")
    #expect(groups[1].names == ["shop"])
    let items = review.items
    #expect(items.allSatisfy { $0.expected != nil && $0.actual != nil && $0.diff != nil })
  }

  @Test func acceptingAGroup_WritesExactlyThoseGoldens_AndTheirFacts() throws {
    let fixture = try Fixture()
    let review = fixture.review()
    let before = fixture.snapshot()
    let names = review.groups[0].names
    #expect(try review.accept(names) == names)
    let after = fixture.snapshot()
    let changed = Set(after.keys.filter { after[$0] != before[$0] })
    // Each grid golden and its facts; the shop and the fingerprint as they were.
    #expect(changed == Set(names.flatMap { [$0 + ".png", $0 + ".facts.json"] }))
    // What was written is what `golden record` writes: a fresh check passes.
    let check = GoldenStore(directory: fixture.dir + "/G", configuration: GoldenTestSupport.checking(artifacts: fixture.dir + "/b"))
    for entry in fixture.manifest.entries {
      let outcome = try check.check(entry, renderer: fixture.renderer, fingerprint: fixture.fingerprint)
      #expect(outcome.isFailure == (entry.name == "shop"), "\(entry.name)")
    }
    #expect(review.accepted == Set(names))
    // The artifacts stay for the page (and an undo).
    #expect(FileManager.default.fileExists(atPath: fixture.dir + "/a/grid/at0.diff.png"))
  }

  @Test(arguments: [
    ([] as [String], "No names given"),
    (["nope"], "'nope' is not a golden of the manifest"),
    (["../G/shop"], "'../G/shop' is not a golden of the manifest"),
    (["shop", "shop"], "'shop' is given twice"),
  ])
  func aBadRequest_IsRefused_AndNothingIsWritten(names: [String], message: String) throws {
    let fixture = try Fixture()
    let review = fixture.review()
    let before = fixture.snapshot()
    // A valid name beside the bad one is not written either: all or none.
    let asked = names.isEmpty ? names : ["grid/at0"] + names
    let error = #expect(throws: GoldenReviewError.self) { try review.accept(asked) }
    #expect(error?.kind == .invalid)
    #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    #expect(fixture.snapshot() == before)
  }

  @Test func aGoldenThatPassed_IsNotAccepted() throws {
    let fixture = try Fixture()
    // Reviewing only the shop: the grid goldens are in the manifest but not under review.
    let review = GoldenReview(
      items: fixture.items.filter { $0.name == "shop" }, manifest: fixture.manifest, store: fixture.store,
      renderer: fixture.renderer, fingerprint: fixture.fingerprint)
    let error = #expect(throws: GoldenReviewError.self) { try review.accept(["grid/at0"]) }
    #expect(error?.kind == .invalid && error?.message.contains("did not fail the check") == true)
  }

  @Test func aGoldenChangedOnDiskSinceTheCheck_IsAConflict_AndNotOverwritten() throws {
    let fixture = try Fixture()
    let review = fixture.review()
    // Someone records grid/at100 again after the check (here: its facts are edited).
    let facts = fixture.dir + "/G/grid/at100.facts.json"
    try (String(contentsOfFile: facts, encoding: .utf8) + " ").write(toFile: facts, atomically: true, encoding: .utf8)
    let before = fixture.snapshot()
    let error = #expect(throws: GoldenReviewError.self) { try review.accept(["grid/at0", "grid/at100"]) }
    #expect(error?.kind == .conflict)
    #expect(error?.message.contains("'grid/at100' changed on disk since the check") == true, "\(error?.message ?? "")")
    #expect(fixture.snapshot() == before)
    // A golden removed since the check is a change too.
    try FileManager.default.removeItem(atPath: fixture.dir + "/G/shop.png")
    #expect(throws: GoldenReviewError.self) { try review.accept(["shop"]) }
    #expect(!FileManager.default.fileExists(atPath: fixture.dir + "/G/shop.png"))
  }

  @Test func undo_RestoresTheLastAccept_ByteForByte() throws {
    let fixture = try Fixture()
    let review = fixture.review()
    let original = fixture.snapshot()
    try review.accept(["shop"])
    let afterShop = fixture.snapshot()
    try review.accept(["grid/at0", "grid/at100"])
    #expect(review.canUndo)
    #expect(try review.undo() == ["grid/at0", "grid/at100"])
    #expect(fixture.snapshot() == afterShop)
    #expect(try review.undo() == ["shop"])
    #expect(fixture.snapshot() == original)
    #expect(review.accepted.isEmpty && !review.canUndo)
    let error = #expect(throws: GoldenReviewError.self) { try review.undo() }
    #expect(error?.kind == .invalid)
    // Undone goldens can be accepted again: their files are as the check saw them.
    try review.accept(["shop"])
    #expect(fixture.snapshot() == afterShop)
  }

  @Test func undoingANewGolden_RemovesIt() throws {
    let fixture = try Fixture(missing: true)
    let review = fixture.review()
    let item = try #require(review.items.first { $0.name == "new" })
    #expect(item.status == "missing" && item.cause.verdict == "missing" && item.expected == nil)
    let before = fixture.snapshot()
    try review.accept(["new"])
    #expect(fixture.bytes("new.png") != nil && fixture.bytes("new.facts.json") != nil)
    try review.undo()
    #expect(fixture.snapshot() == before)
  }

  @Test func undo_RefusesWhenTheAcceptedFilesChangedSince() throws {
    let fixture = try Fixture()
    let review = fixture.review()
    try review.accept(["shop"])
    try Data("edited".utf8).write(to: URL(fileURLWithPath: fixture.dir + "/G/shop.png"))
    let error = #expect(throws: GoldenReviewError.self) { try review.undo() }
    #expect(error?.kind == .conflict)
    #expect(fixture.bytes("shop.png") == Data("edited".utf8))
  }

  /// Two pages accepting at once: every golden is written, once, and no temporary file stays.
  @Test func concurrentAccepts_LoseNoWrite_AndLeaveNoTemporaryFiles() throws {
    let fixture = try Fixture()
    let review = fixture.review()
    let names = review.items.map(\.name)
    let results = ResultsBox()
    DispatchQueue.concurrentPerform(iterations: 4) { i in
      // Two tabs each send half, and both then send one golden of the other half.
      let half = i % 2 == 0 ? Array(names.prefix(3)) : Array(names.suffix(3))
      do { results.add(try review.accept(half)) } catch { results.fail("\(error)") }
    }
    #expect(results.errors.isEmpty, "\(results.errors)")
    #expect(review.accepted == Set(names))
    let files = GoldenTestSupport.files(in: fixture.dir + "/G")
    #expect(files.allSatisfy { !$0.contains("waterflow-tmp") }, "\(files)")
    let check = GoldenStore(directory: fixture.dir + "/G", configuration: GoldenTestSupport.checking(artifacts: fixture.dir + "/b"))
    for entry in fixture.manifest.entries {
      #expect(try !check.check(entry, renderer: fixture.renderer, fingerprint: fixture.fingerprint).isFailure)
    }
    // Each golden was written by one accept: the undo stack holds each name once.
    var undone: [String] = []
    while review.canUndo { undone += try review.undo() }
    #expect(undone.sorted() == names.sorted())
  }

  @Test func aClosedReview_RefusesToWrite() throws {
    let fixture = try Fixture()
    let review = fixture.review()
    try review.accept(["shop"])
    #expect(review.close() == ["shop"])
    let error = #expect(throws: GoldenReviewError.self) { try review.accept(["grid/at0"]) }
    #expect(error?.message.contains("stopping") == true)
  }
}

private final class ResultsBox: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var accepted: [[String]] = []
  private(set) var errors: [String] = []
  func add(_ names: [String]) { lock.withLock { accepted.append(names) } }
  func fail(_ message: String) { lock.withLock { errors.append(message) } }
}

extension GoldenReviewTests {
  /// A scene edited after the check renders something the page never showed: the accept puts
  /// the golden back and says so, instead of recording what nobody reviewed.
  @Test func aSceneChangedSinceTheCheck_IsNotAccepted() throws {
    let fixture = try Fixture()
    let review = fixture.review()
    let before = fixture.snapshot()
    let grid = fixture.dir + "/grid.json"
    let text = try String(contentsOfFile: grid, encoding: .utf8)
    try text.replacingOccurrences(of: "\"top\": 16", with: "\"top\": 20").write(toFile: grid, atomically: true, encoding: .utf8)
    let error = #expect(throws: GoldenReviewError.self) { try review.accept(["shop", "grid/at0"]) }
    #expect(error?.kind == .conflict)
    #expect(error?.message.contains("'grid/at0' now renders differently from what the review showed") == true, "\(error?.message ?? "")")
    #expect(fixture.snapshot() == before)
    #expect(review.accepted.isEmpty && !review.canUndo)
    // Put back as the check saw it, the scene is accepted.
    try text.write(toFile: grid, atomically: true, encoding: .utf8)
    try review.accept(["shop", "grid/at0"])
    #expect(review.accepted == ["shop", "grid/at0"])
  }
}
