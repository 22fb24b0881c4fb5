import Testing
import WaterflowCells
import WaterflowView

/// Heights worked out by hand: texts are measured by a stand-in whose every line is
/// `lineHeight` high and every character 10 pt wide, so the arithmetic is the template's alone.
@Suite struct TemplateHeightTests {
  /// A measure of fixed-width characters: `lines` lines of `1.2 × size` each.
  static func engine(_ fields: [String: String] = [:], aspects: [String: Double] = [:])
    -> CellLayoutEngine
  {
    CellLayoutEngine(
      data: ItemData(fields), index: 7,
      measureText: { text, style, width in
        let natural = Double(text.count) * 10
        let lineHeight = style.lineHeight ?? style.size * 1.2
        // The first baseline at 0.8 of the first line.
        guard let width, width > 0 else {
          return TextSize(width: natural, height: lineHeight, baseline: 0.8 * lineHeight)
        }
        var lines = Int((natural / width).rounded(.up))
        if style.lines > 0 { lines = min(lines, style.lines) }
        return TextSize(
          width: min(natural, width), height: Double(max(1, lines)) * lineHeight,
          baseline: 0.8 * lineHeight)
      },
      imageAspect: { aspects[$0] })
  }
}

extension TemplateHeightTests {
  // MARK: - Images

  @Test func aspectOnly_IsWidthOverRatio() {
    let template = CellTemplate { CellImage("{cover}", aspect: .fields(width: "w", height: "h")) }
    let height = Self.engine(["cover": "a.jpg", "w": "300", "h": "400"])
      .height(of: template, width: 150)
    #expect(height == 200)
  }

  @Test func aspectFromTheFile_WhenTheDataGivesNone() {
    let template = CellTemplate { CellImage("{cover}") }
    let engine = Self.engine(["cover": "a.jpg"], aspects: ["a.jpg": 2])
    #expect(engine.height(of: template, width: 150) == 75)
  }

  @Test func zeroImageWidth_IsSquare() {
    let template = CellTemplate { CellImage("{cover}", aspect: .fields(width: "w", height: "h")) }
    let height = Self.engine(["cover": "a.jpg", "w": "0", "h": "400"])
      .height(of: template, width: 150)
    #expect(height == 150)
  }

  // MARK: - Texts

  @Test func oneAndTwoLines_AndTheLinesCap() {
    let one = CellTemplate { CellText("{t}", size: 10, lines: 2) }
    // 10 characters = 100 pt: one line at 150, two at 60, and still two (capped) at 20.
    let engine = Self.engine(["t": "abcdefghij"])
    #expect(engine.height(of: one, width: 150) == 12)
    #expect(engine.height(of: one, width: 60) == 24)
    #expect(engine.height(of: one, width: 20) == 24)
    let unlimited = CellTemplate { CellText("{t}", size: 10, lines: 0) }
    #expect(engine.height(of: unlimited, width: 20) == 60)
  }

  // MARK: - Stacks

  @Test func paddingAndSpacing_AddUp() {
    let template = CellTemplate(padding: EdgeInsets(top: 4, left: 5, bottom: 6, right: 5)) {
      CellStack(.vertical, spacing: 8, padding: EdgeInsets(top: 2, left: 0, bottom: 2, right: 0)) {
        CellImage("{cover}", aspect: .ratio(1))
        CellText("{t}", size: 10)
        CellRect(height: 1)
      }
    }
    // Inner width 140: image 140, text 12, rect 1, two gaps of 8, stack padding 4, cell 10.
    let height = Self.engine(["cover": "a.jpg", "t": "x"]).height(of: template, width: 150)
    #expect(height == 140 + 12 + 1 + 16 + 4 + 10)
  }

  @Test func whenHidesTheElementAndItsSpacing() {
    let template = CellTemplate {
      CellStack(.vertical, spacing: 6) {
        CellText("{t}", size: 10)
        CellBadge("{tag}").when("{tag}")
      }
    }
    let without = Self.engine(["t": "x"]).height(of: template, width: 150)
    let empty = Self.engine(["t": "x", "tag": ""]).height(of: template, width: 150)
    #expect(without == 12)
    #expect(empty == 12)
    // Badge: a 10-pt line (12) and 1.5 pt above and below.
    let with = Self.engine(["t": "x", "tag": "包邮"]).height(of: template, width: 150)
    #expect(with == 12 + 6 + 15)
  }

  @Test func rowIsAsTallAsItsTallestChild() {
    let template = CellTemplate {
      CellStack(.horizontal, spacing: 4) {
        CellAvatar("{face}", size: 20)
        CellText("{author}", size: 10)
        CellSpacer()
        CellIcon("heart", size: 12)
      }
    }
    #expect(Self.engine(["face": "f.jpg", "author": "Mia"]).height(of: template, width: 150) == 20)
  }

  @Test func rowShrinksTextsToWhatIsLeft() {
    let template = CellTemplate {
      CellStack(.horizontal, spacing: 4) {
        CellAvatar("{face}", size: 20)
        CellText("{author}", size: 10, lines: 2)
        CellIcon("heart", size: 12)
      }
    }
    // 150 − 20 − 12 − 8 = 110 pt for a 200-pt name: two lines of 12.
    let engine = Self.engine(["face": "f.jpg", "author": String(repeating: "n", count: 20)])
    #expect(engine.height(of: template, width: 150) == 24)
  }

  @Test func baselineRow_SetsFirstLinesOnOneBaseline_AndOthersOnItByTheirBottoms() {
    // ¥ (12 pt), 129 (24 pt), .00 (12 pt) and a 10-pt icon: lines of 14.4, 28.8 and 14.4 pt,
    // baselines 11.52, 23.04 and 11.52 pt down. The row's baseline is the lowest, 23.04.
    let template = CellTemplate {
      CellStack(.horizontal, spacing: 2, align: .firstBaseline) {
        CellText("¥", size: 12)
        CellText("{yuan}", size: 24)
        CellText(".00", size: 12)
        CellIcon("heart", size: 10)
      }
    }
    let engine = Self.engine(["yuan": "129"])
    // The small texts hang 11.52 pt below the top: 11.52 + 14.4 = 25.92 < 28.8, the big one.
    let height = engine.height(of: template, width: 200)
    #expect(abs(height - 28.8) < 1e-9, "\(height)")
    let pieces = engine.pieces(of: template, in: Rect(x: 0, y: 100, width: 200, height: 28.8))
    var baselines: [Double] = []
    var bottoms: [Double] = []
    for piece in pieces {
      switch piece {
      case .text(_, let style, _, let frame): baselines.append(frame.minY + 0.8 * style.size * 1.2)
      case .icon(_, _, let frame): bottoms.append(frame.maxY)
      default: break
      }
    }
    #expect(baselines.count == 3 && bottoms.count == 1)
    for y in baselines + bottoms { #expect(abs(y - 123.04) < 1e-9, "\(baselines) \(bottoms)") }
  }

  @Test func baselineRow_IsAsTallAsWhatHangsLowest() {
    // A 40-pt icon's bottom on the baseline of a 10-pt text: the text's line hangs 12 − 9.6 pt
    // below the icon, so the row is 40 + 2.4 high.
    let template = CellTemplate {
      CellStack(.horizontal, align: .firstBaseline) {
        CellIcon("heart", size: 40)
        CellText("{t}", size: 10)
      }
    }
    let height = Self.engine(["t": "Mia"]).height(of: template, width: 150)
    #expect(abs(height - 42.4) < 1e-9, "\(height)")
  }
}

extension TemplateHeightTests {
  // MARK: - The box tree (the preview's overlay)

  @Test func boxTree_GivesPaddingSpacingFramesAndBaselines_ParentsFirst() throws {
    let template = CellTemplate(padding: EdgeInsets(top: 4, left: 5, bottom: 6, right: 5)) {
      CellStack(.vertical, spacing: 8, padding: EdgeInsets(top: 2, left: 0, bottom: 2, right: 0)) {
        CellImage("{cover}", aspect: .ratio(1))
        CellText("{t}", size: 10, lines: 0)
        CellStack(.horizontal, spacing: 3) {
          CellRect(width: 10, height: 1)
          CellRect(width: 20, height: 1)
        }
      }
    }
    // 15 characters at 10 pt in 140: two lines of 12.
    let frame = Rect(x: 100, y: 50, width: 150, height: 200)
    let boxes = Self.engine(["cover": "a.jpg", "t": "abcdefghijklmno"]).boxes(of: template, in: frame)
    #expect(boxes.map(\.kind) == [.cell, .vstack, .image, .text, .hstack, .rect, .rect])
    #expect(boxes.map(\.depth) == [0, 1, 2, 2, 2, 3, 3])
    let cell = boxes[0], stack = boxes[1], text = boxes[3], row = boxes[4]
    #expect(cell.frame == frame)
    #expect(cell.content == Rect(x: 105, y: 54, width: 140, height: 190))
    #expect(stack.frame == Rect(x: 105, y: 54, width: 140, height: 190))
    #expect(stack.content == Rect(x: 105, y: 56, width: 140, height: 186))
    // Image 140 high from 56; gap of 8; text 24 high from 204; gap; the row from 236.
    #expect(boxes[2].frame == Rect(x: 105, y: 56, width: 140, height: 140))
    #expect(stack.gaps == [Rect(x: 105, y: 196, width: 140, height: 8), Rect(x: 105, y: 228, width: 140, height: 8)])
    #expect(text.frame == Rect(x: 105, y: 204, width: 140, height: 24))
    // The stand-in puts the first baseline at 0.8 of a 12-pt line; the next is a line lower.
    #expect(text.baselines.count == 2)
    #expect(abs(text.baselines[0] - 213.6) < 1e-9 && abs(text.baselines[1] - 225.6) < 1e-9)
    #expect(row.gaps == [Rect(x: 115, y: 236, width: 3, height: row.frame.height)])
    #expect(boxes[6].frame.minX == 118)
    // Mirrored as a right-to-left cell draws it: reflected across the cell's centre line.
    let mirrored = boxes[5].mirrored(across: frame)
    #expect(mirrored.frame.maxX == frame.maxX - 5 && mirrored.frame.width == 10)
    // The pieces are the same with or without the box tree.
    let engine = Self.engine(["cover": "a.jpg", "t": "abcdefghijklmno"])
    let before = engine.pieces(of: template, in: frame)
    _ = engine.boxes(of: template, in: frame)
    #expect(engine.pieces(of: template, in: frame) == before)
  }
}
