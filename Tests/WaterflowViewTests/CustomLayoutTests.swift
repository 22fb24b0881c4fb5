import Testing
import WaterflowView

/// A view driven by a layout of your own instead of the built-in one.
@Suite struct CustomLayoutTests {}

/// Random frames, fixed per seed: overlapping, unsorted, with gaps and jumps.
private struct ScatteredLayout: CustomWaterflowLayout {
  var seed: UInt64
  var asked = Counter()

  final class Counter { var count = 0 }

  func frames(forItemCount count: Int, in viewport: Size) -> LayoutFrames {
    asked.count += 1
    var rng = SeededGenerator(seed: seed)
    var frames: [Rect] = []
    var y = 0.0
    for _ in 0..<count {
      if Int.random(in: 0..<8, using: &rng) == 0 {
        y = Double.random(in: 0...max(1, y), using: &rng)  // back up: positions out of order
      } else {
        y += Double.random(in: -60...(Int.random(in: 0..<15, using: &rng) == 0 ? 3_000 : 150), using: &rng)
      }
      y = max(0, y)
      frames.append(
        Rect(
          x: Double.random(in: 0...300, using: &rng), y: y,
          width: Double.random(in: 20...200, using: &rng),
          height: Double.random(in: 0...400, using: &rng)))
    }
    let end = frames.map(\.maxY).max() ?? 0
    return LayoutFrames(frames: frames, contentSize: Size(width: viewport.width, height: end))
  }
}

/// Creates cells through the pool, as the reference demo does.
private final class PoolSource: WaterflowViewDataSource {
  var count: Int
  var created = 0
  init(count: Int) { self.count = count }
  func numberOfCells(in view: WaterflowView) -> Int { count }
  func waterflowView(_ view: WaterflowView, cellAt index: Int) -> WaterflowCell {
    if let cell = view.dequeueReusableCell(withIdentifier: "cell") { return cell }
    created += 1
    return WaterflowCell(reuseIdentifier: "cell")
  }
}

/// Records taps.
private final class TapDelegate: WaterflowViewDelegate {
  var selected: [Int] = []
  func waterflowView(_ view: WaterflowView, didSelectCellAt index: Int) { selected.append(index) }
}

extension CustomLayoutTests {
  @Test func reuseInvariants_HoldOnArbitraryFrames() {
    for seed in UInt64(0)..<150 {
      let source = PoolSource(count: [0, 1, 5, 60, 300][Int(seed % 5)])
      let view = WaterflowView(bounds: Size(width: 375, height: 667))
      view.customLayout = ScatteredLayout(seed: seed)
      view.dataSource = source
      view.layoutSubviews()
      var rng = SeededGenerator(seed: seed &+ 1_000)
      var peak = view.displayedCells.count
      let end = view.contentSize.height
      for _ in 0..<40 {
        let target =
          Int.random(in: 0..<4, using: &rng) == 0
          ? Double.random(in: -700...(end + 700), using: &rng)  // a jump
          : view.offset + Double.random(in: -400...400, using: &rng)
        let pass = view.scroll(to: target)
        // With no pre-load buffer, the displayed set is exactly the on-screen set.
        let shown = view.displayedCells.keys.sorted()
        #expect(shown == view.indicesOnScreen, "seed \(seed) at \(target)")
        #expect(pass.displayed.map(\.index) == shown)
        let scan = view.snapshot!.indicesByFullScan(from: target, to: target + 667)
        #expect(shown == scan, "seed \(seed) at \(target)")
        for (index, cell) in view.displayedCells {
          #expect(cell.frame == view.snapshot!.frame(at: index))
        }
        peak = max(peak, shown.count)
        // Cells leave for the pool before cells enter: never more cells than were ever shown.
        #expect(source.created <= peak, "seed \(seed): \(source.created) created, peak \(peak)")
      }
    }
  }

  @Test func taps_OnOverlappingFrames_HitTheHighestIndex() {
    struct Overlap: CustomWaterflowLayout {
      func frames(forItemCount count: Int, in viewport: Size) -> LayoutFrames {
        LayoutFrames(
          frames: [
            Rect(x: 0, y: 0, width: 300, height: 300),  // 0: under everything
            Rect(x: 50, y: 50, width: 100, height: 100),  // 1
            Rect(x: 100, y: 100, width: 100, height: 100),  // 2: over 0 and 1
          ].prefix(count).map { $0 },
          contentSize: Size(width: 375, height: 300))
      }
    }
    let source = PoolSource(count: 3)
    let delegate = TapDelegate()
    let view = WaterflowView(bounds: Size(width: 375, height: 667))
    view.customLayout = Overlap()
    view.dataSource = source
    view.delegate = delegate
    view.layoutSubviews()
    #expect(view.indexForCell(at: Point(x: 10, y: 10)) == 0)
    #expect(view.indexForCell(at: Point(x: 60, y: 60)) == 1)
    #expect(view.indexForCell(at: Point(x: 120, y: 120)) == 2)
    #expect(view.indexForCell(at: Point(x: 350, y: 10)) == nil)
    // Against a brute-force "last drawn wins" over a grid of points.
    for x in stride(from: -5.0, through: 310, by: 7) {
      for y in stride(from: -5.0, through: 310, by: 7) {
        let p = Point(x: x, y: y)
        let expected = view.snapshot!.frames.indices.last { view.snapshot!.frame(at: $0).contains(p) }
        #expect(view.indexForCell(at: p) == expected, "\(p)")
      }
    }
    view.selectCell(at: Point(x: 120, y: 120))
    #expect(delegate.selected == [2])
  }

  @Test func dataChanges_AskTheLayoutAgain_AndKeepDisplayedCells() {
    let source = PoolSource(count: 10)
    let layout = ScatteredLayout(seed: 3)
    let view = WaterflowView(bounds: Size(width: 375, height: 667))
    view.customLayout = layout
    view.dataSource = source
    view.layoutSubviews()
    #expect(layout.asked.count == 1)
    let before = view.displayedCells
    source.count = 20
    view.appendCells(count: 10)
    #expect(layout.asked.count == 2)
    #expect(view.snapshot!.count == 20)
    view.layoutSubviews()
    // The first ten frames are the same for the same seed, so the same cells stay.
    for (i, cell) in before where view.displayedCells[i] != nil {
      #expect(view.displayedCells[i] === cell)
    }
    // A size change (a rotation) asks again too.
    view.bounds = Size(width: 667, height: 375)
    view.layoutSubviews()
    #expect(layout.asked.count == 3)
  }
}
