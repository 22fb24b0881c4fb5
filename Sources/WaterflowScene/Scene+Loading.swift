import Foundation

extension Scene {
  /// Reads a scene from a file: a JSON scene, or a shop data file (a plist or JSON array of
  /// `{w, h, img, price}`, the reference demo's format) wrapped in the default scene.
  ///
  /// - Throws: ``SceneError`` naming the file and the field at fault.
  public init(contentsOf path: String) throws(SceneError) {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw SceneError(
        file: path, field: "",
        message: "cannot read the file (\(Self.reason(error)))")
    }
    try self.init(data: data, path: path)
  }

  /// Reads a scene from bytes; `path` names the source in messages and anchors relative image paths.
  public init(data: Data, path: String) throws(SceneError) {
    let root = try Self.parse(data, path: path)
    let field = Field(value: root, path: "", file: path)
    if case .array = root {
      // A bare shop data file: the reference's plist of goods.
      self = Scene(path: path)
      sections = [ItemList(try Self.readShopItems(field, relativeTo: path))]
      return
    }
    try self.init(field, path: path)
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

  private static func reason(_ error: any Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError,
      let text = String(validatingCString: strerror(Int32(underlying.code)))
    {
      return text.lowercased()
    }
    return ns.localizedDescription
  }

  private static func parse(_ data: Data, path: String) throws(SceneError)
    -> JSONValue
  {
    let head = data.prefix(64)
    if head.starts(with: Array("bplist".utf8))
      || String(decoding: head, as: UTF8.self).contains("<?xml")
      || path.hasSuffix(".plist")
    {
      do {
        let plist = try PropertyListSerialization.propertyList(
          from: data, format: nil)
        return JSONValue(plist: plist)
      } catch {
        throw SceneError(
          file: path, field: "", message: "not a valid property list")
      }
    }
    do {
      return try JSONDecoder().decode(JSONValue.self, from: data)
    } catch let DecodingError.dataCorrupted(context) {
      let detail =
        (context.underlyingError as NSError?)?.userInfo[
          NSDebugDescriptionErrorKey] as? String
      throw SceneError(
        file: path, field: "",
        message: "invalid JSON" + (detail.map { " (\($0))" } ?? ""))
    } catch {
      throw SceneError(file: path, field: "", message: "invalid JSON")
    }
  }

  private static let sceneKeys: Set<String> = [
    "viewport", "columns", "orientation", "minColumnWidth", "margins", "seed",
    "header", "footer",
    "empty", "loading", "buffer", "items", "order", "direction", "flow",
    "sections", "snapToPixels",
  ]
  private static let sectionKeys: Set<String> = [
    "columns", "minColumnWidth", "margins", "order", "header", "footer",
    "items",
  ]

  private init(_ root: Field, path: String) throws(SceneError) {
    self.init(path: path)
    try root.checkKeys(Self.sceneKeys)
    if let v = root.child("viewport") {
      try v.checkKeys(["width", "height", "scale"])
      let width =
        try v.child("width").map { f throws(SceneError) in
          try f.number(min: 0, exclusiveMin: true)
        } ?? viewport.width
      let height =
        try v.child("height").map { f throws(SceneError) in
          try f.number(min: 0, exclusiveMin: true)
        } ?? viewport.height
      scale =
        try v.child("scale").map { f throws(SceneError) in
          try f.number(min: 0, max: 4, exclusiveMin: true)
        } ?? scale
      for (name, side) in [("width", width), ("height", height)]
      where side * scale > Double(Self.maximumPixelExtent) {
        throw v.child(name)!.fail(
          "\(format(side)) points at scale \(format(scale)) is \(format(side * scale)) pixels, more than the limit of \(Self.maximumPixelExtent)"
        )
      }
      viewport = Size(width: width, height: height)
    }
    seed =
      try root.child("seed").map { f throws(SceneError) in
        UInt64(try f.integer(min: 0, max: Int(Int32.max)))
      } ?? 0
    buffer =
      try root.child("buffer").map { f throws(SceneError) in
        try f.number(min: 0, max: 100_000)
      } ?? 0
    orientation = try root.child("orientation").map { f throws(SceneError) in
      try f.oneOf(["portrait": Orientation.portrait, "landscape": .landscape])
    }
    layout.flow =
      try root.child("flow").map { f throws(SceneError) in
        try f.oneOf(["vertical": Flow.vertical, "horizontal": .horizontal])
      } ?? .vertical
    layout.direction =
      try root.child("direction").map { f throws(SceneError) in
        try f.oneOf(["ltr": LayoutDirection.leftToRight, "rtl": .rightToLeft])
      } ?? .leftToRight
    layout.snapsToPixels = try root.child("snapToPixels")?.bool() ?? false
    layout.scale = scale
    header = try root.child("header").map { f throws(SceneError) in
      try Self.readSupplement(f, defaultText: "Header")
    }
    footer = try root.child("footer").map { f throws(SceneError) in
      try Self.readSupplement(f, defaultText: "Footer")
    }
    if let e = root.child("empty") {
      empty = try Self.readSupplement(
        e, defaultText: "No items", lengthRequired: false)
    }
    if let l = root.child("loading") {
      if case .bool(let b) = l.value {
        isLoading = b
      } else {
        try l.checkKeys(["height", "text", "active"])
        loading = try Self.readSupplement(
          l, defaultText: "Loading…", lengthRequired: false,
          extraKeys: ["active"])
        isLoading = try l.child("active")?.bool() ?? true
      }
    }
    layout.headerLength = header?.length
    layout.footerLength = footer?.length
    let emptyLength = isLoading ? loading.length : empty.length
    layout.emptyLength = emptyLength > 0 ? emptyLength : nil

    if let list = root.child("sections") {
      for key in ["items", "columns", "minColumnWidth", "margins", "order"]
      where root.child(key) != nil {
        throw root.child(key)!.fail(
          "give \(key) inside each section when the scene has sections")
      }
      let fields = try list.array()
      guard !fields.isEmpty else {
        throw list.fail("needs at least one section")
      }
      var parsed: [Section] = []
      sections = []
      sectionSupplements = []
      for f in fields {
        try f.checkKeys(Self.sectionKeys)
        let (section, items, header, footer) = try Self.readSection(
          f, scenePath: path)
        parsed.append(section)
        sections.append(items)
        sectionSupplements.append((header, footer))
      }
      layout.sections = parsed
    } else {
      let (section, items, _, _) = try Self.readSection(
        root, scenePath: path, isScene: true)
      layout.sections = [section]
      sections = [items]
    }
    if itemCount > Self.maximumItemCount {
      throw root.fail(
        "\(itemCount) items is more than the limit of \(Self.maximumItemCount)")
    }
    try checkColumnRoom(
      sectionFields: root.child("sections") == nil
        ? [""] : layout.sections.indices.map { "sections[\($0)]" })
  }

  private static func readSupplement(
    _ f: Field, defaultText: String, lengthRequired: Bool = true,
    extraKeys: Set<String> = []
  ) throws(SceneError) -> Supplement {
    if case .number = f.value {
      return Supplement(
        length: try f.number(min: 0, max: 100_000), text: defaultText)
    }
    try f.checkKeys(Set(["height", "text"]).union(extraKeys))
    let length: Double
    if let h = f.child("height") {
      length = try h.number(min: 0, max: 100_000)
    } else if lengthRequired {
      throw SceneError(
        file: f.file, field: "\(f.path).height",
        message: "missing (the header or footer's length along the scroll axis)"
      )
    } else {
      length = 0
    }
    return Supplement(
      length: length, text: try f.child("text")?.string() ?? defaultText)
  }

  private static func readSection(
    _ f: Field, scenePath: String, isScene: Bool = false
  ) throws(SceneError)
    -> (Section, ItemList, Supplement?, Supplement?)
  {
    var section = Section()
    if let c = f.child("columns") {
      if case .object = c.value {
        try c.checkKeys(["portrait", "landscape"])
        guard let p = c.child("portrait"), let l = c.child("landscape") else {
          throw c.fail("needs both portrait and landscape")
        }
        section.columns = .perOrientation(
          portrait: try p.integer(min: 1, max: 1000),
          landscape: try l.integer(min: 1, max: 1000))
      } else {
        section.columns = .count(try c.integer(min: 1, max: 1000))
      }
    }
    if let m = f.child("minColumnWidth") {
      if f.child("columns") != nil {
        throw m.fail("give either columns or minColumnWidth, not both")
      }
      section.columns = .minimumWidth(
        try m.number(min: 0, max: 100_000, exclusiveMin: true))
    }
    if let m = f.child("margins") {
      try m.checkKeys(Set(MarginType.allCases.map(\.rawValue)))
      for type in MarginType.allCases {
        if let v = m.child(type.rawValue) {
          section.margins[type] = try v.number(min: 0, max: 100_000)
        }
      }
    }
    section.order =
      try f.child("order").map { o throws(SceneError) in
        try o.oneOf([
          "shortest": PlacementOrder.shortest, "left-to-right": .leftToRight,
        ])
      } ?? .shortest
    var header: Supplement?
    var footer: Supplement?
    if !isScene {
      header = try f.child("header").map { h throws(SceneError) in
        try readSupplement(h, defaultText: "Section")
      }
      footer = try f.child("footer").map { h throws(SceneError) in
        try readSupplement(h, defaultText: "End of section")
      }
      section.headerLength = header?.length
      section.footerLength = footer?.length
    }
    let items =
      try f.child("items").map { i throws(SceneError) in
        try readItems(i, scenePath: scenePath)
      } ?? ItemList([])
    return (section, items, header, footer)
  }

  private static func readItems(_ f: Field, scenePath: String)
    throws(SceneError) -> ItemList
  {
    switch f.value {
    case .object:
      if let source = f.child("import") {
        try f.checkKeys(["import"])
        let relative = try source.string()
        let full = resolve(relative, against: scenePath)
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: full)) } catch {
          throw source.fail("cannot read the shop data file \(full)")
        }
        let root = try parse(data, path: full)
        return ItemList(
          try readShopItems(
            Field(value: root, path: "", file: full), relativeTo: full))
      }
      try f.checkKeys(["count", "heights"])
      guard let c = f.child("count") else {
        throw SceneError(
          file: f.file, field: "\(f.path).count", message: "missing")
      }
      guard let h = f.child("heights") else {
        throw SceneError(
          file: f.file, field: "\(f.path).heights", message: "missing")
      }
      let count = try c.integer(min: 0, max: maximumItemCount)
      let heights = try h.array().map { x throws(SceneError) in
        try x.number(min: 0, max: 1_000_000)
      }
      guard !heights.isEmpty else { throw h.fail("needs at least one height") }
      return ItemList(count: count, heights: heights)
    case .array:
      let fields = try f.array()
      if fields.count > maximumItemCount {
        throw f.fail(
          "\(fields.count) items is more than the limit of \(maximumItemCount)")
      }
      var items: [Item] = []
      items.reserveCapacity(fields.count)
      for item in fields {
        items.append(try readItem(item, scenePath: scenePath))
      }
      return ItemList(items)
    default:
      throw f.fail(
        "expected a list of items or a pattern {count, heights}, found \(f.value.typeName)"
      )
    }
  }

  private static func readItem(_ f: Field, scenePath: String) throws(SceneError)
    -> Item
  {
    try f.checkKeys([
      "height", "w", "h", "price", "image", "img", "identifier", "span",
      "fullSpan",
    ])
    var item: Item
    if let h = f.child("height") {
      if f.child("w") != nil || f.child("h") != nil {
        throw h.fail("give either height or an image size {w, h}, not both")
      }
      item = Item(length: .fixed(try h.number(min: 0, max: 1_000_000)))
    } else if let w = f.child("w"), let h = f.child("h") {
      item = Item(
        length: .aspectRatio(
          width: try w.number(min: 0, max: 1_000_000),
          height: try h.number(min: 0, max: 1_000_000)))
    } else {
      throw f.fail("needs a height, or an image size {w, h}")
    }
    item.price = try f.child("price")?.string()
    if let image = try (f.child("image") ?? f.child("img"))?.string() {
      item.image = resolve(image, against: scenePath)
    }
    item.identifier =
      try f.child("identifier")?.string() ?? Item.defaultIdentifier
    if let s = f.child("span") {
      item.span = .columns(try s.integer(min: 1, max: 1000))
    }
    if let full = f.child("fullSpan"), try full.bool() {
      if f.child("span") != nil {
        throw full.fail("give either span or fullSpan, not both")
      }
      item.span = .full
    }
    return item
  }

  /// The reference shop data: an array of `{w, h, img, price}` (numbers may be strings).
  private static func readShopItems(_ f: Field, relativeTo path: String)
    throws(SceneError) -> [Item]
  {
    try f.array().map { entry throws(SceneError) in
      _ = try entry.object()
      guard let w = entry.child("w") else {
        throw SceneError(
          file: f.file, field: "\(entry.path).w", message: "missing")
      }
      guard let h = entry.child("h") else {
        throw SceneError(
          file: f.file, field: "\(entry.path).h", message: "missing")
      }
      // The shop data comes from a server; a zero width is tolerated here (the layout shows the
      // item square) but a negative or non-numeric one is not.
      let image = try entry.child("img")?.string()
      return Item(
        length: .aspectRatio(
          width: try w.number(min: 0), height: try h.number(min: 0)),
        price: try entry.child("price")?.string(),
        image: image.map { resolve($0, against: path) })
    }
  }

  /// A path relative to the scene's folder (absolute paths and URLs are kept).
  public static func resolve(_ path: String, against scenePath: String)
    -> String
  {
    if path.hasPrefix("/") || path.contains("://") { return path }
    let dir = (scenePath as NSString).deletingLastPathComponent
    return dir.isEmpty ? path : (dir as NSString).appendingPathComponent(path)
  }
}
