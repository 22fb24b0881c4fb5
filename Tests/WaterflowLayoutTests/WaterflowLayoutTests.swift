import Testing
import WaterflowLayout

@Suite struct WaterflowLayoutTests {}

// MARK: - Reference demo

private let demoLayout = WaterflowLayout(
  sections: [
    Section(
      columns: .count(3),
      margins: Margins(
        top: 10, bottom: 10, left: 10, right: 10, column: 5, row: 5))
  ])
private let demoViewport = Size(width: 375, height: 667)
private func demoHeight(_ i: Int) -> ItemMetrics {
  .height([90, 110, 80][i % 3])
}

extension WaterflowLayoutTests {
  @Test func referenceDemo_hundredCells_firstFramesMatchHandComputation() {
    let s = demoLayout.snapshot(
      viewport: demoViewport, itemCounts: [100], metrics: demoHeight)
    #expect(s.count == 100)
    #expect(s.columnCount == 3)
    #expect(s.columnWidth == 115)
    let expected: [Rect] = [
      Rect(x: 10, y: 10, width: 115, height: 90),
      Rect(x: 130, y: 10, width: 115, height: 110),
      Rect(x: 250, y: 10, width: 115, height: 80),
      Rect(x: 250, y: 95, width: 115, height: 90),
      Rect(x: 10, y: 105, width: 115, height: 110),
      Rect(x: 130, y: 125, width: 115, height: 80),
      Rect(x: 250, y: 190, width: 115, height: 90),
      Rect(x: 130, y: 210, width: 115, height: 110),
      Rect(x: 10, y: 220, width: 115, height: 80),
      Rect(x: 250, y: 285, width: 115, height: 90),
      Rect(x: 10, y: 305, width: 115, height: 110),
      Rect(x: 130, y: 325, width: 115, height: 80),
    ]
    for (i, r) in expected.enumerated() {
      #expect(s.frame(at: i) == r, "index \(i)")
    }
    #expect(s.column(at: 3) == 2)
    #expect(s.contentSize == Size(width: 375, height: 3300))
  }

  @Test func defaults_areThreeColumnsMarginTen() {
    let layout = WaterflowLayout()
    #expect(layout.sections.count == 1)
    #expect(layout.sections[0].columns == .count(3))
    #expect(
      layout.sections[0].margins
        == Margins(
          top: 10, bottom: 10, left: 10, right: 10, column: 10, row: 10))
    #expect(layout.sections[0].order == .shortest)
    #expect(
      layout.flow == .vertical && layout.direction == .leftToRight
        && !layout.snapsToPixels)
    let s = layout.snapshot(
      viewport: Size(width: 340, height: 600), itemCounts: [100]
    ) { _ in .height(100) }
    #expect(s.columnWidth == 100)
    #expect(s.frame(at: 0) == Rect(x: 10, y: 10, width: 100, height: 100))
    #expect(s.frame(at: 1) == Rect(x: 120, y: 10, width: 100, height: 100))
    #expect(s.frame(at: 2) == Rect(x: 230, y: 10, width: 100, height: 100))
    #expect(s.frame(at: 3) == Rect(x: 10, y: 120, width: 100, height: 100))
    #expect(s.contentSize == Size(width: 340, height: 3750))
  }

  @Test func defaults_docExample_indexThreeGoesToShortestColumn() {
    // Heights 90/110/80 with margins 10: after three items column 2 is the shortest.
    let s = WaterflowLayout().snapshot(
      viewport: Size(width: 375, height: 667), itemCounts: [100]
    ) {
      .height([90, 110, 80][$0 % 3])
    }
    let w = (375.0 - 40) / 3
    #expect(
      close(
        s.frame(at: 3), Rect(x: 10 + 2 * (w + 10), y: 100, width: w, height: 90)
      ))
    #expect(s.column(at: 3) == 2)
  }

  @Test func emptyLayout_contentIsOneViewportWithEmptyView() {
    let s = WaterflowLayout(headerLength: 44, footerLength: 30).snapshot(
      viewport: Size(width: 375, height: 667), itemCounts: [0]
    ) { _ in .height(1) }
    #expect(s.count == 0)
    #expect(s.header == Rect(x: 0, y: 0, width: 375, height: 44))
    #expect(s.emptyView == Rect(x: 0, y: 44, width: 375, height: 667))
    #expect(s.footer == Rect(x: 0, y: 711, width: 375, height: 30))
    #expect(s.contentSize == Size(width: 375, height: 741))
    let custom = WaterflowLayout(emptyLength: 200).snapshot(
      viewport: Size(width: 375, height: 667), itemCounts: []
    ) { _ in .height(1) }
    #expect(custom.emptyView == Rect(x: 0, y: 0, width: 375, height: 200))
    #expect(custom.contentSize.height == 200)
  }

  @Test func headerAndFooter_shiftItemsAndAddToContent() {
    let layout = WaterflowLayout(
      headerLength: 50, footerLength: 20, sections: demoLayout.sections)
    let s = layout.snapshot(
      viewport: demoViewport, itemCounts: [100], metrics: demoHeight)
    let plain = demoLayout.snapshot(
      viewport: demoViewport, itemCounts: [100], metrics: demoHeight)
    for i in 0..<100 {
      #expect(s.frame(at: i) == plain.frame(at: i).offsetBy(dx: 0, dy: 50))
    }
    #expect(s.footer == Rect(x: 0, y: 3350, width: 375, height: 20))
    #expect(s.contentSize.height == 3370)
    #expect(s.emptyView == nil)
  }
}

// MARK: - Placement rules over random scenes

extension WaterflowLayoutTests {
  @Test func randomScenes_framesMatchTheRulesModel() {
    withEvery("seed", in: 0..<600) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      let scene = randomScene(&rng)
      let s = scene.snapshot()
      let model = ModelLayout(scene)
      #expect(s.count == model.frames.count, "seed \(seed)")
      guard s.count == model.frames.count else { return }
      for i in 0..<s.count
      where !close(s.frame(at: i), model.frames[i])
        || s.column(at: i) != model.columns[i]
        || s.span(at: i) != model.spans[i]
      {
        Issue.record(
          "seed \(seed) index \(i): \(s.frame(at: i)) col \(s.column(at: i)) vs model \(model.frames[i]) col \(model.columns[i]) — \(scene)"
        )
        return
      }
      #expect(
        close(s.contentSize.height, model.contentHeight),
        "seed \(seed): \(s.contentSize) vs \(model.contentHeight)")
      #expect(s.contentSize.width == scene.viewport.width)
      #expect(
        s.header == model.header && s.footer == model.footer, "seed \(seed)")
      #expect(
        s.emptyView.map { close($0, model.empty!) } ?? (model.empty == nil),
        "seed \(seed)")
    }
  }

  @Test func randomScenes_positiveFramesNeverOverlap() {
    let options = SceneOptions(
      flows: [.vertical, .horizontal],
      directions: [.leftToRight, .rightToLeft], snapping: [false, true])
    withEvery("seed", in: 0..<400) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      let scene = randomScene(&rng, options)
      let s = scene.snapshot()
      let frames = s.frames.enumerated().filter {
        $0.element.width > 0 && $0.element.height > 0
      }
      // Sorting by the scroll axis lets each frame be checked only against frames that start before it ends.
      let vertical = scene.layout.flow == .vertical
      let sorted = frames.sorted {
        vertical
          ? $0.element.minY < $1.element.minY
          : $0.element.minX < $1.element.minX
      }
      for a in sorted.indices {
        for b in (a + 1)..<sorted.count {
          let ra = sorted[a].element
          let rb = sorted[b].element
          if vertical ? rb.minY >= ra.maxY : rb.minX >= ra.maxX { break }
          // Tiny float slivers from fractional margins are not overlaps.
          let shrunk = Rect(
            x: rb.minX + 1e-6, y: rb.minY + 1e-6, width: rb.width - 2e-6,
            height: rb.height - 2e-6)
          if ra.intersects(shrunk) {
            Issue.record(
              "seed \(seed): \(sorted[a].offset) \(ra) overlaps \(sorted[b].offset) \(rb)"
            )
            return
          }
        }
      }
      // Every frame lies inside the content.
      let content = s.contentSize
      for (i, r) in frames {
        if r.minX < -1e-6 || r.minY < -1e-6 || r.maxX > content.width + 1e-6
          || r.maxY > content.height + 1e-6
        {
          Issue.record(
            "seed \(seed): frame \(i) \(r) outside content \(content)")
          return
        }
      }
    }
  }

  @Test func shortestOrder_eachItemWentToTheLowestColumn_tiesToTheLeft() {
    // Rebuild each column's bottom from the frames alone and check each choice.
    let options = SceneOptions(
      spans: false, sections: false, supplements: false)
    withEvery("seed", in: 0..<300) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      var scene = randomScene(&rng, options)
      scene.layout.sections[0].order = .shortest
      let s = scene.snapshot()
      let n = s.columnCount
      let m = scene.layout.sections[0].margins
      var next = [Double](repeating: m.top, count: n)
      for i in 0..<s.count {
        let c = s.column(at: i)
        let lowest = next.min()!
        let expected = next.firstIndex(of: lowest)!
        if c != expected || s.frame(at: i).minY != lowest {
          Issue.record(
            "seed \(seed) index \(i): column \(c) at \(s.frame(at: i).minY), expected \(expected) at \(lowest)"
          )
          return
        }
        #expect(
          s.frame(at: i).minX == m.left + Double(c) * (s.columnWidth + m.column)
        )
        let h = s.frame(at: i).height
        if h > 0 { next[c] = s.frame(at: i).maxY + m.row }
      }
    }
  }

  @Test func leftToRightOrder_withoutSpans_columnIsIndexModN() {
    let options = SceneOptions(
      spans: false, sections: false, supplements: false)
    withEvery("seed", in: 0..<200) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      var scene = randomScene(&rng, options)
      scene.layout.sections[0].order = .leftToRight
      let s = scene.snapshot()
      for i in 0..<s.count where s.column(at: i) != i % s.columnCount {
        Issue.record(
          "seed \(seed) index \(i): column \(s.column(at: i)), expected \(i % s.columnCount)"
        )
        return
      }
    }
  }

  @Test func spanItem_takesPositionMinimisingTallestColumn_tiesToStart() {
    // Columns 0…3 ending at 100, 50, 50, 200 (+ gap): a 2-span fits lowest at 1…2.
    let layout = WaterflowLayout(sections: [
      Section(
        columns: .count(4),
        margins: Margins(
          top: 0, bottom: 0, left: 0, right: 0, column: 0, row: 0))
    ])
    let items: [ItemMetrics] = [
      .height(100), .height(50), .height(50), .height(200),
      ItemMetrics(length: .fixed(10), span: .columns(2)),
    ]
    let s = layout.snapshot(
      viewport: Size(width: 400, height: 400), itemCounts: [5]
    ) { items[$0] }
    #expect(s.frame(at: 4) == Rect(x: 100, y: 50, width: 200, height: 10))
    #expect(s.column(at: 4) == 1 && s.span(at: 4) == 2)
    // Equal candidates: the start edge wins.
    let ties: [ItemMetrics] = [
      .height(50), .height(50), .height(50), .height(50),
      ItemMetrics(length: .fixed(10), span: .columns(3)),
    ]
    let t = layout.snapshot(
      viewport: Size(width: 400, height: 400), itemCounts: [5]
    ) { ties[$0] }
    #expect(t.frame(at: 4) == Rect(x: 0, y: 50, width: 300, height: 10))
    // A span wider than the layout is clamped.
    let wide = layout.snapshot(
      viewport: Size(width: 400, height: 400), itemCounts: [1]
    ) { _ in ItemMetrics(length: .fixed(10), span: .columns(9)) }
    #expect(wide.frame(at: 0) == Rect(x: 0, y: 0, width: 400, height: 10))
    #expect(wide.span(at: 0) == 4)
  }

  @Test func fullSpan_sitsBelowTallestColumnPlusRowGap() {
    let layout = WaterflowLayout(sections: [
      Section(
        columns: .count(3),
        margins: Margins(
          top: 5, bottom: 7, left: 10, right: 10, column: 5, row: 3))
    ])
    let items: [ItemMetrics] = [
      .height(40), .height(90), .height(20),
      ItemMetrics(length: .fixed(30), span: .full), .height(10),
    ]
    let s = layout.snapshot(
      viewport: Size(width: 320, height: 400), itemCounts: [5]
    ) { items[$0] }
    #expect(
      s.frame(at: 3) == Rect(x: 10, y: 5 + 90 + 3, width: 300, height: 30))
    #expect(s.frame(at: 4).minY == 98 + 30 + 3)
    #expect(s.frame(at: 4).minX == 10)
    #expect(s.contentSize.height == 98 + 30 + 3 + 10 + 7)
  }
}

// MARK: - Zero heights and bad image sizes

extension WaterflowLayoutTests {
  @Test func zeroHeightItem_doesNotMoveItsColumn() {
    let layout = WaterflowLayout(sections: [
      Section(
        columns: .count(2),
        margins: Margins(
          top: 0, bottom: 0, left: 0, right: 0, column: 0, row: 10))
    ])
    let items: [ItemMetrics] = [
      .height(0), .height(0), .height(50), .height(30), .height(0), .height(20),
    ]
    let s = layout.snapshot(
      viewport: Size(width: 200, height: 400), itemCounts: [6]
    ) { items[$0] }
    // Top = 0 and a zero first item: the column is still empty, the next item sits at the top too.
    #expect(s.frame(at: 0) == Rect(x: 0, y: 0, width: 100, height: 0))
    #expect(s.frame(at: 1) == Rect(x: 0, y: 0, width: 100, height: 0))
    #expect(s.frame(at: 2) == Rect(x: 0, y: 0, width: 100, height: 50))
    #expect(s.frame(at: 3) == Rect(x: 100, y: 0, width: 100, height: 30))
    #expect(s.frame(at: 4) == Rect(x: 100, y: 40, width: 100, height: 0))
    #expect(s.frame(at: 5) == Rect(x: 100, y: 40, width: 100, height: 20))
    #expect(s.contentSize.height == 60)
  }

  @Test func onlyZeroHeightItems_contentIsTheMargins() {
    let layout = WaterflowLayout()
    let s = layout.snapshot(
      viewport: Size(width: 340, height: 600), itemCounts: [7]
    ) { _ in .height(0) }
    for i in 0..<7 {
      #expect(s.frame(at: i).minY == 10 && s.frame(at: i).height == 0)
    }
    #expect(s.contentSize.height == 20)
    #expect(s.emptyView == nil)
  }

  @Test(arguments: [
    (0.0, 100.0), (-5.0, 100.0), (0.0, 0.0), (.nan, 10.0), (10.0, .nan),
    (.infinity, 5.0), (5.0, .infinity),
    (1e-300, 1e300), (100.0, -3.0),
  ])
  func badImageSize_neverGivesNaNOrInfinity(size: (Double, Double)) {
    for flow in [Flow.vertical, .horizontal] {
      for snap in [false, true] {
        let layout = WaterflowLayout(flow: flow, snapsToPixels: snap, scale: 2)
        let s = layout.snapshot(
          viewport: Size(width: 375, height: 667), itemCounts: [4]
        ) { i in
          i == 1 ? .aspectRatio(width: size.0, height: size.1) : .height(50)
        }
        for r in s.frames {
          #expect(
            r.minX.isFinite && r.minY.isFinite && r.width.isFinite
              && r.height.isFinite, "\(size) \(flow) \(r)")
          #expect(r.width >= 0 && r.height >= 0)
        }
        #expect(s.contentSize.width.isFinite && s.contentSize.height.isFinite)
      }
    }
  }

  @Test func aspectRatio_heightIsWidthTimesHOverW() {
    let s = demoLayout.snapshot(viewport: demoViewport, itemCounts: [3]) { i in
      [
        ItemMetrics.aspectRatio(width: 230, height: 460),
        .aspectRatio(width: 0, height: 50),
        ItemMetrics(
          length: .aspectRatio(width: 100, height: 50), span: .columns(2)),
      ][i]
    }
    #expect(s.frame(at: 0).height == 230)
    #expect(s.frame(at: 1).height == 115)  // w = 0: shown square
    #expect(s.frame(at: 2).width == 235 && s.frame(at: 2).height == 117.5)
  }

  @Test func nonFiniteOrNegativeFixedHeight_isZero() {
    let s = demoLayout.snapshot(viewport: demoViewport, itemCounts: [3]) { i in
      [ItemMetrics.height(-5), .height(.nan), .height(.infinity)][i]
    }
    for r in s.frames { #expect(r.height == 0 && r.minY == 10) }
    #expect(s.contentSize.height == 20)
  }
}

// MARK: - Directions and flows

extension WaterflowLayoutTests {
  @Test func rightToLeft_mirrorsLeftToRight() {
    let options = SceneOptions(snapping: [false, true])
    withEvery("seed", in: 0..<300) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      var scene = randomScene(&rng, options)
      scene.layout.direction = .leftToRight
      let ltr = scene.snapshot()
      scene.layout.direction = .rightToLeft
      let rtl = scene.snapshot()
      let w = scene.viewport.width
      #expect(rtl.contentSize == ltr.contentSize)
      for i in 0..<ltr.count {
        let a = ltr.frame(at: i)
        let expected = Rect(
          x: w - a.minX - a.width, y: a.minY, width: a.width, height: a.height)
        if !close(rtl.frame(at: i), expected, tolerance: 1e-9)
          || rtl.column(at: i) != ltr.column(at: i)
        {
          Issue.record(
            "seed \(seed) index \(i): \(rtl.frame(at: i)) is not the mirror of \(a)"
          )
          return
        }
      }
    }
  }

  @Test func horizontalFlow_isTheTransposeOfVertical() {
    let options = SceneOptions(snapping: [false, true])
    withEvery("seed", in: 0..<300) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      let scene = randomScene(&rng, options)
      let vertical = scene.snapshot()
      let horizontal = transposed(scene).snapshot()
      #expect(
        horizontal.contentSize
          == Size(
            width: vertical.contentSize.height,
            height: vertical.contentSize.width), "seed \(seed)")
      #expect(horizontal.header.map(transposed) == vertical.header)
      #expect(horizontal.footer.map(transposed) == vertical.footer)
      #expect(horizontal.emptyView.map(transposed) == vertical.emptyView)
      for i in 0..<vertical.count
      where transposed(horizontal.frame(at: i)) != vertical.frame(at: i) {
        Issue.record(
          "seed \(seed) index \(i): \(horizontal.frame(at: i)) vs vertical \(vertical.frame(at: i))"
        )
        return
      }
    }
  }

  @Test func horizontalRightToLeft_mirrorsAlongTheScrollAxis() {
    withEvery("seed", in: 0..<100) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      var scene = randomScene(&rng, SceneOptions(flows: [.horizontal]))
      let ltr = scene.snapshot()
      scene.layout.direction = .rightToLeft
      let rtl = scene.snapshot()
      let w = ltr.contentSize.width
      for i in 0..<ltr.count {
        let a = ltr.frame(at: i)
        if !close(
          rtl.frame(at: i),
          Rect(x: w - a.maxX, y: a.minY, width: a.width, height: a.height),
          tolerance: 1e-9)
        {
          Issue.record("seed \(seed) index \(i)")
          return
        }
      }
    }
  }
}

// MARK: - Pixel snapping

extension WaterflowLayoutTests {
  private func onGrid(_ v: Double, _ scale: Double) -> Bool {
    abs(v * scale - (v * scale).rounded()) < 1e-6
  }

  @Test func snapping_everyFrameEdgeIsOnTheDevicePixelGrid() {
    let options = SceneOptions(
      flows: [.vertical, .horizontal],
      directions: [.leftToRight, .rightToLeft], snapping: [true])
    withEvery("seed", in: 0..<300) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      let scene = randomScene(&rng, options)
      let s = scene.snapshot()
      let scale = scene.layout.scale
      let mirrorExtent =
        scene.layout.flow == .vertical
        ? scene.viewport.width : s.contentSize.width
      for (i, r) in s.frames.enumerated() {
        // In RTL the mirror is about the content (or viewport) width, which need not be on the grid.
        let x =
          scene.layout.direction == .rightToLeft
          ? mirrorExtent - r.maxX : r.minX
        if !(onGrid(x, scale) && onGrid(r.width, scale) && onGrid(r.minY, scale)
          && onGrid(r.height, scale))
        {
          Issue.record("seed \(seed) index \(i): \(r) off the 1/\(scale) grid")
          return
        }
      }
    }
  }

  @Test func snapping_leftoverPixelsGoToTheFirstColumns() {
    // 100 pt at scale 2 = 200 px; minus 2×10 pt edges = 160 px over 3 columns, gaps 2×3 px (1.5 pt):
    // 154 px → 52, 51, 51.
    let layout = WaterflowLayout(
      snapsToPixels: true, scale: 2,
      sections: [
        Section(
          columns: .count(3),
          margins: Margins(
            top: 0, bottom: 0, left: 10, right: 10, column: 1.5, row: 0))
      ])
    let s = layout.snapshot(
      viewport: Size(width: 100, height: 100), itemCounts: [3]
    ) { _ in .height(10) }
    #expect(s.frame(at: 0) == Rect(x: 10, y: 0, width: 26, height: 10))
    #expect(s.frame(at: 1) == Rect(x: 37.5, y: 0, width: 25.5, height: 10))
    #expect(s.frame(at: 2) == Rect(x: 64.5, y: 0, width: 25.5, height: 10))
    #expect(s.columnWidth == 25.5)
    // The same layout twice gives the same frames.
    #expect(
      layout.snapshot(viewport: Size(width: 100, height: 100), itemCounts: [3])
      { _ in .height(10) }.frames == s.frames)
    // Right to left, the wider column is still the first one, now at the right.
    var rtl = layout
    rtl.direction = .rightToLeft
    let r = rtl.snapshot(
      viewport: Size(width: 100, height: 100), itemCounts: [3]
    ) { _ in .height(10) }
    #expect(r.frame(at: 0) == Rect(x: 64, y: 0, width: 26, height: 10))
  }

  @Test func snapping_aspectHeightsAreFlooredFixedHeightsRounded() {
    let layout = WaterflowLayout(
      snapsToPixels: true, scale: 2,
      sections: [
        Section(
          columns: .count(1),
          margins: Margins(
            top: 0, bottom: 0, left: 0, right: 0, column: 0, row: 0))
      ])
    let items: [ItemMetrics] = [
      .aspectRatio(width: 3, height: 1), .height(10.3), .height(10.2),
    ]
    let s = layout.snapshot(
      viewport: Size(width: 100, height: 100), itemCounts: [3]
    ) { items[$0] }
    #expect(s.frame(at: 0).height == 33)  // 33.33 → 66.67 px → floored to 66 px
    #expect(s.frame(at: 1).height == 10.5)  // 20.6 px → 21 px
    #expect(s.frame(at: 2).height == 10)  // 20.4 px → 20 px
  }

  @Test func withoutSnapping_framesKeepFractions() {
    let s = WaterflowLayout().snapshot(
      viewport: Size(width: 100, height: 100), itemCounts: [1]
    ) { _ in .aspectRatio(width: 3, height: 1) }
    #expect(s.columnWidth == 20)
    #expect(abs(s.frame(at: 0).height - 20.0 / 3) < 1e-12)
  }
}

// MARK: - Column rules

extension WaterflowLayoutTests {
  @Test func adaptiveColumns_countFollowsTheFormula() {
    withEvery("seed", in: 0..<300) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      let width = Double.random(in: 0...1200, using: &rng)
      let minimum = Double.random(in: 1...300, using: &rng)
      let m = Margins(
        top: 0, bottom: 0, left: Double.random(in: 0...40, using: &rng),
        right: Double.random(in: 0...40, using: &rng),
        column: Double.random(in: 0...30, using: &rng), row: 0)
      let layout = WaterflowLayout(sections: [
        Section(columns: .minimumWidth(minimum), margins: m)
      ])
      let s = layout.snapshot(
        viewport: Size(width: width, height: 500), itemCounts: [1]
      ) { _ in .height(1) }
      let expected = max(
        1,
        Int(
          ((width - m.left - m.right + m.column) / (minimum + m.column))
            .rounded(.down)))
      #expect(s.columnCount == expected, "seed \(seed)")
      if expected > 1 {
        #expect(s.columnWidth >= minimum - 1e-9, "seed \(seed)")
      }
    }
  }

  @Test func adaptiveColumns_exactFit() {
    // (375 − 10 − 10 + 5) / (115 + 5) = 3 exactly.
    let layout = WaterflowLayout(sections: [
      Section(
        columns: .minimumWidth(115), margins: demoLayout.sections[0].margins)
    ])
    #expect(
      layout.snapshot(viewport: demoViewport, itemCounts: [1]) { _ in .height(1)
      }.columnCount == 3)
    #expect(
      layout.snapshot(
        viewport: Size(width: 374.9, height: 667), itemCounts: [1]
      ) { _ in .height(1) }.columnCount == 2)
    #expect(
      layout.snapshot(viewport: Size(width: 10, height: 667), itemCounts: [1]) {
        _ in .height(1)
      }.columnCount == 1)
  }

  @Test func perOrientation_picksByViewportOrExplicitOrientation() {
    let layout = WaterflowLayout(sections: [
      Section(columns: .perOrientation(portrait: 2, landscape: 4))
    ])
    #expect(
      layout.snapshot(viewport: Size(width: 375, height: 667), itemCounts: [1])
      { _ in .height(1) }.columnCount == 2)
    #expect(
      layout.snapshot(viewport: Size(width: 667, height: 375), itemCounts: [1])
      { _ in .height(1) }.columnCount == 4)
    #expect(
      layout.snapshot(
        viewport: Size(width: 375, height: 667), orientation: .landscape,
        itemCounts: [1]
      ) { _ in .height(1) }.columnCount == 4)
  }

  @Test func columnCountZeroOrNegative_isClampedToOne() {
    for n in [0, -3] {
      let s = WaterflowLayout(sections: [Section(columns: .count(n))]).snapshot(
        viewport: demoViewport, itemCounts: [2]
      ) { _ in .height(10) }
      #expect(s.columnCount == 1)
      #expect(s.frame(at: 1).minY == 30)
    }
  }

  @Test func columnWidths_matchSnapshotBeforeAnyItem() {
    let layout = WaterflowLayout(sections: [
      Section(columns: .count(3), margins: demoLayout.sections[0].margins),
      Section(columns: .count(2)),
    ])
    #expect(layout.columnWidths(viewport: demoViewport) == [115, 172.5])
    let s = layout.snapshot(viewport: demoViewport, itemCounts: [1, 1]) { _ in
      .height(1)
    }
    #expect(s.sections.map(\.columnWidth) == [115, 172.5])
  }
}

// MARK: - Sections

extension WaterflowLayoutTests {
  @Test func sections_followOneAnotherWithHeadersAndFooters() {
    let m = Margins(
      top: 10, bottom: 10, left: 10, right: 10, column: 10, row: 10)
    let layout = WaterflowLayout(sections: [
      Section(
        columns: .count(2), margins: m, headerLength: 40, footerLength: 20),
      Section(columns: .count(1), margins: m),
    ])
    let s = layout.snapshot(
      viewport: Size(width: 210, height: 400), itemCounts: [3, 2]
    ) { i in .height(Double(10 * (i + 1))) }
    let sec = s.sections
    #expect(sec.count == 2)
    #expect(sec[0].items == 0..<3 && sec[1].items == 3..<5)
    #expect(sec[0].header == Rect(x: 10, y: 10, width: 190, height: 40))
    #expect(s.frame(at: 0) == Rect(x: 10, y: 60, width: 90, height: 10))
    #expect(s.frame(at: 1) == Rect(x: 110, y: 60, width: 90, height: 20))
    #expect(s.frame(at: 2) == Rect(x: 10, y: 80, width: 90, height: 30))
    #expect(sec[0].footer == Rect(x: 10, y: 120, width: 190, height: 20))
    // Section 0 ends at 140 + 10; section 1 starts below its own top margin.
    #expect(s.frame(at: 3) == Rect(x: 10, y: 160, width: 190, height: 40))
    #expect(s.frame(at: 4) == Rect(x: 10, y: 210, width: 190, height: 50))
    #expect(s.contentSize.height == 270)
    #expect(s.section(containing: 2) == 0 && s.section(containing: 3) == 1)
  }

  @Test func sections_emptySectionsAreSkippedBySectionLookup() {
    let layout = WaterflowLayout(sections: [
      Section(), Section(), Section(), Section(),
    ])
    let s = layout.snapshot(viewport: demoViewport, itemCounts: [0, 2, 0, 3]) {
      _ in .height(10)
    }
    #expect(s.section(containing: 0) == 1 && s.section(containing: 1) == 1)
    #expect(s.section(containing: 2) == 3 && s.section(containing: 4) == 3)
  }
}
