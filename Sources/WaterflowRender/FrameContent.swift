public import WaterflowCells
public import WaterflowView

/// Everything one frame shows, captured from a view: a value, so frames can be drawn on other
/// threads while the simulation goes on.
public struct FrameContent: Hashable, Sendable {
  /// One displayed cell.
  public struct Cell: Hashable, Sendable {
    public var index: Int
    public var instanceID: Int
    public var frame: Rect
    public var color: Color?
    public var text: String?
    public var price: String?
    public var imagePath: String?
    public var title: String?
    /// The template the cell is drawn from, or nil for Waterflow's own look.
    public var template: CellTemplate? = nil
    /// The data the cell's item bound to it, which a template reads.
    public var data = ItemData()

    public init(
      index: Int, instanceID: Int, frame: Rect, color: Color? = nil, text: String? = nil,
      price: String? = nil, imagePath: String? = nil, title: String? = nil,
      template: CellTemplate? = nil, data: ItemData = ItemData()
    ) {
      self.index = index
      self.instanceID = instanceID
      self.frame = frame
      self.color = color
      self.text = text
      self.price = price
      self.imagePath = imagePath
      self.title = title
      self.template = template
      self.data = data
    }
  }

  /// A header or footer bar.
  public struct Bar: Hashable, Sendable {
    public enum Style: Hashable, Sendable { case header, footer, section }
    public var frame: Rect
    public var text: String
    public var style: Style

    public init(frame: Rect, text: String, style: Style) {
      self.frame = frame
      self.text = text
      self.style = style
    }
  }

  public var viewport: Size
  public var contentOffset: Point
  public var isHorizontal: Bool
  /// Whether columns run right to left: index badges then sit at each cell's leading (right)
  /// edge, as UIKit mirrors them.
  public var isRightToLeft = false
  public var preloadBuffer: Double
  public var isLoading: Bool
  /// The displayed cells, by ascending index.
  public var cells: [Cell]
  public var bars: [Bar]
  /// The empty (or loading) view and its text, when there are no items.
  public var emptyView: Bar?
  /// The column strips of every section, for the debug overlay.
  public var columnGuides: [Rect]
  /// The number of cells in the reuse pool.
  public var poolCount: Int

  /// A frame of cells and bars at an offset: what a view other than `WaterflowView` displays
  /// (a `UICollectionView`'s, for one).
  public init(
    viewport: Size, contentOffset: Point, isHorizontal: Bool = false, cells: [Cell], bars: [Bar] = []
  ) {
    self.viewport = viewport
    self.contentOffset = contentOffset
    offset = isHorizontal ? contentOffset.x : contentOffset.y
    self.isHorizontal = isHorizontal
    preloadBuffer = 0
    isLoading = false
    self.cells = cells.sorted { $0.index < $1.index }
    self.bars = bars
    emptyView = nil
    columnGuides = []
    poolCount = 0
  }

  /// Captures what the view displays now, with its header, footer, empty and loading views.
  public init(view: WaterflowView) {
    viewport = view.bounds
    contentOffset = view.contentOffset
    offset = view.offset
    isHorizontal = view.isHorizontal
    isRightToLeft = view.layout?.direction == .rightToLeft
    preloadBuffer = view.preloadBuffer
    isLoading = view.isLoading
    cells = view.displayed.map { index, cell in
      let bound = cell as? TemplateCell
      return Cell(
        index: index, instanceID: cell.instanceID, frame: cell.frame,
        color: cell.backgroundColor, text: cell.text,
        price: cell.price, imagePath: cell.imagePath, title: cell.title,
        template: bound?.template, data: bound?.data ?? ItemData())
    }
    bars = []
    emptyView = nil
    columnGuides = []
    poolCount = view.reusePool.count
    guard let snapshot = view.snapshot else { return }
    if let r = snapshot.header, let header = view.headerView {
      bars.append(Bar(frame: r, text: header.text, style: .header))
    }
    if let r = snapshot.footer, let footer = view.footerView {
      bars.append(Bar(frame: r, text: footer.text, style: .footer))
    }
    for (s, section) in snapshot.sections.enumerated() {
      columnGuides += snapshot.columnRects(inSection: s)
      if let r = section.header, s < view.sectionHeaderViews.count,
        let h = view.sectionHeaderViews[s]
      {
        bars.append(Bar(frame: r, text: h.text, style: .section))
      }
      if let r = section.footer, s < view.sectionFooterViews.count,
        let f = view.sectionFooterViews[s]
      {
        bars.append(Bar(frame: r, text: f.text, style: .section))
      }
    }
    if let r = snapshot.emptyView {
      emptyView = Bar(
        frame: r, text: view.isLoading ? view.loadingView.text : view.emptyView.text,
        style: .section)
    }
  }

  /// The canvas size in points: the viewport, plus the pre-load buffer on both sides in debug mode.
  public func canvasSize(debug: Bool) -> Size {
    Self.canvasSize(
      viewport: viewport, isHorizontal: isHorizontal,
      preloadBuffer: preloadBuffer, debug: debug)
  }

  static func canvasSize(
    viewport: Size, isHorizontal: Bool, preloadBuffer: Double, debug: Bool
  ) -> Size {
    let grow = debug ? 2 * preloadBuffer : 0
    return isHorizontal
      ? Size(width: viewport.width + grow, height: viewport.height)
      : Size(width: viewport.width, height: viewport.height + grow)
  }

  /// The scroll position along the scroll axis, from where item 0 is (`WaterflowView.offset`).
  public var offset: Double
  /// ``contentOffset`` along the scroll axis: where the viewport starts in content coordinates.
  public var contentStart: Double { isHorizontal ? contentOffset.x : contentOffset.y }
}
