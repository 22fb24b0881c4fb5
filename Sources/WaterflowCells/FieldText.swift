/// A text with `{field}` placeholders, filled from an item's data: `"{likes} likes"`.
///
/// `{index}` is the item's index unless the data has a field of that name; `{{` and `}}` are a
/// literal brace. `{@key}` is a string table's text, put in when the scene is localized
/// (`StringTable.lookUp(_:)`); without a locale it shows as written. The text is split into literal and field pieces once, when it is made.
public struct FieldText: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  enum Piece: Hashable, Sendable {
    case literal(String)
    case field(String)
  }

  let pieces: [Piece]
  /// The text as written.
  public let source: String

  /// Parses a text; nil with the reason when a brace is not closed or a field has no name.
  public static func parse(_ source: String) -> Result<FieldText, FieldTextError> {
    var pieces: [Piece] = []
    var literal = ""
    var i = source.startIndex
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
          return .failure(FieldTextError(message: "\"{\" is not closed (write {{ for a brace)"))
        }
        let name = String(source[next..<close])
        guard !name.isEmpty, !name.contains("{") else {
          return .failure(FieldTextError(message: "\"{}\" names no field"))
        }
        i = source.index(after: close)
        if name.utf8.first == UInt8(ascii: "@") {
          // A string table's key, not a field: left as it is when no table replaced it.
          literal += source[source.index(before: next)..<i]
          continue
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        literal = ""
        pieces.append(.field(name))
        continue
      }
      if c == "}" {
        if next < source.endIndex && source[next] == "}" {
          literal.append("}")
          i = source.index(after: next)
          continue
        }
        return .failure(FieldTextError(message: "\"}\" has no \"{\" (write }} for a brace)"))
      }
      literal.append(c)
      i = next
    }
    if !literal.isEmpty { pieces.append(.literal(literal)) }
    return .success(FieldText(pieces: pieces, source: source))
  }

  private init(pieces: [Piece], source: String) {
    self.pieces = pieces
    self.source = source
  }

  /// A text, parsed; a malformed one (`"{title"`) is kept as the literal text it is.
  public init(_ source: String) {
    self = (try? Self.parse(source).get()) ?? FieldText(pieces: [.literal(source)], source: source)
  }

  public init(stringLiteral value: String) { self.init(value) }

  /// The names of the fields the text reads, in order, without `index` when it means the
  /// item's index.
  public var fields: [String] {
    pieces.compactMap {
      if case .field(let name) = $0, name != "index" { return name }
      return nil
    }
  }

  /// Whether the text reads no field: the same for every item.
  public var isConstant: Bool {
    !pieces.contains { if case .field = $0 { true } else { false } }
  }

  /// The text with its fields filled in, or nil when the data lacks one of them.
  ///
  /// - Complexity: O(length of the result).
  public func resolve(in data: ItemData, index: Int) -> String? {
    if pieces.count == 1 {
      switch pieces[0] {
      case .literal(let text): return text
      // A text that is one field is that field's value: no new string per item measured.
      case .field(let name):
        if let value = data[name] { return value }
        return name == "index" ? String(index) : nil
      }
    }
    var result = ""
    for piece in pieces {
      switch piece {
      case .literal(let text): result += text
      case .field(let name):
        if let value = data[name] {
          result += value
        } else if name == "index" {
          result += String(index)
        } else {
          return nil
        }
      }
    }
    return result
  }

  /// The first field the data lacks, if any.
  public func missingField(in data: ItemData) -> String? {
    fields.first { data[$0] == nil }
  }

  public var description: String { source }
}

/// Why a `{field}` text could not be read.
public struct FieldTextError: Error, Hashable, Sendable {
  public var message: String
}

/// An item's data: named strings (numbers are kept as their text), read by `{field}` texts.
public struct ItemData: Hashable, Sendable {
  /// The fields, by name.
  public private(set) var fields: [String: String]
  /// The folder that image paths in the data are relative to (the folder of the file that gave
  /// the data); empty for the current folder.
  public var folder: String
  /// Data of named values, with image paths relative to `folder`.
  public init(_ fields: [String: String] = [:], folder: String = "") {
    self.fields = fields
    self.folder = folder
  }

  /// The value of a field, or nil.
  public subscript(name: String) -> String? {
    get { fields[name] }
    set { fields[name] = newValue }
  }

  /// The fields by name, sorted: how facts and messages list them.
  public var sortedFields: [(name: String, value: String)] {
    fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// Whether the data has no fields.
  public var isEmpty: Bool { fields.isEmpty }

  /// A field's value as a number: `1080`, `1,080` or ` 1080 `; nil when it is missing or not a
  /// number.
  ///
  /// - Complexity: O(length of the value).
  public func number(_ name: String) -> Double? {
    fields[name].flatMap(Self.number)
  }

  /// A text as a number, as ``number(_:)`` reads a field.
  static func number(_ text: String) -> Double? {
    // Filtering by Character walks grapheme clusters; most sizes have nothing to remove.
    if !text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") }) {
      return Double(text)
    }
    return Double(text.filter { $0 != "," && $0 != " " })
  }

  /// A path from the data made usable: absolute paths and URLs as they are, others relative to
  /// ``folder``.
  public func resolvePath(_ path: String) -> String {
    if path.hasPrefix("/") || path.contains("://") || folder.isEmpty { return path }
    return folder.hasSuffix("/") ? folder + path : folder + "/" + path
  }
}
