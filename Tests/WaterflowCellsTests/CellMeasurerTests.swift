import Cairo
import Testing
import WaterflowCells
import WaterflowView

/// The measurer's shortcuts (layouts kept and reused, texts cached, items measured on every
/// core) against the plain way: a new Pango layout for every text of every item, one at a time.
@Suite struct CellMeasurerTests {
  /// Texts that take Pango's different paths: one line, wrapped, "…" on the last line, dropped
  /// paragraphs, right to left, emoji from the third font, a lone mark, no text.
  static let texts = [
    "夏日穿搭", "summer outfit", "咖啡 latte 旅行 city walk 美食 summer 穿搭 outfit 夏日",
    "a long title that needs two lines in a narrow column, or three, or four at the most",
    "第一行\n第二行\n第三行\n第四行", "مرحبا بالعالم، هذا نص طويل يلتف على عدة أسطر", "🍰 dessert 🍓🍓",
    "\u{301}accent", "", "1,234", "x", "Leo", "小鹿", "ends in spaces   ", "line\n\nbreaks",
    "supercalifragilisticexpialidocious-and-more-without-any-spaces-at-all",
  ]

  /// Texts in several styles: sizes, weights, line limits (none too), line heights, alignments,
  /// a row that shares its width, a badge.
  static let template = CellTemplate(padding: EdgeInsets(top: 4, left: 6, bottom: 4, right: 6)) {
    CellImage("{cover}", aspect: .fields(width: "w", height: "h"))
    CellText("{title}", size: 13, weight: .medium, lines: 2)
    CellText(text: "{body}", size: 12, lines: 0, lineHeight: 17)
    CellText(text: "{title} · {index}", size: 15, weight: .bold, lines: 3, alignment: .center)
    CellStack(.horizontal, spacing: 4) {
      CellAvatar("{face}", size: 16, name: "{author}")
      CellText("{author}", size: 11)
      CellSpacer()
      CellText("{likes}", size: 11, align: .trailing)
      CellBadge("{tag}").when("{tag}")
    }
  }

  static func data(_ i: Int) -> ItemData {
    let t = texts
    var fields = [
      "cover": "c.jpg", "w": ["1,080", "300", " 405 ", "0"][i % 4], "h": ["1,440", "400", "540"][i % 3],
      "title": t[i % t.count] + (i % 5 == 0 ? "" : " \(i)"), "body": t[(i / 3) % t.count],
      "author": t[(i / 7) % t.count], "likes": "\(i % 37 * 101)",
    ]
    if i % 4 == 1 { fields["tag"] = t[(i / 2) % t.count] }
    return ItemData(fields)
  }

  /// The plain measure: a fresh layout for every text, nothing kept between them.
  static func plainHeight(of data: ItemData, index: Int, width: Double, fonts: FontStack) -> Double {
    CellLayoutEngine(
      data: data, index: index,
      measureText: { text, style, width in
        guard !text.isEmpty else { return TextSize(width: 0, height: 0) }
        let box = style.layout(text, fonts: fonts, width: width).logicalBox
        return TextSize(width: box.width, height: box.height)
      },
      imageAspect: { _ in nil }
    ).height(of: template, width: width)
  }
}

extension CellMeasurerTests {
  @Test(arguments: [96.0, 171.5, 260])
  func heightsOfAFeed_AreThePlainHeights(width: Double) throws {
    // Enough items for every core, in chunks that lanes take in turn.
    let count = 1500
    let measurer = try CellMeasurer(fontPaths: CellMeasurer.defaultFontPaths)
    let bulk = measurer.heights(count: count, width: width) { n in (Self.template, Self.data(n), n) }
    let fonts = try FontStack(paths: CellMeasurer.defaultFontPaths)
    let plain = (0..<count).map { Self.plainHeight(of: Self.data($0), index: $0, width: width, fonts: fonts) }
    #expect(bulk.count == count)
    let differing = (0..<count).filter { bulk[$0] != plain[$0] }
    #expect(differing.isEmpty, "items \(differing.prefix(10)) differ")
    // Asked again, one by one, from the texts the bulk measure cached.
    let again = (0..<count).map {
      measurer.height(of: Self.template, data: Self.data($0), index: $0, width: width)
    }
    #expect(again == bulk)
    // The feed really is varied: not one height for all.
    #expect(Set(bulk).count > 20)
  }

  @Test func sizesOfTexts_AreTheirFreshLayouts() throws {
    let measurer = try CellMeasurer(fontPaths: CellMeasurer.defaultFontPaths)
    let fonts = try FontStack(paths: CellMeasurer.defaultFontPaths)
    let styles = [
      CellTextStyle(size: 13, weight: .medium, lines: 2),
      CellTextStyle(size: 11, lines: 1, alignment: .trailing),
      CellTextStyle(size: 17, weight: .bold, lines: 0, lineHeight: 19, alignment: .center),
      // Lines of Chinese, Latin and emoji much taller than their line height: Pango may then
      // make the second line the last of three.
      CellTextStyle(size: 40, lines: 3, lineHeight: 10),
    ]
    // Each text after every other in the same kept layout, at widths from none to wide (not
    // 0: a lone character per line, which can come out one line longer or shorter when other
    // tests lay out text at the same time, with or without the measurer).
    for style in styles {
      for width in [nil, 40, 96, 150.25, 400] as [Double?] {
        for text in Self.texts + Self.texts.reversed() where !text.isEmpty {
          let layout = style.layout(text, fonts: fonts, width: width)
          let fresh = layout.logicalBox
          let size = measurer.size(of: text, style: style, width: width)
          #expect(
            size == TextSize(width: fresh.width, height: fresh.height, baseline: layout.baseline),
            "\(text) at \(String(describing: width))")
        }
      }
    }
  }
}
