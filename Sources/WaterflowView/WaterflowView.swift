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
  /// and the delegate for margins, as the reference does.
  public var layout: WaterflowLayout?
  /// The orientation that picks portrait or landscape column counts; nil derives it from `bounds`.
  public var orientation: Orientation?
  /// Extra length above and below the viewport in which cells are already displayed
  /// (PSCollectionView's pre-load threshold); 0 in the reference.
  public var preloadBuffer: Double = 0
  /// Whether the data is loading: with no cells, the loading view shows instead of the empty view.
  public var isLoading = false

  /// The frames of the last layout; nil until the first `reloadData()`.
  public private(set) var snapshot: LayoutSnapshot?
  /// The displayed cells by index: the reference's `displayingCells` map.
  public private(set) var displayedCells: [Int: WaterflowCell] = [:]
  /// Cells waiting for reuse.
  public private(set) var reusePool = ReusePool()
  /// How many cells the data source has created so far.
  public private(set) var createdCellCount = 0

  private var needsReload = true
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

  /// The scroll position along the scroll axis.
  public var offset: Double {
    get { effectiveFlow == .vertical ? contentOffset.y : contentOffset.x }
    set {
      if effectiveFlow == .vertical {
        contentOffset.y = newValue
      } else {
        contentOffset.x = newValue
      }
    }
  }

  private var effectiveFlow: Flow { layout?.flow ?? .vertical }

  /// Throws away every cell, the pool and the frames, and computes the frames anew.
  ///
  /// As in the reference (`HMWaterflowView.reloadData`), displayed cells are removed and the
  /// reuse pool is emptied; the next layout asks the data source for every visible cell.
  public func reloadData() {
    displayedCells.removeAll()
    reusePool.removeAll()
    needsReload = false
    snapshot = computeSnapshot()
  }

  private func computeSnapshot() -> LayoutSnapshot {
    let layout = effectiveLayout
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
  /// The first call reloads the data (the reference reloads when the view is first shown); a
  /// changed bounds size recomputes the frames, keeping the cells that stay on screen. Cells that
  /// leave go to the pool before entering cells are requested, as in PSCollectionView, so no more
  /// cells are ever created than are displayed at once. Only cells that enter or leave are touched.
  ///
  /// - Returns: What the pass did: created, reused and enqueued cells and the pool size.
  /// - Complexity: O(log n + k) for k cells displayed before and after.
  @discardableResult
  public func layoutSubviews() -> LayoutPass {
    var relaidOut = false
    if needsReload || snapshot == nil {
      reloadData()
    } else if let current = snapshot,
      current.viewport != bounds
        || current.orientation != (orientation ?? Orientation(bounds))
    {
      snapshot = computeSnapshot()
      relaidOut = true
    }
    return showCells(refreshFrames: relaidOut)
  }

  /// Sets the offset along the scroll axis and lays out.
  @discardableResult
  public func scroll(to offset: Double) -> LayoutPass {
    self.offset = offset
    return layoutSubviews()
  }

  /// The indices whose frames overlap the viewport widened by the pre-load buffer.
  public var indicesInDisplayRange: [Int] {
    guard let snapshot else { return [] }
    let length = effectiveFlow == .vertical ? bounds.height : bounds.width
    return snapshot.indices(
      from: offset - preloadBuffer, to: offset + length + preloadBuffer)
  }

  private func showCells(refreshFrames: Bool) -> LayoutPass {
    var pass = LayoutPass(offset: offset)
    guard let snapshot else { return pass }
    let wanted = indicesInDisplayRange
    let shown = displayedCells.keys.sorted()
    // Both lists are sorted, so one merge finds who leaves and who enters.
    var leaving: [Int] = []
    var entering: [Int] = []
    var i = 0
    var j = 0
    while i < shown.count || j < wanted.count {
      if j == wanted.count || (i < shown.count && shown[i] < wanted[j]) {
        leaving.append(shown[i])
        i += 1
      } else if i == shown.count || wanted[j] < shown[i] {
        entering.append(wanted[j])
        j += 1
      } else {
        if refreshFrames {
          displayedCells[shown[i]]!.frame = snapshot.frame(at: shown[i])
        }
        i += 1
        j += 1
      }
    }
    for index in leaving {
      let cell = displayedCells.removeValue(forKey: index)!
      reusePool.enqueue(cell)
      pass.enqueued.append(DisplayedCell(index: index, cell: cell.instanceID))
    }
    for index in entering {
      guard let cell = dataSource?.waterflowView(self, cellAt: index) else {
        break
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
    }
    pass.displayed = wanted.compactMap { index in
      displayedCells[index].map {
        DisplayedCell(index: index, cell: $0.instanceID)
      }
    }
    pass.poolSize = reusePool.count
    return pass
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
  /// Only displayed cells are hit, as in the reference's `touchesEnded`.
  ///
  /// - Complexity: O(k) for k displayed cells.
  public func indexForCell(at point: Point) -> Int? {
    displayedCells.first { $0.value.frame.contains(point) }?.key
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
    snapshot = nil
    current.append(count: count, metrics: metrics)
    snapshot = current
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
    snapshot = nil
    let layout = effectiveLayout
    current.relayout(
      from: index, itemCounts: itemCounts(for: layout), metrics: metrics)
    snapshot = current
    for (i, cell) in displayedCells { cell.frame = current.frame(at: i) }
  }
}
