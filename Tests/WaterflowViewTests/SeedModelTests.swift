import Testing
import WaterflowView

// A transliteration of the seeds' control (ZYWaterFlowView, YYWaterflowView, HMWaterflowView) as
// REFERENCE.md describes it, written independently of WaterflowView: `reloadData` lays out every
// frame, and `layoutSubviews` walks every index once, requesting a cell that came on screen and
// pooling one that left, as it meets them. The seeds' pool is an NSMutableSet, whose order is
// unspecified; the model hands out the most recently pooled cell (Waterflow's documented order).
// Which cell a request gets never decides whether a cell is created (only the pool's size does).

/// The seed control, in a few lines.
private final class SeedModel {
  let width: Double
  let height: Double
  let columns: Int
  let margins: (top: Double, bottom: Double, left: Double, right: Double, column: Double, row: Double)
  let heights: [Double]
  var frames: [(minY: Double, maxY: Double)] = []
  var displaying: [Int: Int] = [:]  // index → instance
  var pool: [Int] = []  // instances
  var created = 0

  init(
    width: Double, height: Double, columns: Int, heights: [Double],
    margins: (Double, Double, Double, Double, Double, Double)
  ) {
    self.width = width
    self.height = height
    self.columns = columns
    self.heights = heights
    self.margins = margins
    reloadData()
  }

  func reloadData() {
    displaying = [:]
    pool = []
    frames = []
    var bottoms = [Double](repeating: 0, count: columns)
    var empty = [Bool](repeating: true, count: columns)  // tracked, not `bottom == 0`
    for h in heights {
      var column = 0
      for c in 1..<columns where bottoms[c] < bottoms[column] { column = c }
      let y = empty[column] ? margins.top : bottoms[column] + margins.row
      frames.append((y, y + h))
      bottoms[column] = y + h
      empty[column] = false
    }
  }

  /// One `layoutSubviews`: the index → instance pairs on screen afterwards.
  func layoutSubviews(offset: Double) -> [Int: Int] {
    for i in frames.indices {
      let onScreen = frames[i].maxY > offset && frames[i].minY < offset + height
      if onScreen {
        if displaying[i] == nil {
          // The data source: dequeue, or create.
          if let cell = pool.popLast() {
            displaying[i] = cell
          } else {
            created += 1
            displaying[i] = created
          }
        }
      } else if let cell = displaying.removeValue(forKey: i) {
        pool.append(cell)
      }
    }
    return displaying
  }
}

/// A data source that dequeues or creates, as the seed demos do.
private final class SeedDemoSource: WaterflowViewDataSource, WaterflowViewDelegate {
  let heights: [Double]
  let columns: Int
  let margins: [MarginType: Double]

  init(heights: [Double], columns: Int, margins: [MarginType: Double]) {
    self.heights = heights
    self.columns = columns
    self.margins = margins
  }

  func numberOfCells(in view: WaterflowView) -> Int { heights.count }
  func numberOfColumns(in view: WaterflowView) -> Int { columns }
  func waterflowView(_ view: WaterflowView, cellAt index: Int) -> WaterflowCell {
    view.dequeueReusableCell(withIdentifier: "cell") ?? WaterflowCell(reuseIdentifier: "cell")
  }
  func waterflowView(_ view: WaterflowView, heightAt index: Int) -> Double { heights[index] }
  func waterflowView(_ view: WaterflowView, marginFor type: MarginType) -> Double {
    margins[type]!
  }
}

@Suite struct SeedModelTests {
  /// The YY demo path: 100 cells of 90/110/80, 3 columns, margins 10 and gaps 5, scrolled
  /// 0 → 1500 → 0 in 50-point steps.
  private static let demoPath: [Double] =
    Array(stride(from: 0.0, through: 1500, by: 50)) + stride(from: 1450.0, through: 0, by: -50)

  private func demo(_ order: ReuseOrder) -> (WaterflowView, SeedDemoSource) {
    let source = SeedDemoSource(
      heights: (0..<100).map { [90, 110, 80][$0 % 3] }, columns: 3,
      margins: [.top: 10, .bottom: 10, .left: 10, .right: 10, .column: 5, .row: 5])
    let view = WaterflowView(bounds: Size(width: 375, height: 667))
    view.dataSource = source
    view.delegate = source
    view.reuseOrder = order
    return (view, source)
  }

  @Test func yyDemoPath_singlePassIsTheSeedTrace_27Cells_leaveFirst24() {
    let model = SeedModel(
      width: 375, height: 667, columns: 3, heights: (0..<100).map { [90, 110, 80][$0 % 3] },
      margins: (10, 10, 10, 10, 5, 5))
    let (view, source) = demo(.singlePass)
    defer { withExtendedLifetime(source) {} }
    for offset in Self.demoPath {
      let expected = model.layoutSubviews(offset: offset)
      let pass = view.scroll(to: offset)
      #expect(
        Dictionary(uniqueKeysWithValues: pass.displayed.map { ($0.index, $0.cell) }) == expected,
        "offset \(offset)")
    }
    #expect(model.created == 27)
    #expect(view.createdCellCount == 27)

    let (leaveFirst, other) = demo(.leaveFirst)
    defer { withExtendedLifetime(other) {} }
    for offset in Self.demoPath { leaveFirst.scroll(to: offset) }
    #expect(leaveFirst.createdCellCount == 24)
  }

  /// Hundreds of random scenes and paths (scrolls both ways in random steps, jumps): at every
  /// step, single-pass shows the same instance at the same index as the model.
  @Test func randomPaths_singlePassEqualsTheSeedModel() {
    var rng = SeededGenerator(seed: 18)
    var steps = 0
    var moreThanLeaveFirst = 0
    for path in 0..<300 {
      let count = Int.random(in: 0...150, using: &rng)
      let heights = (0..<count).map { _ in Double(Int.random(in: 1...260, using: &rng)) }
      let columns = Int.random(in: 1...5, using: &rng)
      let m = (0..<6).map { _ in Double(Int.random(in: 1...20, using: &rng)) }
      let viewHeight = Double(Int.random(in: 200...900, using: &rng))
      let model = SeedModel(
        width: 375, height: viewHeight, columns: columns, heights: heights,
        margins: (m[0], m[1], m[2], m[3], m[4], m[5]))
      let source = SeedDemoSource(
        heights: heights, columns: columns,
        margins: [.top: m[0], .bottom: m[1], .left: m[2], .right: m[3], .column: m[4], .row: m[5]])
      let view = WaterflowView(bounds: Size(width: 375, height: viewHeight))
      view.dataSource = source
      view.delegate = source
      view.reuseOrder = .singlePass
      let other = WaterflowView(bounds: view.bounds)
      other.dataSource = source
      other.delegate = source
      var offset = 0.0
      for _ in 0..<40 {
        if Int.random(in: 0..<6, using: &rng) == 0 {
          offset = Double(Int.random(in: -300...6000, using: &rng))
        } else {
          offset += Double(Int.random(in: -400...400, using: &rng))
        }
        let expected = model.layoutSubviews(offset: offset)
        let pass = view.scroll(to: offset)
        other.scroll(to: offset)
        let got = Dictionary(uniqueKeysWithValues: pass.displayed.map { ($0.index, $0.cell) })
        guard got == expected else {
          Issue.record("path \(path), offset \(offset): \(got) != \(expected)")
          return
        }
        steps += 1
      }
      #expect(view.createdCellCount == model.created)
      #expect(view.createdCellCount >= other.createdCellCount)
      if view.createdCellCount > other.createdCellCount { moreThanLeaveFirst += 1 }
    }
    #expect(steps == 300 * 40)
    // The orders do differ: on many paths the single pass creates more cells.
    #expect(moreThanLeaveFirst > 50)
  }
}
