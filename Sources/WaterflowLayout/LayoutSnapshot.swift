/// The frames a ``WaterflowLayout`` computed for a viewport and a set of items.
///
/// A snapshot answers where each item is and which items a scroll position shows. It is a value:
/// appending items or re-laying out from an index mutates it in place, recomputing only what changed.
public struct LayoutSnapshot: Sendable {
  /// The configuration the frames were computed with.
  public internal(set) var layout: WaterflowLayout
  /// The viewport size the frames were computed for.
  public internal(set) var viewport: Size
  /// The orientation that picked the column counts.
  public internal(set) var orientation: Orientation

  // Frames are stored along the flow (main/cross) so one placement routine serves both axes;
  // `frame(at:)` turns them into physical rectangles.
  @usableFromInline internal var items: [FlowRect] = []
  @usableFromInline internal var placements: [Placement] = []
  internal var sectionStores: [SectionStore] = []
  internal var headerRect: FlowRect?
  internal var footerRect: FlowRect?
  internal var emptyRect: FlowRect?
  internal var contentLength: Double = 0
  internal var crossExtent: Double = 0
  /// The overlap index of given frames; nil for computed ones, which use their columns instead.
  internal var givenIndex: FrameIntervalIndex?
  /// ``LayoutFrames/startsAtEnd`` of given frames.
  internal var givenStartsAtEnd = false

  /// The number of items.
  public var count: Int { items.count }

  /// The size of the scrollable content.
  ///
  /// Vertical flow: the viewport width by the tallest column's bottom plus the bottom margin
  /// (plus header and footer). Horizontal flow: the transpose.
  public var contentSize: Size {
    switch layout.flow {
    case .vertical: Size(width: crossExtent, height: contentLength)
    case .horizontal: Size(width: contentLength, height: crossExtent)
    }
  }

  /// Whether item 0 sits at the far end of the scroll axis: a horizontal flow right to left, or
  /// a vertical one that grows from the bottom. Content coordinates then run against the flow.
  ///
  /// - Complexity: O(1).
  public var mirrorsScrollAxis: Bool {
    if givenIndex != nil { return givenStartsAtEnd }
    return layout.flow == .horizontal && layout.direction == .rightToLeft
      || layout.flow == .vertical && layout.origin == .bottom
  }

  /// How far the content can scroll: its length along the scroll axis less the viewport's
  /// (negative when the content is the shorter).
  ///
  /// - Complexity: O(1).
  public var scrollExtent: Double {
    contentLength - (layout.flow == .vertical ? viewport.height : viewport.width)
  }

  /// The frame of the item at `index`, in content coordinates.
  ///
  /// - Complexity: O(1)
  public func frame(at index: Int) -> Rect {
    physical(items[index])
  }

  /// All frames, in index order.
  ///
  /// - Complexity: O(n)
  public var frames: [Rect] { items.map(physical) }

  /// The column an item starts in, counted from the start edge (the right edge in RTL).
  ///
  /// - Complexity: O(1)
  public func column(at index: Int) -> Int { Int(placements[index].column) }

  /// How many columns the item covers.
  ///
  /// - Complexity: O(1)
  public func span(at index: Int) -> Int { Int(placements[index].span) }

  /// The index of the section holding the item.
  ///
  /// - Complexity: O(log s) for s sections.
  public func section(containing index: Int) -> Int {
    precondition(index >= 0 && index < count, "Index out of bounds")
    var lo = 0
    var hi = sectionStores.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if sectionStores[mid].items.lowerBound <= index {
        lo = mid
      } else {
        hi = mid - 1
      }
    }
    return lo
  }

  /// The number of columns of the first section.
  public var columnCount: Int { sectionStores[0].lanes.count }

  /// The nominal column width of the first section: the width every one-column item gets
  /// (with pixel snapping, some columns are one device pixel wider).
  public var columnWidth: Double { sectionStores[0].nominalLaneWidth }

  /// The laid-out sections.
  public var sections: [SectionFrames] {
    sectionStores.map {
      SectionFrames(
        items: $0.items, columnCount: $0.lanes.count,
        columnWidth: $0.nominalLaneWidth,
        header: $0.header.map(physical), footer: $0.footer.map(physical),
        stamps: $0.stamps.map(physical))
    }
  }

  /// The frame of the full-width header above everything, if any.
  public var header: Rect? { headerRect.map(physical) }
  /// The frame of the full-width footer below everything, if any.
  public var footer: Rect? { footerRect.map(physical) }
  /// The frame of the empty (or loading) view, present only when there are no items.
  public var emptyView: Rect? { emptyRect.map(physical) }

  /// The indices of the items whose frames overlap the band `from..<to` along the scroll axis,
  /// sorted ascending.
  ///
  /// The test is strict on both sides, as in the reference control: an item shows when
  /// `maxY > from && minY < to`, so a frame that only touches the band does not.
  ///
  /// Each column keeps the indices of the items that cover it (a span item in each of its
  /// columns, a full-span item in all). Within a column, frames never overlap and are placed in
  /// index order, so both their start and end positions are non-decreasing: a binary search
  /// finds the first frame ending after `from`, and a walk stops at the first one starting at or
  /// after `to`. Sections are sorted too, and found by binary search. An item is reported only
  /// from its start column, and the per-column runs, each already sorted, are merged by a sort of
  /// the k hits.
  ///
  /// - Complexity: O(s·c·log n + k·log k) for k results, c columns and s sections overlapping the
  ///   band: O(log n + k) for a fixed number of columns. It never scans every item. Given frames
  ///   (``init(_:viewport:)``) use an interval tree instead: O(log n + k) when they overlap little.
  public func indices(from: Double, to: Double) -> [Int] {
    let (lo, hi) = flowBand(from: from, to: to)
    if let givenIndex { return givenIndex.indices(from: lo, to: hi) }
    var result: [Int] = []
    guard !sectionStores.isEmpty else { return result }
    // The first section whose items may end after `lo` (`reach` is non-decreasing).
    var first = 0
    var last = sectionStores.count
    while first < last {
      let mid = (first + last) / 2
      if sectionStores[mid].reach > lo { last = mid } else { first = mid + 1 }
    }
    var s = first
    while s < sectionStores.count, sectionStores[s].mainStart < hi {
      let sectionStart = result.count
      var lanesWithHits = 0
      items.withUnsafeBufferPointer { items in
        placements.withUnsafeBufferPointer { placements in
          for c in sectionStores[s].laneItems.indices {
            let before = result.count
            sectionStores[s].laneItems[c].withUnsafeBufferPointer { lane in
              var i = firstEnding(
                after: lo, in: lane, coarse: sectionStores[s].laneSamples[c],
                items: items)
              while i < lane.count {
                let index = Int(lane[i])
                let r = items[index]
                if r.main >= hi { break }
                if placements[index].column == c, r.main + r.mainLength > lo {
                  result.append(index)
                }
                i += 1
              }
            }
            if result.count > before { lanesWithHits += 1 }
          }
        }
      }
      // Each column's run is sorted; a small sort of the k hits merges them.
      if lanesWithHits > 1 { result[sectionStart...].sort() }
      s += 1
    }
    return result
  }

  /// The indices overlapping the band, found by testing every frame: the reference control's
  /// per-scroll scan, kept as the baseline `waterflow bench` compares ``indices(from:to:)`` with.
  ///
  /// - Complexity: O(n)
  public func indicesByFullScan(from: Double, to: Double) -> [Int] {
    let (lo, hi) = flowBand(from: from, to: to)
    var result: [Int] = []
    for i in items.indices
    where items[i].main + items[i].mainLength > lo && items[i].main < hi {
      result.append(i)
    }
    return result
  }

  // MARK: - Internals

  /// The band in flow coordinates; horizontal RTL and vertical bottom-origin mirror the scroll axis.
  private func flowBand(from: Double, to: Double) -> (Double, Double) {
    // Given frames are indexed where they are drawn; computed ones along the flow.
    if givenIndex == nil && mirrorsScrollAxis { return (contentLength - to, contentLength - from) }
    return (from, to)
  }

  private func firstEnding(
    after lo: Double, in lane: UnsafeBufferPointer<Int32>, coarse: [Double],
    items: UnsafeBufferPointer<FlowRect>
  ) -> Int {
    // First narrow to one block with the samples, which are few and stay in cache; only the
    // last few steps follow lane entries into the frames.
    var j0 = 0
    var j1 = coarse.count
    while j0 < j1 {
      let mid = (j0 + j1) / 2
      if coarse[mid] > lo { j1 = mid } else { j0 = mid + 1 }
    }
    var a = max(0, (j0 - 1) * SectionStore.sampleStride)
    var b = min(lane.count, j0 * SectionStore.sampleStride + 1)
    while a < b {
      let mid = (a + b) / 2
      let r = items[Int(lane[mid])]
      if r.main + r.mainLength > lo { b = mid } else { a = mid + 1 }
    }
    return a
  }

  func physical(_ r: FlowRect) -> Rect {
    var rect: Rect
    switch layout.flow {
    case .vertical:
      rect = Rect(
        x: r.cross, y: r.main, width: r.crossLength, height: r.mainLength)
    case .horizontal:
      rect = Rect(
        x: r.main, y: r.cross, width: r.mainLength, height: r.crossLength)
    }
    if layout.direction == .rightToLeft {
      let mirrorWidth = layout.flow == .vertical ? crossExtent : contentLength
      rect.origin.x = mirrorWidth - rect.origin.x - rect.size.width
    }
    if layout.origin == .bottom {
      let mirrorHeight = layout.flow == .vertical ? contentLength : crossExtent
      rect.origin.y = mirrorHeight - rect.origin.y - rect.size.height
    }
    return rect
  }
}

/// The frames of one laid-out section.
public struct SectionFrames: Hashable, Sendable {
  /// The indices of the section's items.
  public var items: Range<Int>
  /// Its number of columns.
  public var columnCount: Int
  /// Its nominal column width.
  public var columnWidth: Double
  /// Its header's frame, if any.
  public var header: Rect?
  /// Its footer's frame, if any.
  public var footer: Rect?
  /// Its stamps' frames, in content coordinates.
  public var stamps: [Rect] = []
}

/// A rectangle along the flow: `main` runs with the scroll axis, `cross` across it.
@usableFromInline
struct FlowRect: Hashable, Sendable {
  var cross: Double
  var main: Double
  var crossLength: Double
  var mainLength: Double
  var mainEnd: Double { main + mainLength }
}

/// Where an item went: its start column and how many columns it covers.
@usableFromInline
struct Placement: Hashable, Sendable {
  var column: Int32
  var span: Int32
  var isFullSpan: Bool
}

/// One section's resolved geometry and its placement state, kept so appends can resume.
struct SectionStore: Sendable {
  var items: Range<Int>
  var insets: FlowInsets
  var order: PlacementOrder
  /// The cross-axis start and length of each column, start edge first.
  var lanes: [(start: Double, length: Double)]
  var nominalLaneWidth: Double
  var mainStart: Double
  var header: FlowRect?
  var footerLength: Double?
  /// CHT's footer insets (physical), or nil for a footer across the section's columns.
  var footerInsets: EdgeInsets?
  var footer: FlowRect?
  /// The stamps, placed.
  var stamps: [FlowRect] = []
  /// Where each column starts before any item: below the header and any stamp over it.
  var start: [Double] = []
  /// The lowest end before any item (the header's, a stamp's), or nil.
  var initialBottom: Double?
  var mainEnd: Double = 0
  /// The furthest any item of this section or an earlier one reaches along the flow, and at
  /// least `mainEnd`: a zero-length item sits a row gap below its column's bottom, which can be
  /// past the section's end when the bottom margin is smaller than the row gap.
  var reach: Double = 0
  /// Per column, the items covering it in index order.
  var laneItems: [[Int32]]
  /// Per column, the end position of every `sampleStride`-th item of `laneItems`: a small sorted
  /// index over the column that keeps the visibility query's binary search in cache.
  var laneSamples: [[Double]]
  static let sampleStride = 64
  /// Where the next item in each column would start (its bottom plus the row gap).
  var next: [Double]
  /// The lowest item end so far (ignoring zero-length items), or nil while the section is empty.
  var bottom: Double?
  /// The next column for `.leftToRight` order.
  var cursor: Int = 0
  /// Where items start when a column is empty: after the top margin and the header.
  var firstItemMain: Double
}

extension LayoutSnapshot {
  /// The strips a section's columns occupy, start edge first, across the section's extent:
  /// the column guides of a debug overlay.
  ///
  /// - Complexity: O(c) for c columns.
  public func columnRects(inSection section: Int) -> [Rect] {
    let store = sectionStores[section]
    return store.lanes.map { lane in
      physical(
        FlowRect(
          cross: lane.start, main: store.mainStart, crossLength: lane.length,
          mainLength: store.mainEnd - store.mainStart))
    }
  }
}
