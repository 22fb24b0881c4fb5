import Testing
import WaterflowLayout

@Suite struct LayoutSnapshotTests {}

private let everyMode = SceneOptions(
  flows: [.vertical, .horizontal], directions: [.leftToRight, .rightToLeft],
  snapping: [false, true], maxItems: 400)

/// Bands to query: random ones, ones starting or ending exactly at frame edges, empty and inverted ones.
private func bands<G: RandomNumberGenerator>(
  for s: LayoutSnapshot, _ rng: inout G
) -> [(Double, Double)] {
  let length =
    s.layout.flow == .vertical ? s.contentSize.height : s.contentSize.width
  var result: [(Double, Double)] = [
    (-100, length + 100), (0, 0), (50, 10), (-50, 0), (length, length + 50),
  ]
  for _ in 0..<40 {
    let a = Double.random(in: -50...(length + 50), using: &rng)
    result.append((a, a + Double.random(in: 0...700, using: &rng)))
  }
  guard s.count > 0 else { return result }
  for _ in 0..<40 {
    let r = s.frame(at: Int.random(in: 0..<s.count, using: &rng))
    let (lo, hi) =
      s.layout.flow == .vertical ? (r.minY, r.maxY) : (r.minX, r.maxX)
    let span = Double.random(in: 0...600, using: &rng)
    result.append((lo, lo + span))
    result.append((hi, hi + span))
    result.append((lo - span, lo))
    result.append((hi - span, hi))
    result.append((lo, hi))
  }
  return result
}

// MARK: - Visibility

extension LayoutSnapshotTests {
  @Test func indices_equalFullScan_overRandomBandsInEveryMode() {
    withEvery("seed", in: 0..<400) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      let scene = randomScene(&rng, everyMode)
      let s = scene.snapshot()
      for (lo, hi) in bands(for: s, &rng) {
        let fast = s.indices(from: lo, to: hi)
        let slow = s.indicesByFullScan(from: lo, to: hi)
        if fast != slow {
          Issue.record(
            "seed \(seed) band \(lo)..<\(hi): \(fast) vs full scan \(slow) — \(scene)"
          )
          return
        }
      }
    }
  }

  @Test func indices_equalFullScan_withManyZeroHeightItems() {
    var options = everyMode
    options.maxItems = 200
    withEvery("seed", in: 0..<200) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      var scene = randomScene(&rng, options)
      // Half the items have no height.
      for i in scene.metrics.indices where Bool.random(using: &rng) {
        scene.metrics[i].length = .fixed(0)
      }
      let s = scene.snapshot()
      for (lo, hi) in bands(for: s, &rng)
      where s.indices(from: lo, to: hi) != s.indicesByFullScan(from: lo, to: hi)
      {
        Issue.record(
          "seed \(seed) band \(lo)..<\(hi): \(s.indices(from: lo, to: hi)) vs \(s.indicesByFullScan(from: lo, to: hi)) — \(scene)"
        )
        return
      }
    }
  }

  @Test func indices_equalFullScan_acrossSampleBlocksOfLongColumns() {
    // Columns longer than the sampling stride (64 items), so the coarse search is exercised.
    withEvery("seed", in: 0..<20) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      var scene = randomScene(
        &rng,
        SceneOptions(
          flows: [.vertical, .horizontal],
          directions: [.leftToRight, .rightToLeft], sections: false, maxItems: 5
        ))
      scene.itemCounts = [Int.random(in: 500...3000, using: &rng)]
      scene.metrics = (0..<scene.total).map { _ in randomItem(&rng) }
      let s = scene.snapshot()
      for (lo, hi) in bands(for: s, &rng)
      where s.indices(from: lo, to: hi) != s.indicesByFullScan(from: lo, to: hi)
      {
        Issue.record("seed \(seed) band \(lo)..<\(hi)")
        return
      }
    }
  }

  @Test func indices_strictTest_frameTouchingTheBandIsNotIncluded() {
    let layout = WaterflowLayout(sections: [
      Section(
        columns: .count(1),
        margins: Margins(
          top: 0, bottom: 0, left: 0, right: 0, column: 0, row: 0))
    ])
    let s = layout.snapshot(
      viewport: Size(width: 100, height: 100), itemCounts: [3]
    ) { _ in .height(100) }
    #expect(s.indices(from: 100, to: 200) == [1])
    #expect(s.indices(from: 99.5, to: 200) == [0, 1])
    #expect(s.indices(from: 100, to: 200.5) == [1, 2])
    // An empty band is a line: the frame strictly covering it is on it (maxY > 150 && minY < 150).
    #expect(s.indices(from: 150, to: 150) == [1])
    #expect(s.indices(from: 100, to: 100) == [])
    #expect(s.indices(from: 300, to: 400) == [])
    // A frame half above the top shows (the early YY bug tested maxY twice).
    #expect(s.indices(from: 50, to: 150) == [0, 1])
  }

  @Test func indices_zeroHeightItemShowsOnlyStrictlyInsideTheBand() {
    let layout = WaterflowLayout(sections: [
      Section(
        columns: .count(1),
        margins: Margins(
          top: 0, bottom: 0, left: 0, right: 0, column: 0, row: 0))
    ])
    let s = layout.snapshot(
      viewport: Size(width: 100, height: 100), itemCounts: [3]
    ) { i in .height(i == 1 ? 0 : 100) }
    // Item 1 sits at y = 100 with no height.
    #expect(s.frame(at: 1) == Rect(x: 0, y: 100, width: 100, height: 0))
    #expect(s.indices(from: 50, to: 150) == [0, 1, 2])
    #expect(s.indices(from: 100, to: 150) == [2])
    #expect(s.indices(from: 50, to: 100) == [0])
  }

  @Test func indices_zeroHeightItemBelowTheLastSectionEnd_isFound() {
    // Row gap 20 and bottom margin 0: a zero-height last item sits 20 pt below the section's bottom.
    let m = Margins(top: 0, bottom: 0, left: 0, right: 0, column: 0, row: 20)
    let layout = WaterflowLayout(sections: [
      Section(columns: .count(1), margins: m),
      Section(columns: .count(1), margins: m),
    ])
    let s = layout.snapshot(
      viewport: Size(width: 100, height: 100), itemCounts: [2, 1]
    ) { i in .height(i == 1 ? 0 : 100) }
    #expect(s.frame(at: 1).minY == 120)
    for (lo, hi) in [(110.0, 130.0), (101.0, 200.0), (119.0, 121.0)] {
      #expect(
        s.indices(from: lo, to: hi) == s.indicesByFullScan(from: lo, to: hi),
        "band \(lo)..<\(hi)")
    }
  }
}

// MARK: - Appending

extension LayoutSnapshotTests {
  @Test func append_givesTheFramesOfAFullLayout() {
    withEvery("seed", in: 0..<300) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      let scene = randomScene(&rng, everyMode)
      let extra = (0..<Int.random(in: 0...80, using: &rng)).map { _ in
        randomItem(&rng)
      }
      var appended = scene.snapshot()
      var all = scene
      all.itemCounts[all.itemCounts.count - 1] += extra.count
      all.metrics += extra
      var asked: [Int] = []
      appended.append(count: extra.count) { i in
        asked.append(i)
        return all.metrics[i]
      }
      let full = all.snapshot()
      #expect(
        asked == Array(scene.total..<all.total),
        "seed \(seed): append asks only for the new items")
      #expect(appended.frames == full.frames, "seed \(seed)")
      #expect(appended.contentSize == full.contentSize, "seed \(seed)")
      #expect(appended.sections == full.sections, "seed \(seed)")
      #expect(
        appended.footer == full.footer && appended.header == full.header
          && appended.emptyView == full.emptyView, "seed \(seed)")
      // The index still answers correctly after an append.
      for (lo, hi) in bands(for: appended, &rng).prefix(30)
      where appended.indices(from: lo, to: hi)
        != full.indicesByFullScan(from: lo, to: hi)
      {
        Issue.record("seed \(seed) band \(lo)..<\(hi) after append")
        return
      }
    }
  }

  @Test func append_inSeveralSteps_equalsOneFullLayout() {
    let layout = WaterflowLayout(sections: [
      Section(columns: .count(4), order: .leftToRight)
    ])
    var rng = RepeatableRandomNumberGenerator(seed: 7)
    let items = (0..<300).map { _ in randomItem(&rng) }
    var s = layout.snapshot(viewport: demoViewportSize, itemCounts: [10]) {
      items[$0]
    }
    var total = 10
    for step in [1, 0, 63, 64, 65, 97] {
      s.append(count: step) { items[$0] }
      total += step
    }
    let full = layout.snapshot(viewport: demoViewportSize, itemCounts: [total])
    { items[$0] }
    #expect(s.frames == full.frames)
    #expect(s.contentSize == full.contentSize)
  }

  @Test func append_toAnEmptyLayout_dropsTheEmptyView() {
    let layout = WaterflowLayout(
      headerLength: 30, footerLength: 20,
      sections: [Section(), Section(headerLength: 15)])
    var s = layout.snapshot(viewport: demoViewportSize, itemCounts: [0, 0]) {
      _ in .height(50)
    }
    #expect(s.emptyView != nil)
    s.append(count: 5) { _ in .height(50) }
    let full = layout.snapshot(viewport: demoViewportSize, itemCounts: [0, 5]) {
      _ in .height(50)
    }
    #expect(s.emptyView == nil)
    #expect(s.frames == full.frames)
    #expect(s.sections == full.sections)
    #expect(s.contentSize == full.contentSize)
  }
}

private let demoViewportSize = Size(width: 375, height: 667)

// MARK: - Relayout from an index

extension LayoutSnapshotTests {
  @Test func relayout_afterChangingItemsFromAnIndex_equalsAFullLayout() {
    withEvery("seed", in: 0..<400) { seed in
      var rng = RepeatableRandomNumberGenerator(seed: seed)
      let scene = randomScene(&rng, everyMode)
      guard scene.total > 0 else { return }
      var snapshot = scene.snapshot()
      let index = Int.random(in: 0...scene.total, using: &rng)
      // Change the items from `index` on: resize some, insert some, remove some, in one section.
      var changed = scene
      let s =
        index < scene.total
        ? snapshot.section(containing: index) : scene.itemCounts.count - 1
      let sectionEnd = scene.itemCounts.prefix(s + 1).reduce(0, +)
      let removable = sectionEnd - index
      let removed =
        removable > 0 ? Int.random(in: 0...removable, using: &rng) : 0
      let inserted = Int.random(in: 0...20, using: &rng)
      changed.metrics.replaceSubrange(
        index..<(index + removed),
        with: (0..<inserted).map { _ in randomItem(&rng) })
      changed.itemCounts[s] += inserted - removed
      for i in changed.metrics.indices.dropFirst(index)
      where Int.random(in: 0..<4, using: &rng) == 0 {
        changed.metrics[i] = randomItem(&rng)
      }
      var asked = Set<Int>()
      snapshot.relayout(from: index, itemCounts: changed.itemCounts) { i in
        asked.insert(i)
        return changed.metrics[i]
      }
      let full = changed.snapshot()
      #expect(
        snapshot.frames == full.frames,
        "seed \(seed) index \(index): \(scene.itemCounts) → \(changed.itemCounts)"
      )
      #expect(snapshot.contentSize == full.contentSize, "seed \(seed)")
      #expect(snapshot.sections == full.sections, "seed \(seed)")
      #expect(
        snapshot.footer == full.footer && snapshot.emptyView == full.emptyView,
        "seed \(seed)")
      for (lo, hi) in bands(for: full, &rng).prefix(30)
      where snapshot.indices(from: lo, to: hi)
        != full.indicesByFullScan(from: lo, to: hi)
      {
        Issue.record("seed \(seed) band \(lo)..<\(hi) after relayout")
        return
      }
    }
  }

  @Test func relayout_insertingAtTheEndOfAnEarlierSection_equalsAFullLayout() {
    // Items inserted at the end of section 0 take flat indices that used to start section 1.
    let layout = WaterflowLayout(sections: [
      Section(columns: .count(2)), Section(columns: .count(3)),
    ])
    var items = (0..<8).map { ItemMetrics.height(Double(20 + $0 * 7)) }
    var s = layout.snapshot(viewport: demoViewportSize, itemCounts: [5, 3]) {
      items[$0]
    }
    items.insert(contentsOf: [.height(33), .height(44)], at: 5)
    s.relayout(from: 5, itemCounts: [7, 3]) { items[$0] }
    let full = layout.snapshot(viewport: demoViewportSize, itemCounts: [7, 3]) {
      items[$0]
    }
    #expect(s.frames == full.frames)
    #expect(s.sections == full.sections)
    #expect(s.contentSize == full.contentSize)
  }

  @Test func relayout_removingTheRestOfASection_equalsAFullLayout() {
    let layout = WaterflowLayout(sections: [
      Section(columns: .count(2)), Section(columns: .count(3)),
    ])
    var items = (0..<8).map { ItemMetrics.height(Double(20 + $0 * 7)) }
    var s = layout.snapshot(viewport: demoViewportSize, itemCounts: [5, 3]) {
      items[$0]
    }
    items.removeSubrange(3..<5)
    s.relayout(from: 3, itemCounts: [3, 3]) { items[$0] }
    let full = layout.snapshot(viewport: demoViewportSize, itemCounts: [3, 3]) {
      items[$0]
    }
    #expect(s.frames == full.frames)
    #expect(s.sections == full.sections)
  }

  @Test func relayout_fromTheOldEnd_WithFewerItems_equalsAFullLayout() {
    // "Changed from the old end" while the count shrank: nothing is appended, items go away.
    let layout = WaterflowLayout(sections: [Section(columns: .count(3))])
    let items = (0..<20).map { ItemMetrics.height(Double(30 + ($0 * 37) % 90)) }
    var s = layout.snapshot(viewport: demoViewportSize, itemCounts: [20]) {
      items[$0]
    }
    s.relayout(from: 20, itemCounts: [12]) { items[$0] }
    let full = layout.snapshot(viewport: demoViewportSize, itemCounts: [12]) {
      items[$0]
    }
    #expect(s.frames == full.frames)
    #expect(s.contentSize == full.contentSize)
  }

  @Test func relayout_fromZero_prependsLikeAFullLayout() {
    let layout = WaterflowLayout(sections: [
      Section(columns: .count(3), order: .leftToRight, headerLength: 20)
    ])
    var items = (0..<50).map { ItemMetrics.height(Double(30 + ($0 * 37) % 90)) }
    var s = layout.snapshot(viewport: demoViewportSize, itemCounts: [50]) {
      items[$0]
    }
    items.insert(
      contentsOf: (0..<10).map { _ in
        ItemMetrics(length: .fixed(25), span: .columns(2))
      }, at: 0)
    s.relayout(from: 0, itemCounts: [60]) { items[$0] }
    #expect(
      s.frames
        == layout.snapshot(viewport: demoViewportSize, itemCounts: [60]) {
          items[$0]
        }.frames)
  }
}
