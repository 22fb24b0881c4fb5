import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowGolden
import WaterflowRender
import WaterflowScene

/// Facts recorded beside goldens explain failures: layout, content, reuse, or only the drawing.
@Suite struct GoldenFactsTests {}

extension GoldenFactsTests {
  // MARK: - Fixtures

  /// One column of 100-pt cells in a 100×100 viewport, no margins: every cell and instance is
  /// known by hand. Scrolling 0 → 200 in 100-pt steps shows item 2 with cell #1 (recycled twice).
  static func column(identifiers: [String] = [], prices: [String?] = [], top: Double = 0) -> String {
    let items = (0..<5).map { i -> String in
      var item = #"{"height": 100"#
      if i < identifiers.count { item += #", "identifier": "\#(identifiers[i])""# }
      if i < prices.count, let p = prices[i] { item += #", "price": "\#(p)""# }
      return item + "}"
    }
    return #"""
      {"viewport": {"width": 100, "height": 100, "scale": 1}, "columns": 1, "seed": 3,
       "margins": {"top": \#(top), "bottom": 0, "left": 0, "right": 0, "column": 0, "row": 0},
       "items": [\#(items.joined(separator: ", "))]}
      """#
  }

  /// Records `recorded` at `offset` (reached in `step`s), then checks `current` the same way.
  func check(
    recorded: String, current: String, offset: Double = 200, step: Double = 100,
    tolerance: DiffTolerance? = nil, editGolden: ((inout RGBAImage) -> Void)? = nil
  ) throws -> (GoldenOutcome, GoldenStore) {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let renderer = try Renderer()
    let fingerprint = GoldenTestSupport.fingerprint(renderer)
    func frames(_ json: String) throws -> [GoldenFrame] {
      try GoldenShot(
        scene: try Scene(data: Data(json.utf8), path: dir + "/scene.json"),
        position: .offset(offset, step: step), options: RenderOptions(scale: 1)
      ).frames(with: renderer)
    }
    var store = GoldenStore(
      directory: dir + "/Golden",
      configuration: GoldenConfiguration(recordMode: .missing, artifactsDirectory: dir + "/a"))
    let first = try frames(recorded)[0]
    _ = try store.check(first.image, named: "g", fingerprint: fingerprint, facts: first.facts)
    if let editGolden {
      var golden = try RGBAImage(contentsOfPNGFile: store.path(for: "g"))
      editGolden(&golden)
      try Data(golden.pngData()).write(to: URL(fileURLWithPath: store.path(for: "g")))
    }
    store.configuration.recordMode = .never
    let now = try frames(current)[0]
    return (
      try store.check(
        now.image, named: "g", fingerprint: fingerprint, tolerance: tolerance, facts: now.facts),
      store
    )
  }

  // MARK: - One verdict each

  @Test func marginChange_IsALayoutChange_EveryCellMovedDown() throws {
    let (outcome, _) = try check(
      recorded: Self.column(), current: Self.column(top: 3), offset: 0, step: 0)
    let changes = try #require(outcome.changes)
    #expect(outcome.status == .failed)
    #expect(changes.verdict == .layout)
    // At offset 0 cell 0 shows (and 3 pt of cell 1 after the move: it appeared).
    #expect(
      changes.moved == [
        .init(index: 0, from: Rect(x: 0, y: 0, width: 100, height: 100),
              to: Rect(x: 0, y: 3, width: 100, height: 100), column: 0)
      ])
    #expect(changes.appeared == [] && changes.disappeared == [])
    #expect(changes.content == [] && changes.reuse == [])
    #expect(changes.summary == "layout changed: 1 cell moved")
    #expect(changes.details == ["every cell moved down 3 pt", "cell 0: (0, 0, 100×100) → (0, 3, 100×100)"])
    #expect(outcome.message.contains("layout changed: 1 cell moved\n  every cell moved down 3 pt"))
  }

  @Test func priceChange_IsAContentChange() throws {
    let (outcome, _) = try check(
      recorded: Self.column(prices: [nil, nil, "21.90"]),
      current: Self.column(prices: [nil, nil, "99.00"]))
    let changes = try #require(outcome.changes)
    #expect(changes.verdict == .content)
    #expect(changes.content == [.init(index: 2, field: "price", from: "21.90", to: "99.00")])
    #expect(changes.moved == [] && changes.reuse == [] && changes.appeared == [])
    #expect(changes.summary == "content changed: item 2 price 21.90 → 99.00")
  }

  @Test func identifierChange_IsAReuseChange() throws {
    // Item 2 in its own pool: it cannot take the recycled cell #1 and gets a new cell, #2.
    let (outcome, _) = try check(
      recorded: Self.column(), current: Self.column(identifiers: ["cell", "cell", "banner"]))
    let changes = try #require(outcome.changes)
    #expect(changes.verdict == .reuse)
    #expect(changes.reuse == [.init(index: 2, from: 1, to: 2)])
    #expect(changes.moved == [] && changes.content == [])
    #expect(changes.summary == "reuse changed: index 2 shows cell #2 (was #1)")
  }

  @Test func changedGoldenWithTheSameFacts_IsADrawingChange() throws {
    let (outcome, _) = try check(
      recorded: Self.column(), current: Self.column()
    ) { golden in
      // 40 pixels of the first row turned blue, as a renderer change might.
      for i in stride(from: 0, to: 40 * 4, by: 4) {
        golden.pixels.replaceSubrange(i..<i + 4, with: [0, 0, 255, 255])
      }
    }
    let changes = try #require(outcome.changes)
    #expect(outcome.status == .failed)
    #expect(changes.verdict == .drawing)
    #expect(changes.moved == [] && changes.appeared == [] && changes.disappeared == [])
    #expect(changes.content == [] && changes.reuse == [])
    #expect(
      changes.summary
        == "drawing changed; layout, content and reuse are identical (renderer or font stack?)")
  }

  @Test func goldenWithoutFacts_StillWorks_AndSaysReRecordingExplains() throws {
    let (outcome, store) = try check(recorded: Self.column(), current: Self.column(top: 3))
    #expect(outcome.changes != nil)
    try FileManager.default.removeItem(atPath: store.factsPath(for: "g"))
    let renderer = try Renderer()
    let frame = try GoldenShot(
      scene: try Scene(data: Data(Self.column(top: 3).utf8), path: "s.json"),
      position: .offset(200, step: 100), options: RenderOptions(scale: 1)
    ).frames(with: renderer)[0]
    let again = try store.check(
      frame.image, named: "g", fingerprint: GoldenTestSupport.fingerprint(renderer),
      facts: frame.facts)
    #expect(again.status == .failed && again.changes == nil)
    #expect(again.message.contains("re-record it to learn what changed"))
  }

  // MARK: - Tolerances

  @Test func contentChange_FailsWhateverThePixelTolerance() throws {
    let (outcome, _) = try check(
      recorded: Self.column(prices: [nil, nil, "129"]),
      current: Self.column(prices: [nil, nil, "139"]), tolerance: .pixels(5_000))
    #expect(outcome.status == .failed)
    #expect(outcome.changes?.verdict == .content)
    #expect(outcome.message.contains("although its pixels are within the tolerance"))
  }

  @Test func drawingChange_WithinTheTolerance_Passes() throws {
    let (outcome, _) = try check(
      recorded: Self.column(), current: Self.column(), tolerance: .pixels(40)
    ) { golden in
      for i in stride(from: 0, to: 40 * 4, by: 4) {
        golden.pixels.replaceSubrange(i..<i + 4, with: [0, 0, 255, 255])
      }
    }
    #expect(outcome.status == .matched)
    #expect(outcome.changes?.verdict == .drawing)
  }

  // MARK: - Grouping

  @Test func rowGapChange_GivesOneGroupPerColumn() throws {
    // Three columns of 50-pt cells; a row gap 5 → 8 moves the k-th cell of each column 3k pt.
    func scene(row: Double) -> String {
      #"""
      {"viewport": {"width": 300, "height": 400, "scale": 1}, "columns": 3,
       "margins": {"top": 0, "bottom": 0, "left": 0, "right": 0, "column": 0, "row": \#(row)},
       "items": {"count": 30, "heights": [50]}}
      """#
    }
    let (outcome, _) = try check(recorded: scene(row: 5), current: scene(row: 8), offset: 0, step: 0)
    let changes = try #require(outcome.changes)
    #expect(changes.verdict == .layout)
    #expect(
      changes.details.first
        == "column 0: cells 3–18 moved down 3–18 pt; column 1: cells 4–19 moved down 3–18 pt; column 2: cells 5–20 moved down 3–18 pt"
    )
    // Rows 0–6 were on screen (7 × 55 = 385 < 400); with 58-pt rows, the seventh row leaves.
    #expect(changes.disappeared == [21, 22, 23] || changes.disappeared == [])
  }

  // MARK: - Determinism

  @Test func factsFile_IsTheSameBytesInEveryRun() throws {
    var files: [Data] = []
    for _ in 0..<2 {
      let (_, store) = try check(recorded: Self.column(prices: ["1", "2", "3"]), current: Self.column())
      files.append(try Data(contentsOf: URL(fileURLWithPath: store.factsPath(for: "g"))))
    }
    #expect(files[0] == files[1])
    let text = String(decoding: files[0], as: UTF8.self)
    // The texts' boxes come from the font's metrics: their numbers are the text engine's.
    let texts = text.split(separator: "\n").filter { $0.hasPrefix("    {\"text\": ") }
    #expect(texts.count == 2)
    #expect(texts.first?.hasPrefix(#"    {"text": "3", "x": "#) == true)  // the price
    #expect(texts.last?.hasPrefix(#"    {"text": "2", "x": "#) == true)  // the index badge
    #expect(
      text == """
        {"frames": [
          {"offset": 200, "cells": [
            {"index": 2, "column": 0, "x": 0, "y": 200, "width": 100, "height": 100, "cell": 1, "color": "#\(text.split(separator: "#")[1].prefix(6))", "price": "3"}
          ], "texts": [
        \(texts.joined(separator: "\n"))
          ]}
        ]}

        """)
  }
}

// MARK: - expectGolden's own tolerance and masks

@Suite struct ExpectGoldenOptionsTests {
  func image(_ changed: Int) -> RGBAImage {
    var image = RGBAImage(width: 20, height: 10, filledWith: (200, 200, 200, 255))
    for i in 0..<changed { image.pixels.replaceSubrange(i * 4..<i * 4 + 4, with: [0, 0, 0, 255]) }
    return image
  }

  @Test func tolerance_And_Masks_KeepTheRecordMode() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    // A missing golden is recorded or refused exactly as without a tolerance: the mode is the
    // environment's either way (recorded on a laptop, refused with CI=true).
    func missingKind(tolerance: DiffTolerance?) -> GoldenError.Code? {
      try? FileManager.default.removeItem(atPath: dir + "/g.png")
      do {
        try expectGolden(of: image(0), named: "g", tolerance: tolerance, goldenDirectory: dir)
        return nil
      } catch { return error.code }
    }
    #expect(missingKind(tolerance: .pixels(5)) == missingKind(tolerance: nil))
    #expect(missingKind(tolerance: .pixels(5)) != nil)

    // An existing golden: 3 changed pixels pass with a tolerance of 5, or with them masked.
    try Data(image(0).pngData()).write(to: URL(fileURLWithPath: dir + "/g.png"))
    #expect(throws: GoldenError.self) { try expectGolden(of: image(3), named: "g", goldenDirectory: dir) }
    try expectGolden(of: image(3), named: "g", tolerance: .pixels(5), goldenDirectory: dir)
    try expectGolden(
      of: image(3), named: "g", masks: [PixelRect(x: 0, y: 0, width: 3, height: 1)],
      goldenDirectory: dir)
  }

  @Test func docExample_ReadsTheEnvironment() throws {
    // The example in GoldenConfiguration's documentation.
    var configuration = try GoldenConfiguration.fromEnvironment()
    configuration.tolerance = .pixels(20)
    #expect(configuration.tolerance.maxMismatchedPixels == 20)
  }
}

// MARK: - Styled scenes

@Suite struct StyledGoldenTests {
  @Test func aStyledScenesGolden_IsDrawnInItsStyle() throws {
    let scene = try GoldenTestSupport.scene("product")
    #expect(scene.style != .standard, "product.json has a style of its own")
    let renderer = try Renderer()
    let shot = try GoldenShot(
      scene: scene, position: .offset(0, step: 0), options: RenderOptions(scale: 1)
    ).frames(with: renderer)[0]
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let rendered = try renderer.image(
      of: controller.view, options: RenderOptions(scale: 1, style: scene.style))
    #expect(shot.image == rendered)
  }
}
