import Testing
import WaterflowLayout

/// Frames given by a layout file or a custom layout: any order, overlaps, gaps and jumps.
@Suite struct LayoutFramesTests {}

/// A random frame set of the kinds a hand-written layout produces, unsorted.
func randomGivenFrames<G: RandomNumberGenerator>(
  count: Int, flow: Flow = .vertical, using rng: inout G
) -> LayoutFrames {
  var frames: [Rect] = []
  var y = 0.0
  for _ in 0..<count {
    switch Int.random(in: 0..<10, using: &rng) {
    case 0:
      // A huge jump: a gap of many viewports.
      y += Double.random(in: 2_000...50_000, using: &rng)
    case 1:
      // A frame far back up: the order of indices is not the order of positions.
      y = Double.random(in: 0...max(1, y), using: &rng)
    default:
      y += Double.random(in: -80...120, using: &rng)
    }
    y = max(0, y)
    let length: Double
    switch Int.random(in: 0..<20, using: &rng) {
    case 0: length = 0  // zero-length frames are legal and never hit a band they only touch
    case 1: length = Double.random(in: 1_000...20_000, using: &rng)  // spans many viewports
    default: length = Double.random(in: 1...300, using: &rng)
    }
    let x = Double.random(in: -20...360, using: &rng)
    let width = Double.random(in: 0...400, using: &rng)
    frames.append(
      flow == .vertical
        ? Rect(x: x, y: y, width: width, height: length)
        : Rect(x: y, y: x, width: length, height: width))
  }
  let end = frames.map { flow == .vertical ? $0.maxY : $0.maxX }.max() ?? 0
  return LayoutFrames(
    frames: frames,
    contentSize: flow == .vertical
      ? Size(width: 375, height: end) : Size(width: end, height: 375),
    flow: flow)
}

extension LayoutFramesTests {
  @Test(arguments: [Flow.vertical, .horizontal])
  func indices_EqualAFullScan_OnRandomFrameSets(flow: Flow) {
    var rng = RepeatableRandomNumberGenerator(seed: 11)
    for round in 0..<300 {
      let count = [0, 1, 2, 7, 50, 400][round % 6]
      let given = randomGivenFrames(count: count, flow: flow, using: &rng)
      let snapshot = LayoutSnapshot(given, viewport: Size(width: 375, height: 667))
      #expect(snapshot.framesAreGiven)
      #expect(snapshot.count == count)
      #expect(snapshot.frames == given.frames, "frames come back where they were given")
      let end = flow == .vertical ? given.contentSize.height : given.contentSize.width
      for _ in 0..<20 {
        let from = Double.random(in: -700...(end + 100), using: &rng)
        let to = from + [0, 1, 667, 5_000][Int.random(in: 0..<4, using: &rng)]
        let fast = snapshot.indices(from: from, to: to)
        let scan = snapshot.indicesByFullScan(from: from, to: to)
        #expect(fast == scan, "round \(round), band \(from)..<\(to)")
      }
      // Band edges on frame edges: the strict test on both sides.
      for frame in given.frames.prefix(10) {
        let start = flow == .vertical ? frame.minY : frame.minX
        let stop = flow == .vertical ? frame.maxY : frame.maxX
        for (from, to) in [(stop, stop + 100), (start - 100, start), (start, stop)] {
          #expect(
            snapshot.indices(from: from, to: to) == snapshot.indicesByFullScan(from: from, to: to))
        }
      }
    }
  }

  @Test func oneFrameOverEverything_IsFoundWithoutHidingTheOthers() {
    // A background-like frame covering the whole content plus many small ones.
    var frames = [Rect(x: 0, y: 0, width: 375, height: 100_000)]
    for i in 0..<1_000 { frames.append(Rect(x: 10, y: Double(i) * 100, width: 100, height: 90)) }
    let snapshot = LayoutSnapshot(
      LayoutFrames(frames: frames, contentSize: Size(width: 375, height: 100_000)),
      viewport: Size(width: 375, height: 667))
    #expect(snapshot.indices(from: 50_000, to: 50_667) == [0] + Array(501...507))
    #expect(snapshot.indices(from: 99_990, to: 100_500) == [0])
    #expect(snapshot.indices(from: 100_000, to: 100_667) == [])
  }

  @Test func givenSupplementaryFrames_AreKept_AndThereAreNoColumns() {
    let header = Rect(x: 0, y: 0, width: 375, height: 44)
    let footer = Rect(x: 0, y: 300, width: 375, height: 30)
    let sectionHeader = Rect(x: 0, y: 50, width: 375, height: 20)
    let snapshot = LayoutSnapshot(
      LayoutFrames(
        frames: [
          Rect(x: 10, y: 80, width: 100, height: 100), Rect(x: 120, y: 80, width: 100, height: 200),
        ],
        contentSize: Size(width: 375, height: 330), header: header, footer: footer,
        sections: [.init(items: 0..<1, header: sectionHeader), .init(items: 1..<2)]),
      viewport: Size(width: 375, height: 667))
    #expect(snapshot.header == header && snapshot.footer == footer)
    #expect(snapshot.sections.map(\.items) == [0..<1, 1..<2])
    #expect(snapshot.sections[0].header == sectionHeader)
    #expect(snapshot.section(containing: 1) == 1)
    #expect(snapshot.contentSize == Size(width: 375, height: 330))
    #expect(snapshot.columnCount == 0 && snapshot.columnRects(inSection: 0).isEmpty)
  }
}
