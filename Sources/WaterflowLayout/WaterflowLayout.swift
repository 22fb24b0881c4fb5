/// The configuration of a waterfall layout: how many columns, which margins, which placement rule.
///
/// The defaults reproduce the reference control (`HMWaterflowView` and friends): one section,
/// three columns, every margin 10, vertical flow, shortest-column placement, left to right and
/// no pixel snapping. Compute frames with ``snapshot(viewport:orientation:itemCounts:metrics:)``.
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
  /// How column widths are rounded: not at all (the reference), or down to whole points
  /// (PSCollectionView's `floorf`).
  public var columnWidthRounding: ColumnWidthRounding = .exact
  /// How long the content is when there are no items, as each seed computes it.
  public var emptyContent: EmptyContentRule = .emptyView
  /// The content is at least this long along the scroll axis (CHT's `minimumContentHeight`).
  public var minimumContentLength: Double = 0
  /// Which edge the layout grows from: the top (the reference) or the bottom (masonry's
  /// `originTop: false`, chat-like feeds), which mirrors every frame top to bottom.
  public var origin: LayoutOrigin = .top

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

/// How column widths are rounded.
public enum ColumnWidthRounding: String, Hashable, Sendable {
  /// Exact widths: `(W − left − right − (n − 1) × gap) / n` (the reference).
  case exact
  /// Widths floored to whole points, leftover points at the end edge (PSCollectionView).
  case floor
}

/// The content's length when there are no items, as each seed computes it.
public enum EmptyContentRule: String, Hashable, Sendable {
  /// The header, the empty (or loading) view, one viewport long unless given, and the footer.
  case emptyView = "empty-view"
  /// PSCollectionView: the view's own height (the header overlaps it), then the footer.
  case viewport
  /// ZYWaterFlowView, YYWaterflowView, HMWaterflowView: the tallest column is 0, so the content
  /// is the bottom margin (after the header and before the footer, when there are any); no
  /// empty view.
  case bottomMargin = "bottom-margin"
}

/// The edge a layout grows from.
public enum LayoutOrigin: String, Hashable, Sendable {
  case top
  /// Mirrors y: every frame is the top-origin frame reflected in the content (y′ = H − y − h).
  case bottom
}

/// Insets around a supplementary view, in physical directions.
public struct EdgeInsets: Hashable, Sendable {
  public var top: Double
  public var left: Double
  public var bottom: Double
  public var right: Double

  public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  /// The insets along a flow: (main start, main end, cross start, cross end).
  func along(_ flow: Flow) -> (mainStart: Double, mainEnd: Double, crossStart: Double, crossEnd: Double) {
    flow == .vertical ? (top, bottom, left, right) : (left, right, top, bottom)
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
  /// As many columns of exactly this width as fit (masonry's `columnWidth`), from the start
  /// edge; with `fitWidth`, the block of columns is centred between the margins instead.
  case fixedWidth(Double, fitWidth: Bool)
  /// One column per weight, sharing the width in proportion (FlashList's `getColumnFlex`).
  case weights([Double])

  /// The number of columns across `extent` with these margins; always at least 1.
  public func count(
    across extent: Double, insets: FlowInsets, orientation: Orientation
  ) -> Int {
    switch self {
    case .count(let n):
      return max(1, n)
    case .perOrientation(let portrait, let landscape):
      return max(1, orientation == .portrait ? portrait : landscape)
    case .weights(let weights):
      return max(1, weights.count)
    case .minimumWidth(let minimum), .fixedWidth(let minimum, _):
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
/// A section header spans the section's columns (from its start margin to its end margin) ahead
/// of its items, a footer below its tallest column, as in CHTCollectionViewWaterfallLayout's
/// per-section supplementary views; with ``headerInsets`` or ``footerInsets`` they are placed
/// exactly as CHT places them.
public struct Section: Hashable, Sendable {
  /// The column rule; the reference default is three columns.
  public var columns: ColumnRule
  /// The margins; the reference default is 10 everywhere.
  public var margins: Margins
  /// The placement order; the reference default is `.shortest`.
  public var order: PlacementOrder
  /// The length of a header at the section's top (across its columns, or as `headerInsets` say), or nil.
  public var headerLength: Double?
  /// The length of a footer at the section's bottom, or nil.
  public var footerLength: Double?
  /// CHT's `headerInset`: when set, the header sits this far inside the view's edges, before the
  /// section's top margin; when nil, it spans the section's columns, after the top margin.
  public var headerInsets: EdgeInsets?
  /// CHT's `footerInset`: when set, the footer sits this far inside the view's edges, after the
  /// section's bottom margin; when nil, it spans the section's columns below the tallest one.
  public var footerInsets: EdgeInsets?
  /// Fixed rectangles the items flow around (masonry's stamps), x from the start edge and y from
  /// where the section's items start: each column a stamp overlaps continues below it.
  public var stamps: [Rect]

  public init(
    columns: ColumnRule = .count(3), margins: Margins = Margins(),
    order: PlacementOrder = .shortest,
    headerLength: Double? = nil, footerLength: Double? = nil,
    headerInsets: EdgeInsets? = nil, footerInsets: EdgeInsets? = nil,
    stamps: [Rect] = []
  ) {
    self.columns = columns
    self.margins = margins
    self.order = order
    self.headerLength = headerLength
    self.footerLength = footerLength
    self.headerInsets = headerInsets
    self.footerInsets = footerInsets
    self.stamps = stamps
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
    /// Decided by the item's content once the layout knows the item's width (its height, in
    /// horizontal flow): a self-sizing cell, measured at its column's width.
    case measured(ContentLength)
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

/// The length of a self-sizing item: its content measured at the cross length the layout gives
/// it (the width of its columns, in vertical flow).
///
/// The layout calls the measure once per placement, with the item's width; the measure is the
/// data source's (a cell template measured with Pango, in Waterflow's scenes), so this module
/// stays free of any text or image code.
public struct ContentLength: Hashable, Sendable {
  /// Tells lengths apart: two with the same identity measure the same content.
  public let identity: Int
  private let measure: @Sendable (Double) -> Double

  /// A length measured by a closure from the item's cross length.
  public init(identity: Int, measure: @escaping @Sendable (_ crossLength: Double) -> Double) {
    self.identity = identity
    self.measure = measure
  }

  /// The item's length along the flow when it is `crossLength` wide (or high, sideways).
  public func length(atCrossLength crossLength: Double) -> Double { measure(crossLength) }

  public static func == (a: ContentLength, b: ContentLength) -> Bool { a.identity == b.identity }
  public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
}
