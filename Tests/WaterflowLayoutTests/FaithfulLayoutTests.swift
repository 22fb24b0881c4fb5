import Testing
import WaterflowLayout

/// The keys of issue 18, each with frames worked out by hand from the anchor's documented rule.
@Suite struct FaithfulLayoutTests {
  private func frames(
    _ layout: WaterflowLayout, _ heights: [Double], viewport: Size = Size(width: 375, height: 667)
  ) -> LayoutSnapshot {
    layout.snapshot(viewport: viewport, itemCounts: [heights.count]) { .height(heights[$0]) }
  }

  private let ps = Margins(top: 8, bottom: 8, left: 8, right: 8, column: 8, row: 8)

  // PSCollectionView: colWidth = floorf((W − margin × (n + 1)) / n), left = margin + col ×
  // (margin + colWidth): 375 wide, 2 columns, margin 8 → 175 (not 175.5), x 8 and 191.
  @Test func columnWidthRoundingFloor_isPSCollectionViews() {
    var layout = WaterflowLayout(sections: [Section(columns: .count(2), margins: ps)])
    #expect(frames(layout, [100]).columnWidth == 175.5)
    layout.columnWidthRounding = .floor
    let s = frames(layout, [100, 50, 70])
    #expect(s.columnWidth == 175)
    #expect(
      s.frames == [
        Rect(x: 8, y: 8, width: 175, height: 100), Rect(x: 191, y: 8, width: 175, height: 50),
        Rect(x: 191, y: 66, width: 175, height: 70),
      ])
    // With pixel snapping too, the floored width stays whole points (no leftover pixels).
    layout.snapsToPixels = true
    layout.scale = 2
    #expect(frames(layout, [100, 50]).frames.map(\.width) == [175, 175])
  }

  // No items, a 44-pt header, a 30-pt footer, bottom margin 10, a 667-pt viewport.
  @Test func emptyContent_asEachSeedComputesIt() {
    var layout = WaterflowLayout(headerLength: 44, footerLength: 30)
    let empty = { frames(layout, []) }
    // Ours: header, one viewport of empty view, footer.
    #expect(empty().emptyView == Rect(x: 0, y: 44, width: 375, height: 667))
    #expect(empty().footer == Rect(x: 0, y: 711, width: 375, height: 30))
    #expect(empty().contentSize.height == 741)
    // PSCollectionView: totalHeight = self.height, then the footer.
    layout.emptyContent = .viewport
    #expect(empty().emptyView == Rect(x: 0, y: 44, width: 375, height: 623))
    #expect(empty().footer == Rect(x: 0, y: 667, width: 375, height: 30))
    #expect(empty().contentSize.height == 697)
    // ZY/YY/HM: the tallest column is 0, plus the bottom margin; no empty view.
    layout.emptyContent = .bottomMargin
    #expect(empty().emptyView == nil)
    #expect(empty().footer == Rect(x: 0, y: 54, width: 375, height: 30))
    #expect(empty().contentSize.height == 84)
    // Without header and footer, as in the seeds: the bottom margin alone.
    layout.headerLength = nil
    layout.footerLength = nil
    #expect(empty().contentSize.height == 10)
    // With items the rule does not apply.
    #expect(frames(layout, [50]).contentSize.height == 70)
  }

  // CHTCollectionViewWaterfallLayout: top += headerInset.top; header at (headerInset.left, top),
  // W − left − right wide; top = maxY + headerInset.bottom + sectionInset.top. Footer: tallest
  // column + sectionInset.bottom + footerInset.top; the section ends footerInset.bottom below it.
  @Test func chtHeaderAndFooterInsets_andMinimumContentHeight() {
    var section = Section(
      columns: .count(2), margins: Margins(top: 10, bottom: 10, left: 10, right: 10, column: 10, row: 10),
      headerLength: 40, footerLength: 20,
      headerInsets: EdgeInsets(top: 5, left: 20, bottom: 6, right: 30),
      footerInsets: EdgeInsets(top: 4, left: 0, bottom: 7, right: 0))
    var layout = WaterflowLayout(sections: [section])
    var s = frames(layout, [100, 60])
    #expect(s.sections[0].header == Rect(x: 20, y: 5, width: 325, height: 40))
    #expect(
      s.frames == [
        Rect(x: 10, y: 61, width: 172.5, height: 100), Rect(x: 192.5, y: 61, width: 172.5, height: 60),
      ])
    #expect(s.sections[0].footer == Rect(x: 0, y: 175, width: 375, height: 20))
    #expect(s.contentSize.height == 202)
    layout.minimumContentLength = 1000
    #expect(frames(layout, [100, 60]).contentSize.height == 1000)
    layout.minimumContentLength = 100
    #expect(frames(layout, [100, 60]).contentSize.height == 202)
    // Without insets, a section header spans the section's columns (not the view), after the
    // top margin; the footer sits below the tallest column, across the same columns.
    section.headerInsets = nil
    section.footerInsets = nil
    layout = WaterflowLayout(sections: [section])
    s = frames(layout, [100, 60])
    #expect(s.sections[0].header == Rect(x: 10, y: 10, width: 355, height: 40))
    #expect(s.frame(at: 0) == Rect(x: 10, y: 60, width: 172.5, height: 100))
    #expect(s.sections[0].footer == Rect(x: 10, y: 170, width: 355, height: 20))
  }

  // masonry's _manageStamp: each column the stamp overlaps gets colYs = max(colY, stamp bottom).
  // The reference demo's columns (x 10, 130, 250; 115 wide; gaps 5); a stamp over columns 1-2.
  @Test func stamps_itemsGoBelowAStampInEveryColumnItCovers() {
    let margins = Margins(top: 10, bottom: 10, left: 10, right: 10, column: 5, row: 5)
    var section = Section(
      margins: margins, stamps: [Rect(x: 130, y: 0, width: 235, height: 50)])
    var s = frames(WaterflowLayout(sections: [section]), [90, 110, 80, 90])
    #expect(s.sections[0].stamps == [Rect(x: 130, y: 10, width: 235, height: 50)])
    #expect(
      s.frames == [
        Rect(x: 10, y: 10, width: 115, height: 90), Rect(x: 130, y: 65, width: 115, height: 110),
        Rect(x: 250, y: 65, width: 115, height: 80), Rect(x: 10, y: 105, width: 115, height: 90),
      ])
    // A stamp only over the gap between columns 0 and 1 covers neither.
    section.stamps = [Rect(x: 126, y: 0, width: 3, height: 500)]
    s = frames(WaterflowLayout(sections: [section]), [90, 110, 80])
    #expect(s.frames.map(\.minY) == [10, 10, 10])
    // A tall stamp in column 0 alone: the section reaches at least its bottom.
    section.stamps = [Rect(x: 10, y: 0, width: 115, height: 900)]
    s = frames(WaterflowLayout(sections: [section]), [90])
    #expect(s.frame(at: 0) == Rect(x: 130, y: 10, width: 115, height: 90))
    #expect(s.contentSize.height == 920)
  }

  // masonry's originTop: false: the top-origin layout reflected, y′ = H − y − h.
  @Test func originBottom_mirrorsTheLayoutUpward() {
    let margins = Margins(top: 10, bottom: 10, left: 10, right: 10, column: 5, row: 5)
    var layout = WaterflowLayout(sections: [Section(margins: margins)])
    layout.origin = .bottom
    let s = frames(layout, [90, 110, 80, 90])
    #expect(s.contentSize.height == 195)
    #expect(
      s.frames == [
        Rect(x: 10, y: 95, width: 115, height: 90), Rect(x: 130, y: 75, width: 115, height: 110),
        Rect(x: 250, y: 105, width: 115, height: 80), Rect(x: 250, y: 10, width: 115, height: 90),
      ])
    #expect(s.indices(from: 0, to: 50) == [3])
    #expect(s.indices(from: 0, to: 76) == [1, 3])
    #expect(s.indices(from: 180, to: 300) == [0, 1, 2])
    #expect(s.indices(from: 185, to: 300).isEmpty)
  }

  // masonry: cols = ⌊(W + gutter) / (columnWidth + gutter)⌋; fitWidth shrinks the container to
  // its columns, which is then centred. 375 wide, margins 10, gap 10, columnWidth 100: 3 columns
  // using 320 of the 355 between the margins.
  @Test func fixedColumnWidth_andFitWidth() {
    let margins = Margins(top: 10, bottom: 10, left: 10, right: 10, column: 10, row: 10)
    var layout = WaterflowLayout(
      sections: [Section(columns: .fixedWidth(100, fitWidth: false), margins: margins)])
    var s = frames(layout, [50, 60, 70, 80])
    #expect(s.columnCount == 3)
    #expect(s.columnWidth == 100)
    #expect(s.frames.map(\.minX) == [10, 120, 230, 10])
    #expect(s.frame(at: 3) == Rect(x: 10, y: 70, width: 100, height: 80))
    layout.sections[0].columns = .fixedWidth(100, fitWidth: true)
    s = frames(layout, [50, 60, 70, 80])
    #expect(s.frames.map(\.minX) == [27.5, 137.5, 247.5, 27.5])
    // Rotated to 667: ⌊(647 + 10) / 110⌋ = 5 columns.
    #expect(frames(layout, [1], viewport: Size(width: 667, height: 375)).columnCount == 5)
  }

  // FlashList's getColumnFlex: [2, 1, 1] splits the width 2:1:1 (here the 335 pt left after
  // margins 10 and two 10-pt gaps): 167.5, 83.75, 83.75.
  @Test func columnWeights_shareTheWidthInProportion() {
    let margins = Margins(top: 10, bottom: 10, left: 10, right: 10, column: 10, row: 10)
    let layout = WaterflowLayout(sections: [Section(columns: .weights([2, 1, 1]), margins: margins)])
    let s = layout.snapshot(viewport: Size(width: 375, height: 667), itemCounts: [5]) {
      $0 == 4 ? .aspectRatio(width: 100, height: 200) : .height([100, 50, 70, 20][$0])
    }
    #expect(
      s.frames == [
        Rect(x: 10, y: 10, width: 167.5, height: 100), Rect(x: 187.5, y: 10, width: 83.75, height: 50),
        Rect(x: 281.25, y: 10, width: 83.75, height: 70), Rect(x: 187.5, y: 70, width: 83.75, height: 20),
        // The shortest is column 2 (80 + 10): an image there takes that column's width.
        Rect(x: 281.25, y: 90, width: 83.75, height: 167.5),
      ])
  }

  /// The existing invariants with every new key in play: no two items overlap, no item overlaps
  /// a stamp, visibility equals a full scan, appending equals a full layout.
  @Test func invariantsHold_withTheNewKeys() {
    withEvery("scene", in: 0..<300) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: 18_000 + seed)
      var scene = randomScene(&rng, SceneOptions(flows: [.vertical, .horizontal], snapping: [false, true]))
      scene.layout.columnWidthRounding = Bool.random(using: &rng) ? .exact : .floor
      scene.layout.origin = Bool.random(using: &rng) ? .top : .bottom
      scene.layout.minimumContentLength = Bool.random(using: &rng) ? 0 : 2000
      for s in scene.layout.sections.indices {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
          scene.layout.sections[s].columns = .weights(
            (0..<Int.random(in: 1...5, using: &rng)).map { _ in Double(Int.random(in: 1...4, using: &rng)) })
        case 1:
          scene.layout.sections[s].columns = .fixedWidth(
            Double(Int.random(in: 40...200, using: &rng)), fitWidth: Bool.random(using: &rng))
        default: break
        }
        if Bool.random(using: &rng) {
          scene.layout.sections[s].headerLength = 30
          scene.layout.sections[s].headerInsets = EdgeInsets(top: 3, left: 7, bottom: 2, right: 9)
        }
        if Bool.random(using: &rng) {
          scene.layout.sections[s].footerLength = 20
          scene.layout.sections[s].footerInsets = EdgeInsets(top: 4, left: 0, bottom: 6, right: 11)
        }
        scene.layout.sections[s].stamps = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
          Rect(
            x: Double(Int.random(in: 0...300, using: &rng)), y: Double(Int.random(in: 0...400, using: &rng)),
            width: Double(Int.random(in: 1...200, using: &rng)), height: Double(Int.random(in: 1...200, using: &rng)))
        }
      }
      let snapshot = scene.snapshot()
      let frames = snapshot.frames
      let stamps = snapshot.sections.flatMap(\.stamps)
      func overlap(_ a: Rect, _ b: Rect) -> Bool {
        a.width > 0 && a.height > 0 && b.width > 0 && b.height > 0
          && a.minX < b.maxX - 1e-9 && b.minX < a.maxX - 1e-9
          && a.minY < b.maxY - 1e-9 && b.minY < a.maxY - 1e-9
      }
      for i in frames.indices {
        for j in (i + 1)..<frames.count where overlap(frames[i], frames[j]) {
          Issue.record("seed \(seed): items \(i) and \(j) overlap: \(scene)")
          return
        }
        for stamp in stamps where overlap(frames[i], stamp) {
          Issue.record("seed \(seed): item \(i) overlaps stamp \(stamp): \(scene)")
          return
        }
      }
      let length = snapshot.layout.flow == .vertical ? snapshot.contentSize.height : snapshot.contentSize.width
      #expect(length >= scene.layout.minimumContentLength)
      for _ in 0..<20 {
        let from = Double.random(in: -100...(length + 100), using: &rng)
        let to = from + Double.random(in: 0...700, using: &rng)
        guard snapshot.indices(from: from, to: to) == snapshot.indicesByFullScan(from: from, to: to) else {
          Issue.record("seed \(seed): visibility differs from a scan at \(from)..<\(to): \(scene)")
          return
        }
      }
      // Appending the last items equals laying them all out at once.
      let last = scene.itemCounts.count - 1
      let tail = min(scene.itemCounts[last], 7)
      var counts = scene.itemCounts
      counts[last] -= tail
      var partial = scene.layout.snapshot(viewport: scene.viewport, itemCounts: counts) { scene.metrics[$0] }
      partial.append(count: tail) { scene.metrics[$0] }
      #expect(partial.frames == frames, "seed \(seed)")
      #expect(partial.contentSize == snapshot.contentSize, "seed \(seed)")
    }
  }
}
