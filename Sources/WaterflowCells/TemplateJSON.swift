public import WaterflowJSON
import WaterflowView
import WaterflowStyle

// Templates written back in the vocabulary `cells` is read in, so that `layout --json` makes a
// layout file that draws template cells as the scene did.

/// Templates and item data written as JSON, in the vocabulary scene files read them in.
public enum TemplateJSON {
  /// Writes templates as a scene's `cells` object, identifiers sorted, defaults left out.
  public static func writeCells(_ cells: [String: CellTemplate], to w: JSONWriter) {
    w.write("{")
    for (i, identifier) in cells.keys.sorted().enumerated() {
      if i > 0 { w.write(", ") }
      w.write(quoting: identifier)
      w.write(": ")
      writeTemplate(cells[identifier]!, to: w)
    }
    w.write("}")
  }

  private static func writeTemplate(_ t: CellTemplate, to w: JSONWriter) {
    var fields = Fields(w)
    if let background = t.background { fields.add("background", background) }
    if t.cornerRadius != 0 { fields.add("cornerRadius", t.cornerRadius) }
    if t.padding != EdgeInsets() { fields.add("padding") { writeInsets(t.padding, to: w) } }
    if let border = t.border {
      fields.add("border") {
        var inner = Fields(w)
        inner.add("width", border.width)
        inner.add("color", border.color)
        inner.end()
      }
    }
    if let shadow = t.shadow {
      fields.add("shadow") {
        var inner = Fields(w)
        inner.add("color", shadow.color)
        inner.add("radius", shadow.radius)
        inner.add("x", shadow.x)
        inner.add("y", shadow.y)
        inner.end()
      }
    }
    fields.add("content") { writeElement(t.content, to: w) }
    fields.end()
  }

  private static func writeInsets(_ p: EdgeInsets, to w: JSONWriter) {
    if p.top == p.left && p.left == p.bottom && p.bottom == p.right {
      w.write(p.top)
      return
    }
    var fields = Fields(w)
    fields.add("top", p.top)
    fields.add("left", p.left)
    fields.add("bottom", p.bottom)
    fields.add("right", p.right)
    fields.end()
  }

  private static func writeElement(_ e: CellElement, to w: JSONWriter) {
    var f = Fields(w)
    switch e.kind {
    case .stack(let stack):
      f.add(e.name) {
        w.write("[")
        for (i, child) in stack.children.enumerated() {
          if i > 0 { w.write(", ") }
          writeElement(child, to: w)
        }
        w.write("]")
      }
      if let each = stack.foreach { f.add("foreach", "{\(each.source)}") }
      if let limit = stack.limit { f.add("limit", Double(limit)) }
      if stack.spacing != 0 { f.add("spacing", stack.spacing) }
      if stack.padding != EdgeInsets() { f.add("padding") { writeInsets(stack.padding, to: w) } }
      let names =
        stack.axis == .vertical ? ["leading", "center", "trailing"] : ["top", "center", "bottom"]
      switch stack.alignment {
      case .start: if stack.axis == .horizontal { f.add("align", names[0]) }
      case .center: if stack.axis == .vertical { f.add("align", names[1]) }
      case .end: f.add("align", names[2])
      case .firstBaseline: f.add("align", "baseline")
      }
    case .zstack(let z):
      f.add("zstack") {
        w.write("[")
        for (i, child) in z.children.enumerated() {
          if i > 0 { w.write(", ") }
          writeElement(child, to: w)
        }
        w.write("]")
      }
      if z.alignment != .center { f.add("align", z.alignment.rawValue) }
    case .image(let image):
      f.add("image", image.source)
      switch image.aspect {
      case .ratio(let r)?: f.add("aspect", r)
      case .fields(let width, let height)?: f.add("aspect", "{\(width)}:{\(height)}")
      case nil: break
      }
      if image.fit != .fill { f.add("fit", image.fit.rawValue) }
      if image.cornerRadius != 0 { f.add("cornerRadius", image.cornerRadius) }
      if let height = image.height { f.add("height", height) }
      if let width = image.width { f.add("width", width) }
    case .text(let text):
      f.add("text", text.text)
      f.add("size", text.size)
      if text.weight != .regular { f.add("weight", text.weight.rawValue) }
      f.add("color", text.color, or: e.fromData[.color])
      if text.lines != 1 { f.add("lines", Double(text.lines)) }
      if text.alignment != .leading { f.add("align", text.alignment.rawValue) }
      if let lineHeight = text.lineHeight { f.add("lineHeight", lineHeight) }
    case .avatar(let avatar):
      f.add("avatar", avatar.source)
      f.add("size", avatar.size)
      if let name = avatar.name { f.add("name", name) }
    case .icon(let icon):
      f.add("icon", FieldText(icon.name), or: e.fromData[.icon])
      f.add("size", icon.size)
      f.add("color", icon.color, or: e.fromData[.color])
    case .badge(let badge):
      f.add("badge", badge.text)
      f.add("size", badge.size)
      f.add("color", badge.color, or: e.fromData[.color])
      f.add("background", badge.background, or: e.fromData[.background])
    case .rect(let rect):
      f.add("rect") { w.write("{}") }
      if let width = rect.width { f.add("width", width) }
      f.add("height", rect.height)
      f.add("color", rect.color, or: e.fromData[.color])
      if rect.cornerRadius != 0 { f.add("cornerRadius", rect.cornerRadius) }
    case .spacer(let spacer):
      f.add("spacer") { w.write("{}") }
      if spacer.minLength != 0 { f.add("minLength", spacer.minLength) }
    }
    if let when = e.when { f.add("when", when.description) }
    if let p = e.placement {
      f.add("position", p.alignment.rawValue)
      if p.x != 0 || p.y != 0 {
        f.add("offset") {
          var o = Fields(w)
          o.add("x", p.x)
          o.add("y", p.y)
          o.end()
        }
      }
    }
    f.end()
  }

  /// Writes an item's data as an object, fields sorted by name, nested values as they are.
  public static func writeData(_ data: ItemData, to w: JSONWriter) {
    var fields = Fields(w)
    for name in data.object.keys.sorted() {
      fields.add(name) { writeValue(data[field: name]!, to: w) }
    }
    fields.end()
  }

  private static func writeValue(_ value: DataValue, to w: JSONWriter) {
    switch value {
    case .null: w.write("null")
    case .bool(let b): w.write(b ? "true" : "false")
    case .number(let text): w.write(text)
    case .string(let text): w.write(quoting: text)
    case .array(let entries):
      w.write("[")
      for (i, entry) in entries.enumerated() {
        if i > 0 { w.write(", ") }
        writeValue(entry, to: w)
      }
      w.write("]")
    case .object(let o):
      var fields = Fields(w)
      for (k, v) in zip(o.keys, o.values) { fields.add(k) { writeValue(v, to: w) } }
      fields.end()
    }
  }
}

/// The members of one JSON object being written, commas between them.
private struct Fields {
  let w: JSONWriter
  var count = 0

  init(_ w: JSONWriter) {
    self.w = w
    w.write("{")
  }

  mutating func add(_ key: String, _ value: () -> Void) {
    w.write(count == 0 ? "" : ", ")
    count += 1
    w.write(quoting: key)
    w.write(": ")
    value()
  }

  mutating func add(_ key: String, _ value: Double) {
    let w = self.w
    add(key) { w.write(value) }
  }
  mutating func add(_ key: String, _ value: String) {
    let w = self.w
    add(key) { w.write(quoting: value) }
  }
  mutating func add(_ key: String, _ value: Color) { add(key, value.hexString) }
  /// A colour, or the text it comes from in the item's data.
  mutating func add(_ key: String, _ value: Color, or data: FieldText?) {
    if let data { add(key, data) } else { add(key, value) }
  }
  /// A text, or the text it comes from in the item's data.
  mutating func add(_ key: String, _ value: FieldText, or data: FieldText?) {
    add(key, data ?? value)
  }

  /// A text as written, or a choice as its `{"if", "then", "else"}` object.
  mutating func add(_ key: String, _ text: FieldText) {
    let w = self.w
    add(key) { Fields.write(text, to: w) }
  }

  static func write(_ text: FieldText, to w: JSONWriter) {
    guard let choice = text.choice else { return w.write(quoting: text.source) }
    var f = Fields(w)
    f.add("if", choice.condition.description)
    f.add("then", choice.then)
    f.add("else", choice.else)
    f.end()
  }

  func end() { w.write("}") }
}
