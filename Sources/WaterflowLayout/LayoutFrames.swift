/// Frames placed by code other than ``WaterflowLayout``: a layout file, or a layout of your own.
///
/// Frames may come in any order of position, overlap, leave gaps and sit anywhere: nothing
/// about a shortest-column layout is assumed. A ``LayoutSnapshot`` made from them answers the
/// same queries as a computed one, with the same strict on-screen test.
///
/// ```swift
/// let frames = LayoutFrames(
///   frames: [Rect(x: 0, y: 0, width: 375, height: 120), Rect(x: 10, y: 130, width: 172, height: 200)],
///   contentSize: Size(width: 375, height: 340))
/// let snapshot = LayoutSnapshot(frames, viewport: Size(width: 375, height: 667))
/// ```
public struct LayoutFrames: Hashable, Sendable {
  /// One section: a run of consecutive indices, with an optional header and footer.
  public struct Section: Hashable, Sendable {
    /// The indices of the section's items.
    public var items: Range<Int>
    /// The frame of the section's header, if any.
    public var header: Rect?
    /// The frame of the section's footer, if any.
    public var footer: Rect?

    public init(items: Range<Int>, header: Rect? = nil, footer: Rect? = nil) {
      self.items = items
      self.header = header
      self.footer = footer
    }
  }

  /// The frame of each item, by index, in content coordinates.
  public var frames: [Rect]
  /// The size of the scrollable content.
  public var contentSize: Size
  /// The scroll axis.
  public var flow: Flow
  /// The frame of the header above everything, if any.
  public var header: Rect?
  /// The frame of the footer below everything, if any.
  public var footer: Rect?
  /// The frame of the empty (or loading) view, shown when there are no items.
  public var emptyView: Rect?
  /// The sections, covering `0..<frames.count` in order; empty means one section of everything.
  public var sections: [Section]
  /// Whether item 0 is at the far end of the scroll axis (the right of a right-to-left
  /// horizontal flow, the bottom of a layout that grows upward): scroll offsets then count from
  /// that end, so offset 0 shows the start of the list (see `WaterflowView.offset`).
  public var startsAtEnd: Bool

  /// Creates a set of frames; every frame must have a finite origin and a non-negative size.
  public init(
    frames: [Rect], contentSize: Size, flow: Flow = .vertical,
    header: Rect? = nil, footer: Rect? = nil, emptyView: Rect? = nil,
    sections: [Section] = [], startsAtEnd: Bool = false
  ) {
    self.frames = frames
    self.contentSize = contentSize
    self.flow = flow
    self.header = header
    self.footer = footer
    self.emptyView = emptyView
    self.sections = sections
    self.startsAtEnd = startsAtEnd
  }
}

/// A layout of your own, in place of the built-in shortest-column one: any code that turns an
/// item count and a viewport into frames, such as a port of an app's `UICollectionViewLayout`.
///
/// Set it as a view's `WaterflowView.customLayout`; reuse, selection and scrolling then work
/// on its frames exactly as on computed ones. A layout file is one such layout.
public protocol CustomWaterflowLayout {
  /// The frames of `count` items for a viewport, asked on every reload and size change.
  func frames(forItemCount count: Int, in viewport: Size) -> LayoutFrames
}

extension LayoutFrames: CustomWaterflowLayout {
  /// Fixed frames are their own layout: the same frames for any count and viewport (a layout
  /// file's frames do not move when the view rotates).
  public func frames(forItemCount count: Int, in viewport: Size) -> LayoutFrames { self }
}

/// Frames of any shape, indexed for the overlap query along the scroll axis.
///
/// Items are sorted by their start, and each node of the implicit balanced tree over that order
/// (the middle of each range) keeps the furthest end in its subtree, a classic augmented interval
/// tree. A query skips every subtree that ends before the band or starts after it, so it visits
/// O(log n) nodes besides the hits even when one huge frame overlaps everything; a plain running
/// maximum of ends would walk every small frame under such a frame.
struct FrameIntervalIndex: Sendable {
  /// Item indices sorted by start (ties by index).
  private var order: [Int32] = []
  private var starts: [Double] = []
  private var ends: [Double] = []
  /// Per node of the implicit tree, the largest end in its subtree.
  private var reach: [Double] = []

  init(starts unsortedStarts: [Double], lengths: [Double]) {
    let n = unsortedStarts.count
    order = (0..<Int32(n)).sorted {
      let a = unsortedStarts[Int($0)]
      let b = unsortedStarts[Int($1)]
      return a != b ? a < b : $0 < $1
    }
    starts = order.map { unsortedStarts[Int($0)] }
    ends = order.map { unsortedStarts[Int($0)] + lengths[Int($0)] }
    reach = ends
    buildReach(0, n)
  }

  @discardableResult
  private mutating func buildReach(_ lo: Int, _ hi: Int) -> Double {
    guard lo < hi else { return -.infinity }
    let mid = (lo + hi) / 2
    let left = buildReach(lo, mid)
    let right = buildReach(mid + 1, hi)
    reach[mid] = max(ends[mid], left, right)
    return reach[mid]
  }

  /// The indices of the items with `end > from && start < to`, ascending.
  ///
  /// - Complexity: O(log n + k·log n) for k results, worst case; O(log n + k) when frames
  ///   overlap little, as in any feed.
  func indices(from: Double, to: Double) -> [Int] {
    var result: [Int] = []
    // An explicit stack of ranges: the tree is ⌈log₂ n⌉ deep.
    var stack: [(Int, Int)] = [(0, starts.count)]
    while let (lo, hi) = stack.popLast() {
      guard lo < hi else { continue }
      let mid = (lo + hi) / 2
      if reach[mid] <= from { continue }
      // Everything from `mid` on starts at or after starts[mid]; the left half may still hit.
      if starts[mid] < to {
        if ends[mid] > from { result.append(Int(order[mid])) }
        stack.append((mid + 1, hi))
      }
      stack.append((lo, mid))
    }
    result.sort()
    return result
  }
}

extension LayoutSnapshot {
  /// A snapshot of frames placed elsewhere: a layout file, or a ``CustomWaterflowLayout``.
  ///
  /// Such a snapshot has no columns (``columnCount`` is 0, ``column(at:)`` 0 for every item) and
  /// cannot be appended to or re-laid out: ask the layout for new frames instead.
  ///
  /// - Complexity: O(n log n) for n frames, to build the overlap index.
  public init(_ given: LayoutFrames, viewport: Size) {
    let vertical = given.flow == .vertical
    // Given frames are already where they are drawn: no right-to-left mirror is applied.
    self.init(
      layout: WaterflowLayout(
        flow: given.flow,
        sections: Array(repeating: Section(columns: .count(1)), count: max(1, given.sections.count))),
      viewport: viewport, orientation: Orientation(viewport))
    func flowRect(_ r: Rect) -> FlowRect {
      vertical
        ? FlowRect(cross: r.minX, main: r.minY, crossLength: r.size.width, mainLength: r.size.height)
        : FlowRect(cross: r.minY, main: r.minX, crossLength: r.size.height, mainLength: r.size.width)
    }
    items = given.frames.map(flowRect)
    placements = Array(
      repeating: Placement(column: 0, span: 1, isFullSpan: false), count: items.count)
    headerRect = given.header.map(flowRect)
    footerRect = given.footer.map(flowRect)
    emptyRect = given.emptyView.map(flowRect)
    contentLength = vertical ? given.contentSize.height : given.contentSize.width
    crossExtent = vertical ? given.contentSize.width : given.contentSize.height
    let sections =
      given.sections.isEmpty ? [LayoutFrames.Section(items: 0..<items.count)] : given.sections
    sectionStores = sections.map { section in
      let extent = items[section.items].reduce(
        (start: Double.infinity, end: -Double.infinity)
      ) { (min($0.start, $1.main), max($0.end, $1.mainEnd)) }
      let start = extent.start.isFinite ? extent.start : 0
      let end = extent.end.isFinite ? extent.end : 0
      var store = SectionStore(
        items: section.items, insets: FlowInsets(Margins(), flow: given.flow), order: .shortest,
        lanes: [], nominalLaneWidth: 0, mainStart: start,
        header: section.header.map(flowRect), footerLength: section.footer.map { flowRect($0).mainLength },
        footer: section.footer.map(flowRect), laneItems: [], laneSamples: [], next: [],
        bottom: nil, firstItemMain: start)
      store.mainEnd = end
      store.reach = end
      return store
    }
    givenIndex = FrameIntervalIndex(starts: items.map(\.main), lengths: items.map(\.mainLength))
    givenStartsAtEnd = given.startsAtEnd
  }

  /// Whether the frames were given (a layout file or a custom layout) rather than computed.
  public var framesAreGiven: Bool { givenIndex != nil }
}

// MARK: - Loading more into given frames

extension LayoutFrames {
  /// Whether ``appending(_:)`` and ``prepending(_:)`` can continue these frames: they have
  /// frames, one section, and grow in the ordinary direction.
  public var canContinue: Bool { !frames.isEmpty && sections.count <= 1 && !startsAtEnd }

  /// The frames with `count` more items at the end, continuing the frames' own sequence as a
  /// list of items does: item N + j repeats item j mod N's frame, a block further along the
  /// flow (a block is the items' extent plus the space before the first item). The footer
  /// moves with them; nil when the frames cannot continue.
  ///
  /// - Complexity: O(N + count).
  public func appending(_ count: Int) -> LayoutFrames? {
    guard canContinue, count > 0 else { return count == 0 ? self : nil }
    let (lo, hi, period) = block
    let n = frames.count
    var copy = self
    var last = hi
    for j in 0..<count {
      let moved = shifted(frames[j % n], by: Double(j / n + 1) * period)
      copy.frames.append(moved)
      last = Swift.max(last, end(of: moved))
    }
    // Content past the items (the bottom margin) stays below the new ones.
    copy.grow(by: last - hi, after: lo)
    copy.sections = sections.map {
      Section(
        items: 0..<copy.frames.count, header: $0.header,
        footer: $0.footer.map { shifted($0, by: last - hi) })
    }
    return copy
  }

  /// The frames with `count` items before the first, taken from the end of the sequence as a
  /// list's refresh does, placed where the first items were; every later frame (and the
  /// footer) moves along by their extent. Nil when the frames cannot continue.
  ///
  /// - Complexity: O(N + count).
  public func prepending(_ count: Int) -> LayoutFrames? {
    guard canContinue, count > 0 else { return count == 0 ? self : nil }
    let (lo, _, period) = block
    let n = frames.count
    // Sources wrap round the list; each wrap starts a block further along.
    var fresh: [Rect] = []
    var blocks = 0.0
    var previous = -1
    for j in 0..<count {
      let source = (n - count % n + j) % n
      if source <= previous { blocks += 1 }
      previous = source
      fresh.append(shifted(frames[source], by: blocks * period))
    }
    let freshLo = fresh.map(start).min()!
    let freshHi = fresh.map { end(of: $0) }.max()!
    fresh = fresh.map { shifted($0, by: lo - freshLo) }
    let gap = period - (block.hi - block.lo)
    let distance = freshHi - freshLo + gap
    var copy = self
    copy.frames = fresh + frames.map { shifted($0, by: distance) }
    copy.grow(by: distance, after: lo - 1e-9)
    copy.sections = sections.map {
      Section(items: 0..<copy.frames.count, header: $0.header, footer: $0.footer.map { shifted($0, by: distance) })
    }
    return copy
  }

  /// The items' extent along the flow and the length of one block of them.
  private var block: (lo: Double, hi: Double, period: Double) {
    let lo = frames.map(start).min() ?? 0
    let hi = frames.map { end(of: $0) }.max() ?? 0
    let before = header.map { Swift.max(0, lo - end(of: $0)) } ?? Swift.max(0, lo)
    return (lo, hi, hi - lo + before)
  }

  private func start(_ r: Rect) -> Double { flow == .vertical ? r.minY : r.minX }
  private func end(of r: Rect) -> Double { flow == .vertical ? r.maxY : r.maxX }

  private func shifted(_ r: Rect, by d: Double) -> Rect {
    flow == .vertical
      ? Rect(x: r.minX, y: r.minY + d, width: r.width, height: r.height)
      : Rect(x: r.minX + d, y: r.minY, width: r.width, height: r.height)
  }

  /// Grows the content by `d` along the flow, moving the footer when it lies past `mark`.
  private mutating func grow(by d: Double, after mark: Double) {
    guard d > 0 else { return }
    if flow == .vertical {
      contentSize.height += d
    } else {
      contentSize.width += d
    }
    if let f = footer, start(f) >= mark { footer = shifted(f, by: d) }
  }
}
