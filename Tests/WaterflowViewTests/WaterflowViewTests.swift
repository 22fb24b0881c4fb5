import Testing
import WaterflowView

@Suite struct WaterflowViewTests {}

// MARK: - Fixtures

/// A cell that counts its `prepareForReuse()` calls.
private final class CountingCell: WaterflowCell {
  var prepared = 0
  override func prepareForReuse() {
    super.prepareForReuse()
    prepared += 1
  }
}

/// The reference demo's data source: dequeues or creates, colours a cell only when creating it.
private final class DemoSource: WaterflowViewDataSource, WaterflowViewDelegate {
  var count: Int
  var heights: [Double]
  var columns: Int
  var margins: [MarginType: Double] = [:]
  var identifiers: [String] = ["cell"]
  var allowSelection = true
  var selected: [Int] = []
  var asked: [Int] = []
  var createdByIdentifier: [String: Int] = [:]
  private var colours = SeededGenerator(seed: 42)

  init(count: Int, heights: [Double], columns: Int = 3) {
    self.count = count
    self.heights = heights
    self.columns = columns
  }

  func numberOfCells(in view: WaterflowView) -> Int { count }
  func numberOfColumns(in view: WaterflowView) -> Int { columns }

  func waterflowView(_ view: WaterflowView, cellAt index: Int) -> WaterflowCell
  {
    asked.append(index)
    let id = identifiers[index % identifiers.count]
    if let cell = view.dequeueReusableCell(withIdentifier: id) { return cell }
    let cell = CountingCell(reuseIdentifier: id)
    createdByIdentifier[id, default: 0] += 1
    cell.backgroundColor = Color.random(using: &colours)
    return cell
  }

  func waterflowView(_ view: WaterflowView, heightAt index: Int) -> Double {
    heights[index % heights.count]
  }
  func waterflowView(_ view: WaterflowView, marginFor type: MarginType)
    -> Double
  { margins[type] ?? 10 }
  func waterflowView(_ view: WaterflowView, shouldSelectCellAt index: Int)
    -> Bool
  { allowSelection }
  func waterflowView(_ view: WaterflowView, didSelectCellAt index: Int) {
    selected.append(index)
  }
}

private func demoView(
  count: Int = 100, bounds: Size = Size(width: 375, height: 667)
) -> (WaterflowView, DemoSource) {
  let source = DemoSource(count: count, heights: [90, 110, 80])
  source.margins = [.column: 5, .row: 5]
  let view = WaterflowView(bounds: bounds)
  view.dataSource = source
  view.delegate = source
  return (view, source)
}

/// Checks the reuse invariants of one pass; returns false (after recording) on the first failure.
private func checkPass(
  _ view: WaterflowView, _ pass: LayoutPass, before: [Int: ObjectIdentifier],
  asked: ArraySlice<Int>,
  peak: inout [String: Int], created: [String: Int], context: String
) -> Bool {
  guard let snapshot = view.snapshot else {
    Issue.record("\(context): no snapshot")
    return false
  }
  let length = view.bounds.height
  let expected = snapshot.indicesByFullScan(
    from: view.offset - view.preloadBuffer,
    to: view.offset + length + view.preloadBuffer)
  let shown = view.displayed.map(\.index)
  // Pools are per identifier, so the bound holds per identifier.
  var now: [String: Int] = [:]
  for (_, cell) in view.displayed { now[cell.reuseIdentifier, default: 0] += 1 }
  for (id, n) in now { peak[id] = max(peak[id] ?? 0, n) }
  var problems: [String] = []
  if shown != expected {
    problems.append("displayed \(shown) but on screen \(expected)")
  }
  if pass.displayed.map(\.index) != shown {
    problems.append("pass.displayed \(pass.displayed.map(\.index))")
  }
  let objects = Set(view.displayed.map { ObjectIdentifier($0.cell) })
  if objects.count != shown.count {
    problems.append("a cell is displayed at two indices")
  }
  for (i, cell) in view.displayed where cell.frame != snapshot.frame(at: i) {
    problems.append(
      "cell \(i) at \(cell.frame), layout says \(snapshot.frame(at: i))")
  }
  for (id, n) in created where n > peak[id] ?? 0 {
    problems.append("created \(n) \(id) cells, peak displayed \(peak[id] ?? 0)")
  }
  if view.createdCellCount != created.values.reduce(0, +) {
    problems.append("createdCellCount \(view.createdCellCount)")
  }
  // Only entering indices are asked for: never one that stayed displayed.
  let entering = shown.filter { before[$0] == nil }
  if Array(asked) != entering {
    problems.append("asked for \(Array(asked)), entering \(entering)")
  }
  for i in shown
  where before[i] != nil && before[i] != ObjectIdentifier(view.cell(at: i)!) {
    problems.append("cell at \(i) changed while staying on screen")
  }
  if pass.created.count + pass.reused.count != entering.count {
    problems.append("created + reused ≠ entering")
  }
  if view.reusePool.count != pass.poolSize { problems.append("pool size") }
  if !problems.isEmpty {
    Issue.record("\(context): \(problems.joined(separator: "; "))")
    return false
  }
  return true
}

// MARK: - First layout

extension WaterflowViewTests {
  @Test func firstLayoutSubviews_reloadsByItself() {
    let (view, source) = demoView()
    #expect(view.snapshot == nil)
    #expect(view.displayed.isEmpty)
    let pass = view.layoutSubviews()
    #expect(view.snapshot?.count == 100)
    #expect(view.contentSize == Size(width: 375, height: 3300))
    #expect(view.columnWidth == 115)
    let onScreen = view.snapshot!.indicesByFullScan(from: 0, to: 667)
    #expect(pass.displayed.map(\.index) == onScreen)
    #expect(pass.created.map(\.index) == onScreen)
    #expect(pass.created.map(\.cell) == Array(1...onScreen.count))
    #expect(source.asked == onScreen)
    #expect(
      view.cell(at: 3)?.frame == Rect(x: 250, y: 95, width: 115, height: 90))
    // A second pass at the same offset asks for nothing.
    let again = view.layoutSubviews()
    #expect(
      again.created.isEmpty && again.reused.isEmpty && again.enqueued.isEmpty)
    #expect(source.asked == onScreen)
  }

  @Test func noDelegate_usesReferenceDefaults() {
    let source = DemoSource(count: 10, heights: [1])
    let view = WaterflowView(bounds: Size(width: 340, height: 500))
    view.dataSource = source
    view.layoutSubviews()
    #expect(
      view.cell(at: 0)?.frame == Rect(x: 10, y: 10, width: 100, height: 100))
    #expect(
      view.cell(at: 4)?.frame == Rect(x: 120, y: 120, width: 100, height: 100))
    #expect(view.selectCell(at: Point(x: 50, y: 50)) == nil)
  }

  @Test func noDataSource_isEmptyWithEmptyView() {
    let view = WaterflowView(bounds: Size(width: 320, height: 480))
    let pass = view.layoutSubviews()
    #expect(pass.displayed.isEmpty)
    #expect(
      view.snapshot?.emptyView == Rect(x: 0, y: 0, width: 320, height: 480))
    #expect(view.contentSize == Size(width: 320, height: 480))
  }
}

// MARK: - Reuse while scrolling

extension WaterflowViewTests {
  @Test func scrollingDownAndUp_keepsReuseInvariants_overRandomScenes() {
    for seed in 0..<150 {
      var rng = SeededGenerator(seed: UInt64(seed))
      let source = DemoSource(
        count: Int.random(in: 0...250, using: &rng),
        heights: (0..<Int.random(in: 1...7, using: &rng)).map { _ in
          Int.random(in: 0..<6, using: &rng) == 0
            ? 0 : Double(Int.random(in: 10...300, using: &rng))
        },
        columns: Int.random(in: 1...6, using: &rng))
      for type in MarginType.allCases {
        source.margins[type] = Double(Int.random(in: 0...20, using: &rng))
      }
      if Bool.random(using: &rng) { source.identifiers = ["a", "b", "c"] }
      let view = WaterflowView(
        bounds: Size(
          width: Double.random(in: 200...800, using: &rng),
          height: Double.random(in: 200...900, using: &rng)))
      view.dataSource = source
      view.delegate = source
      if Bool.random(using: &rng) {
        view.preloadBuffer = Double(Int.random(in: 0...400, using: &rng))
      }
      var peak: [String: Int] = [:]
      var before: [Int: ObjectIdentifier] = [:]
      var askedSoFar = 0
      var offsets: [Double] = [0]
      let pass0 = view.layoutSubviews()
      guard
        checkPass(
          view, pass0, before: [:], asked: source.asked[...], peak: &peak,
          created: source.createdByIdentifier, context: "seed \(seed) first")
      else { continue }
      let end = max(0, view.contentSize.height - view.bounds.height)
      var y = 0.0
      while y < end + 200 {
        y += Double.random(in: 1...250, using: &rng)
        offsets.append(y)
      }
      while y > -100 {
        y -= Double.random(in: 1...250, using: &rng)
        offsets.append(y)
        if Int.random(in: 0..<5, using: &rng) == 0 {
          offsets.append(y + Double.random(in: 0...30, using: &rng))
        }
      }
      askedSoFar = source.asked.count
      before = Dictionary(
        uniqueKeysWithValues: view.displayed.map {
          ($0.index, ObjectIdentifier($0.cell))
        })
      var ok = true
      for offset in offsets where ok {
        let pass = view.scroll(to: offset)
        ok = checkPass(
          view, pass, before: before, asked: source.asked[askedSoFar...],
          peak: &peak, created: source.createdByIdentifier,
          context: "seed \(seed) offset \(offset)")
        askedSoFar = source.asked.count
        before = Dictionary(
          uniqueKeysWithValues: view.displayed.map {
            ($0.index, ObjectIdentifier($0.cell))
          })
      }
    }
  }

  @Test func leavingCells_areEnqueuedInAscendingOrder_andReusedLastInFirstOut()
  {
    let (view, source) = demoView()
    defer { withExtendedLifetime(source) {} }
    let first = view.layoutSubviews()
    let pass = view.scroll(to: 2000)
    // Everything on the first screen left, in ascending index order.
    #expect(pass.enqueued.map(\.index) == first.displayed.map(\.index))
    #expect(pass.enqueued.map(\.cell) == first.displayed.map(\.cell))
    // The entering cells were served last-in-first-out: the cell that left at the highest index first.
    let entering = pass.reused.map(\.cell)
    #expect(
      entering
        == Array(first.displayed.map(\.cell).reversed().prefix(entering.count)))
    // New cells are created only once the pool has run dry.
    if !pass.created.isEmpty {
      #expect(pass.reused.count == first.displayed.count)
    }
  }

  @Test func prepareForReuse_isCalledOnEnqueue_andSelectionCleared() {
    let (view, source) = demoView()
    view.layoutSubviews()
    let cell = view.cell(at: 0) as! CountingCell
    #expect(view.selectCell(at: Point(x: 20, y: 20)) == 0)
    #expect(cell.isSelected)
    #expect(source.selected == [0])
    view.scroll(to: 1500)
    #expect(cell.prepared == 1)
    #expect(cell.reuseCount == 1)
    #expect(!cell.isSelected)
  }

  @Test func recycledCell_keepsItsOwnColourAtANewIndex() {
    let (view, source) = demoView()
    defer { withExtendedLifetime(source) {} }
    view.layoutSubviews()
    let colours = Dictionary(
      uniqueKeysWithValues: view.displayed.map {
        (ObjectIdentifier($0.cell), $0.cell.backgroundColor)
      })
    let pass = view.scroll(to: 2000)
    #expect(!pass.reused.isEmpty)
    for r in pass.reused {
      let cell = view.cell(at: r.index)!
      #expect(
        cell.backgroundColor == colours[ObjectIdentifier(cell)]!,
        "cell \(r.cell) at \(r.index)")
    }
  }

  @Test func reusePool_isLastInFirstOutPerIdentifier() {
    var pool = ReusePool()
    let cells = (0..<5).map {
      CountingCell(reuseIdentifier: $0 % 2 == 0 ? "even" : "odd")
    }
    for c in cells { pool.enqueue(c) }
    #expect(pool.count == 5)
    #expect(
      pool.count(withIdentifier: "even") == 3
        && pool.count(withIdentifier: "odd") == 2)
    #expect(cells.allSatisfy { $0.prepared == 1 })
    #expect(pool.dequeue(withIdentifier: "even") === cells[4])
    #expect(pool.dequeue(withIdentifier: "even") === cells[2])
    #expect(pool.dequeue(withIdentifier: "odd") === cells[3])
    #expect(pool.dequeue(withIdentifier: "none") == nil)
    #expect(pool.count == 2)
    pool.removeAll()
    #expect(pool.count == 0 && pool.dequeue(withIdentifier: "even") == nil)
  }

  @Test func cellsWithDifferentIdentifiers_comeBackFromTheirOwnPool() {
    let (view, source) = demoView()
    source.identifiers = ["x", "y"]
    view.layoutSubviews()
    for offset in stride(from: 0.0, through: 2500, by: 37) {
      view.scroll(to: offset)
      for (i, cell) in view.displayed {
        #expect(cell.reuseIdentifier == (i % 2 == 0 ? "x" : "y"))
      }
    }
  }

  @Test func reloadData_dropsDisplayedCellsAndPool() {
    let (view, source) = demoView()
    view.layoutSubviews()
    view.scroll(to: 3200)  // past the end: few cells show, the rest wait in the pool
    #expect(view.reusePool.count > 0)
    view.reloadData()
    #expect(view.displayed.isEmpty && view.reusePool.count == 0)
    let asked = source.asked.count
    let pass = view.layoutSubviews()
    #expect(source.asked.count - asked == pass.displayed.count)
    #expect(pass.reused.isEmpty)
  }
}

// MARK: - Selection

extension WaterflowViewTests {
  @Test func selection_hitsDisplayedCellsOnly() {
    let (view, source) = demoView()
    view.layoutSubviews()
    // Index 3 at (250, 95, 115, 90).
    #expect(view.selectCell(at: Point(x: 300, y: 140)) == 3)
    #expect(view.cell(at: 3)?.isSelected == true)
    #expect(view.selectCell(at: Point(x: 250, y: 95)) == 3)  // top-left corner counts
    #expect(view.selectCell(at: Point(x: 365, y: 140)) == nil)  // right edge: outside (right margin)
    #expect(view.selectCell(at: Point(x: 127, y: 50)) == nil)  // the column gap
    #expect(view.selectCell(at: Point(x: 5, y: 50)) == nil)  // the left margin
    #expect(view.selectCell(at: Point(x: 50, y: 102)) == nil)  // the row gap under index 0
    // A frame far below the screen is not displayed, so it is not hit.
    let far = view.snapshot!.frame(at: 90)
    #expect(view.selectCell(at: Point(x: far.midX, y: far.midY)) == nil)
    #expect(source.selected == [3, 3])
  }

  @Test func selection_delegateDeclines_orNoDelegate_givesNil() {
    let (view, source) = demoView()
    view.layoutSubviews()
    source.allowSelection = false
    #expect(view.selectCell(at: Point(x: 50, y: 50)) == nil)
    #expect(view.cell(at: 0)?.isSelected == false)
    #expect(source.selected.isEmpty)
    source.allowSelection = true
    view.delegate = nil
    #expect(view.selectCell(at: Point(x: 50, y: 50)) == nil)
    #expect(view.indexForCell(at: Point(x: 50, y: 50)) == 0)
    #expect(source.selected.isEmpty)
  }

  @Test func selection_afterScrolling_hitsTheCellsNowDisplayed() {
    let (view, source) = demoView()
    defer { withExtendedLifetime(source) {} }
    view.layoutSubviews()
    view.scroll(to: 1000)
    for (i, cell) in view.displayed where cell.frame.height > 0 {
      #expect(
        view.indexForCell(at: Point(x: cell.frame.midX, y: cell.frame.midY))
          == i)
    }
    #expect(view.indexForCell(at: Point(x: 50, y: 50)) == nil)
  }
}

// MARK: - Rotation and orientation

extension WaterflowViewTests {
  // Rotation as the seeds do it (issue 18): ZY and YY reload, PSCollectionView re-pools and
  // re-requests, so every visible cell is asked for again. It used to keep the cells that stayed
  // on screen, which no seed does.
  @Test func rotation_recomputesFrames_asksAgainForEveryVisibleCell_throughThePool() {
    let (view, source) = demoView()
    defer { withExtendedLifetime(source) {} }
    view.layoutSubviews()
    view.scroll(to: 300)
    let before = view.displayed.map { DisplayedCell(index: $0.index, cell: $0.cell.instanceID) }
    let created = view.createdCellCount
    source.asked = []
    view.bounds = Size(width: 667, height: 375)
    let pass = view.layoutSubviews()
    let snapshot = view.snapshot!
    #expect(snapshot.viewport == Size(width: 667, height: 375))
    let landscapeWidth: Double = (667.0 - 20 - 10) / 3
    #expect(view.columnWidth == landscapeWidth)
    let visible = snapshot.indicesByFullScan(from: 300, to: 675)
    #expect(view.displayed.map(\.index) == visible)
    for (i, cell) in view.displayed { #expect(cell.frame == snapshot.frame(at: i)) }
    // Every displayed cell went to the pool first, in index order, and every visible index was
    // requested, in index order; the pool served them, so no cell was created (fewer are shown).
    #expect(pass.enqueued == before)
    #expect(source.asked == visible)
    #expect(pass.reused.map(\.index) == visible)
    #expect(pass.created.isEmpty)
    #expect(view.createdCellCount == created)
    #expect(pass.poolSize == before.count - visible.count)
    // The same happens when only the column count changes.
    source.asked = []
    view.layout = WaterflowLayout(sections: [Section(columns: .count(4))])
    let again = view.layoutSubviews()
    #expect(view.snapshot!.columnCount == 4)
    #expect(source.asked == view.displayed.map(\.index))
    #expect(again.enqueued.map(\.index) == visible)
    // A pass with nothing changed asks for nothing.
    source.asked = []
    view.layoutSubviews()
    #expect(source.asked.isEmpty)
  }

  @Test func perOrientation_columnCountFollowsBounds() {
    let source = DemoSource(count: 40, heights: [50])
    let view = WaterflowView(bounds: Size(width: 375, height: 667))
    view.dataSource = source
    view.layout = WaterflowLayout(sections: [
      Section(columns: .perOrientation(portrait: 2, landscape: 4))
    ])
    view.layoutSubviews()
    #expect(view.snapshot?.columnCount == 2)
    view.bounds = Size(width: 667, height: 375)
    view.layoutSubviews()
    #expect(view.snapshot?.columnCount == 4)
    for (i, cell) in view.displayed {
      #expect(cell.frame == view.snapshot!.frame(at: i))
    }
    // An explicit orientation wins over the bounds.
    view.orientation = .portrait
    view.layoutSubviews()
    #expect(view.snapshot?.columnCount == 2)
    for (i, cell) in view.displayed {
      #expect(cell.frame == view.snapshot!.frame(at: i))
    }
  }
}

// MARK: - Data changes

extension WaterflowViewTests {
  @Test func appendCells_keepsDisplayedCells_andEqualsAFullLayout() {
    let (view, source) = demoView(count: 30)
    view.layoutSubviews()
    view.scroll(to: 700)
    let before = Dictionary(
      uniqueKeysWithValues: view.displayed.map {
        ($0.index, ObjectIdentifier($0.cell))
      })
    source.count = 80
    view.appendCells(count: 50)
    let pass = view.layoutSubviews()
    let full = view.effectiveLayout.snapshot(
      viewport: view.bounds, itemCounts: [80]
    ) { .height([90, 110, 80][$0 % 3]) }
    #expect(view.snapshot!.frames == full.frames)
    #expect(view.contentSize == full.contentSize)
    for (i, cell) in view.displayed {
      #expect(cell.frame == full.frame(at: i))
      if let old = before[i] { #expect(old == ObjectIdentifier(cell)) }
    }
    #expect(pass.enqueued.isEmpty)
    #expect(
      view.displayed.map(\.index) == full.indicesByFullScan(from: 700, to: 1367)
    )
  }

  @Test func appendCells_toAnEmptyView() {
    let (view, source) = demoView(count: 0)
    view.layoutSubviews()
    #expect(view.snapshot?.emptyView != nil)
    source.count = 12
    view.appendCells(count: 12)
    let pass = view.layoutSubviews()
    #expect(view.snapshot?.emptyView == nil)
    #expect(pass.displayed.map(\.index) == Array(0..<12))
  }

  @Test func insertCells_atZero_movesDisplayedCellsToTheirNewIndices() {
    let (view, source) = demoView(count: 60)
    view.layoutSubviews()
    view.scroll(to: 400)
    let before = Dictionary(
      uniqueKeysWithValues: view.displayed.map {
        ($0.index, ObjectIdentifier($0.cell))
      })
    // Three cells with the pattern's heights keep every later item's height (index % 3).
    source.count = 63
    view.insertCells(at: 0, count: 3)
    let snapshot = view.snapshot!
    let full = view.effectiveLayout.snapshot(
      viewport: view.bounds, itemCounts: [63]
    ) { .height([90, 110, 80][$0 % 3]) }
    #expect(snapshot.frames == full.frames)
    for (i, cell) in view.displayed {
      #expect(cell.frame == full.frame(at: i))
      #expect(before[i - 3] == ObjectIdentifier(cell))
    }
    view.layoutSubviews()
    #expect(
      view.displayed.map(\.index) == full.indicesByFullScan(from: 400, to: 1067)
    )
    for (i, cell) in view.displayed {
      #expect(cell.frame == full.frame(at: i))
      if let old = before[i - 3] {
        #expect(old == ObjectIdentifier(cell), "index \(i)")
      }
    }
  }

  @Test func insertCells_inTheMiddle_keepsCellsBeforeTheIndex() {
    let (view, source) = demoView(count: 60)
    view.layoutSubviews()
    let before = Dictionary(
      uniqueKeysWithValues: view.displayed.map {
        ($0.index, ObjectIdentifier($0.cell))
      })
    source.count = 63
    view.insertCells(at: 5, count: 3)
    view.layoutSubviews()
    let full = view.effectiveLayout.snapshot(
      viewport: view.bounds, itemCounts: [63]
    ) { .height([90, 110, 80][$0 % 3]) }
    #expect(view.snapshot!.frames == full.frames)
    for i in 0..<5 {
      #expect(before[i] == view.cell(at: i).map(ObjectIdentifier.init))
    }
    #expect(
      view.displayed.map(\.index) == full.indicesByFullScan(from: 0, to: 667))
  }
}

// MARK: - Supplements

extension WaterflowViewTests {
  @Test func headerFooterAndEmptyView_frames() {
    let source = DemoSource(count: 0, heights: [50])
    let view = WaterflowView(bounds: Size(width: 375, height: 667))
    view.dataSource = source
    view.layout = WaterflowLayout(
      headerLength: 44, footerLength: 30, emptyLength: 200)
    view.layoutSubviews()
    let s = view.snapshot!
    #expect(s.header == Rect(x: 0, y: 0, width: 375, height: 44))
    #expect(s.emptyView == Rect(x: 0, y: 44, width: 375, height: 200))
    #expect(s.footer == Rect(x: 0, y: 244, width: 375, height: 30))
    #expect(view.contentSize.height == 274)
    source.count = 3
    view.reloadData()
    view.layoutSubviews()
    let t = view.snapshot!
    #expect(t.emptyView == nil)
    #expect(t.frame(at: 0).minY == 54)
    // No delegate: cells are 100 high.
    #expect(t.footer == Rect(x: 0, y: 54 + 100 + 10, width: 375, height: 30))
    #expect(view.displayed.map(\.index) == [0, 1, 2])
  }

  @Test func seededColours_areReproducible() {
    var a = SeededGenerator(seed: 9)
    var b = SeededGenerator(seed: 9)
    var c = SeededGenerator(seed: 10)
    let ca = (0..<20).map { _ in Color.random(using: &a) }
    #expect(ca == (0..<20).map { _ in Color.random(using: &b) })
    #expect(ca != (0..<20).map { _ in Color.random(using: &c) })
    for colour in ca {
      for v in [colour.red, colour.green, colour.blue] {
        let byte: Double = v * 255
        #expect(v >= 0 && v <= 1)
        #expect(abs(byte - byte.rounded()) < 1e-9)
      }
    }
  }
}

// MARK: - Lists that start at the far end

extension WaterflowViewTests {
  /// A view whose item 0 sits at the content's right (horizontal, right to left) or bottom
  /// (vertical, growing upward).
  private func farEndView(horizontal: Bool, count: Int = 60) -> (WaterflowView, DemoSource) {
    let (view, source) = demoView(
      count: count, bounds: horizontal ? Size(width: 667, height: 375) : Size(width: 375, height: 667))
    var layout = WaterflowLayout(
      flow: horizontal ? .horizontal : .vertical,
      direction: horizontal ? .rightToLeft : .leftToRight)
    if !horizontal { layout.origin = .bottom }
    view.layout = layout
    return (view, source)
  }

  @Test(arguments: [true, false])
  func farEndList_OffsetZeroShowsItemZero_AndOffsetsCountFromThere(horizontal: Bool) throws {
    let (view, source) = farEndView(horizontal: horizontal)
    defer { withExtendedLifetime(source) {} }  // the view holds its data source weakly
    view.layoutSubviews()
    let snapshot = try #require(view.snapshot)
    #expect(snapshot.mirrorsScrollAxis)
    let extent = snapshot.scrollExtent
    #expect(extent > 1000)
    // The list starts where item 0 is: the content's right or bottom edge.
    #expect(view.offset == 0)
    #expect((horizontal ? view.contentOffset.x : view.contentOffset.y) == extent)
    #expect(view.indicesOnScreen.contains(0))
    // Scrolling forward moves the viewport towards the content's left or top.
    view.scroll(to: 400)
    #expect(view.offset == 400)
    #expect((horizontal ? view.contentOffset.x : view.contentOffset.y) == extent - 400)
    #expect(!view.indicesOnScreen.contains(0))
    // The on-screen test matches a full scan of the frames under the viewport.
    let length = horizontal ? view.bounds.width : view.bounds.height
    let start = extent - 400
    let scanned = (0..<snapshot.count).filter { i in
      let f = snapshot.frame(at: i)
      let (lo, hi) = horizontal ? (f.minX, f.maxX) : (f.minY, f.maxY)
      return hi > start && lo < start + length
    }
    #expect(view.indicesOnScreen == scanned)
    // The range that shows cells is in offsets too: it holds 0 and the end.
    let showing = try #require(view.offsetsShowingCells)
    #expect(showing.contains(0) && showing.contains(extent) && !showing.contains(extent + length + 1))
  }

  @Test(arguments: [true, false])
  func farEndList_LoadMore_KeepsWhatIsOnScreen(horizontal: Bool) throws {
    let (view, source) = farEndView(horizontal: horizontal)
    view.layoutSubviews()
    let end = try #require(view.snapshot).scrollExtent
    view.scroll(to: end, step: 100)
    let before = view.displayed.map { ($0.index, ObjectIdentifier($0.cell), $0.cell.frame) }
    let physical = horizontal ? view.contentOffset.x : view.contentOffset.y
    #expect(abs(physical) < 1e-9, "the end of the list is at the content's left or top")
    source.count = 90
    view.appendCells(count: 30)
    let pass = view.layoutSubviews()
    // The content grew at the far end, so every frame moved, and the view moved with them.
    #expect(view.offset == end)
    #expect(try #require(view.snapshot).scrollExtent > end)
    #expect(pass.enqueued.isEmpty)
    for (index, id, frame) in before {
      let cell = try #require(view.displayedCells[index])
      #expect(ObjectIdentifier(cell) == id)
      let shift = horizontal ? cell.frame.minX - frame.minX : cell.frame.minY - frame.minY
      let moved = (horizontal ? view.contentOffset.x : view.contentOffset.y) - physical
      #expect(abs(shift - moved) < 1e-9, "cell \(index) stays where it was on screen")
    }
    // And scrolling on shows the new cells.
    view.scroll(to: end + 600, step: 100)
    #expect(view.displayed.contains { $0.index >= 60 })
  }

  @Test func farEndList_ShorterThanTheViewport_SitsAtItsLeadingEdge() throws {
    let (view, source) = farEndView(horizontal: false, count: 3)
    defer { withExtendedLifetime(source) {} }  // the view holds its data source weakly
    view.layoutSubviews()
    let snapshot = try #require(view.snapshot)
    #expect(snapshot.scrollExtent < 0)
    #expect(view.offset == 0 && view.contentOffset.y == snapshot.scrollExtent)
    // The content's bottom edge meets the viewport's, as a chat with three messages shows them.
    #expect(snapshot.contentSize.height - view.contentOffset.y == view.bounds.height)
    #expect(view.indicesOnScreen == [0, 1, 2])
  }
}
