import Foundation
import Testing
import WaterflowGolden
import WaterflowRender
import WaterflowView

/// Drawn texts matched by string and box, their masks in pixels, and their lines in facts files.
@Suite struct TextComparisonTests {
  static func text(_ s: String, _ x: Double, _ y: Double, _ w: Double = 30) -> DrawnText {
    DrawnText(text: s, box: Rect(x: x, y: y, width: w, height: 9))
  }

  @Test func equalLists_AndBoxesWithinTheTolerance_HaveNoChanges() {
    let old = [Self.text("29.90", 10, 80), Self.text("8.50", 120, 80)]
    #expect(TextComparison.changes(recorded: old, current: old).isEmpty)
    let nudged = [Self.text("29.90", 10.4, 80), Self.text("8.50", 120, 79.6)]
    #expect(TextComparison.changes(recorded: old, current: nudged, tolerance: 0.5).isEmpty)
  }

  @Test func sameStringInAnotherBox_Moved_WhenBeyondTheTolerance() {
    let old = [Self.text("29.90", 10, 80)]
    let now = [Self.text("29.90", 11, 80)]
    let changes = TextComparison.changes(recorded: old, current: now, tolerance: 0.5)
    #expect(changes == [.init(kind: .moved, from: old[0], to: now[0])])
    #expect(changes[0].phrase == #"text "29.90" moved (10, 80, 30×9) → (11, 80, 30×9)"#)
  }

  @Test func priceEditedInPlace_IsChanged_EvenWhenItsOldStringShowsElsewhere() {
    // Item 1 129.90 → 139.90 while item 4 changes to 129.90: each pairs with its own place.
    let old = [Self.text("129.90", 10, 80), Self.text("15.00", 120, 200)]
    let now = [Self.text("139.90", 10, 80), Self.text("129.90", 120, 200)]
    let changes = TextComparison.changes(recorded: old, current: now)
    #expect(changes.map(\.kind) == [.changed, .changed])
    #expect(changes.map(\.phrase) == [#"text "129.90" → "139.90""#, #"text "15.00" → "129.90""#])
  }

  @Test func textsWithNoCounterpart_AppearedAndDisappeared() {
    let old = [Self.text("Sale", 10, 10)]
    let now = [Self.text("New", 200, 300)]
    let changes = TextComparison.changes(recorded: old, current: now)
    #expect(changes.map(\.kind) == [.disappeared, .appeared])
    #expect(changes.map(\.phrase) == [#"text "Sale" disappeared"#, #"text "New" appeared"#])
  }

  @Test func textBoxMask_RoundsOutwards_ThenGrows() {
    let box = Rect(x: 10.2, y: 5.7, width: 20.1, height: 9)  // to 30.3, 14.7
    #expect(
      PixelRect(textBox: box, scale: 2, growth: 0) == PixelRect(x: 20, y: 11, width: 41, height: 19))
    #expect(
      PixelRect(textBox: box, scale: 2, growth: 2) == PixelRect(x: 18, y: 9, width: 45, height: 23))
    // A damaged facts file cannot trap the conversion.
    let huge = PixelRect(textBox: Rect(x: -1e300, y: 0, width: 1e300, height: 1), scale: 2)
    #expect(huge.x < 0 && huge.width > 0)
  }

  @Test func factsFile_WritesOneTextALine_InHundredthsOfAPoint_AndReadsThemBack() throws {
    var facts = GoldenFacts(offset: 0, cells: [])
    facts.texts = [
      DrawnText(text: "¥24 \"new\"", box: Rect(x: 10.123456, y: 80, width: 30.006, height: 9.5))
    ]
    let bytes = GoldenFacts.fileContents([facts, GoldenFacts(offset: 50, cells: [], texts: [])])
    #expect(
      String(decoding: bytes, as: UTF8.self) == """
        {"frames": [
          {"offset": 0, "cells": [], "texts": [
            {"text": "¥24 \\"new\\"", "x": 10.12, "y": 80, "width": 30.01, "height": 9.5}
          ]},
          {"offset": 50, "cells": [], "texts": []}
        ]}

        """)
    let read = try GoldenFacts.read(bytes, name: "t")
    #expect(read[0].texts == [DrawnText(text: "¥24 \"new\"", box: Rect(x: 10.12, y: 80, width: 30.01, height: 9.5))])
    #expect(read[1].texts == [])
    // Facts from before texts were recorded: nil, not empty, so a check knows to compare pixels.
    let older = try GoldenFacts.read(Array(#"{"frames": [{"offset": 0, "cells": []}]}"#.utf8), name: "t")
    #expect(older[0].texts == nil)
    #expect(throws: GoldenError.self) {
      try GoldenFacts.read(Array(#"{"frames": [{"offset": 0, "cells": [], "texts": [{"x": 1}]}]}"#.utf8), name: "t")
    }
  }
}
