internal import WaterflowInputs
import WaterflowFeeds
import Foundation
import WaterflowCells

// A scene's `cells`: templates by reuse identifier, read into WaterflowCells' model, and the
// item data they read. Every message names the file and the template's path
// (`cells.note.content.vstack[1]: unknown element "txt"`).

extension Scene {
  // MARK: - Keys

  private enum TemplateKey: String, CaseIterable {
    case background, border, content, cornerRadius, padding, shadow
  }
  private enum BorderKey: String, CaseIterable { case color, width }
  private enum ShadowKey: String, CaseIterable { case color, radius, x, y }

  /// Every key an element may have: its kind's name and the attributes of any kind. Which
  /// attributes a kind takes is checked after the object is read (`attributes(of:)`).
  private enum ElementKey: String, CaseIterable {
    // Kinds
    case vstack, hstack, zstack, image, text, avatar, icon, badge, rect, spacer
    // Attributes
    case align, aspect, background, color, cornerRadius, fit, foreach, height, limit, lineHeight
    case lines, minLength, name, offset, padding, position, size, spacing, weight, when, width
  }
  private enum ChoiceKey: String, CaseIterable { case `if`, then, `else` }
  private enum OffsetKey: String, CaseIterable { case x, y }

  private static let templateKeys = JSONKeys<TemplateKey>()
  private static let borderKeys = JSONKeys<BorderKey>()
  private static let shadowKeys = JSONKeys<ShadowKey>()
  private static let elementKeys = JSONKeys<ElementKey>()
  private static let choiceKeys = JSONKeys<ChoiceKey>()
  private static let offsetKeys = JSONKeys<OffsetKey>()
  private static let elementKinds: [String: ElementKey] = [
    "vstack": .vstack, "hstack": .hstack, "zstack": .zstack, "image": .image, "text": .text,
    "avatar": .avatar, "icon": .icon, "badge": .badge, "rect": .rect, "spacer": .spacer,
  ]
  /// The element kinds as messages list them.
  static let elementNames = "vstack, hstack, zstack, image, text, avatar, icon, badge, rect, spacer"

  /// The attributes each kind takes, as messages list them.
  private static func attributes(of kind: ElementKey) -> [ElementKey] {
    let own: [ElementKey] =
      switch kind {
      case .vstack, .hstack: [.spacing, .padding, .align, .foreach, .limit]
      case .zstack: [.align]
      case .image: [.aspect, .fit, .cornerRadius, .height, .width]
      case .text: [.size, .weight, .color, .lines, .align, .lineHeight]
      case .avatar: [.size, .name]
      case .icon: [.size, .color]
      case .badge: [.size, .color, .background]
      case .rect: [.width, .height, .color, .cornerRadius]
      case .spacer: [.minLength]
      default: []
      }
    return own + [.when, .position, .offset]
  }

  // MARK: - Templates

  /// `cells`: an object from reuse identifier to template, read for light mode, and for dark
  /// mode when a colour in it has a dark variant (nil otherwise).
  static func readCellTemplates(_ r: inout JSONReader) throws(JSONInputError)
    -> (light: [String: CellTemplate], dark: [String: CellTemplate]?)
  {
    // Templates are small: reading them twice keeps CellTemplate's colours plain values.
    var again = r
    let light = try readCellTemplates(&r, for: .light)
    let dark = try readCellTemplates(&again, for: .dark)
    return (light, dark == light ? nil : dark)
  }

  private static func readCellTemplates(_ r: inout JSONReader, for appearance: Appearance)
    throws(JSONInputError) -> [String: CellTemplate]
  {
    var templates: [String: CellTemplate] = [:]
    try r.beginObject()
    while let identifier = try r.nextName() {
      if templates[identifier] != nil { throw r.fail("given twice") }
      if identifier.isEmpty { throw r.fail("a reuse identifier cannot be empty") }
      templates[identifier] = try readTemplate(&r, for: appearance)
    }
    return templates
  }

  private static func readTemplate(_ r: inout JSONReader, for appearance: Appearance)
    throws(JSONInputError) -> CellTemplate
  {
    var background: Color?
    var cornerRadius = 0.0
    var padding = EdgeInsets()
    var border: CellBorder?
    var shadow: CellShadow?
    var content: CellElement?
    try r.beginObject()
    while let key = try r.nextKey(templateKeys) {
      switch key {
      case .background: background = try StyleSheet.readColor(&r, for: appearance)
      case .cornerRadius: cornerRadius = try r.number(min: 0, max: 10_000)
      case .padding: padding = try readPadding(&r)
      case .border:
        var width = 1.0
        var color = Color(red: 0.88, green: 0.88, blue: 0.88)
        try r.beginObject()
        while let key = try r.nextKey(borderKeys) {
          switch key {
          case .width: width = try r.number(min: 0, max: 100, exclusiveMin: true)
          case .color: color = try StyleSheet.readColor(&r, for: appearance)
          }
        }
        border = CellBorder(width: width, color: color)
      case .shadow:
        var value = CellShadow()
        try r.beginObject()
        while let key = try r.nextKey(shadowKeys) {
          switch key {
          case .color: value.color = try StyleSheet.readColor(&r, for: appearance)
          case .radius: value.radius = try r.number(min: 0, max: 100)
          case .x: value.x = try r.number(min: -100, max: 100)
          case .y: value.y = try r.number(min: -100, max: 100)
          }
        }
        shadow = value
      case .content: content = try readElement(&r, for: appearance)
      }
    }
    guard let content else {
      throw r.fail(key: "content", "missing (a template shows one element, such as a vstack)")
    }
    return CellTemplate(
      background: background, cornerRadius: cornerRadius, padding: padding, border: border,
      shadow: shadow, content: content)
  }

  /// A number, or `{top, left, bottom, right}`.
  private static func readPadding(_ r: inout JSONReader) throws(JSONInputError) -> EdgeInsets {
    if try r.peek() == .number {
      let v = try r.number(min: 0, max: 10_000)
      return EdgeInsets(top: v, left: v, bottom: v, right: v)
    }
    return try readInsets(&r)
  }

  /// A `{field}` text, or one chosen by a condition: `{"if": "{isLiked}", "then": "heart.fill",
  /// "else": "heart"}` (`else` left out is empty; `then` and `else` may be choices again).
  private static func readFieldText(_ r: inout JSONReader) throws(JSONInputError) -> FieldText {
    if try r.peek() == .object {
      var condition: Condition?
      var then: FieldText?
      var otherwise = FieldText("")
      try r.beginObject()
      while let key = try r.nextKey(choiceKeys) {
        switch key {
        case .if: condition = try readCondition(&r)
        case .then: then = try readFieldText(&r)
        case .else: otherwise = try readFieldText(&r)
        }
      }
      guard let condition else {
        throw r.fail(key: "if", "missing: a choice needs a condition, as {\"if\": \"{isLiked}\", \"then\": …, \"else\": …}")
      }
      guard let then else { throw r.fail(key: "then", "missing: what to show when \"\(condition)\" holds") }
      return FieldText(choosing: condition, then: then, else: otherwise)
    }
    guard try r.peek() == .string else {
      throw r.fail("expected a text or a choice {\"if\", \"then\", \"else\"}, found \(try r.peek().name)")
    }
    let source = try r.string()
    switch FieldText.parse(source) {
    case .success(let text): return text
    case .failure(let error):
      throw r.fail("\(error.message), at character \(error.column) of \"\(source)\"")
    }
  }

  /// A `when` or `if`: a condition in the language of `Condition`.
  private static func readCondition(_ r: inout JSONReader) throws(JSONInputError) -> Condition {
    let source = try r.string()
    switch Condition.parse(source) {
    case .success(let condition): return condition
    case .failure(let error):
      throw r.fail(
        "\(error.message), at character \(error.column) of \"\(source)\" (conditions: {field}, !, ==, !=, <, <=, >, >=, &&, ||, parentheses; texts in quotes)")
    }
  }

  /// An attribute that may come from data: a fixed value read by `fixed`, or a `{field}` text or
  /// a choice, whose fixed texts are checked now with `check` (which returns an error message).
  private static func readBindable<T>(
    _ r: inout JSONReader, fixed: (inout JSONReader) throws(JSONInputError) -> T,
    check: (String) -> String?
  ) throws(JSONInputError) -> (fixed: T?, data: FieldText?) {
    let kind = try r.peek()
    if kind == .string {
      var scan = r
      let text = try scan.string()
      if !text.contains("{") { return (try fixed(&r), nil) }
    } else if kind != .object {
      return (try fixed(&r), nil)
    } else {
      // A colour with light and dark variants is an object too; a choice has "if".
      var scan = r
      var isChoice = false
      try scan.beginObject()
      while let name = try scan.nextName() {
        if name == "if" { isChoice = true }
        try scan.skipValue()
      }
      if !isChoice { return (try fixed(&r), nil) }
    }
    let start = r
    let text = try readFieldText(&r)
    func constants(_ t: FieldText) -> [String] {
      if let c = t.choice { return constants(c.then) + constants(c.else) }
      return t.isConstant && !t.source.isEmpty ? [t.source] : []
    }
    for value in constants(text) {
      if let message = check(value) { throw start.fail(message) }
    }
    return (nil, text)
  }

  /// One element: an object with exactly one kind key (`{"text": "{title}", "lines": 2}`).
  private static func readElement(_ r: inout JSONReader, for appearance: Appearance)
    throws(JSONInputError) -> CellElement
  {
    guard try r.peek() == .object else {
      throw r.fail(
        "expected an element such as {\"text\": \"{title}\"}, found \(try r.peek().name)")
    }
    // Find the kind first, on a copy: its attributes may come before it.
    var scan = r
    var kinds: [String] = []
    var unknown: String?
    try scan.beginObject()
    while let name = try scan.nextName() {
      if elementKinds[name] != nil {
        kinds.append(name)
      } else if ElementKey(rawValue: name) == nil, unknown == nil {
        unknown = name
      }
      try scan.skipValue()
    }
    guard let kindName = kinds.first else {
      if let unknown {
        throw r.fail("unknown element \"\(unknown)\" (elements are: \(elementNames))")
      }
      throw r.fail("names no element (one of: \(elementNames))")
    }
    if kinds.count > 1 {
      throw r.fail("one element per object: give either \(kinds[0]) or \(kinds[1]), not both")
    }
    let kind = elementKinds[kindName]!
    let allowed = attributes(of: kind)

    var children: [CellElement] = []
    var text: FieldText?
    var size: Double?
    var weight = FontWeight.regular
    var color: Color?
    var background: Color?
    var lines = 1
    var align: String?
    var lineHeight: Double?
    var spacing = 0.0
    var padding = EdgeInsets()
    var aspect: CellAspect?
    var fit = ImageFit.fill
    var cornerRadius = 0.0
    var height: Double?
    var width: Double?
    var name: FieldText?
    var minLength = 0.0
    var when: Condition?
    var fromData: [DataAttribute: FieldText] = [:]
    var foreach: DataPath?
    var limit: Int?
    var placement: OverlayPlacement?
    var offset = (x: 0.0, y: 0.0)
    var position: OverlayAlignment?
    let alignments = Dictionary(
      uniqueKeysWithValues: OverlayAlignment.allCases.map { ($0.rawValue, $0) })
    func colorCheck(_ text: String) -> String? {
      Color(hexString: text) == nil ? "expected a colour #RRGGBB or #RRGGBBAA, found \"\(text)\"" : nil
    }
    func iconCheck(_ name: String) -> String? {
      IconShape(named: name) == nil
        ? "unknown icon \"\(name)\" (icons are: \(IconShape.names.joined(separator: ", ")))" : nil
    }
    try r.beginObject()
    while let key = try r.nextKey(elementKeys) {
      if key != kind && !allowed.contains(key) {
        if elementKinds[key.rawValue] != nil {
          throw r.fail("one element per object: give either \(kindName) or \(key.rawValue), not both")
        }
        throw r.fail(
          "\(kindName) takes no \(key.rawValue) (its keys: \(allowed.map(\.rawValue).joined(separator: ", ")))")
      }
      switch key {
      case .vstack, .hstack, .zstack:
        try r.beginArray()
        while try r.nextElement() {
          let child = try readElement(&r, for: appearance)
          if child.placement != nil, kind != .zstack || children.isEmpty {
            throw r.fail(
              kind == .zstack
                ? "the first element of a zstack is its base: position and offset place the ones over it"
                : "position and offset place an overlay: give them to the elements of a zstack after the first")
          }
          children.append(child)
        }
        if kind == .zstack, children.isEmpty {
          throw r.fail("a zstack needs a base element, and the elements to draw over it")
        }
      case .image, .text, .avatar, .badge:
        text = try readFieldText(&r)
      case .icon:
        let bound = try readBindable(&r, fixed: { (r: inout JSONReader) throws(JSONInputError) in
          let name = try r.string()
          if let message = iconCheck(name) { throw r.fail(message) }
          return name
        }, check: iconCheck)
        text = FieldText(bound.fixed ?? "")
        fromData[.icon] = bound.data
      case .rect, .spacer:
        try r.beginObject()
        while try r.nextName() != nil {
          let example = kind == .rect ? "\"height\": 1" : "\"minLength\": 8"
          throw r.fail("give \(kindName)'s settings beside it, not inside: {\"\(kindName)\": {}, \(example)}")
        }
      case .size: size = try r.number(min: 0, max: 1000, exclusiveMin: true)
      case .weight:
        weight = try r.oneOf(
          Dictionary(uniqueKeysWithValues: FontWeight.allCases.map { ($0.rawValue, $0) }))
      case .color, .background:
        let bound = try readBindable(&r, fixed: { (r: inout JSONReader) throws(JSONInputError) in
          try StyleSheet.readColor(&r, for: appearance)
        }, check: colorCheck)
        if key == .color { color = bound.fixed } else { background = bound.fixed }
        fromData[key == .color ? .color : .background] = bound.data
      case .lines: lines = try r.integer(min: 0, max: 1000)
      case .align:
        let choices =
          kind == .zstack
          ? OverlayAlignment.allCases.map(\.rawValue)
          : kind == .hstack
            ? ["top", "center", "bottom", "baseline"] : ["leading", "center", "trailing"]
        align = try r.oneOf(Dictionary(uniqueKeysWithValues: choices.map { ($0, $0) }))
      case .position: position = try r.oneOf(alignments)
      case .offset:
        try r.beginObject()
        while let key = try r.nextKey(offsetKeys) {
          switch key {
          case .x: offset.x = try r.number(min: -10_000, max: 10_000)
          case .y: offset.y = try r.number(min: -10_000, max: 10_000)
          }
        }
      case .foreach:
        let source = try r.string()
        guard source.hasPrefix("{"), source.hasSuffix("}"), source.count > 2 else {
          throw r.fail("expected a list field in braces, such as \"{tags}\", found \"\(source)\"")
        }
        switch DataPath.parse(String(source.dropFirst().dropLast())) {
        case .success(let path):
          if path.root == "item" { throw r.fail("\"item\" names each entry inside a foreach: name the list by another field") }
          foreach = path
        case .failure(let e): throw r.fail("\(e.message), in \"\(source)\"")
        }
      case .limit: limit = try r.integer(min: 0, max: 10_000)
      case .lineHeight: lineHeight = try r.number(min: 0, max: 1000, exclusiveMin: true)
      case .spacing: spacing = try r.number(min: 0, max: 10_000)
      case .padding: padding = try readPadding(&r)
      case .aspect: aspect = try readAspect(&r)
      case .fit: fit = try r.oneOf(["fill": ImageFit.fill, "fit": .fit])
      case .cornerRadius: cornerRadius = try r.number(min: 0, max: 10_000)
      case .height: height = try r.number(min: 0, max: 100_000, exclusiveMin: true)
      case .width: width = try r.number(min: 0, max: 100_000, exclusiveMin: true)
      case .name: name = try readFieldText(&r)
      case .minLength: minLength = try r.number(min: 0, max: 100_000)
      case .when: when = try readCondition(&r)
      }
    }
    if limit != nil, foreach == nil {
      throw r.fail(key: "limit", "limits a foreach: give the list as \"foreach\": \"{tags}\"")
    }
    if position != nil || offset != (0, 0) {
      placement = OverlayPlacement(position ?? .center, x: offset.x, y: offset.y)
    }

    let element: CellElement.Kind
    switch kind {
    case .vstack, .hstack:
      let alignment: CellAlignment =
        switch align {
        case "center": .center
        case "baseline": .firstBaseline
        case "trailing", "bottom": .end
        case "leading", "top": .start
        default: kind == .hstack ? .center : .start
        }
      element = .stack(
        CellStack(
          axis: kind == .vstack ? .vertical : .horizontal, children: children, spacing: spacing,
          padding: padding, alignment: alignment, foreach: foreach, limit: limit))
    case .zstack:
      element = .zstack(CellZStack(children: children, alignment: align.flatMap { alignments[$0] } ?? .center))
    case .image:
      element = .image(
        CellImage(
          source: text!, aspect: aspect, fit: fit, cornerRadius: cornerRadius, height: height,
          width: width))
    case .text:
      element = .text(
        CellText(
          text: text!, size: size ?? 14, weight: weight, color: color ?? CellText.defaultColor,
          lines: lines, alignment: CellTextAlignment(rawValue: align ?? "leading")!,
          lineHeight: lineHeight))
    case .avatar:
      element = .avatar(CellAvatar(source: text!, size: size ?? 20, name: name))
    case .icon:
      element = .icon(
        CellIcon(name: text!.source, size: size ?? 12, color: color ?? CellText.secondaryColor))
    case .badge:
      element = .badge(
        CellBadge(
          text: text!, size: size ?? 10, color: color ?? CellBadge.defaultTextColor,
          background: background ?? CellBadge.defaultBackground))
    case .rect:
      element = .rect(
        CellRect(
          width: width, height: height ?? 1, color: color ?? CellRect.defaultColor,
          cornerRadius: cornerRadius))
    default:
      element = .spacer(CellSpacer(minLength: minLength))
    }
    var result = CellElement(element, when: when)
    result.fromData = fromData
    result.placement = placement
    return result
  }

  /// A number (width over height), `"3:4"`, or a pair of fields `"{w}:{h}"`.
  private static func readAspect(_ r: inout JSONReader) throws(JSONInputError) -> CellAspect {
    if try r.peek() == .number {
      return .ratio(try r.number(min: 0, max: 1000, exclusiveMin: true))
    }
    let text = try r.string()
    let sides = text.split(separator: ":", omittingEmptySubsequences: false)
    func field(_ side: Substring) -> String? {
      side.hasPrefix("{") && side.hasSuffix("}") && side.count > 2
        ? String(side.dropFirst().dropLast()) : nil
    }
    if sides.count == 2 {
      if let w = field(sides[0]), let h = field(sides[1]) {
        return .fields(width: DataPath(w), height: DataPath(h))
      }
      if let w = Double(sides[0]), let h = Double(sides[1]), w > 0, h > 0, w.isFinite, h.isFinite {
        return .ratio(w / h)
      }
    }
    throw r.fail(
      "expected a width-to-height ratio: a number, \"3:4\" or two fields \"{w}:{h}\", found \"\(text)\"")
  }

  // MARK: - Item data

  /// An item's `data`, as the feed reader reads it (`DataFile.readItemData`).
  static func readItemData(_ r: inout JSONReader, folder: String) throws(JSONInputError)
    -> ItemData
  {
    try DataFile.readItemData(&r, folder: folder)
  }

  /// The items of a data file (see ``DataFile``): each row an item with its data, picking its
  /// template with its own `identifier` field or the import's.
  static func readDataFile(
    _ path: String, identifier: String, jsonPath: String? = nil, field r: JSONReader
  ) throws(JSONInputError) -> (items: [Item], rows: DataFileRows) {
    let file = try DataFile(
      contentsOf: path, jsonPath: jsonPath, folder: ImageFolder(of: path).folder,
      limit: maximumItemCount, options: readingOptions, importedAt: r)
    let rows = file.rows
    var items: [Item] = []
    items.reserveCapacity(rows.count)
    for row in rows.indices {
      items.append(
        Item(
          length: .fixed(0),
          identifier: rows.value(ofField: "identifier", inRow: row)?.text ?? identifier,
          row: row, of: rows, isSelfSizing: true))
    }
    return (items, file.places)
  }

  // MARK: - Checks

  /// Gives self-sizing items their measured length, and checks every item with a template:
  /// each field the template reads without a `when` must be in the item's data.
  ///
  /// Scene files do this as they load; a scene built in Swift (``cells`` and items with `data`
  /// set by hand) calls it once its items and templates are in place.
  ///
  /// - Throws: ``SceneError`` naming the item and the field it lacks.
  public mutating func bindCells() throws(SceneError) {
    do { try bindCells(itemPaths: ["items"]) } catch { throw SceneError(error) }
  }

  mutating func bindCells(itemPaths: [String]) throws(JSONInputError) {
    // Without templates there is nothing to bind, only self-sizing items to refuse: found
    // without copying a million items into a new list.
    if cells.isEmpty {
      var index = 0
      for s in sections.indices {
        if let i = sections[s].firstSelfSizingIndex {
          let item = sections[s][i]
          let place = s < itemPaths.count ? "\(itemPaths[s])[\(i)]" : "frames[\(index + i)]"
          throw JSONInputError(
            file: path, field: place,
            message:
              "needs a height, an image size {w, h}, or a template for its identifier \"\(item.identifier)\" in cells")
        }
        index += sections[s].count
      }
      return
    }
    let checks = cells.mapValues(TemplateDataCheck.init)
    var index = 0
    var sizing: CellSizing?
    // The self-sizing items of each section, measured together (on every core) at the
    // section's column width before the layout asks for them one by one.
    // Each item's sizing refers to its template through one shared box: a template is a few
    // hundred bytes, too much to copy into every item of a large feed.
    let boxes = cells.mapValues(TemplateBox.init)
    // The one-column self-sizing items of each section, by their index there: a feed's
    // hundreds of thousands of them are measured together, their data unpacked again then
    // rather than kept.
    var waiting: [[Int32]] = Array(repeating: [], count: sections.count)
    for s in sections.indices {
      guard sections[s].hasTexts else {
        index += sections[s].count
        continue
      }
      // Taken out, not copied: the section is put back once its items are measured.
      var items = sections[s].takeItems()
      for i in items.indices {
        defer { index += 1 }
        let item = items[i]
        // A layout file's items are its frames. Named only for an error: a feed's every item
        // would otherwise format its place.
        var place: String { s < itemPaths.count ? "\(itemPaths[s])[\(i)]" : "frames[\(index)]" }
        guard cells[item.identifier] != nil else {
          if item.isSelfSizing {
            throw JSONInputError(
              file: path, field: place,
              message:
                "needs a height, an image size {w, h}, or a template for its identifier \"\(item.identifier)\" in cells"
            )
          }
          continue
        }
        let data = item.data ?? ItemData()
        // A data file's row is named by its file and line, and the template by its scene; an
        // item written in the scene by its place there.
        func fail(template: String, _ message: (String) -> String) -> JSONInputError {
          guard let (file, field) = sections[s].dataFilePlace(of: i) else {
            return JSONInputError(file: path, field: place, message: message(template))
          }
          return JSONInputError(file: file, field: field, message: message("\(path): \(template)"))
        }
        if let problem = checks[item.identifier]!.problem(in: data, index: index) {
          throw fail(template: "cells.\(item.identifier).\(problem.path)", problem.message)
        }
        guard item.isSelfSizing else { continue }
        if layout.flow == .horizontal {
          throw JSONInputError(
            file: path, field: place,
            message: "a template sizes a cell's height from its width: give items a width in horizontal flow")
        }
        if sizing == nil { sizing = try cellSizing() }
        let flat = index
        let measure = sizing!
        let box = boxes[item.identifier]!
        // The data's place, not the data: a feed's rows stay packed.
        let reference = item.dataReference
        items[i].length = .measured(
          ContentLength(identity: flat) { width in
            measure.height(of: box.template, data: reference.data ?? ItemData(), index: flat, width: width)
          })
        if item.span == .columns(1) { waiting[s].append(Int32(truncatingIfNeeded: i)) }
      }
      sections[s] = ItemList(items, dataRows: sections[s].dataRows)
    }
    guard let sizing else { return }
    let widths = layout.columnWidths(viewport: viewport, orientation: orientation)
    var first = 0
    for (s, indices) in waiting.enumerated() {
      defer { first += sections[s].count }
      guard !indices.isEmpty else { continue }
      let list = sections[s]
      let start = first
      sizing.premeasure(
        indices: indices.map { start + Int($0) }, width: widths[min(s, widths.count - 1)]
      ) { n in
        let item = list[Int(indices[n])]
        return (boxes[item.identifier]!.template, item.data ?? ItemData(), start + Int(indices[n]))
      }
    }
  }

  /// The sizing of this scene's templates, with the scene's fonts.
  private mutating func cellSizing() throws(JSONInputError) -> CellSizing {
    if let sizing = cellSizingState { return sizing }
    do {
      let sizing = CellSizing(try CellMeasurer.shared(fontPaths: CellMeasurer.defaultFontPaths))
      cellSizingState = sizing
      return sizing
    } catch {
      throw JSONInputError(file: path, field: "cells", message: "cannot measure templates: \(error)")
    }
  }

  /// The measurer that sizes the scene's template cells: the scene's fonts, or the renderer's
  /// once ``measureCells(withFontPaths:)`` named them; nil when no item sizes by a template.
  public var cellMeasurer: CellMeasurer? { cellSizingState?.measurer }

  /// Measures templates with other font files (the renderer's, when `--font` names one), so
  /// that heights are measured with the fonts cells are drawn with.
  ///
  /// - Throws: An error naming the first font file that cannot be loaded.
  public func measureCells(withFontPaths paths: [String]) throws {
    try cellSizingState?.use(CellMeasurer.shared(fontPaths: paths))
  }
}
