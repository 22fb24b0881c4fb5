public import WaterflowView

/// What changed between the facts a golden was recorded from and the current ones, and the
/// verdict that explains a failure: the layout, the content, the reuse, or only the drawing.
public struct GoldenChanges: Hashable, Sendable {
  /// Why a golden fails, the first that applies.
  public enum Verdict: String, Hashable, Sendable {
    /// A cell on screen moved or was resized, appeared or disappeared; or, when texts were
    /// compared, a text moved.
    case layout
    /// The frames are the same, but a cell's price, text, image or colour differs; or, when
    /// texts were compared, a drawn text's string, or a text appeared or disappeared.
    case content
    /// Frames and content are the same, but another cell instance shows an index.
    case reuse
    /// The facts are identical: only the pixels differ (renderer, cairo, FreeType or font).
    case drawing
  }

  /// A cell whose frame changed.
  public struct Move: Hashable, Sendable {
    public var index: Int
    public var from: Rect
    public var to: Rect
    /// The column it was in, when the layout was computed.
    public var column: Int?

    public init(index: Int, from: Rect, to: Rect, column: Int? = nil) {
      (self.index, self.from, self.to, self.column) = (index, from, to, column)
    }
  }

  /// A field of a cell that shows something else.
  public struct ContentChange: Hashable, Sendable {
    public var index: Int
    /// `price`, `text`, `image` or `color`, or a template cell's data field as the data names it.
    public var field: String
    public var from: String?
    public var to: String?

    public init(index: Int, field: String, from: String?, to: String?) {
      (self.index, self.field, self.from, self.to) = (index, field, from, to)
    }
  }

  /// An index shown by another cell instance.
  public struct ReuseChange: Hashable, Sendable {
    public var index: Int
    /// The instance that showed it when recorded, and the one now.
    public var from: Int
    public var to: Int

    public init(index: Int, from: Int, to: Int) {
      (self.index, self.from, self.to) = (index, from, to)
    }
  }

  /// A cell whose height (width, in sideways flow) changed, and what in it changed.
  public struct SizeChange: Hashable, Sendable {
    public var index: Int
    /// The length along the scroll axis, before and now.
    public var from: Double
    public var to: Double
    /// Texts that wrap to another number of lines: the field, and the lines before and now.
    public var lines: [LineChange]
    /// The item's data fields that changed.
    public var fields: [String]
  }

  /// A text that wraps to another number of lines.
  public struct LineChange: Hashable, Sendable {
    public var field: String
    public var from: Int
    public var to: Int
  }

  public var verdict: Verdict
  /// How each cell on screen is named: by its data's `id` (`note 64f1…`), else `item N`.
  public var names: [Int: String] = [:]
  /// The cells that changed size, and why: the causes of a layout change.
  public var sizeChanges: [SizeChange] = []
  public var moved: [Move]
  /// Indices on screen now but not when recorded, and the other way round.
  public var appeared: [Int]
  public var disappeared: [Int]
  public var content: [ContentChange]
  public var reuse: [ReuseChange]
  /// The drawn texts that differ, when texts were compared (a golden recorded on another font
  /// stack); see ``TextComparison``.
  public var texts: [TextChange] = []
  /// True when the drawn texts were compared: their pixels were then left out of the image
  /// comparison, so a `drawing` verdict is about the pixels outside them.
  public var comparedTexts = false
  /// Where the current picture's pixels are (from the current facts), to draw moves on it.
  public var pixelOrigin: Point?
  public var pixelScale = 1.0

  /// Compares recorded facts with current ones; with `textTolerance`, their drawn texts too
  /// (both must have them), boxes matching within that many points.
  ///
  /// - Complexity: O(n log n) in the cells on screen, plus O(t²) in the texts when compared.
  public init(recorded: GoldenFacts, current: GoldenFacts, textTolerance: Double? = nil) {
    let old = Dictionary(recorded.cells.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
    let new = Dictionary(current.cells.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
    appeared = new.keys.filter { old[$0] == nil }.sorted()
    disappeared = old.keys.filter { new[$0] == nil }.sorted()
    moved = []
    content = []
    reuse = []
    for index in old.keys.filter({ new[$0] != nil }).sorted() {
      let (a, b) = (old[index]!, new[index]!)
      if a.frame != b.frame {
        moved.append(Move(index: index, from: a.frame, to: b.frame, column: a.column))
      }
      for (field, x, y) in [
        ("price", a.price, b.price), ("text", a.text, b.text), ("image", a.image, b.image),
        ("color", a.color, b.color),
      ] where x != y {
        // A recycled cell brings its own colour: that is reuse, unless the instance is the same.
        if field == "color" && a.instance != b.instance { continue }
        content.append(ContentChange(index: index, field: field, from: x, to: y))
      }
      // A template cell's data, field by field, named as in the data.
      for name in Set(a.data.keys).union(b.data.keys).sorted() where a.data[name] != b.data[name] {
        content.append(ContentChange(index: index, field: name, from: a.data[name], to: b.data[name]))
      }
      if a.instance != b.instance {
        reuse.append(ReuseChange(index: index, from: a.instance, to: b.instance))
      }
      let length = { (r: Rect) in current.isHorizontal ? r.width : r.height }
      if length(a.frame) != length(b.frame) {
        let lines = Set(a.lines.keys).union(b.lines.keys).sorted().compactMap { field in
          a.lines[field] != b.lines[field]
            ? LineChange(field: field, from: a.lines[field] ?? 0, to: b.lines[field] ?? 0) : nil
        }
        let fields = Set(a.data.keys).union(b.data.keys).sorted().filter { a.data[$0] != b.data[$0] }
        sizeChanges.append(
          SizeChange(index: index, from: length(a.frame), to: length(b.frame), lines: lines, fields: fields))
      }
    }
    for cell in recorded.cells + current.cells where names[cell.index] == nil {
      names[cell.index] = cell.name
    }
    pixelOrigin = current.pixelOrigin
    pixelScale = current.pixelScale
    if let textTolerance, let old = recorded.texts, let new = current.texts {
      comparedTexts = true
      texts = TextComparison.changes(recorded: old, current: new, tolerance: textTolerance)
    }
    let textMoved = texts.contains { $0.kind == .moved }
    if !moved.isEmpty || !appeared.isEmpty || !disappeared.isEmpty || textMoved {
      verdict = .layout
    } else if !content.isEmpty || !texts.isEmpty {
      verdict = .content
    } else if !reuse.isEmpty {
      verdict = .reuse
    } else {
      verdict = .drawing
    }
  }

  // MARK: - Words

  /// How the item at `index` is named: `note 64f1…` or `item 4`.
  public func name(_ index: Int) -> String { names[index] ?? "item \(index)" }

  /// One line: "layout changed: 37 cells moved, 2 appeared, 1 disappeared", or, when cells
  /// changed size, their causes first: "layout changed: item 0 is 15.64 pt shorter (its title
  /// now wraps to 1 line, was 2); 5 cells below it moved up".
  public var summary: String {
    switch verdict {
    case .layout where !sizeChanges.isEmpty:
      var parts = sizeChanges.prefix(3).map(describe)
      if sizeChanges.count > 3 { parts.append("\(sizeChanges.count - 3) more changed size") }
      let resized = Set(sizeChanges.map(\.index))
      let followers = moved.filter { !resized.contains($0.index) }
      if !followers.isEmpty {
        let shifts = followers.map { $0.to.minY - $0.from.minY }
        let onlyVertical = followers.allSatisfy {
          $0.to.minX == $0.from.minX && $0.to.size == $0.from.size
        }
        let them = sizeChanges.count == 1 ? "it" : "them"
        let noun = followers.count == 1 ? "cell" : "cells"
        if onlyVertical, shifts.allSatisfy({ $0 < 0 }) {
          parts.append("\(followers.count) \(noun) below \(them) moved up")
        } else if onlyVertical, shifts.allSatisfy({ $0 > 0 }) {
          parts.append("\(followers.count) \(noun) below \(them) moved down")
        } else {
          parts.append("\(followers.count) other \(noun) moved")
        }
      }
      if !appeared.isEmpty { parts.append("\(appeared.count) appeared") }
      if !disappeared.isEmpty { parts.append("\(disappeared.count) disappeared") }
      return "layout changed: " + parts.joined(separator: "; ")
    case .layout:
      var parts: [String] = []
      if !moved.isEmpty { parts.append(count(moved.count, "cell") + " moved") }
      if !appeared.isEmpty { parts.append("\(appeared.count) appeared") }
      if !disappeared.isEmpty { parts.append("\(disappeared.count) disappeared") }
      let textsMoved = texts.count { $0.kind == .moved }
      if parts.isEmpty && textsMoved > 0 {
        parts.append(count(textsMoved, "text") + " moved")
      }
      return "layout changed: " + parts.joined(separator: ", ")
    case .content:
      let shown =
        content.map {
          "\(name($0.index)) \($0.field) \($0.from ?? "none") → \($0.to ?? "none")"
        } + textsBeyondCells.map(\.phrase)
      return "content changed: " + shown.prefix(3).joined(separator: "; ")
        + (shown.count > 3 ? "; and \(shown.count - 3) more" : "")
    case .reuse:
      let shown = reuse.prefix(3).map { "index \($0.index) shows cell #\($0.to) (was #\($0.from))" }
      return "reuse changed: " + shown.joined(separator: "; ")
        + (reuse.count > 3 ? "; and \(reuse.count - 3) more" : "")
    case .drawing:
      if comparedTexts {
        return "drawing changed outside the texts; layout, content, reuse and texts are identical"
      }
      return
        "drawing changed; layout, content and reuse are identical (renderer or font stack?)"
    }
  }

  /// "item 0 is 15.64 pt shorter (its title now wraps to 1 line, was 2)".
  private func describe(_ change: SizeChange) -> String {
    let d = change.to - change.from
    var text = "\(name(change.index)) is \(Self.rounded(abs(d)).jsonText) pt \(d < 0 ? "shorter" : "taller")"
    var reasons = change.lines.prefix(2).map { line in
      "its \(line.field) now wraps to \(line.to) line\(line.to == 1 ? "" : "s"), was \(line.from)"
    }
    if reasons.isEmpty, !change.fields.isEmpty {
      let fields = change.fields.prefix(3).joined(separator: ", ")
      reasons.append("its \(fields) changed")
    }
    if !reasons.isEmpty { text += " (" + reasons.joined(separator: "; ") + ")" }
    return text
  }

  /// The text changes a cell's content change does not already say (a price edited in place
  /// is both; it is told once, as the item's).
  var textsBeyondCells: [TextChange] {
    texts.filter { change in
      change.kind == .moved
        || !content.contains { $0.from == change.from?.text && $0.to == change.to?.text }
    }
  }

  /// The lines under the summary: moves grouped as people think of them, then one example;
  /// or, when only texts moved, the first of them.
  public var details: [String] {
    guard verdict == .layout else { return [] }
    // Cells that move take their texts along: the texts then say nothing more.
    let cellsMoved = !moved.isEmpty || !appeared.isEmpty || !disappeared.isEmpty
    let textLines = cellsMoved ? [] : textsBeyondCells.prefix(5).map(\.phrase)
    var lines: [String] = []
    let groups = moveGroups
    if !groups.isEmpty { lines.append(groups.joined(separator: "; ")) }
    if let first = moved.first {
      // An item with an identity is named by it too: the index alone changes when items do.
      let name = name(first.index)
      let named = name == "item \(first.index)" ? "" : " (\(name))"
      lines.append(
        "cell \(first.index)\(named): \(Self.describe(first.from)) → \(Self.describe(first.to))")
    }
    if !appeared.isEmpty { lines.append("appeared: \(Self.ranges(appeared))") }
    if !disappeared.isEmpty { lines.append("disappeared: \(Self.ranges(disappeared))") }
    return lines + textLines
  }

  /// Moves as people think of them: "every cell moved down 3 pt" when all moved alike, else one
  /// group per column when the layout had columns ("column 1: cells 12–48 moved down 3 pt", or
  /// "moved down 3–36 pt" when each cell moved further than the one above, as a row-gap change
  /// does), else one group per delta.
  var moveGroups: [String] {
    guard !moved.isEmpty else { return [] }
    func delta(_ m: Move) -> Delta {
      Delta(
        dx: m.to.minX - m.from.minX, dy: m.to.minY - m.from.minY,
        dw: m.to.width - m.from.width, dh: m.to.height - m.from.height)
    }
    let deltas = Set(moved.map(delta))
    if deltas.count == 1 && appeared.isEmpty && disappeared.isEmpty {
      return ["every cell " + Self.words(deltas.first!)]
    }
    let byColumn = moved.allSatisfy { $0.column != nil }
    var order: [String] = []
    var groups: [String: (column: Int?, moves: [Move])] = [:]
    for m in moved {
      let d = delta(m)
      let key = byColumn ? "column \(m.column!)" : "\(d.dx) \(d.dy) \(d.dw) \(d.dh)"
      if groups[key] == nil {
        order.append(key)
        groups[key] = (byColumn ? m.column : nil, [])
      }
      groups[key]!.moves.append(m)
    }
    if byColumn { order.sort { groups[$0]!.column! < groups[$1]!.column! } }
    return order.map { key in
      let g = groups[key]!
      let indices = g.moves.map(\.index)
      // A column's cells are named by their span ("column 1: cells 12–48"); a group across the
      // columns lists its cells, so that a cell between two that moved is not counted with them.
      let cells =
        indices.count == 1
        ? "cell \(indices[0])"
        : "cells " + (g.column != nil ? "\(indices.first!)–\(indices.last!)" : Self.ranges(indices.sorted()))
      let ds = g.moves.map(delta)
      let words: String
      if Set(ds).count == 1 {
        words = Self.words(ds[0])
      } else if Set(ds.map { Delta(dx: $0.dx, dy: 0, dw: $0.dw, dh: $0.dh) }).count == 1
        && ds[0].dx == 0 && ds[0].dw == 0 && ds[0].dh == 0
      {
        // Only the vertical shift varies, as when a row gap or a height above changes.
        let low = ds.map(\.dy).min()!
        let high = ds.map(\.dy).max()!
        let direction = low >= 0 ? "down" : high <= 0 ? "up" : "up or down"
        let a = Self.rounded(min(abs(low), abs(high)))
        let b = Self.rounded(max(abs(low), abs(high)))
        words = "moved \(direction) \(a.jsonText)–\(b.jsonText) pt"
      } else {
        words = "moved and resized by different amounts"
      }
      return (g.column.map { "column \($0): " } ?? "") + cells + " " + words
    }
  }

  /// How a group of cells moved: the change of origin and size.
  private struct Delta: Hashable {
    var dx, dy, dw, dh: Double
  }

  private static func words(_ d: Delta) -> String {
    let (dx, dy, dw, dh) = (d.dx, d.dy, d.dw, d.dh)
    var parts: [String] = []
    if dy != 0 { parts.append("\(dy > 0 ? "down" : "up") \(points(abs(dy)))") }
    if dx != 0 { parts.append("\(dx > 0 ? "right" : "left") \(points(abs(dx)))") }
    var text = parts.isEmpty ? "" : "moved " + parts.joined(separator: " and ")
    if dw != 0 || dh != 0 {
      text += (text.isEmpty ? "" : ", ") + "resized by \(signed(dw)) × \(signed(dh)) pt"
    }
    return text
  }

  private static func points(_ v: Double) -> String { "\(rounded(v).jsonText) pt" }
  private static func signed(_ v: Double) -> String {
    (v > 0 ? "+" : v < 0 ? "−" : "") + rounded(abs(v)).jsonText
  }
  private static func rounded(_ v: Double) -> Double { (v * 100).rounded() / 100 }

  /// "(130, 450, 115×90)".
  static func describe(_ r: Rect) -> String {
    "(\(rounded(r.minX).jsonText), \(rounded(r.minY).jsonText), \(rounded(r.width).jsonText)×\(rounded(r.height).jsonText))"
  }

  private func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }

  /// "3, 5–9, 12".
  static func ranges(_ indices: [Int]) -> String {
    var parts: [String] = []
    var i = 0
    while i < indices.count {
      var j = i
      while j + 1 < indices.count && indices[j + 1] == indices[j] + 1 { j += 1 }
      parts.append(i == j ? "\(indices[i])" : "\(indices[i])–\(indices[j])")
      i = j + 1
    }
    return parts.joined(separator: ", ")
  }
}
