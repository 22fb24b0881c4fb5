import Foundation
internal import WaterflowInputs
internal import SystemPackage

extension Scene {
  /// Reads a scene from a file: a JSON scene, or a shop data file (a plist or JSON array of
  /// `{w, h, img, price}`, the reference demo's format) wrapped in the default scene.
  ///
  /// - Throws: ``SceneError`` naming the file and the field at fault.
  public init(contentsOf path: String) throws(SceneError) {
    InputRecorder.note(path)
    do { try self.init(try JSONDocument(contentsOf: path)) } catch {
      throw SceneError(error)
    }
  }

  /// Reads a scene from bytes; `path` names the source in messages and anchors relative image paths.
  public init(data: Data, path: String) throws(SceneError) {
    do { try self.init(JSONDocument(data, file: path)) } catch {
      throw SceneError(error)
    }
  }

  /// The default scene: an iPhone-sized viewport and the reference control's defaults, no items.
  public init(path: String = "<scene>") {
    self.path = path
    viewport = Size(width: 375, height: 667)
    scale = 2
    layout = WaterflowLayout(scale: scale)
    orientation = nil
    seed = 0
    buffer = 0
    header = nil
    footer = nil
    empty = Supplement(length: 0, text: "No items")
    loading = Supplement(length: 0, text: "Loading…")
    isLoading = false
    sectionSupplements = [(nil, nil)]
    sections = [ItemList([])]
  }

  /// What scene files may do that strict JSON formats may not: plists and shop data carry
  /// numbers as strings and prices as numbers, and `null` stands for a key left out.
  static let readingOptions: JSONReader.Options = [
    .numericStrings, .numbersAsText, .nullIsAbsent,
  ]

  private init(_ document: JSONDocument) throws(JSONInputError) {
    let path = document.file
    self = try Self.json(of: document).read(options: Self.readingOptions) {
      (r: inout JSONReader) throws(JSONInputError) -> Scene in
      if try r.peek() == .array {
        // A bare shop data file: the reference's plist of goods.
        var scene = Scene(path: path)
        scene.sections = [
          ItemList(try Self.readShopItems(&r, relativeTo: path))
        ]
        return scene
      }
      if try Self.isLayoutFile(r) { return try Scene(readingLayoutFile: &r, path: path) }
      return try Scene(reading: &r, path: path)
    }
  }

  /// The document itself, or for a property list (binary, XML, or named `.plist`) the same
  /// values as JSON, so that one reader reads both.
  static func json(of document: JSONDocument) throws(JSONInputError)
    -> JSONDocument
  {
    let head = document.text.prefix(64)
    guard
      head.starts(with: Array("bplist".utf8))
        || String(decoding: head, as: UTF8.self).contains("<?xml")
        || document.file.hasSuffix(".plist")
    else { return document }
    let plist: Any
    do {
      plist = try PropertyListSerialization.propertyList(
        from: Data(document.text), format: nil)
    } catch {
      throw JSONInputError(
        file: document.file, field: "", message: "not a valid property list")
    }
    var json: [UInt8] = []
    let writer = JSONWriter { json.append(contentsOf: $0) }
    writePropertyList(plist, to: writer)
    writer.flush()
    return JSONDocument(json, file: document.file)
  }

  /// Writes what PropertyListSerialization returns as JSON, dictionary keys sorted so that
  /// messages about them come in a fixed order.
  private static func writePropertyList(_ value: Any, to w: JSONWriter) {
    switch value {
    case let s as String: w.write(quoting: s)
    case let b as Bool where type(of: value) == Bool.self:
      w.write(b ? "true" : "false")
    case let n as NSNumber: w.write(n.doubleValue)
    case let a as [Any]:
      w.write("[")
      for (i, element) in a.enumerated() {
        if i > 0 { w.write(",") }
        writePropertyList(element, to: w)
      }
      w.write("]")
    case let d as [String: Any]:
      w.write("{")
      for (i, key) in d.keys.sorted().enumerated() {
        if i > 0 { w.write(",") }
        w.write(quoting: key)
        w.write(":")
        writePropertyList(d[key]!, to: w)
      }
      w.write("}")
    case let d as Date: w.write(d.timeIntervalSince1970)
    default: w.write("null")
    }
  }

  // MARK: - Keys

  // Listed alphabetically: messages about an unknown key list them in this order.
  private enum Key: String, CaseIterable {
    case buffer, cells, columnWeights, columnWidth, columnWidthRounding, columns, direction, empty
    case emptyContent, fitWidth, flow, footer, footerInsets, header, headerInsets, identity, items
    case loading
    case locale, margins, minColumnWidth, minimumContentHeight, now, order, orientation, origin
    case reuseOrder
    case sections, seed, snapToPixels, stamps, style, viewport
  }
  private enum ViewportKey: String, CaseIterable { case height, scale, width }
  private enum SupplementKey: String, CaseIterable { case active, height, text }
  private enum SectionKey: String, CaseIterable {
    case columnWeights, columnWidth, columns, fitWidth, footer, footerInsets, header, headerInsets
    case items, margins, minColumnWidth, order, stamps
  }
  private enum InsetKey: String, CaseIterable { case bottom, left, right, top }
  private enum StampKey: String, CaseIterable { case height, width, x, y }
  private enum ColumnsKey: String, CaseIterable { case landscape, portrait }
  private enum PatternKey: String, CaseIterable {
    case count, heights, identifier, `import`, path
  }
  private enum ItemKey: String, CaseIterable {
    case color, data, fullSpan, h, height, identifier, image, img, `import`, path, price, span, title, w
  }
  private enum ShopKey: String, CaseIterable { case h, img, price, w }

  private static let keys = JSONKeys<Key>()
  private static let viewportKeys = JSONKeys<ViewportKey>()
  private static let supplementKeys = JSONKeys<SupplementKey>([
    ("height", .height), ("text", .text),
  ])
  private static let loadingKeys = JSONKeys<SupplementKey>()
  private static let sectionKeys = JSONKeys<SectionKey>()
  private static let columnsKeys = JSONKeys<ColumnsKey>()
  private static let marginKeys = JSONKeys<MarginType>(
    MarginType.allCases.map { ($0.rawValue, $0) }.sorted { $0.0 < $1.0 })
  private static let patternKeys = JSONKeys<PatternKey>()
  private static let insetKeys = JSONKeys<InsetKey>()
  private static let stampKeys = JSONKeys<StampKey>()
  private static let itemKeys = JSONKeys<ItemKey>()
  // Shop data comes from a server and may carry more than the four keys we use.
  private static let shopKeys = JSONKeys<ShopKey>(unknown: .skip)

  // MARK: - Scene

  private init(reading r: inout JSONReader, path: String) throws(JSONInputError)
  {
    self.init(path: path)
    var top = SectionFields()
    var given = Set<Key>()
    var parsed: [Section]?
    var formatting = DataFormatting()
    try r.beginObject()
    while let key = try r.nextKey(Self.keys) {
      given.insert(key)
      switch key {
      case .identity:
        identityField = try r.string()
        if identityField.isEmpty { throw r.fail("expected the name of the data field that identifies an item, such as \"id\"") }
      case .locale:
        formatting.locale = try r.string()
        if formatting.locale.isEmpty { throw r.fail("expected a locale such as \"zh-Hans\" or \"en\"") }
      case .now: formatting.now = try Self.readNow(&r)
      case .viewport: try readViewport(&r)
      case .seed: seed = UInt64(try r.integer(min: 0, max: Int(Int32.max)))
      case .style: apply(try StyleSheet.read(&r))
      case .cells: (cells, darkCells) = try Self.readCellTemplates(&r)
      case .buffer: buffer = try r.number(min: 0, max: 100_000)
      case .reuseOrder: reuseOrder = try Self.readReuseOrder(&r)
      case .orientation:
        orientation = try r.oneOf([
          "portrait": Orientation.portrait, "landscape": .landscape,
        ])
      case .flow:
        layout.flow = try r.oneOf([
          "vertical": Flow.vertical, "horizontal": .horizontal,
        ])
      case .direction:
        layout.direction = try r.oneOf([
          "ltr": LayoutDirection.leftToRight, "rtl": .rightToLeft,
        ])
      case .snapToPixels: layout.snapsToPixels = try r.bool()
      case .columnWidthRounding:
        layout.columnWidthRounding = try r.oneOf([
          "exact": ColumnWidthRounding.exact, "floor": .floor,
        ])
      case .emptyContent:
        layout.emptyContent = try r.oneOf([
          "empty-view": EmptyContentRule.emptyView, "viewport": .viewport,
          "bottom-margin": .bottomMargin,
        ])
      case .minimumContentHeight:
        layout.minimumContentLength = try r.number(min: 0, max: 10_000_000)
      case .origin: layout.origin = try r.oneOf(["top": LayoutOrigin.top, "bottom": .bottom])
      case .header: header = try Self.readSupplement(&r, defaultText: "Header")
      case .footer: footer = try Self.readSupplement(&r, defaultText: "Footer")
      case .empty:
        empty = try Self.readSupplement(
          &r, defaultText: "No items", lengthRequired: false)
      case .loading:
        if try r.peek() == .bool {
          isLoading = try r.bool()
        } else {
          (loading, isLoading) = try Self.readLoading(&r)
        }
      case .sections:
        var lists: [ItemList] = []
        var supplements: [(Supplement?, Supplement?)] = []
        var sections: [Section] = []
        try r.beginArray()
        while try r.nextElement() {
          var fields = SectionFields()
          try r.beginObject()
          while let key = try r.nextKey(Self.sectionKeys) {
            try fields.read(key, from: &r, scenePath: path)
          }
          let (section, items) = try fields.finish(&r)
          sections.append(section)
          lists.append(items)
          supplements.append((fields.header, fields.footer))
        }
        guard !sections.isEmpty else {
          throw r.fail("needs at least one section")
        }
        parsed = sections
        self.sections = lists
        sectionSupplements = supplements
      case .columns, .minColumnWidth, .margins, .order, .items, .columnWidth, .fitWidth,
        .columnWeights, .headerInsets, .footerInsets, .stamps:
        try top.read(
          SectionKey(rawValue: key.rawValue)!, from: &r, scenePath: path)
      }
    }
    format(with: formatting)
    layout.scale = scale
    layout.headerLength = header?.length
    layout.footerLength = footer?.length
    let emptyLength = isLoading ? loading.length : empty.length
    layout.emptyLength = emptyLength > 0 ? emptyLength : nil

    if let parsed {
      for key in [
        Key.items, .columns, .minColumnWidth, .margins, .order, .columnWidth, .fitWidth,
        .columnWeights, .headerInsets, .footerInsets, .stamps,
      ] where given.contains(key) {
        throw r.fail(
          key: key.rawValue,
          "give \(key.rawValue) inside each section when the scene has sections"
        )
      }
      layout.sections = parsed
    } else {
      let (section, items) = try top.finish(&r)
      layout.sections = [section]
      sections = [items]
    }
    if itemCount > Self.maximumItemCount {
      throw r.fail(
        "\(itemCount) items is more than the limit of \(Self.maximumItemCount)")
    }
    try checkColumnRoom(
      sectionFields: parsed == nil ? [""] : layout.sections.indices.map { "sections[\($0)]" })
    try bindCells(
      itemPaths: parsed == nil ? ["items"] : layout.sections.indices.map { "sections[\($0)].items" })
  }

  /// `"leave-first"` or `"single-pass"`.
  static func readReuseOrder(_ r: inout JSONReader) throws(JSONInputError) -> ReuseOrder {
    try r.oneOf(Dictionary(uniqueKeysWithValues: ReuseOrder.allCases.map { ($0.rawValue, $0) }))
  }

  mutating func readViewport(_ r: inout JSONReader) throws(JSONInputError) {
    var width = viewport.width
    var height = viewport.height
    try r.beginObject()
    while let key = try r.nextKey(Self.viewportKeys) {
      switch key {
      case .width: width = try r.number(min: 0, exclusiveMin: true)
      case .height: height = try r.number(min: 0, exclusiveMin: true)
      case .scale: scale = try r.number(min: 0, max: 4, exclusiveMin: true)
      }
    }
    for (name, side) in [("width", width), ("height", height)]
    where side * scale > Double(Self.maximumPixelExtent) {
      throw r.fail(
        key: name,
        "\(side.jsonText) points at scale \(scale.jsonText) is \((side * scale).jsonText) pixels, more than the limit of \(Self.maximumPixelExtent)"
      )
    }
    viewport = Size(width: width, height: height)
  }

  /// A header, footer or empty view: a length, or `{height, text}`.
  private static func readSupplement(
    _ r: inout JSONReader, defaultText: String, lengthRequired: Bool = true
  ) throws(JSONInputError) -> Supplement {
    if try r.peek() == .number {
      return Supplement(
        length: try r.number(min: 0, max: 100_000), text: defaultText)
    }
    return try readSupplementObject(
      &r, keys: supplementKeys, defaultText: defaultText,
      lengthRequired: lengthRequired
    ).0
  }

  /// `{top, left, bottom, right}`, each optional (0).
  static func readInsets(_ r: inout JSONReader) throws(JSONInputError) -> EdgeInsets {
    var insets = EdgeInsets()
    try r.beginObject()
    while let key = try r.nextKey(insetKeys) {
      let v = try r.number(min: 0, max: 100_000)
      switch key {
      case .top: insets.top = v
      case .left: insets.left = v
      case .bottom: insets.bottom = v
      case .right: insets.right = v
      }
    }
    return insets
  }

  /// The loading view `{height, text, active}` and whether it is active (by default it is).
  private static func readLoading(_ r: inout JSONReader) throws(JSONInputError)
    -> (Supplement, Bool)
  {
    let (supplement, active) = try readSupplementObject(
      &r, keys: loadingKeys, defaultText: "Loading…", lengthRequired: false)
    return (supplement, active ?? true)
  }

  private static func readSupplementObject(
    _ r: inout JSONReader, keys: JSONKeys<SupplementKey>, defaultText: String,
    lengthRequired: Bool
  ) throws(JSONInputError) -> (Supplement, Bool?) {
    var length: Double?
    var text = defaultText
    var active: Bool?
    try r.beginObject()
    while let key = try r.nextKey(keys) {
      switch key {
      case .height: length = try r.number(min: 0, max: 100_000)
      case .text: text = try r.string()
      case .active: active = try r.bool()
      }
    }
    if length == nil && lengthRequired {
      throw r.fail(
        key: "height",
        "missing (the header or footer's length along the scroll axis)")
    }
    return (Supplement(length: length ?? 0, text: text), active)
  }

  // MARK: - Sections

  /// The keys of a section (or of a scene without sections) as they are read, checked
  /// against each other once the object ends.
  private struct SectionFields {
    var section = Section()
    var items = ItemList([])
    var header: Supplement?
    var footer: Supplement?
    /// The column-rule keys given (columns, minColumnWidth, columnWidth, columnWeights).
    var columnRules: [String] = []
    var fixedWidth: Double?
    var fitWidth: Bool?

    mutating func read(
      _ key: SectionKey, from r: inout JSONReader, scenePath: String
    )
      throws(JSONInputError)
    {
      switch key {
      case .columns:
        columnRules.append("columns")
        if try r.peek() == .object {
          var portrait: Int?
          var landscape: Int?
          try r.beginObject()
          while let key = try r.nextKey(Scene.columnsKeys) {
            switch key {
            case .portrait: portrait = try r.integer(min: 1, max: 1000)
            case .landscape: landscape = try r.integer(min: 1, max: 1000)
            }
          }
          guard let portrait, let landscape else {
            throw r.fail("needs both portrait and landscape")
          }
          section.columns = .perOrientation(
            portrait: portrait, landscape: landscape)
        } else {
          section.columns = .count(try r.integer(min: 1, max: 1000))
        }
      case .minColumnWidth:
        columnRules.append("minColumnWidth")
        section.columns = .minimumWidth(try r.number(min: 0, max: 100_000, exclusiveMin: true))
      case .columnWidth:
        columnRules.append("columnWidth")
        fixedWidth = try r.number(min: 0, max: 100_000, exclusiveMin: true)
      case .fitWidth:
        fitWidth = try r.bool()
      case .columnWeights:
        columnRules.append("columnWeights")
        var weights: [Double] = []
        try r.beginArray()
        while try r.nextElement() {
          if weights.count == 1000 { throw r.failInContainer("more than 1000 columns") }
          weights.append(try r.number(min: 0, max: 1_000_000, exclusiveMin: true))
        }
        guard !weights.isEmpty else { throw r.fail("needs at least one weight") }
        section.columns = .weights(weights)
      case .headerInsets: section.headerInsets = try Scene.readInsets(&r)
      case .footerInsets: section.footerInsets = try Scene.readInsets(&r)
      case .stamps:
        var stamps: [Rect] = []
        try r.beginArray()
        while try r.nextElement() {
          var values: [StampKey: Double] = [:]
          try r.beginObject()
          while let key = try r.nextKey(Scene.stampKeys) {
            values[key] =
              key == .x || key == .y
              ? try r.number(min: -1_000_000, max: 1_000_000)
              : try r.number(min: 0, max: 1_000_000)
          }
          for key in StampKey.allCases where values[key] == nil {
            throw r.fail(key: key.rawValue, "missing (a stamp is {x, y, width, height})")
          }
          stamps.append(
            Rect(x: values[.x]!, y: values[.y]!, width: values[.width]!, height: values[.height]!))
        }
        section.stamps = stamps
      case .margins:
        try r.beginObject()
        while let type = try r.nextKey(Scene.marginKeys) {
          section.margins[type] = try r.number(min: 0, max: 100_000)
        }
      case .order:
        section.order = try r.oneOf([
          "shortest": PlacementOrder.shortest, "left-to-right": .leftToRight,
        ])
      case .header:
        header = try Scene.readSupplement(&r, defaultText: "Section")
        section.headerLength = header?.length
      case .footer:
        footer = try Scene.readSupplement(&r, defaultText: "End of section")
        section.footerLength = footer?.length
      case .items:
        items = try Scene.readItems(&r, scenePath: scenePath)
      }
    }

    /// The section, once its object has ended.
    func finish(_ r: inout JSONReader) throws(JSONInputError) -> (Section, ItemList) {
      if columnRules.count > 1 {
        throw r.fail(
          key: columnRules[1],
          "give one of columns, minColumnWidth, columnWidth or columnWeights, not both \(columnRules[0]) and \(columnRules[1])"
        )
      }
      var section = section
      if let fixedWidth {
        section.columns = .fixedWidth(fixedWidth, fitWidth: fitWidth ?? false)
      } else if fitWidth != nil {
        throw r.fail(key: "fitWidth", "needs columnWidth (fitWidth centres columns of a fixed width)")
      }
      return (section, items)
    }
  }

  // MARK: - Items

  private static func readItems(_ r: inout JSONReader, scenePath: String)
    throws(JSONInputError) -> ItemList
  {
    switch try r.peek() {
    case .array:
      let (items, rows) = try readItemList(&r, images: ImageFolder(of: scenePath))
      return ItemList(items, dataRows: rows)
    case .object:
      return try readPatternOrImport(&r, scenePath: scenePath)
    case let kind:
      throw r.fail(
        "expected a list of items or a pattern {count, heights}, found \(kind.name)"
      )
    }
  }

  /// `{"count": 100, "heights": [90, 110, 80]}`, `{"import": "goods.plist"}`, or a data file
  /// `{"import": "feed.csv", "identifier": "note"}` (CSV or JSON lines) whose rows are items.
  private static func readPatternOrImport(
    _ r: inout JSONReader, scenePath: String
  )
    throws(JSONInputError) -> ItemList
  {
    var count: Int?
    var heights: [Double]?
    var source: String?
    var identifier: String?
    var jsonPath: String?
    let start = r
    try r.beginObject()
    while let key = try r.nextKey(patternKeys) {
      switch key {
      case .identifier: identifier = try r.string()
      case .count: count = try r.integer(min: 0, max: maximumItemCount)
      case .heights:
        var list: [Double] = []
        try r.beginArray()
        while try r.nextElement() {
          list.append(try r.number(min: 0, max: 1_000_000))
        }
        guard !list.isEmpty else { throw r.fail("needs at least one height") }
        heights = list
      case .import: source = try r.string()
      case .path: jsonPath = try r.string()
      }
    }
    if let source {
      if count != nil || heights != nil {
        throw r.fail(
          key: "import",
          "give either import or a pattern {count, heights}, not both")
      }
      let full = resolve(source, against: scenePath)
      if isDataFile(full) || jsonPath != nil {
        try checkJSONPath(jsonPath, of: full, r)
        let (items, rows) = try readDataFile(
          full, identifier: identifier ?? Item.defaultIdentifier, jsonPath: jsonPath, field: start)
        return ItemList(items, dataRows: [rows])
      }
      if identifier != nil {
        throw r.fail(key: "identifier", "only a data file (.csv, .jsonl) takes an identifier")
      }
      let document: JSONDocument
      InputRecorder.note(full)
      do { document = try JSONDocument(contentsOf: full) } catch {
        throw r.fail(key: "import", "cannot read the shop data file \(full)")
      }
      return ItemList(
        try json(of: document).read(options: readingOptions) {
          (shop: inout JSONReader) throws(JSONInputError) in
          try readShopItems(&shop, relativeTo: full)
        })
    }
    if identifier != nil {
      throw r.fail(key: "identifier", "only a data file (.csv, .jsonl) takes an identifier")
    }
    if jsonPath != nil { throw r.fail(key: "path", "picks the items of an imported JSON file: give \"import\" too") }
    guard let count else { throw r.fail(key: "count", "missing") }
    guard let heights else { throw r.fail(key: "heights", "missing") }
    return ItemList(count: count, heights: heights)
  }

  /// A list of items, read straight into the list: this loop is where a large scene's time goes.
  private static func readItemList(_ r: inout JSONReader, images: ImageFolder)
    throws(JSONInputError) -> (items: [Item], dataRows: [DataFileRows])
  {
    var items: [Item] = []
    var dataRows: [DataFileRows] = []
    let keys = itemKeys
    // Once, not once per item: a static is a lazily made global, asked for through swift_once.
    let defaultIdentifier = Item.defaultIdentifier
    try r.beginArray()
    let start = r.bytesRead
    while try r.nextElement() {
      if items.count == 1024 {
        // Room for as many items again as the text left holds at the size of these: the list
        // then grows once or not at all, instead of being copied at every doubling.
        let perItem = max(1, (r.bytesRead - start) / items.count)
        items.reserveCapacity(
          min(maximumItemCount, items.count + r.bytesLeft / perItem * 17 / 16))
        // The room not yet filled, which no page maps yet.
        let capacity = items.capacity
        items.withUnsafeMutableBufferPointer { filled in
          adviseHugePages(
            UnsafeMutableRawPointer(filled.baseAddress! + filled.count),
            byteCount: (capacity - filled.count) * MemoryLayout<Item>.stride)
        }
      }
      if items.count == maximumItemCount {
        throw r.failInContainer(
          "more than \(maximumItemCount) items, the limit")
      }
      var height: Double?
      var w: Double?
      var h: Double?
      var price: String?
      var image: String?
      var img: String?
      var identifier = defaultIdentifier
      var span: Int?
      var fullSpan = false
      var color: Color?
      var title: String?
      var data: ItemData?
      var source: String?
      var jsonPath: String?
      try r.beginObject()
      while let key = try r.nextKey(keys) {
        switch key {
        case .data: data = try readItemData(&r, folder: images.folder)
        case .import: source = try r.string()
        case .path: jsonPath = try r.string()
        case .height: height = try r.number(min: 0, max: 1_000_000)
        case .w: w = try r.number(min: 0, max: 1_000_000)
        case .h: h = try r.number(min: 0, max: 1_000_000)
        case .price: price = try r.string()
        case .image: image = try r.string()
        case .img: img = try r.string()
        case .identifier: identifier = try r.string()
        case .span: span = try r.integer(min: 1, max: 1000)
        case .fullSpan: fullSpan = try r.bool()
        case .color: color = try StyleSheet.readColor(&r)
        case .title: title = try r.string()
        }
      }
      if let source {
        // {"import": "ads.jsonl", "identifier": "ad"} among items: the file's rows, in place.
        guard height == nil, w == nil, h == nil, data == nil, price == nil, image == nil,
          img == nil, title == nil, color == nil, span == nil, !fullSpan
        else {
          throw r.fail(key: "import", "an import in a list of items takes only an identifier")
        }
        let full = images.resolve(source)
        guard isDataFile(full) || jsonPath != nil else {
          throw r.fail(
            key: "import",
            "only a data file (.csv, .jsonl, or .json with a \"path\" to its array) can be imported among items")
        }
        try checkJSONPath(jsonPath, of: full, r)
        // The reader has just left the item's object: its messages name `items[i].import`.
        let read = try readDataFile(full, identifier: identifier, jsonPath: jsonPath, field: r)
        var rows = read.rows
        rows.range = items.count..<(items.count + read.items.count)
        dataRows.append(rows)
        items += read.items
        continue
      }
      if jsonPath != nil {
        throw r.fail(key: "path", "picks the items of an imported JSON file: give \"import\" too")
      }
      let length: ItemMetrics.Length
      var isSelfSizing = false
      if let height {
        if w != nil || h != nil {
          throw r.fail(
            key: "height",
            "give either height or an image size {w, h}, not both")
        }
        length = .fixed(height)
      } else if let w, let h {
        length = .aspectRatio(width: w, height: h)
      } else {
        // Sized by its template, checked once the scene's cells are known.
        length = .fixed(0)
        isSelfSizing = true
      }
      if fullSpan && span != nil {
        throw r.fail(key: "fullSpan", "give either span or fullSpan, not both")
      }
      var path = image ?? img
      if let relative = path { path = images.resolve(relative) }
      items.append(
        Item(
          length: length, span: fullSpan ? .full : .columns(span ?? 1),
          price: price,
          image: path, identifier: identifier, color: color, title: title, data: data,
          isSelfSizing: isSelfSizing))
    }
    return (items, dataRows)
  }

  /// The reference shop data: an array of `{w, h, img, price}` (numbers may be strings).
  private static func readShopItems(
    _ r: inout JSONReader, relativeTo path: String
  )
    throws(JSONInputError) -> [Item]
  {
    let images = ImageFolder(of: path)
    var items: [Item] = []
    try r.beginArray()
    while try r.nextElement() {
      if items.count == maximumItemCount {
        throw r.failInContainer(
          "more than \(maximumItemCount) items, the limit")
      }
      var w: Double?
      var h: Double?
      var image: String?
      var price: String?
      try r.beginObject()
      while let key = try r.nextKey(shopKeys) {
        switch key {
        // The shop data comes from a server; a zero width is tolerated here (the layout shows
        // the item square) but a negative or non-numeric one is not.
        case .w: w = try r.number(min: 0)
        case .h: h = try r.number(min: 0)
        case .img: image = try r.string()
        case .price: price = try r.string()
        }
      }
      guard let w else { throw r.fail(key: "w", "missing") }
      guard let h else { throw r.fail(key: "h", "missing") }
      items.append(
        Item(
          length: .aspectRatio(width: w, height: h), price: price,
          image: image.map(images.resolve)))
    }
    return items
  }

  /// A path made absolute against the current folder, without `.` and `..`; URLs are kept.
  /// Layout files and golden facts write image paths this way (or relative to their folder).
  public static func absolutePath(_ path: String) -> String {
    if path.contains("://") { return path }
    return URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// A path relative to the scene's folder (absolute paths and URLs are kept).
  public static func resolve(_ path: String, against scenePath: String)
    -> String
  {
    ImageFolder(of: scenePath).resolve(path)
  }
}

/// Whether a path names a data file of rows (CSV or JSON lines) rather than shop data.
extension Scene {
  /// `now`, the reference date of relative times: ISO 8601, or Unix seconds (as `layout --json`
  /// writes it).
  static func readNow(_ r: inout JSONReader) throws(JSONInputError) -> Double {
    if try r.peek() == .number { return try r.number() }
    let text = try r.string()
    guard let seconds = DataFormat.seconds(ofDate: text) else {
      throw r.fail(
        "expected the reference date of relative times, in ISO 8601: \"2026-11-27T09:00:00Z\", found \"\(text)\"")
    }
    return seconds
  }

  /// Gives every template the scene's locale and reference date.
  mutating func format(with formatting: DataFormatting) {
    for identifier in cells.keys { cells[identifier]!.formatting = formatting }
    for identifier in (darkCells ?? [:]).keys { darkCells![identifier]!.formatting = formatting }
  }
}

/// A `path` goes with a JSON file only: CSV and JSON lines hold one item per row.
private func checkJSONPath(_ jsonPath: String?, of file: String, _ r: JSONReader) throws(JSONInputError) {
  guard jsonPath != nil, isDataFile(file) else { return }
  throw r.fail(
    key: "path", "picks an array in a JSON file; \(file) holds one item per row, so give no path")
}

func isDataFile(_ path: String) -> Bool {
  let lower = path.lowercased()
  return lower.hasSuffix(".csv") || lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson")
}

/// The folder of the file that names images, worked out once for all of its items.
struct ImageFolder {
  let folder: String

  // FilePath, the project's one path type: NSString's deletingLastPathComponent traps on a
  // one-character path (a scene file named `a`) on this Linux toolchain (issue 27).
  init(of file: String) {
    folder = FilePath(file).removingLastComponent().string
  }

  func resolve(_ path: String) -> String {
    if path.hasPrefix("/") || path.contains("://") { return path }
    if folder.isEmpty { return path }
    return folder.hasSuffix("/") ? folder + path : folder + "/" + path
  }
}
