/// A headless waterfall view: the reference `UIScrollView` subclass, without UIKit.
///
/// Give it a data source (and optionally a delegate), a bounds size and a content offset, then
/// call ``layoutSubviews()``, as UIKit does on every scroll step. The view keeps a map of the
/// cells it displays and a reuse pool for the ones that left the screen.
///
/// ```swift
/// let view = WaterflowView(bounds: Size(width: 375, height: 667))
/// view.dataSource = source
/// view.layoutSubviews()          // the first layout reloads by itself
/// let pass = view.scroll(to: 400)
/// pass.reused                    // cells taken from the pool on the way down
/// ```
public final class WaterflowView {
  /// Supplies the cells. Held weakly, as in UIKit.
  public weak var dataSource: (any WaterflowViewDataSource)?
  /// Sizes the cells and hears about taps. Held weakly, as in UIKit.
  public weak var delegate: (any WaterflowViewDelegate)?

  /// The size of the visible area. Changing it (a rotation) recomputes frames on the next layout.
  public var bounds: Size
  /// The scroll position: the content point at the viewport's top-left corner.
  public var contentOffset: Point = .zero
  /// A custom layout (columns, sections, flow, …); nil asks the data source for the column count
  /// and the delegate for margins, as the reference does. Setting it (a new column count, say)
  /// lays out again on the next pass, asking for every visible cell again, as a rotation does.
  public var layout: WaterflowLayout? { didSet { if layout != oldValue { layoutChanged = true } } }
  /// Your own layout code, in place of the built-in layout: when set, ``layout`` is not used and
  /// every reload or size change asks it for the frames.
  public var customLayout: (any CustomWaterflowLayout)? { didSet { layoutChanged = true } }
  /// When cells that leave go to the pool relative to cells that enter being requested.
  public var reuseOrder: ReuseOrder = .leaveFirst
  /// The orientation that picks portrait or landscape column counts; nil derives it from `bounds`.
  public var orientation: Orientation?
  /// Extra length above and below the viewport in which cells are already displayed
  /// (PSCollectionView's pre-load threshold); 0 in the reference.
  public var preloadBuffer: Double = 0
  /// Whether the data is loading: with no cells, the loading view shows instead of the empty view.
  public var isLoading = false

  /// The view above everything (PSCollectionView's `headerView`). Its length, when set,
  /// overrides the layout's `headerLength`.
  public var headerView: SupplementaryView?
  /// The view below everything (PSCollectionView's `footerView`). Its length, when set,
  /// overrides the layout's `footerLength`.
  public var footerView: SupplementaryView?
  /// The view shown when there are no cells (PSCollectionView's `emptyView`).
  public var emptyView = SupplementaryView(length: 0, text: "No items")
  /// The view shown instead of ``emptyView`` while loading (PSCollectionView's `loadingView`).
  public var loadingView = SupplementaryView(length: 0, text: "Loading…")
  /// The header of each section, by section; missing or nil means none.
  public var sectionHeaderViews: [SupplementaryView?] = []
  /// The footer of each section, by section; missing or nil means none.
  public var sectionFooterViews: [SupplementaryView?] = []

  /// The frames of the last layout; nil until the first `reloadData()`.
  public private(set) var snapshot: LayoutSnapshot? { didSet { frameSetChanged() } }
  /// The displayed cells by index: the reference's `displayingCells` map.
  public private(set) var displayedCells: [Int: WaterflowCell] = [:]
  /// Cells waiting for reuse.
  public private(set) var reusePool = ReusePool()
  /// How many cells the data source has created so far.
  public private(set) var createdCellCount = 0

  private var needsReload = true
  /// Set when `layout` or `customLayout` changes after the first layout: the next pass relays out.
  private var layoutChanged = false
  private var dequeued: Set<ObjectIdentifier> = []

  /// Creates a view with a bounds size.
  public init(bounds: Size) {
    self.bounds = bounds
  }

  // MARK: - Layout

  /// The layout in force: the custom one, or the reference's from data source and delegate.
  public var effectiveLayout: WaterflowLayout {
    if let layout { return layout }
    var margins = Margins()
    if let delegate {
      for type in MarginType.allCases {
        margins[type] = delegate.waterflowView(self, marginFor: type)
      }
    }
    let columns = dataSource.map { $0.numberOfColumns(in: self) } ?? 3
    return WaterflowLayout(sections: [
      Section(columns: .count(columns), margins: margins)
    ])
  }

  /// The size of the scrollable content.
  public var contentSize: Size { snapshot?.contentSize ?? .zero }

  /// The width of one column of the first section: `(W − left − right − (n − 1) × gap) / n`.
  ///
  /// Available before the first layout, so a data source can size cells by aspect ratio.
  public var columnWidth: Double { columnWidth(inSection: 0) }

  /// The width of one column of a section.
  public func columnWidth(inSection section: Int) -> Double {
    if let snapshot, snapshot.viewport == bounds,
      section < snapshot.sections.count
    {
      return snapshot.sections[section].columnWidth
    }
    return effectiveLayout.columnWidths(
      viewport: bounds, orientation: orientation)[section]
  }

  /// The scroll position along the scroll axis, measured from where item 0 is: 0 shows the
  /// start of the list in every layout.
  ///
  /// It equals ``contentOffset`` along the axis, except where item 0 sits at the far end of the
  /// content (a horizontal flow right to left, a layout that grows from the bottom): there the
  /// list starts at the content's right or bottom edge, as a right-to-left `UICollectionView`
  /// starts, and `offset` counts from that edge. It is kept when the content grows (load more)
  /// or the bounds change, so what is on screen stays.
  public var offset: Double {
    get {
      guard let mapping = axisMapping, mapping.mirrored else { return physicalOffset }
      // The offset as set, not as reflected twice: extent − (extent − x) need not be x.
      if let last = lastReflection, last.physical == physicalOffset { return last.offset }
      return mapping.leading(physicalOffset)
    }
    set {
      guard let mapping = axisMapping, mapping.mirrored else {
        physicalOffset = newValue
        return
      }
      physicalOffset = mapping.leading(newValue)
      lastReflection = (newValue, physicalOffset)
    }
  }

  /// The last offset set on a reflected axis, and the content offset it gave.
  private var lastReflection: (offset: Double, physical: Double)?

  /// ``contentOffset`` along the scroll axis.
  private var physicalOffset: Double {
    get { effectiveFlow == .vertical ? contentOffset.y : contentOffset.x }
    set {
      if effectiveFlow == .vertical {
        contentOffset.y = newValue
      } else {
        contentOffset.x = newValue
      }
    }
  }

  /// How ``offset`` maps to ``contentOffset`` under the frames in force; nil before the first
  /// layout, when ``contentOffset`` holds the offset as given.
  private var axisMapping: AxisMapping?

  /// The offset-to-content-offset map of one set of frames: the identity, or a reflection
  /// across the scroll extent. A reflection is its own inverse.
  private struct AxisMapping {
    var mirrored: Bool
    var extent: Double

    init(_ snapshot: LayoutSnapshot) {
      mirrored = snapshot.mirrorsScrollAxis
      extent = snapshot.scrollExtent
    }

    func leading(_ value: Double) -> Double { mirrored ? extent - value : value }
  }

  /// Keeps ``offset`` when the frames change, by moving ``contentOffset`` with them.
  private func frameSetChanged() {
    guard let snapshot else { return }
    let kept = offset
    axisMapping = AxisMapping(snapshot)
    offset = kept
  }

  private var effectiveFlow: Flow { snapshot?.layout.flow ?? layout?.flow ?? .vertical }

  /// Whether the content scrolls sideways: the flow of the frames in force.
  public var isHorizontal: Bool { effectiveFlow == .horizontal }

  /// Throws away every cell, the pool and the frames, and computes the frames anew.
  ///
  /// As in the reference (`HMWaterflowView.reloadData`), displayed cells are removed and the
  /// reuse pool is emptied; the next layout asks the data source for every visible cell.
  public func reloadData() {
    displayedCells.removeAll()
    reusePool.removeAll()
    needsReload = false
    layoutChanged = false
    snapshot = computeSnapshot()
  }

  private func computeSnapshot() -> LayoutSnapshot {
    if let customLayout {
      let count = dataSource.map { max(0, $0.numberOfCells(in: self)) } ?? 0
      return LayoutSnapshot(customLayout.frames(forItemCount: count, in: bounds), viewport: bounds)
    }
    var layout = effectiveLayout
    if let headerView { layout.headerLength = headerView.length }
    if let footerView { layout.footerLength = footerView.length }
    let shown = isLoading ? loadingView : emptyView
    if shown.length > 0 { layout.emptyLength = shown.length }
    for s in layout.sections.indices {
      if s < sectionHeaderViews.count, let view = sectionHeaderViews[s] {
        layout.sections[s].headerLength = view.length
      }
      if s < sectionFooterViews.count, let view = sectionFooterViews[s] {
        layout.sections[s].footerLength = view.length
      }
    }
    let counts = itemCounts(for: layout)
    return layout.snapshot(
      viewport: bounds, orientation: orientation, itemCounts: counts,
      metrics: metrics)
  }

  private func itemCounts(for layout: WaterflowLayout) -> [Int] {
    guard let dataSource else { return [0] }
    if layout.sections.count == 1 {
      return [max(0, dataSource.numberOfCells(in: self))]
    }
    return layout.sections.indices.map {
      max(0, dataSource.waterflowView(self, numberOfCellsInSection: $0))
    }
  }

  /// The delegate's metrics for each index.
  // The weak delegate is loaded once per layout: loading it per item cost a weak load and a
  // retain and release through the side table for each of a million items.
  private var metrics: (Int) -> ItemMetrics {
    guard let delegate else { return { _ in .height(100) } }
    return { delegate.waterflowView(self, metricsAt: $0) }
  }

  /// Shows the cells on screen and recycles the ones that left: the reference `layoutSubviews`.
  ///
  /// The first call reloads the data (the reference reloads when the view is first shown). A
  /// changed bounds size, orientation or layout (a rotation, a new column count) recomputes the
  /// frames and asks the data source again for every visible cell, through the pool, as the seeds
  /// do (PSCollectionView re-pools and re-requests; ZY and YY reload). Otherwise only cells that
  /// enter or leave are touched, in ``reuseOrder``.
  ///
  /// - Returns: What the pass did: created, reused and enqueued cells and the pool size.
  /// - Complexity: O(log n + k) for k cells displayed before and after.
  @discardableResult
  public func layoutSubviews() -> LayoutPass {
    var pass = LayoutPass(offset: offset)
    if needsReload || snapshot == nil {
      reloadData()
    } else if let current = snapshot,
      layoutChanged || current.viewport != bounds
        || current.orientation != (orientation ?? Orientation(bounds))
    {
      layoutChanged = false
      snapshot = computeSnapshot()
      // Every displayed cell goes to the pool, in ascending index order, so the pass below
      // requests each visible cell again (and finds it in the pool).
      for (index, cell) in displayed {
        displayedCells[index] = nil
        reusePool.enqueue(cell)
        pass.enqueued.append(DisplayedCell(index: index, cell: cell.instanceID))
      }
    }
    showCells(into: &pass)
    return pass
  }

  /// Sets the offset along the scroll axis and lays out.
  @discardableResult
  public func scroll(to offset: Double) -> LayoutPass {
    self.offset = offset
    return layoutSubviews()
  }

  /// Scrolls to `target` in steps of `step` points from the current offset, laying out at each
  /// step as a finger would, so cells are recycled on the way.
  ///
  /// Steps are made one at a time, so memory does not grow with their number.
  ///
  /// - Returns: The last step's pass, at `target`; nil when already there.
  @discardableResult
  public func scroll(to target: Double, step: Double) -> LayoutPass? {
    var last: LayoutPass?
    for y in Self.offsets(from: offset, to: target, step: step) { last = scroll(to: y) }
    return last
  }

  /// The offsets a scroll from `from` to `to` in steps of `step` lays out at: every `step` points
  /// from `from` (excluded) up to `to` (included, even when the last step is shorter), made as
  /// they are iterated.
  public static func offsets(from: Double, to: Double, step: Double) -> ScrollSteps {
    precondition(step > 0, "step must be positive")
    return ScrollSteps(from: from, to: to, step: step)
  }

  /// The indices whose frames overlap the viewport widened by the pre-load buffer.
  public var indicesInDisplayRange: [Int] {
    guard let snapshot else { return [] }
    let length = effectiveFlow == .vertical ? bounds.height : bounds.width
    return snapshot.indices(
      from: physicalOffset - preloadBuffer, to: physicalOffset + length + preloadBuffer)
  }

  /// The indices whose frames overlap the viewport itself, without the pre-load buffer: the
  /// cells a user sees (the strict test on both edges).
  ///
  /// - Complexity: O(log n + k) for k results, as `LayoutSnapshot.indices(from:to:)`.
  public var indicesOnScreen: [Int] {
    guard let snapshot else { return [] }
    let length = effectiveFlow == .vertical ? bounds.height : bounds.width
    return snapshot.indices(from: physicalOffset, to: physicalOffset + length)
  }

  /// The scroll offsets strictly inside which some cell can be on screen: from the first cell's
  /// start less the viewport's length to the last cell's end; nil when there are no cells.
  ///
  /// Outside this range the viewport shows only the header, footer or background.
  ///
  /// - Complexity: O(n) in the number of cells.
  public var offsetsShowingCells: Range<Double>? {
    guard let snapshot, snapshot.count > 0 else { return nil }
    let vertical = effectiveFlow == .vertical
    var start = Double.infinity
    var end = -Double.infinity
    for i in 0..<snapshot.count {
      let frame = snapshot.frame(at: i)
      start = min(start, vertical ? frame.minY : frame.minX)
      end = max(end, vertical ? frame.maxY : frame.maxX)
    }
    let length = vertical ? bounds.height : bounds.width
    // In offsets, not content coordinates: reflected where the list starts at the far end.
    guard let mapping = axisMapping, mapping.mirrored else { return (start - length)..<end }
    return mapping.leading(end)..<mapping.leading(start - length)
  }

  /// One pass over the cells that leave and the cells that enter, in ``reuseOrder``.
  private func showCells(into pass: inout LayoutPass) {
    guard let snapshot else { return }
    let wanted = indicesInDisplayRange
    let shown = displayedCells.keys.sorted()
    // Both lists are sorted, so one merge walks, in index order, exactly the indices the seeds'
    // full loop would act on: the rest neither enter nor leave. Single-pass acts at once, as
    // that loop does; leave-first holds the entering ones back until every leaver is pooled.
    var entering: [Int] = []
    var i = 0
    var j = 0
    while i < shown.count || j < wanted.count {
      if j == wanted.count || (i < shown.count && shown[i] < wanted[j]) {
        enqueue(shown[i], into: &pass)
        i += 1
      } else if i == shown.count || wanted[j] < shown[i] {
        if reuseOrder == .singlePass {
          guard request(wanted[j], from: snapshot, into: &pass) else { break }
        } else {
          entering.append(wanted[j])
        }
        j += 1
      } else {
        i += 1
        j += 1
      }
    }
    for index in entering {
      guard request(index, from: snapshot, into: &pass) else { break }
    }
    pass.displayed = wanted.compactMap { index in
      displayedCells[index].map {
        DisplayedCell(index: index, cell: $0.instanceID)
      }
    }
    pass.poolSize = reusePool.count
  }

  /// Takes a cell off the screen and puts it in the pool.
  private func enqueue(_ index: Int, into pass: inout LayoutPass) {
    let cell = displayedCells.removeValue(forKey: index)!
    reusePool.enqueue(cell)
    pass.enqueued.append(DisplayedCell(index: index, cell: cell.instanceID))
  }

  /// Asks the data source for the cell at an index and displays it; false without a data source.
  private func request(
    _ index: Int, from snapshot: LayoutSnapshot, into pass: inout LayoutPass
  ) -> Bool {
    guard let cell = dataSource?.waterflowView(self, cellAt: index) else {
      return false
    }
    let id = ObjectIdentifier(cell)
    if cell.instanceID == 0 {
      createdCellCount += 1
      cell.instanceID = createdCellCount
      pass.created.append(DisplayedCell(index: index, cell: cell.instanceID))
    } else {
      precondition(
        dequeued.contains(id),
        "the data source returned a cell that is already displayed")
      pass.reused.append(DisplayedCell(index: index, cell: cell.instanceID))
    }
    dequeued.remove(id)
    cell.frame = snapshot.frame(at: index)
    displayedCells[index] = cell
    return true
  }

  // MARK: - Reuse

  /// A cell from the reuse pool with this identifier, or nil when there is none.
  ///
  /// The corresponding UIKit method is `UITableView.dequeueReusableCell(withIdentifier:)`.
  ///
  /// - Complexity: O(1)
  public func dequeueReusableCell(withIdentifier identifier: String)
    -> WaterflowCell?
  {
    guard let cell = reusePool.dequeue(withIdentifier: identifier) else {
      return nil
    }
    dequeued.insert(ObjectIdentifier(cell))
    return cell
  }

  /// The displayed cell at an index, or nil when that index is not displayed.
  ///
  /// - Complexity: O(1)
  public func cell(at index: Int) -> WaterflowCell? { displayedCells[index] }

  /// The displayed cells, by ascending index.
  public var displayed: [(index: Int, cell: WaterflowCell)] {
    displayedCells.keys.sorted().map { ($0, displayedCells[$0]!) }
  }

  // MARK: - Selection

  /// The displayed cell under a point in content coordinates, or nil.
  ///
  /// Only displayed cells are hit, as in the reference's `touchesEnded`. Where frames overlap
  /// (a custom layout may), the highest index wins: it is drawn last, so it is on top, as UIKit's
  /// topmost subview is.
  ///
  /// - Complexity: O(k) for k displayed cells.
  public func indexForCell(at point: Point) -> Int? {
    displayedCells.lazy.filter { $0.value.frame.contains(point) }.map(\.key).max()
  }

  /// Selects the displayed cell under a point in content coordinates, telling the delegate.
  ///
  /// - Returns: The selected index, or nil when the point is on no displayed cell, there is no
  ///   delegate, or the delegate declines.
  @discardableResult
  public func selectCell(at point: Point) -> Int? {
    guard let delegate, let index = indexForCell(at: point),
      delegate.waterflowView(self, shouldSelectCellAt: index)
    else { return nil }
    displayedCells[index]?.isSelected = true
    delegate.waterflowView(self, didSelectCellAt: index)
    return index
  }

  // MARK: - Data changes

  /// Adds cells at the end ("load more") without recomputing earlier frames.
  ///
  /// The data source must already report the new count. Displayed cells keep their identity.
  ///
  /// - Complexity: O(k) for k new cells.
  public func appendCells(count: Int) {
    guard var current = snapshot, !needsReload else { return reloadData() }
    if customLayout != nil { return refreshCustomFrames() }
    snapshot = nil
    current.append(count: count, metrics: metrics)
    snapshot = current
    // Earlier frames stay, except where the layout grows from the bottom: then they all move.
    for (i, cell) in displayedCells { cell.frame = current.frame(at: i) }
  }

  /// Inserts cells at an index ("refresh" inserts at 0), recomputing frames from there on.
  ///
  /// The data source must already report the new count. Displayed cells at or after `index`
  /// move to their new indices and keep their identity; the next layout moves their frames.
  ///
  /// - Complexity: O(n − index).
  public func insertCells(at index: Int, count: Int) {
    guard var current = snapshot, !needsReload else { return reloadData() }
    var moved: [Int: WaterflowCell] = [:]
    for (i, cell) in displayedCells { moved[i >= index ? i + count : i] = cell }
    displayedCells = moved
    if customLayout != nil { return refreshCustomFrames() }
    snapshot = nil
    let layout = effectiveLayout
    current.relayout(
      from: index, itemCounts: itemCounts(for: layout), metrics: metrics)
    snapshot = current
    for (i, cell) in displayedCells { cell.frame = current.frame(at: i) }
  }

  /// Asks the custom layout for frames again, keeping displayed cells (now at their new frames).
  private func refreshCustomFrames() {
    let current = computeSnapshot()
    snapshot = current
    for (i, cell) in displayedCells where i < current.count { cell.frame = current.frame(at: i) }
  }
}

/// The offsets of a scroll in steps, made one at a time: see ``WaterflowView/offsets(from:to:step:)``.
public struct ScrollSteps: Sequence, IteratorProtocol, Sendable {
  private var y: Double
  private let to: Double
  private let step: Double
  private let direction: Double

  init(from: Double, to: Double, step: Double) {
    y = from
    self.to = to
    self.step = step
    direction = to >= from ? 1 : -1
  }

  public mutating func next() -> Double? {
    guard (to - y) * direction > 1e-9 else { return nil }
    y += direction * step
    if (y - to) * direction > 0 { y = to }
    return y
  }
}
