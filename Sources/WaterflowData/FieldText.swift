/// A text with `{field}` placeholders, filled from an item's data: `"{likes} likes"`.
///
/// A placeholder is a data path (`{user.nickname}`, `{tags[0]}`) with an optional format
/// (`{likes|compact}`, ``DataFormat``). `{index}` is the item's index unless the data has a
/// field of that name; `{{` and `}}` are a literal brace. `{@key}` is a string table's text, put
/// in when the scene is localized (`StringTable.lookUp(_:)`); without a locale it shows as
/// written. A text may also be chosen by a condition (``init(choosing:then:else:)``). The text is
/// split into literal and field pieces once, when it is made.
public struct FieldText: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  enum Piece: Hashable, Sendable {
    case literal(String)
    case field(DataPath, DataFormat?)
  }

  indirect enum Form: Hashable, Sendable {
    case pieces([Piece])
    case choice(Condition, FieldText, FieldText)
  }

  let form: Form
  /// The text as written; for a choice, its condition and both texts.
  public let source: String

  /// Parses a text; nil with the reason when a brace is not closed, a field has no name or a
  /// format is unknown.
  public static func parse(_ source: String) -> Result<FieldText, FieldTextError> {
    var pieces: [Piece] = []
    var literal = ""
    var i = source.startIndex
    func failure(_ message: String, at index: String.Index) -> Result<FieldText, FieldTextError> {
      .failure(FieldTextError(message: message, column: source.distance(from: source.startIndex, to: index) + 1))
    }
    while i < source.endIndex {
      let c = source[i]
      let next = source.index(after: i)
      if c == "{" {
        if next < source.endIndex && source[next] == "{" {
          literal.append("{")
          i = source.index(after: next)
          continue
        }
        guard let close = source[next...].firstIndex(of: "}") else {
          return failure("\"{\" is not closed (write {{ for a brace)", at: i)
        }
        let inside = String(source[next..<close])
        guard !inside.isEmpty, !inside.contains("{") else {
          return failure("\"{}\" names no field", at: i)
        }
        let start = i
        i = source.index(after: close)
        if inside.utf8.first == UInt8(ascii: "@") {
          // A string table's key, not a field: left as it is when no table replaced it.
          literal += source[start..<i]
          continue
        }
        let parts = inside.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        let path: DataPath
        switch DataPath.parse(String(parts[0]).trimmingSpaces) {
        case .success(let p): path = p
        case .failure(let e): return failure("\(e.message), in {\(inside)}", at: start)
        }
        var format: DataFormat?
        if parts.count == 2 {
          let name = String(parts[1]).trimmingSpaces
          guard let f = DataFormat(name) else {
            let kinds = ["compact", "grouped", "fixed", "percent", "integer", "fraction", "relative"]
            let guess = nearest(to: String(name.prefix { $0 != ":" }), among: kinds)
              .map { " (did you mean \"\($0)\"?)" } ?? ""
            return failure(
              "unknown format \"\(name)\"\(guess) in {\(inside)} (formats: \(DataFormat.names))",
              at: start)
          }
          format = f
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        literal = ""
        pieces.append(.field(path, format))
        continue
      }
      if c == "}" {
        if next < source.endIndex && source[next] == "}" {
          literal.append("}")
          i = source.index(after: next)
          continue
        }
        return failure("\"}\" has no \"{\" (write }} for a brace)", at: i)
      }
      literal.append(c)
      i = next
    }
    if !literal.isEmpty { pieces.append(.literal(literal)) }
    return .success(FieldText(form: .pieces(pieces), source: source))
  }

  private init(form: Form, source: String) {
    self.form = form
    self.source = source
  }

  /// A text, parsed; a malformed one (`"{title"`) is kept as the literal text it is.
  public init(_ source: String) {
    self =
      (try? Self.parse(source).get())
      ?? FieldText(form: .pieces([.literal(source)]), source: source)
  }

  public init(stringLiteral value: String) { self.init(value) }

  /// One text or another, by a condition on the item's data:
  /// `{"if": "{isLiked}", "then": "heart.fill", "else": "heart"}` in a scene file.
  public init(choosing condition: Condition, then: FieldText, else otherwise: FieldText) {
    self.init(
      form: .choice(condition, then, otherwise),
      source: "if \(condition) then \(then.source) else \(otherwise.source)")
  }

  /// The condition and the two texts, when the text is chosen by one.
  public var choice: (condition: Condition, then: FieldText, else: FieldText)? {
    if case .choice(let c, let a, let b) = form { return (c, a, b) }
    return nil
  }

  /// The text with each plain text in it transformed: itself, or both texts of a choice.
  public func mappingTexts<E: Error>(_ transform: (FieldText) throws(E) -> FieldText) throws(E)
    -> FieldText
  {
    guard case .choice(let c, let a, let b) = form else { return try transform(self) }
    return FieldText(
      choosing: c, then: try a.mappingTexts(transform), else: try b.mappingTexts(transform))
  }

  /// Every field the text reads, in order, without `index` when it means the item's index:
  /// with whether a condition guards the read and the format it is shown in.
  public var reads: [FieldTextRead] {
    switch form {
    case .pieces(let pieces):
      return pieces.compactMap {
        guard case .field(let path, let format) = $0, path.source != "index" else { return nil }
        return FieldTextRead(path: path, isGuarded: false, format: format)
      }
    case .choice(let condition, let a, let b):
      let tested = condition.fields.map { FieldTextRead(path: $0, isGuarded: true, format: nil) }
      let branches = (a.reads + b.reads).map {
        FieldTextRead(path: $0.path, isGuarded: true, format: $0.format)
      }
      return tested + branches
    }
  }

  /// The fields the text needs (those read outside any condition), in order, without `index`
  /// when it means the item's index.
  public var fields: [String] {
    reads.filter { !$0.isGuarded }.map(\.path.source)
  }

  /// Whether the text reads no field: the same for every item.
  public var isConstant: Bool {
    switch form {
    case .pieces(let pieces): !pieces.contains { if case .field = $0 { true } else { false } }
    case .choice: false
    }
  }

  /// The text with its fields filled in, or nil when the data lacks one of them (or a
  /// formatted one is not a number or date).
  ///
  /// - Complexity: O(length of the result).
  public func resolve(
    in data: ItemData, index: Int, formatting: DataFormatting = DataFormatting()
  ) -> String? {
    let pieces: [Piece]
    switch form {
    case .pieces(let p): pieces = p
    case .choice(let condition, let a, let b):
      return (condition.evaluate(data) ? a : b).resolve(
        in: data, index: index, formatting: formatting)
    }
    func value(_ path: DataPath, _ format: DataFormat?) -> String? {
      guard let value = data[path] else { return path.source == "index" ? String(index) : nil }
      guard let format else { return value.text }
      return format.format(value, in: formatting)
    }
    if pieces.count == 1 {
      switch pieces[0] {
      case .literal(let text): return text
      // A text that is one field is that field's value: no new string per item measured.
      case .field(let path, let format): return value(path, format)
      }
    }
    var result = ""
    for piece in pieces {
      switch piece {
      case .literal(let text): result += text
      case .field(let path, let format):
        guard let text = value(path, format) else { return nil }
        result += text
      }
    }
    return result
  }

  /// The first field the data lacks, if any.
  public func missingField(in data: ItemData) -> String? {
    fields.first { data[DataPath($0)] == nil }
  }

  public var description: String { source }
}

/// One field a ``FieldText`` reads.
public struct FieldTextRead: Hashable, Sendable {
  /// Where in the data.
  public var path: DataPath
  /// Whether a condition decides if the read happens (a choice's test or branches).
  public var isGuarded: Bool
  /// The format the value is shown in: then it must be a number (a date for `relative`).
  public var format: DataFormat?
}

/// Why a `{field}` text could not be read, and the character (from 1) where it went wrong.
public struct FieldTextError: Error, Hashable, Sendable {
  public var message: String
  public var column: Int = 1
}

extension String {
  var trimmingSpaces: String {
    var s = Substring(self)
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return String(s)
  }
}
