/// The configuration of a waterfall layout: how many columns, which margins, which placement rule.
///
/// The defaults reproduce the reference control (`HMWaterflowView` and friends): one section,
/// three columns, every margin 10, vertical flow, shortest-column placement, left to right and
/// no pixel snapping. Compute frames with ``snapshot(viewport:itemCounts:metrics:)``.
///
/// ```swift
/// let layout = WaterflowLayout()
/// let snapshot = layout.snapshot(viewport: Size(width: 375, height: 667), itemCounts: [100]) {
///   .height([90, 110, 80][$0 % 3])
/// }
/// snapshot.frame(at: 3)  // Rect(x: 253.33, y: 100, width: 111.67, height: 90): column 2 was shortest
/// ```
public struct WaterflowLayout: Hashable, Sendable {
  /// The scroll axis.
  public var flow: Flow
  /// Which edge column 0 starts at.
  public var direction: LayoutDirection
  /// Whether frames snap to device pixels at `scale`; off in the reference.
  public var snapsToPixels: Bool
  /// Device pixels per point, used by pixel snapping.
  public var scale: Double
  /// The length of a full-width header above everything (PSCollectionView's `headerView`), or nil.
  public var headerLength: Double?
  /// The length of a full-width footer below everything (PSCollectionView's `footerView`), or nil.
  public var footerLength: Double?
  /// The length of the empty (or loading) view shown when there are no items; nil means one viewport.
  public var emptyLength: Double?
  /// The sections, laid out one after another along the scroll axis. Never empty.
  public var sections: [Section]

  /// Creates a layout; the defaults are the reference control's.
  public init(
    flow: Flow = .vertical, direction: LayoutDirection = .leftToRight,
    snapsToPixels: Bool = false, scale: Double = 1,
    headerLength: Double? = nil, footerLength: Double? = nil,
    emptyLength: Double? = nil,
    sections: [Section] = [Section()]
  ) {
    precondition(!sections.isEmpty, "a layout needs at least one section")
    self.flow = flow
    self.direction = direction
    self.snapsToPixels = snapsToPixels
    self.scale = scale
    self.headerLength = headerLength
    self.footerLength = footerLength
    self.emptyLength = emptyLength
    self.sections = sections
  }
}

/// The axis the content scrolls along.
public enum Flow: String, Hashable, Sendable {
  /// Columns across, scrolling down: the reference control.
  case vertical
  /// Rows across, scrolling sideways: fixed row height, variable item width.
  case horizontal
}

/// The edge that column 0 starts at.
public enum LayoutDirection: String, Hashable, Sendable {
  case leftToRight = "ltr"
  /// Mirrors x: every frame is the left-to-right frame reflected, and ties go to the right.
  case rightToLeft = "rtl"
}

/// How an item picks its column.
public enum PlacementOrder: String, Hashable, Sendable {
  /// The column whose bottom is lowest, ties to the start edge: the reference rule.
  case shortest
  /// Columns in turn, `column = i mod n` (a span that would not fit wraps to column 0).
  case leftToRight = "left-to-right"
}

/// The device orientation, which picks between portrait and landscape column counts.
public enum Orientation: String, Hashable, Sendable {
  case portrait, landscape

  /// The orientation a viewport of this size has: landscape when wider than tall.
  public init(_ viewport: Size) {
    self = viewport.width > viewport.height ? .landscape : .portrait
  }
}

/// How a section decides its number of columns.
public enum ColumnRule: Hashable, Sendable {
  /// A fixed number of columns.
  case count(Int)
  /// PSCollectionView's `numColsPortrait` / `numColsLandscape`.
  case perOrientation(portrait: Int, landscape: Int)
  /// As many columns as fit with at least this width:
  /// `max(1, ⌊(W − left − right + gap) / (minimum + gap)⌋)`.
  case minimumWidth(Double)

  /// The number of columns across `extent` with these margins; always at least 1.
  public func count(
    across extent: Double, insets: FlowInsets, orientation: Orientation
  ) -> Int {
    switch self {
    case .count(let n):
      return max(1, n)
    case .perOrientation(let portrait, let landscape):
      return max(1, orientation == .portrait ? portrait : landscape)
    case .minimumWidth(let minimum):
      let available =
        extent - insets.crossStart - insets.crossEnd + insets.laneGap
      let per = minimum + insets.laneGap
      guard per > 0, available.isFinite else { return 1 }
      let n = (available / per).rounded(.down)
      return n >= 1 ? Int(min(n, 100_000)) : 1
    }
  }
}

/// One section: its own columns, margins and placement order, and an optional header and footer.
///
/// A section header is a full-span item placed before the section's items, a footer one placed
/// after them, as in CHTCollectionViewWaterfallLayout's per-section supplementary views.
public struct Section: Hashable, Sendable {
  /// The column rule; the reference default is three columns.
  public var columns: ColumnRule
  /// The margins; the reference default is 10 everywhere.
  public var margins: Margins
  /// The placement order; the reference default is `.shortest`.
  public var order: PlacementOrder
  /// The length of a full-width header at the section's top, or nil.
  public var headerLength: Double?
  /// The length of a full-width footer at the section's bottom, or nil.
  public var footerLength: Double?

  public init(
    columns: ColumnRule = .count(3), margins: Margins = Margins(),
    order: PlacementOrder = .shortest,
    headerLength: Double? = nil, footerLength: Double? = nil
  ) {
    self.columns = columns
    self.margins = margins
    self.order = order
    self.headerLength = headerLength
    self.footerLength = footerLength
  }
}

/// Margins restated along the flow: `main` runs with the scroll, `cross` across it.
public struct FlowInsets: Hashable, Sendable {
  public var mainStart: Double
  public var mainEnd: Double
  public var crossStart: Double
  public var crossEnd: Double
  /// The gap between lanes (columns in vertical flow, rows in horizontal flow).
  public var laneGap: Double
  /// The gap between consecutive items in a lane.
  public var itemGap: Double

  /// The insets of `margins` for a flow: vertical reads top/bottom as main, horizontal left/right.
  public init(_ margins: Margins, flow: Flow) {
    switch flow {
    case .vertical:
      (mainStart, mainEnd, crossStart, crossEnd) = (
        margins.top, margins.bottom, margins.left, margins.right
      )
    case .horizontal:
      (mainStart, mainEnd, crossStart, crossEnd) = (
        margins.left, margins.right, margins.top, margins.bottom
      )
    }
    laneGap = margins.column
    itemGap = margins.row
  }
}

/// What the layout needs to know about one item: its length along the flow and its span.
public struct ItemMetrics: Hashable, Sendable {
  /// How long an item is along the scroll axis.
  public enum Length: Hashable, Sendable {
    /// A fixed length in points (the height in vertical flow, the width in horizontal flow).
    case fixed(Double)
    /// An image of this pixel size, shown at the item's width (vertical) or height (horizontal)
    /// with its aspect ratio kept: the Mogujie shop demo's `height = width × h / w`.
    case aspectRatio(width: Double, height: Double)
  }

  /// How many columns an item covers.
  public enum Span: Hashable, Sendable {
    /// `k` adjacent columns (clamped to 1…columns).
    case columns(Int)
    /// Every column: a banner placed below the tallest column.
    case full
  }

  public var length: Length
  public var span: Span

  public init(length: Length, span: Span = .columns(1)) {
    self.length = length
    self.span = span
  }

  /// A one-column item of a fixed height (or width, in horizontal flow).
  public static func height(_ value: Double) -> ItemMetrics {
    ItemMetrics(length: .fixed(value))
  }

  /// A one-column item sized by an image's aspect ratio.
  public static func aspectRatio(width: Double, height: Double) -> ItemMetrics {
    ItemMetrics(length: .aspectRatio(width: width, height: height))
  }
}
