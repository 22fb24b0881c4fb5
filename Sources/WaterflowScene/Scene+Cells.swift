internal import WaterflowInputs
import CSV
import Foundation
import Synchronization
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
    case vstack, hstack, image, text, avatar, icon, badge, rect, spacer
    // Attributes
    case align, aspect, background, color, cornerRadius, fit, height, lineHeight, lines
    case minLength, name, padding, size, spacing, weight, when, width
  }

  private static let templateKeys = JSONKeys<TemplateKey>()
  private static let borderKeys = JSONKeys<BorderKey>()
  private static let shadowKeys = JSONKeys<ShadowKey>()
  private static let elementKeys = JSONKeys<ElementKey>()
  private static let elementKinds: [String: ElementKey] = [
    "vstack": .vstack, "hstack": .hstack, "image": .image, "text": .text, "avatar": .avatar,
    "icon": .icon, "badge": .badge, "rect": .rect, "spacer": .spacer,
  ]
  /// The element kinds as messages list them.
  static let elementNames = "vstack, hstack, image, text, avatar, icon, badge, rect, spacer"

  /// The attributes each kind takes, as messages list them.
  private static func attributes(of kind: ElementKey) -> [ElementKey] {
    switch kind {
    case .vstack, .hstack: [.spacing, .padding, .align, .when]
    case .image: [.aspect, .fit, .cornerRadius, .height, .width, .when]
    case .text: [.size, .weight, .color, .lines, .align, .lineHeight, .when]
    case .avatar: [.size, .name, .when]
    case .icon: [.size, .color, .when]
    case .badge: [.size, .color, .background, .when]
    case .rect: [.width, .height, .color, .cornerRadius, .when]
    case .spacer: [.minLength, .when]
    default: []
    }
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

  private static func readFieldText(_ r: inout JSONReader) throws(JSONInputError) -> FieldText {
    let source = try r.string()
    switch FieldText.parse(source) {
    case .success(let text): return text
    case .failure(let error): throw r.fail("\(error.message), in \"\(source)\"")
    }
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
    var when: FieldText?
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
      case .vstack, .hstack:
        try r.beginArray()
        while try r.nextElement() { children.append(try readElement(&r, for: appearance)) }
      case .image, .text, .avatar, .badge:
        text = try readFieldText(&r)
      case .icon:
        let iconName = try r.string()
        guard IconShape(named: iconName) != nil else {
          throw r.fail(
            "unknown icon \"\(iconName)\" (icons are: \(IconShape.names.joined(separator: ", ")))")
        }
        text = FieldText(iconName)
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
      case .color: color = try StyleSheet.readColor(&r, for: appearance)
      case .background: background = try StyleSheet.readColor(&r, for: appearance)
      case .lines: lines = try r.integer(min: 0, max: 1000)
      case .align:
        let choices =
          kind == .hstack
          ? ["top", "center", "bottom", "baseline"] : ["leading", "center", "trailing"]
        align = try r.oneOf(Dictionary(uniqueKeysWithValues: choices.map { ($0, $0) }))
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
      case .when: when = try readFieldText(&r)
      }
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
          padding: padding, alignment: alignment))
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
    return CellElement(element, when: when)
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
      if let w = field(sides[0]), let h = field(sides[1]) { return .fields(width: w, height: h) }
      if let w = Double(sides[0]), let h = Double(sides[1]), w > 0, h > 0, w.isFinite, h.isFinite {
        return .ratio(w / h)
      }
    }
    throw r.fail(
      "expected a width-to-height ratio: a number, \"3:4\" or two fields \"{w}:{h}\", found \"\(text)\"")
  }

  // MARK: - Item data

  /// An item's `data`: names to strings or numbers (numbers are kept as written).
  static func readItemData(_ r: inout JSONReader, folder: String) throws(JSONInputError)
    -> ItemData
  {
    var data = ItemData(folder: folder)
    try r.beginObject()
    while let name = try r.nextName() {
      if data[name] != nil { throw r.fail("given twice") }
      switch try r.peek() {
      case .string, .number: data[name] = try r.string()
      case .null: try r.skipValue()
      case let kind: throw r.fail("expected a string or a number, found \(kind.name)")
      }
    }
    return data
  }

  // MARK: - Data files

  /// The items of a data file: CSV (a header row names the fields) or JSON lines (one object
  /// of strings and numbers per line). Every column is a data field; `identifier`, when given,
  /// also picks the row's template, and the import's `identifier` is the default.
  static func readDataFile(
    _ path: String, identifier: String, field r: JSONReader
  ) throws(JSONInputError) -> (items: [Item], rows: DataFileRows) {
    InputRecorder.note(path)
    guard let contents = FileManager.default.contents(atPath: path) else {
      let reason = FileManager.default.fileExists(atPath: path) ? "is not readable" : "does not exist"
      throw r.fail(key: "import", "the data file \(path) \(reason)")
    }
    let folder = ImageFolder(of: path).folder
    var rows: [ItemData] = []
    var lines: [Int32] = []
    let isCSV = path.lowercased().hasSuffix(".csv")
    if isCSV {
      guard let text = String(data: contents, encoding: .utf8) else {
        throw JSONInputError(file: path, field: "", message: "not UTF-8 text")
      }
      rows = try readCSV(text, path: path, folder: folder, lines: &lines)
    } else {
      rows = try readJSONLines(contents, path: path, folder: folder, lines: &lines)
    }
    let items = rows.map { row in
      Item(
        length: .fixed(0), identifier: row["identifier"] ?? identifier, data: row,
        isSelfSizing: true)
    }
    return (items, DataFileRows(range: 0..<items.count, file: path, isCSV: isCSV, lines: lines))
  }

  private static func readCSV(
    _ text: String, path: String, folder: String, lines: inout [Int32]
  ) throws(JSONInputError) -> [ItemData] {
    let reader: CSVReader
    do {
      reader = try CSVReader(string: text, hasHeaderRow: true, trimFields: false)
    } catch {
      throw JSONInputError(file: path, field: "", message: "not valid CSV: \(error)")
    }
    guard let header = reader.headerRow, !header.isEmpty, header != [""] else {
      throw JSONInputError(file: path, field: "", message: "needs a header row naming the fields")
    }
    for (i, name) in header.enumerated() where name.isEmpty || header[..<i].contains(name) {
      throw JSONInputError(
        file: path, field: "row 1",
        message: name.isEmpty ? "column \(i + 1) has no name" : "the column \"\(name)\" is named twice")
    }
    var rows: [ItemData] = []
    var line = 1
    while let row = reader.next() {
      line += 1
      if row == [""] { continue }  // a blank line
      guard row.count == header.count else {
        throw JSONInputError(
          file: path, field: "row \(line)",
          message: "has \(row.count) fields, but the header names \(header.count)")
      }
      if rows.count == maximumItemCount {
        throw JSONInputError(
          file: path, field: "row \(line)", message: "more than \(maximumItemCount) items, the limit")
      }
      var data = ItemData(folder: folder)
      // An empty cell is a field left out, so that `when` hides what it would show.
      for (name, value) in zip(header, row) where !value.isEmpty { data[name] = value }
      rows.append(data)
      lines.append(Int32(truncatingIfNeeded: line))
    }
    if let error = reader.error {
      throw JSONInputError(
        file: path, field: "row \(line + 1)", message: "not valid CSV: \(error)")
    }
    return rows
  }

  private static func readJSONLines(
    _ contents: Data, path: String, folder: String, lines: inout [Int32]
  ) throws(JSONInputError) -> [ItemData] {
    var rows: [ItemData] = []
    let bytes = [UInt8](contents)
    var start = 0
    var line = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
      line += 1
      let text = bytes[start..<end]
      start = end + 1
      if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
      if rows.count == maximumItemCount {
        throw JSONInputError(
          file: path, field: "line \(line)", message: "more than \(maximumItemCount) items, the limit")
      }
      let document = JSONDocument(text, file: "\(path):\(line)")
      var data = try document.read(options: readingOptions) {
        (r: inout JSONReader) throws(JSONInputError) in
        guard try r.peek() == .object else {
          throw r.fail("expected one object of fields per line, found \(try r.peek().name)")
        }
        return try readItemData(&r, folder: folder)
      }
      rows.append(data)
      lines.append(Int32(truncatingIfNeeded: line))
    }
    return rows
  }

  // MARK: - Checks

  /// " (did you mean "nickname"?)" when the data has a field whose name is a slip away from
  /// `name` (at most a third of its letters changed, added or dropped); else "".
  ///
  /// - Complexity: O(*f* × *n*²) for *f* fields of length *n*: only when a field is missing.
  static func nearestField(to name: String, in data: ItemData) -> String {
    // Levenshtein by hand: neither the standard library nor a dependency has an edit distance,
    // and a missing field's message is the only caller.
    func distance(_ a: [Character], _ b: [Character]) -> Int {
      var row = Array(0...b.count)
      for i in 1...max(1, a.count) where !a.isEmpty {
        var previous = row[0]
        row[0] = i
        for j in stride(from: 1, through: b.count, by: 1) {
          let kept = previous + (a[i - 1] == b[j - 1] ? 0 : 1)
          previous = row[j]
          row[j] = min(kept, row[j] + 1, row[j - 1] + 1)
        }
      }
      return a.isEmpty ? b.count : row[b.count]
    }
    let wanted = Array(name)
    let best = data.sortedFields.map { (name: $0.name, cost: distance(wanted, Array($0.name))) }
      .min { ($0.cost, $0.name) < ($1.cost, $1.name) }
    guard let best, best.cost > 0, best.cost <= max(1, wanted.count / 3) else { return "" }
    return " (did you mean \"\(best.name)\"?)"
  }

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
    let reads = cells.mapValues { template in template.fieldReads.filter { !$0.isGuarded } }
    // Numbers are checked wherever the field is given, guarded or not: a bad one would draw.
    let numbers = cells.mapValues { template in template.fieldReads.filter(\.isNumber) }
    var index = 0
    var sizing: CellSizing?
    // The self-sizing items of each section, measured together (on every core) at the
    // section's column width before the layout asks for them one by one.
    var waiting: [(section: Int, flat: Int, template: CellTemplate, data: ItemData)] = []
    for s in sections.indices {
      guard sections[s].hasTexts else {
        index += sections[s].count
        continue
      }
      var items = (0..<sections[s].count).map { sections[s][$0] }
      for i in items.indices {
        defer { index += 1 }
        let item = items[i]
        // A layout file's items are its frames. Named only for an error: a feed's every item
        // would otherwise format its place.
        var place: String { s < itemPaths.count ? "\(itemPaths[s])[\(i)]" : "frames[\(index)]" }
        guard let template = cells[item.identifier] else {
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
        for read in reads[item.identifier] ?? [] where data[read.field] == nil {
          throw fail(template: "cells.\(item.identifier).\(read.path)") { template in
            "has no field \"\(read.field)\"\(Self.nearestField(to: read.field, in: data)), which "
              + "\(template) reads; give it in the item's data, or show the element only "
              + "\"when\": \"{\(read.field)}\""
          }
        }
        for read in numbers[item.identifier] ?? [] {
          guard let value = data[read.field] else { continue }
          if let number = data.number(read.field), number.isFinite, number > 0 { continue }
          throw fail(template: "cells.\(item.identifier).\(read.path)") { template in
            "field \"\(read.field)\" is \"\(value)\", which \(template) reads as a number: give a "
              + "finite number above 0"
          }
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
        items[i].length = .measured(
          ContentLength(identity: flat) { width in
            measure.height(of: template, data: data, index: flat, width: width)
          })
        if item.span == .columns(1) { waiting.append((s, flat, template, data)) }
      }
      sections[s] = ItemList(items, dataRows: sections[s].dataRows)
    }
    guard let sizing, !waiting.isEmpty else { return }
    let widths = layout.columnWidths(viewport: viewport, orientation: orientation)
    var start = 0
    while start < waiting.count {
      let s = waiting[start].section
      let end = waiting[start...].firstIndex { $0.section != s } ?? waiting.count
      // The template and data kept from the checks above: no item copied again per lane.
      let batch = Array(waiting[start..<end])
      sizing.premeasure(indices: batch.map(\.flat), width: widths[min(s, widths.count - 1)]) { n in
        (batch[n].template, batch[n].data, batch[n].flat)
      }
      start = end
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

  /// Measures templates with other font files (the renderer's, when `--font` names one), so
  /// that heights are measured with the fonts cells are drawn with.
  ///
  /// - Throws: An error naming the first font file that cannot be loaded.
  public func measureCells(withFontPaths paths: [String]) throws {
    try cellSizingState?.use(CellMeasurer.shared(fontPaths: paths))
  }
}

/// The measurer a scene's self-sizing items share, and the heights measured ahead of the
/// layout; swapped when the renderer's fonts differ.
final class CellSizing: Sendable {
  private struct State {
    var measurer: CellMeasurer
    /// Heights measured ahead, by flat index, with the width each was measured at.
    var measured: [Int: (width: Double, height: Double)] = [:]
  }

  private let state: Mutex<State>

  init(_ measurer: CellMeasurer) { state = Mutex(State(measurer: measurer)) }

  /// Measures with other fonts from now on, forgetting heights measured with the old ones.
  func use(_ other: CellMeasurer) {
    state.withLock { state in
      if state.measurer !== other { state = State(measurer: other) }
    }
  }

  /// Measures items ahead of the layout, on every core.
  func premeasure(
    indices: [Int], width: Double,
    item: @Sendable (Int) -> (template: CellTemplate, data: ItemData, index: Int)
  ) {
    let measurer = state.withLock { $0.measurer }
    let heights = measurer.heights(count: indices.count, width: width, item: item)
    state.withLock { state in
      for (flat, height) in zip(indices, heights) { state.measured[flat] = (width, height) }
    }
  }

  func height(of template: CellTemplate, data: ItemData, index: Int, width: Double) -> Double {
    let (measurer, known) = state.withLock { ($0.measurer, $0.measured[index]) }
    if let known, known.width == width { return known.height }
    return measurer.height(of: template, data: data, index: index, width: width)
  }
}
