import Foundation
@_exported import WaterflowCells
@_exported import WaterflowJSON
@_exported import WaterflowStyle
@_exported import WaterflowView
@_exported import WaterflowFeeds

/// A scene: a viewport, a layout and its items, read from a JSON file (or a shop plist).
///
/// Scenes are the only input Waterflow reads. Every key is documented in the README; loading one
/// checks every field and throws a ``SceneError`` naming the file and the field at fault.
public struct Scene: Sendable {
  /// The file the scene came from; image paths are relative to its folder.
  public var path: String
  /// The viewport size, in points.
  public var viewport: Size
  /// Device pixels per point.
  public var scale: Double
  /// Columns, margins, sections, flow and the rest.
  public var layout: WaterflowLayout
  /// The orientation that picks portrait or landscape column counts; nil derives it from the viewport.
  public var orientation: Orientation?
  /// The seed of the cells' random colours.
  public var seed: UInt64
  /// PSCollectionView's pre-load buffer above and below the viewport.
  public var buffer: Double
  /// When leaving cells reach the pool: PSCollectionView's leave-first or the seeds' single pass.
  public var reuseOrder: ReuseOrder = .leaveFirst
  /// The header above everything, if any.
  public var header: Supplement?
  /// The footer below everything, if any.
  public var footer: Supplement?
  /// The view shown when there are no items.
  public var empty: Supplement
  /// The view shown instead of `empty` while loading.
  public var loading: Supplement
  /// Whether the scene is loading (no items yet, the loading view shows).
  public var isLoading: Bool
  /// The section headers and footers, by section.
  public var sectionSupplements: [(header: Supplement?, footer: Supplement?)]
  /// The items of each section.
  public var sections: [ItemList]
  /// The frames of a layout file, drawn as given instead of computed by `layout`; nil for a scene.
  public var givenFrames: LayoutFrames? = nil
  /// How the scene is drawn: its `style` object resolved (`Style.standard` when it has none).
  public var style: Style = .standard
  /// The cell templates, by reuse identifier: items whose identifier has one are drawn from it.
  public var cells: [String: CellTemplate] = [:]
  /// The templates in dark mode, when a colour in them has a dark variant; nil otherwise.
  public var darkCells: [String: CellTemplate]? = nil
  /// The data field that names an item for good (`id` unless the scene's `"identity"` names
  /// another): golden verdicts, reports and JUnit files name items by it, `note 64f1…`.
  public var identityField = "id"
  /// The measurer self-sizing items share, made when the first one is bound.
  var cellSizingState: CellSizing? = nil
  /// The scene's `style` object as given, so that a `--style` file can be laid over it.
  public private(set) var styleSheet = StyleSheet()

  /// Lays a style sheet (a `--style` file) over the scene's own and resolves ``style`` again:
  /// the sheet's keys win, and its `dark` preset, if it gives one, replaces the scene's.
  public mutating func apply(_ sheet: StyleSheet) {
    styleSheet = sheet.laid(over: styleSheet)
    style = styleSheet.style
  }

  /// The scene as it looks in an appearance: its style for it (``StyleSheet/style(for:)``) and
  /// its templates' colours for it.
  public func appearing(_ appearance: Appearance) -> Scene {
    var scene = self
    scene.style = styleSheet.style(for: appearance)
    if appearance == .dark, let darkCells { scene.cells = darkCells }
    return scene
  }

  /// The largest number of items a scene may hold.
  public static let maximumItemCount = 10_000_000
  /// The largest viewport side, in device pixels (Cairo's image limit).
  public static let maximumPixelExtent = 32_767

  /// The number of items over all sections.
  public var itemCount: Int { sections.reduce(0) { $0 + $1.count } }

  /// The item at a flat index.
  public func item(at index: Int) -> Item {
    var i = index
    for list in sections {
      if i < list.count { return list[i] }
      i -= list.count
    }
    preconditionFailure("Index out of bounds")
  }

  /// The layout metrics of the item at a flat index, without copying the item's texts: layout
  /// asks for every item.
  ///
  /// - Complexity: O(number of sections).
  public func metrics(at index: Int) -> ItemMetrics {
    var i = index
    for s in sections.indices {
      let count = sections[s].count
      if i < count { return sections[s].metrics(at: i) }
      i -= count
    }
    preconditionFailure("Index out of bounds")
  }
}

/// A header, footer, empty or loading view of a scene: a length and a text.
public typealias Supplement = SupplementaryView

/// One item: how to size it, what it shows and which reuse pool its cell comes from.
public struct Item: Hashable, Sendable {
  public var length: ItemMetrics.Length
  // Declared here, not with the other fields, so that it fills the padding after `length`
  // (25 bytes): an item then takes 88 bytes, not 96.
  /// Whether the item gave no height or size: its template's height at its width sizes it.
  public var isSelfSizing: Bool
  public var span: ItemMetrics.Span
  public var price: String?
  public var identifier: String
  /// What most items of a big feed lack, kept out of line: a million items of height and
  /// price alone then take 88 bytes each instead of 184, and load twice as fast. A data file's
  /// row is kept as a place in its file's packed rows, unpacked when read.
  private var details: Stored?

  /// The image path, already resolved against the file that named it.
  public var image: String? {
    get { details?.value.image }
    set { change { $0.image = newValue } }
  }
  /// The item's own cell colour, instead of the colour its cell was created with.
  public var color: Color? {
    get { details?.value.color }
    set { change { $0.color = newValue } }
  }
  /// The text under the image, in one or two lines ending in "…" when it does not fit.
  public var title: String? {
    get { details?.value.title }
    set { change { $0.title = newValue } }
  }
  /// The fields a template reads (`{likes}`), or nil when the item gives none.
  ///
  /// - Complexity: O(size of the data) for a data file's row, which is unpacked on each read.
  public var data: ItemData? {
    get { details?.data }
    set { change { $0.data = newValue } }
  }

  /// Where the item's data is, without unpacking it: what a measure kept for the whole run
  /// holds instead of the data.
  var dataReference: DataReference { DataReference(stored: details) }

  /// An item's data, kept by reference: ``data`` reads it.
  struct DataReference: Sendable {
    fileprivate let stored: Stored?
    var data: ItemData? { stored?.data }
  }

  /// An item whose data is a row of packed rows (a data file's), unpacked when it is read.
  public init(
    length: ItemMetrics.Length, span: ItemMetrics.Span = .columns(1),
    identifier: String = Item.defaultIdentifier, row: Int, of rows: DataRows,
    isSelfSizing: Bool = false
  ) {
    self.length = length
    self.span = span
    self.price = nil
    self.identifier = identifier
    self.isSelfSizing = isSelfSizing
    details = .row(rows, UInt32(row))
  }

  public init(
    length: ItemMetrics.Length, span: ItemMetrics.Span = .columns(1),
    price: String? = nil,
    image: String? = nil, identifier: String = Item.defaultIdentifier,
    color: Color? = nil, title: String? = nil, data: ItemData? = nil, isSelfSizing: Bool = false
  ) {
    self.length = length
    self.span = span
    self.price = price
    self.identifier = identifier
    self.isSelfSizing = isSelfSizing
    // Tested before a Details is made: most items of a big feed have none.
    if image == nil && color == nil && title == nil && data == nil {
      details = nil
    } else {
      details = .box(DetailsBox(Details(image: image, color: color, title: title, data: data)))
    }
  }

  /// The reuse identifier cells get when an item names none.
  public static let defaultIdentifier = "cell"

  /// The item's layout metrics.
  public var metrics: ItemMetrics { ItemMetrics(length: length, span: span) }

  public static func == (a: Item, b: Item) -> Bool {
    a.length == b.length && a.span == b.span && a.price == b.price && a.identifier == b.identifier
      && a.isSelfSizing == b.isSelfSizing && a.details?.value == b.details?.value
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(length)
    hasher.combine(span)
    hasher.combine(price)
    hasher.combine(identifier)
    hasher.combine(isSelfSizing)
    hasher.combine(details?.value)
  }

  fileprivate struct Details: Hashable, Sendable {
    var image: String?
    var color: Color?
    var title: String?
    var data: ItemData?

    var isEmpty: Bool { image == nil && color == nil && title == nil && data == nil }
  }

  /// Immutable, so copies of an item share it safely; a change makes a new one.
  fileprivate final class DetailsBox: Sendable {
    let value: Details
    init(_ value: Details) { self.value = value }
  }

  /// An item's details: its own, or a packed row of data and nothing else. 16 bytes either
  /// way, the row's number in the spare room beside the reference.
  fileprivate enum Stored: Sendable {
    case box(DetailsBox)
    case row(DataRows, UInt32)

    var value: Details {
      switch self {
      case .box(let box): box.value
      case .row(let rows, let row): Details(data: rows[Int(row)])
      }
    }

    var data: ItemData? {
      switch self {
      case .box(let box): box.value.data
      case .row(let rows, let row): rows[Int(row)]
      }
    }
  }

  private mutating func change(_ body: (inout Details) -> Void) {
    var value = details?.value ?? Details()
    body(&value)
    details = value.isEmpty ? nil : .box(DetailsBox(value))
  }
}

/// A section's items: an explicit list, or a repeating pattern of heights that costs no memory.
public struct ItemList: Hashable, Sendable {
  private enum Storage: Hashable, Sendable {
    case list([Item])
    case pattern(count: Int, heights: [Double])
  }

  private var storage: Storage
  /// Which items came from data files, and their lines there: what messages about them name.
  public var dataRows: [DataFileRows] = []

  /// A list of items.
  public init(_ items: [Item]) { storage = .list(items) }

  /// A list of items, some of them rows of data files.
  init(_ items: [Item], dataRows: [DataFileRows]) {
    storage = .list(items)
    self.dataRows = dataRows
  }

  /// Where the item at an index came from, as a message names it (see `DataFileRows`); nil for
  /// an item written in the scene.
  ///
  /// - Complexity: O(number of imports).
  public func dataFilePlace(of index: Int) -> (file: String, field: String)? {
    dataRows.first { $0.range.contains(index) }.map { $0.place(of: index) }
  }

  /// `count` items whose heights repeat `heights`: item i is `heights[i % heights.count]` high.
  public init(count: Int, heights: [Double]) {
    precondition(!heights.isEmpty, "a pattern needs at least one height")
    storage = .pattern(count: count, heights: heights)
  }

  /// Whether items can carry texts: a repeating pattern of heights has none.
  public var hasTexts: Bool {
    if case .list = storage { return true }
    return false
  }

  /// The items, moved out of the list and leaving it empty: a list changed item by item and put
  /// back is then never copied.
  ///
  /// - Complexity: O(1) for a list; O(n) for a pattern, whose items are made.
  mutating func takeItems() -> [Item] {
    guard case .list(let items) = storage else { return (0..<count).map { self[$0] } }
    storage = .list([])
    return items
  }

  /// The first item that gives no size of its own, if any.
  ///
  /// - Complexity: O(n) for a list, without copying its items; O(1) for a pattern.
  var firstSelfSizingIndex: Int? {
    if case .list(let items) = storage { return items.firstIndex { $0.isSelfSizing } }
    return nil
  }

  /// The number of items.
  public var count: Int {
    switch storage {
    case .list(let items): items.count
    case .pattern(let count, _): count
    }
  }

  /// The item at an index.
  public subscript(index: Int) -> Item {
    switch storage {
    case .list(let items): items[index]
    case .pattern(_, let heights):
      Item(length: .fixed(heights[index % heights.count]))
    }
  }

  /// The layout metrics of the item at an index.
  ///
  /// - Complexity: O(1).
  public func metrics(at index: Int) -> ItemMetrics {
    switch storage {
    case .list(let items): items[index].metrics
    case .pattern(_, let heights):
      ItemMetrics(length: .fixed(heights[index % heights.count]))
    }
  }

  /// Adds `count` items at the end, continuing the list's own sequence ("load more").
  public mutating func append(count extra: Int) {
    switch storage {
    case .list(let items):
      // With nothing to continue, new items get the reference's default height.
      guard !items.isEmpty else {
        storage = .list(
          Array(repeating: Item(length: .fixed(100)), count: extra))
        return
      }
      storage = .list(
        items + (0..<extra).map { items[(items.count + $0) % items.count] })
    case .pattern(let count, let heights):
      storage = .pattern(count: count + extra, heights: heights)
    }
  }

  /// Adds `count` items at the start, taken cyclically from the end of the list ("refresh").
  public mutating func prepend(count extra: Int) {
    let current = (0..<count).map { self[$0] }
    guard !current.isEmpty else { return append(count: extra) }
    let n = current.count
    let fresh = (0..<extra).map { current[(n - extra % n + $0) % n] }
    storage = .list(fresh + current)
  }
}

