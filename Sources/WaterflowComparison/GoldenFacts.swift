internal import Foundation
internal import WaterflowJSON
public import WaterflowView
public import WaterflowRender
internal import WaterflowScene
internal import WaterflowCells

/// What one golden frame was drawn from: the offset and every cell on screen, with its frame,
/// cell instance, colour and content.
///
/// Recorded beside each golden (`NAME.facts.json`), the facts let a failing check say *what*
/// changed (cells moved, a price, which cell shows an index) or that only the drawing did.
public struct GoldenFacts: Hashable, Sendable {
  /// One cell on screen.
  public struct Cell: Hashable, Sendable {
    /// The item's index.
    public var index: Int
    /// The column a computed layout put it in; nil for given frames.
    public var column: Int?
    /// Its frame in content coordinates and points, as `waterflow layout --json` prints it.
    public var frame: Rect
    /// The cell instance showing it (1, 2, … in creation order): reuse made visible.
    public var instance: Int
    /// Its background colour as `#rrggbb` (or `#rrggbbaa`), or nil.
    public var color: String?
    /// Its label text, price and image path (relative to the golden's folder when it can be).
    public var text: String?
    public var price: String?
    public var image: String?
    /// The data bound to a template cell, by field name (empty for Waterflow's own cells): a
    /// changed field reads `content changed: item 4 likes 1.2k → 1.3k`.
    public var data: [String: String] = [:]
    /// A template cell's reuse identifier, which names it with its identity: `note 64f1…`.
    public var identifier: String?
    /// The value of the item's identity field (`id`, or the field the scene's `identity` names).
    public var id: String?
    /// The lines each wrapping text of a template cell took, by the field it shows (`title`).
    public var lines: [String: Int] = [:]
    /// The section and item of a view with sections of its own (a `UICollectionView`'s), which
    /// names the cell as `item [0, 3]`; nil for Waterflow's flat indices.
    public var indexPath: [Int]?

    /// How verdicts name the cell: by its data's `id` when it has one (`note 64f1…`), else by
    /// its index (`item 4`).
    public var name: String {
      guard let id = id ?? data["id"], !id.isEmpty else {
        return indexPath.map { "item [\($0.map(String.init).joined(separator: ", "))]" } ?? "item \(index)"
      }
      let short = id.count > 8 ? id.prefix(6) + "…" : Substring(id)
      return "\(identifier ?? "item") \(short)"
    }

    public init(
      index: Int, column: Int? = nil, frame: Rect, instance: Int, color: String? = nil,
      text: String? = nil, price: String? = nil, image: String? = nil,
      data: [String: String] = [:]
    ) {
      self.data = data
      self.index = index
      self.column = column
      self.frame = frame
      self.instance = instance
      self.color = color
      self.text = text
      self.price = price
      self.image = image
    }
  }

  /// The scroll offset along the scroll axis.
  public var offset: Double
  /// Whether the content scrolls sideways.
  public var isHorizontal: Bool
  /// The cells on screen, by ascending index.
  public var cells: [Cell]
  /// Every text drawn, in drawing order, with its box in canvas points; nil when not recorded
  /// (facts older than texts, or the overview). What a golden recorded on another font stack is
  /// checked by instead of the texts' anti-aliased pixels.
  public var texts: [DrawnText]?
  /// Where the picture's pixels are: the content point at its top-left pixel, and pixels per
  /// point; nil for a picture that is not the viewport (the overview). Not written to the file.
  public var pixelOrigin: Point?
  public var pixelScale = 1.0

  public init(
    offset: Double, isHorizontal: Bool = false, cells: [Cell], texts: [DrawnText]? = nil
  ) {
    self.offset = offset
    self.isHorizontal = isHorizontal
    self.cells = cells
    self.texts = texts
  }

  /// The facts of what a view shows now: the cells on screen (not those in the pre-load band).
  /// Image paths are made absolute; a store writes them relative to its folder.
  public init(view: WaterflowView) {
    let snapshot = view.snapshot
    let computed = snapshot.map { !$0.framesAreGiven } ?? false
    // Lines are counted with the measurer that sized the cells (the renderer's fonts when it
    // names its own), so a count is what was drawn; a view of no scene's uses the default fonts.
    let measurer =
      (view.dataSource as? SceneController)?.scene.cellMeasurer
      ?? (try? CellMeasurer.shared(fontPaths: CellMeasurer.defaultFontPaths))
    self.init(
      offset: view.offset, isHorizontal: view.isHorizontal,
      cells: view.indicesOnScreen.compactMap { index in
        guard let cell = view.cell(at: index) else { return nil }
        var facts = Cell(
          index: index, column: computed ? snapshot?.column(at: index) : nil, frame: cell.frame,
          instance: cell.instanceID, color: cell.backgroundColor.map(Self.hex), text: cell.text,
          price: cell.price,
          image: cell.imagePath.map(Scene.absolutePath),
          data: (cell as? TemplateCell)?.data.fields ?? [:])
        if let templated = cell as? TemplateCell, let template = templated.template {
          facts.identifier = cell.reuseIdentifier
          facts.id = templated.identity
          facts.lines =
            measurer?.engine(data: templated.data, index: index)
            .textLines(of: template, in: cell.frame) ?? [:]
        }
        return facts
      })
  }

  /// The same facts with image paths relative to `folder`, so that they read the same on every
  /// machine and in every checkout.
  public func withImages(relativeTo folder: String) -> GoldenFacts {
    var facts = self
    let base = Scene.absolutePath(folder)
    for i in facts.cells.indices {
      facts.cells[i].image = facts.cells[i].image.map { Self.relative($0, to: base) }
    }
    return facts
  }

  static func hex(_ c: Color) -> String { c.hexString }

  /// `path` relative to the folder `base` (both made absolute); URLs are kept.
  static func relative(_ path: String, to base: String) -> String {
    if path.contains("://") { return path }
    let target = Scene.absolutePath(path).split(separator: "/")
    let from = base.split(separator: "/")
    var common = 0
    while common < min(target.count, from.count) && target[common] == from[common] { common += 1 }
    let ups = Array(repeating: "..", count: from.count - common)
    return (ups + target[common...].map(String.init)).joined(separator: "/")
  }
}

// MARK: - The facts file

extension GoldenFacts {
  /// Writes the frames' facts: one cell a line, keys in a fixed order, so the file is the same
  /// bytes in every run and a `git diff` of it reads as what changed.
  package static func fileContents(_ frames: [GoldenFacts]) -> [UInt8] {
    var bytes: [UInt8] = []
    let w = JSONWriter { bytes.append(contentsOf: $0) }
    w.write("{\"frames\": [")
    for (k, facts) in frames.enumerated() {
      w.write(k == 0 ? "\n  {\"offset\": " : ",\n  {\"offset\": ")
      w.write(facts.offset)
      if facts.isHorizontal { w.write(", \"flow\": \"horizontal\"") }
      w.write(", \"cells\": [")
      for (i, cell) in facts.cells.enumerated() {
        w.write(i == 0 ? "\n    {\"index\": " : ",\n    {\"index\": ")
        w.write(cell.index)
        if let path = cell.indexPath {
          w.write(", \"indexPath\": [\(path.map(String.init).joined(separator: ", "))]")
        }
        if let column = cell.column {
          w.write(", \"column\": ")
          w.write(column)
        }
        for (key, value) in [
          ("x", cell.frame.minX), ("y", cell.frame.minY), ("width", cell.frame.width),
          ("height", cell.frame.height),
        ] {
          w.write(", \"\(key)\": ")
          w.write(value)
        }
        w.write(", \"cell\": ")
        w.write(cell.instance)
        for (key, value) in [
          ("color", cell.color), ("text", cell.text), ("price", cell.price), ("image", cell.image),
        ] {
          if let value {
            w.write(", \"\(key)\": ")
            w.write(quoting: value)
          }
        }
        // Objects of names, sorted: the data's texts, and the wrapping texts' line counts.
        func object<V>(_ key: String, _ pairs: [String: V], _ write: (V) -> Void) {
          guard !pairs.isEmpty else { return }
          w.write(", \"\(key)\": {")
          for (i, (name, value)) in pairs.sorted(by: { $0.key < $1.key }).enumerated() {
            if i > 0 { w.write(", ") }
            w.write(quoting: name)
            w.write(": ")
            write(value)
          }
          w.write("}")
        }
        object("data", cell.data) { w.write(quoting: $0) }
        if let identifier = cell.identifier {
          w.write(", \"identifier\": ")
          w.write(quoting: identifier)
        }
        if let id = cell.id {
          w.write(", \"id\": ")
          w.write(quoting: id)
        }
        object("lines", cell.lines) { w.write($0) }
        w.write("}")
      }
      w.write(facts.cells.isEmpty ? "]" : "\n  ]")
      if let texts = facts.texts {
        w.write(", \"texts\": [")
        for (i, drawn) in texts.enumerated() {
          w.write(i == 0 ? "\n    {\"text\": " : ",\n    {\"text\": ")
          w.write(quoting: drawn.text)
          for (key, value) in [
            ("x", drawn.box.minX), ("y", drawn.box.minY), ("width", drawn.box.width),
            ("height", drawn.box.height),
          ] {
            w.write(", \"\(key)\": ")
            w.write(Self.hundredths(value))
          }
          w.write("}")
        }
        w.write(texts.isEmpty ? "]" : "\n  ]")
      }
      w.write("}")
    }
    w.write(frames.isEmpty ? "]}\n" : "\n]}\n")
    w.flush()
    return bytes
  }

  /// A box coordinate to 1/100 pt: glyph extents carry float noise that would make every
  /// re-recording churn, and text boxes are compared with a tolerance far above this anyway.
  static func hundredths(_ v: Double) -> Double { (v * 100).rounded() / 100 }

  private enum FileKey: String, CaseIterable { case frames }
  private enum FrameKey: String, CaseIterable { case cells, flow, offset, texts }
  private enum TextKey: String, CaseIterable { case text, x, y, width, height }
  private enum CellKey: String, CaseIterable {
    case cell, color, column, data, height, id, identifier, image, index, indexPath, lines, price, text
    case width, x, y
  }
  private static let fileKeys = JSONKeys<FileKey>()
  private static let frameKeys = JSONKeys<FrameKey>()
  private static let cellKeys = JSONKeys<CellKey>()
  private static let textKeys = JSONKeys<TextKey>()

  /// Reads a facts file; nil when there is none (a golden recorded before facts existed).
  ///
  /// - Throws: ``GoldenError`` (`.file`) naming the file and field when it is damaged.
  package static func read(from path: String) throws(GoldenError) -> [GoldenFacts]? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    do throws(JSONInputError) {
      return try read(JSONDocument(contentsOf: path))
    } catch {
      throw GoldenError(
        .file, "The facts file is damaged: \(error). Delete it and re-record the golden.")
    }
  }

  /// Reads facts from bytes (a facts file's, or a snapshot's PNG text); `name` is for messages.
  package static func read(_ bytes: [UInt8], name: String) throws(GoldenError) -> [GoldenFacts] {
    do throws(JSONInputError) { return try read(JSONDocument(bytes, file: name)) } catch {
      throw GoldenError(.file, "The facts in \(name) are damaged: \(error)")
    }
  }

  private static func read(_ document: JSONDocument) throws(JSONInputError) -> [GoldenFacts] {
    try document.read { (r: inout JSONReader) throws(JSONInputError) in
      var frames: [GoldenFacts] = []
      try r.beginObject()
      while try r.nextKey(fileKeys) != nil {
        try r.beginArray()
        while try r.nextElement() { frames.append(try readFrame(&r)) }
      }
      return frames
    }
  }

  private static func readFrame(_ r: inout JSONReader) throws(JSONInputError) -> GoldenFacts {
    var facts = GoldenFacts(offset: 0, cells: [])
    try r.beginObject()
    while let key = try r.nextKey(frameKeys) {
      switch key {
      case .offset: facts.offset = try r.number()
      case .flow: facts.isHorizontal = try r.oneOf(["horizontal": true, "vertical": false])
      case .cells:
        try r.beginArray()
        while try r.nextElement() {
          var cell = Cell(index: 0, frame: .zero, instance: 0)
          var frame = (x: 0.0, y: 0.0, width: 0.0, height: 0.0)
          try r.beginObject()
          while let key = try r.nextKey(cellKeys) {
            switch key {
            case .index: cell.index = try r.integer(min: 0, max: Int(Int32.max))
            case .column: cell.column = try r.integer(min: 0, max: 100_000)
            case .x: frame.x = try r.number()
            case .y: frame.y = try r.number()
            case .width: frame.width = try r.number()
            case .height: frame.height = try r.number()
            case .cell: cell.instance = try r.integer(min: 0, max: Int(Int32.max))
            case .color: cell.color = try r.string()
            case .text: cell.text = try r.string()
            case .price: cell.price = try r.string()
            case .image: cell.image = try r.string()
            case .data:
              try r.beginObject()
              while let name = try r.nextName() {
                if cell.data[name] != nil { throw r.fail("given twice") }
                cell.data[name] = try r.string()
              }
            case .identifier: cell.identifier = try r.string()
            case .id: cell.id = try r.string()
            case .indexPath:
              var path: [Int] = []
              try r.beginArray()
              while try r.nextElement() { path.append(try r.integer(min: 0, max: Int(Int32.max))) }
              cell.indexPath = path
            case .lines:
              try r.beginObject()
              while let name = try r.nextName() {
                if cell.lines[name] != nil { throw r.fail("given twice") }
                cell.lines[name] = try r.integer(min: 0, max: 100_000)
              }
            }
          }
          cell.frame = Rect(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
          facts.cells.append(cell)
        }
      case .texts:
        var texts: [DrawnText] = []
        try r.beginArray()
        while try r.nextElement() {
          var text: String?
          var box = (x: 0.0, y: 0.0, width: 0.0, height: 0.0)
          try r.beginObject()
          while let key = try r.nextKey(textKeys) {
            switch key {
            case .text: text = try r.string()
            case .x: box.x = try r.number()
            case .y: box.y = try r.number()
            case .width: box.width = try r.number(min: 0)
            case .height: box.height = try r.number(min: 0)
            }
          }
          guard let text else { throw r.fail(key: "text", "missing") }
          texts.append(
            DrawnText(
              text: text, box: Rect(x: box.x, y: box.y, width: box.width, height: box.height)))
        }
        facts.texts = texts
      }
    }
    return facts
  }
}
