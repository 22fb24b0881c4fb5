import WaterflowJSON

// A layout file: the frames themselves, as `waterflow layout --json` prints them, plus what
// drawing needs (viewport, seed, texts, prices, images). It loads as a Scene whose frames are
// given, so every command that takes a scene takes one.

extension Scene {
  // Listed alphabetically: messages about an unknown key list them in this order.
  private enum LayoutKey: String, CaseIterable {
    case buffer, cells, columnWidth, columns, contentSize, direction, emptyView, flow, footer, frames
    case header, identity, loading, locale, now, orientation, origin, reuseOrder, sections, seed
    case stamps, style, viewport
  }
  private enum RectKey: String, CaseIterable { case height, text, width, x, y }
  private enum SizeKey: String, CaseIterable { case height, width }
  private enum LayoutSectionKey: String, CaseIterable {
    case columnWidth, columns, count, first, footer, header
  }
  private enum FrameKey: String, CaseIterable {
    case color, column, data, dataFolder, height, identifier, image, index, price, span, title
    case width, x, y
  }
  /// The keys that tell a layout file from a scene, found without reading the values.
  private enum TellingKey: String, CaseIterable {
    case columns, empty, frames, items, margins, minColumnWidth, order, snapToPixels
  }

  private static let layoutKeys = JSONKeys<LayoutKey>()
  private static let rectKeys = JSONKeys<RectKey>()
  private static let plainRectKeys = JSONKeys<RectKey>([
    ("height", .height), ("width", .width), ("x", .x), ("y", .y),
  ])
  private static let sizeKeys = JSONKeys<SizeKey>()
  private static let layoutSectionKeys = JSONKeys<LayoutSectionKey>()
  private static let frameKeys = JSONKeys<FrameKey>()
  private static let tellingKeys = JSONKeys<TellingKey>(unknown: .skip)

  /// Whether the object at the cursor is a layout file: it has `frames`, and no key only a
  /// scene has comes before. The cursor is a copy, so the caller's stays where it was; the scan
  /// stops at the first telling key, before its value, so a large `items` is never read twice.
  static func isLayoutFile(_ r: JSONReader) throws(JSONInputError) -> Bool {
    var scan = r
    try scan.beginObject()
    while let key = try scan.nextKey(tellingKeys) {
      // `columns` is a scene's rule, or the column count `layout --json` reports.
      if key == .columns { try scan.skipValue(); continue }
      return key == .frames
    }
    return false
  }

  /// Reads a layout file.
  init(readingLayoutFile r: inout JSONReader, path: String) throws(JSONInputError) {
    self.init(path: path)
    var frames: [Rect] = []
    var items: [Item] = []
    var contentSize: Size?
    var header: (Rect, String)?
    var footer: (Rect, String)?
    var emptyView: (Rect, String)?
    var loading = false
    var sections: [(LayoutFrames.Section, header: String?, footer: String?)] = []
    var wroteColumns = false
    var gaveOrigin = false
    var formatting = DataFormatting()
    try r.beginObject()
    while let key = try r.nextKey(Self.layoutKeys) {
      switch key {
      case .identity: identityField = try r.string()
      case .locale: formatting.locale = try r.string()
      case .now: formatting.now = try Self.readNow(&r)
      case .viewport: try readViewport(&r)
      case .seed: seed = UInt64(try r.integer(min: 0, max: Int(Int32.max)))
      case .style: apply(try StyleSheet.read(&r))
      case .cells: (cells, darkCells) = try Self.readCellTemplates(&r)
      case .buffer: buffer = try r.number(min: 0, max: 100_000)
      case .reuseOrder: reuseOrder = try Self.readReuseOrder(&r)
      case .orientation:
        orientation = try r.oneOf(["portrait": Orientation.portrait, "landscape": .landscape])
      case .flow:
        layout.flow = try r.oneOf(["vertical": Flow.vertical, "horizontal": .horizontal])
      case .direction:
        layout.direction = try r.oneOf(["ltr": LayoutDirection.leftToRight, "rtl": .rightToLeft])
      case .origin:
        layout.origin = try r.oneOf(["top": LayoutOrigin.top, "bottom": .bottom])
        gaveOrigin = true
      case .loading: loading = try r.bool()
      case .stamps:
        // Where `layout --json` saw stamps; the frames already flow round them.
        try r.skipValue()
      case .columns, .columnWidth:
        wroteColumns = true
        // What `layout --json` reports of a computed layout; frames say everything here.
        try r.skipValue()
      case .contentSize: contentSize = try Self.readSize(&r)
      case .header: header = try Self.readTextRect(&r, defaultText: "Header")
      case .footer: footer = try Self.readTextRect(&r, defaultText: "Footer")
      case .emptyView: emptyView = try Self.readTextRect(&r, defaultText: "No items")
      case .sections: sections = try Self.readLayoutSections(&r)
      case .frames: (frames, items) = try Self.readFrames(&r, path: path)
      }
    }
    format(with: formatting)
    layout.scale = scale
    // `layout --json` of an upward layout wrote no `origin` before it recorded one: its frames
    // are mirrored (item 0 at the bottom) but would be read top-down, starting at the wrong
    // end. A computed layout never puts item 0 below its last item otherwise.
    if wroteColumns, !gaveOrigin, layout.flow == .vertical, frames.count >= 2,
      let first = frames.first, let last = frames.last, first.minY > last.maxY
    {
      throw r.fail(
        key: "origin",
        "missing, and the frames run upward (item 0 at y \(first.minY.jsonText), below item \(frames.count - 1) at y \(last.minY.jsonText)): this file was written by a version of `waterflow layout --json` that did not record an upward layout; add \"origin\": \"bottom\", or write it again")
    }

    // Sections tile the frames in order; none means one section of everything.
    var expected = 0
    for (s, section) in sections.enumerated() {
      guard section.0.items.lowerBound == expected else {
        throw r.fail(
          key: "sections[\(s)].first",
          "expected \(expected) (sections cover the frames in order), got \(section.0.items.lowerBound)")
      }
      expected = section.0.items.upperBound
    }
    if !sections.isEmpty && expected != frames.count {
      throw r.fail(
        key: "sections", "cover \(expected) frames, but the file has \(frames.count)")
    }

    let vertical = layout.flow == .vertical
    func length(_ rect: Rect) -> Double { vertical ? rect.height : rect.width }
    let extent = frames.reduce(into: Size(width: 0, height: 0)) {
      $0.width = max($0.width, $1.maxX)
      $0.height = max($0.height, $1.maxY)
    }
    let size = contentSize ?? extent
    if contentSize != nil {
      // A frame with no area cannot be seen, so it may sit anywhere, as a zero-height item of
      // a computed layout may sit below the content's end.
      // Another tool may round frames (to two decimals, say), leaving one a hair past the
      // edge: anything within one device pixel is clamped to the content; further out is an
      // error, as a frame there could never be scrolled to.
      let slack = 1 / max(scale, 1)
      for (i, f) in frames.enumerated() where f.width > 0 && f.height > 0 {
        if f.minX < -slack || f.minY < -slack || f.maxX > size.width + slack
          || f.maxY > size.height + slack
        {
          throw r.fail(
            key: "frames[\(i)]",
            "(x \(f.minX.jsonText), y \(f.minY.jsonText), \(f.width.jsonText) × \(f.height.jsonText)) lies outside the content size \(size.width.jsonText) × \(size.height.jsonText), by more than one device pixel (\(slack.jsonText) pt at scale \(scale.jsonText))"
          )
        }
        // Only a frame past the edge is rewritten: x + width − x need not give width back.
        guard f.minX < 0 || f.minY < 0 || f.maxX > size.width || f.maxY > size.height else { continue }
        let minX = max(0, f.minX)
        let minY = max(0, f.minY)
        frames[i] = Rect(
          x: minX, y: minY, width: min(size.width, f.maxX) - minX,
          height: min(size.height, f.maxY) - minY)
      }
    }

    self.header = header.map { Supplement(length: length($0.0), text: $0.1) }
    self.footer = footer.map { Supplement(length: length($0.0), text: $0.1) }
    isLoading = loading && frames.isEmpty
    if let emptyView {
      let view = Supplement(length: length(emptyView.0), text: emptyView.1)
      if isLoading { self.loading = view } else { empty = view }
    }
    let tiles =
      sections.isEmpty ? [(LayoutFrames.Section(items: 0..<frames.count), nil, nil)] : sections
    layout.sections = tiles.map { _ in Section(columns: .count(1)) }
    self.sections = tiles.map { ItemList(Array(items[$0.0.items])) }
    sectionSupplements = tiles.map { tile in
      (
        tile.0.header.map { Supplement(length: length($0), text: tile.header ?? "Section") },
        tile.0.footer.map { Supplement(length: length($0), text: tile.footer ?? "End of section") }
      )
    }
    givenFrames = LayoutFrames(
      frames: frames, contentSize: size, flow: layout.flow, header: header?.0,
      footer: footer?.0, emptyView: emptyView?.0, sections: sections.map(\.0),
      startsAtEnd: layout.flow == .horizontal && layout.direction == .rightToLeft
        || layout.flow == .vertical && layout.origin == .bottom)
    try bindCells(itemPaths: [])
  }

  private static func readSize(_ r: inout JSONReader) throws(JSONInputError) -> Size {
    var width: Double?
    var height: Double?
    try r.beginObject()
    while let key = try r.nextKey(sizeKeys) {
      switch key {
      case .width: width = try r.number(min: 0)
      case .height: height = try r.number(min: 0)
      }
    }
    guard let width else { throw r.fail(key: "width", "missing") }
    guard let height else { throw r.fail(key: "height", "missing") }
    return Size(width: width, height: height)
  }

  /// `{x, y, width, height}`, with a `text` where `keys` allow one.
  private static func readRect(
    _ r: inout JSONReader, keys: JSONKeys<RectKey>
  ) throws(JSONInputError) -> (Rect, String?) {
    var x: Double?
    var y: Double?
    var width: Double?
    var height: Double?
    var text: String?
    try r.beginObject()
    while let key = try r.nextKey(keys) {
      switch key {
      case .x: x = try r.number(min: -.greatestFiniteMagnitude)
      case .y: y = try r.number(min: -.greatestFiniteMagnitude)
      case .width: width = try r.number(min: 0)
      case .height: height = try r.number(min: 0)
      case .text: text = try r.string()
      }
    }
    guard let x else { throw r.fail(key: "x", "missing") }
    guard let y else { throw r.fail(key: "y", "missing") }
    guard let width else { throw r.fail(key: "width", "missing") }
    guard let height else { throw r.fail(key: "height", "missing") }
    return (Rect(x: x, y: y, width: width, height: height), text)
  }

  private static func readTextRect(_ r: inout JSONReader, defaultText: String)
    throws(JSONInputError) -> (Rect, String)
  {
    let (rect, text) = try readRect(&r, keys: rectKeys)
    return (rect, text ?? defaultText)
  }

  private static func readLayoutSections(_ r: inout JSONReader) throws(JSONInputError)
    -> [(LayoutFrames.Section, header: String?, footer: String?)]
  {
    var sections: [(LayoutFrames.Section, header: String?, footer: String?)] = []
    try r.beginArray()
    while try r.nextElement() {
      var first: Int?
      var count: Int?
      var header: (Rect, String)?
      var footer: (Rect, String)?
      try r.beginObject()
      while let key = try r.nextKey(layoutSectionKeys) {
        switch key {
        case .first: first = try r.integer(min: 0, max: maximumItemCount)
        case .count: count = try r.integer(min: 0, max: maximumItemCount)
        case .columns, .columnWidth: try r.skipValue()
        case .header: header = try readTextRect(&r, defaultText: "Section")
        case .footer: footer = try readTextRect(&r, defaultText: "End of section")
        }
      }
      guard let first else { throw r.fail(key: "first", "missing") }
      guard let count else { throw r.fail(key: "count", "missing") }
      sections.append(
        (
          LayoutFrames.Section(items: first..<first + count, header: header?.0, footer: footer?.0),
          header?.1, footer?.1
        ))
    }
    return sections
  }

  /// The frames, by index, and the item each one shows.
  private static func readFrames(_ r: inout JSONReader, path: String) throws(JSONInputError)
    -> ([Rect], [Item])
  {
    var listed: [(index: Int?, frame: Rect, item: Item)] = []
    try r.beginArray()
    while try r.nextElement() {
      if listed.count == maximumItemCount {
        throw r.failInContainer("more than \(maximumItemCount) frames, the limit")
      }
      var index: Int?
      var x: Double?
      var y: Double?
      var width: Double?
      var height: Double?
      var price: String?
      var image: String?
      var identifier = Item.defaultIdentifier
      var color: Color?
      var title: String?
      var data: ItemData?
      var dataFolder: String?
      try r.beginObject()
      while let key = try r.nextKey(frameKeys) {
        switch key {
        case .index: index = try r.integer(min: 0, max: maximumItemCount - 1)
        case .x: x = try r.number(min: -.greatestFiniteMagnitude)
        case .y: y = try r.number(min: -.greatestFiniteMagnitude)
        case .width: width = try r.number(min: 0)
        case .height: height = try r.number(min: 0)
        case .price: price = try r.string()
        case .image: image = try r.string()
        case .identifier: identifier = try r.string()
        case .color: color = try StyleSheet.readColor(&r)
        case .title: title = try r.string()
        case .data: data = try readItemData(&r, folder: ImageFolder(of: path).folder)
        case .dataFolder: dataFolder = try r.string()
        // Where a computed layout put the item: reported by `layout --json`, not needed here.
        case .column, .span: try r.skipValue()
        }
      }
      guard let x else { throw r.fail(key: "x", "missing") }
      guard let y else { throw r.fail(key: "y", "missing") }
      guard let width else { throw r.fail(key: "width", "missing") }
      guard let height else { throw r.fail(key: "height", "missing") }
      if (index == nil) != (listed.first.map { $0.index == nil } ?? (index == nil)) {
        throw r.fail(
          key: "index", index == nil
            ? "missing (frames[0] has one: give every frame an index, or none)"
            : "given here but not in frames[0]: give every frame an index, or none")
      }
      listed.append(
        (
          index, Rect(x: x, y: y, width: width, height: height),
          Item(
            length: .fixed(height), price: price, image: image.map { resolve($0, against: path) },
            identifier: identifier, color: color, title: title,
            data: data.map { data in
              var data = data
              if let dataFolder { data.folder = resolve(dataFolder, against: path) }
              return data
            })
        ))
    }
    guard listed.first?.index != nil else { return (listed.map(\.frame), listed.map(\.item)) }
    // Indices given: any order, each of 0..<n exactly once.
    var slot = [Int](repeating: -1, count: listed.count)
    for (position, entry) in listed.enumerated() {
      let index = entry.index!
      // The array has ended: the cursor is at `frames`, and the message names an element in it.
      func fail(_ message: String) -> JSONInputError {
        JSONInputError(file: r.file, field: r.fieldPath() + "[\(position)].index", message: message)
      }
      guard index < listed.count else {
        throw fail("\(index) is past the last index, \(listed.count - 1), of \(listed.count) frames")
      }
      guard slot[index] < 0 else {
        throw fail("\(index) is given twice (also frames[\(slot[index])])")
      }
      slot[index] = position
    }
    return (slot.map { listed[$0].frame }, slot.map { listed[$0].item })
  }
}
