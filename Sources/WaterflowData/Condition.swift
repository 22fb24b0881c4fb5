/// A test on an item's data, as templates' `when` and `if` write it:
/// `{isLiked}`, `!{isLiked}`, `{type} == 'video'`, `{likes} >= 1000 && ({tag} || {isNew})`.
///
/// The grammar, loosest binding first:
///
/// ```
/// condition  := or
/// or         := and ("||" and)*
/// and        := not ("&&" not)*
/// not        := "!" not | comparison
/// comparison := operand (("==" | "!=" | "<" | "<=" | ">" | ">=") operand)?
/// operand    := "{" path "}" | "(" condition ")" | 'text' | "text" | number | true | false | null
/// ```
///
/// A field alone is true when it is present and not null, `false`, `0`, an empty text or an
/// empty list. `==` and `!=` compare texts with texts, numbers as numbers, and `null` with a
/// missing field; `<`, `<=`, `>` and `>=` compare numbers. A comparison with a missing field is
/// false (`!=`: true).
public indirect enum Condition: Hashable, Sendable, CustomStringConvertible {
  /// A field's truth.
  case truth(DataPath)
  case not(Condition)
  case and(Condition, Condition)
  case or(Condition, Condition)
  case compare(Operand, Comparison, Operand)

  /// One side of a comparison.
  public enum Operand: Hashable, Sendable, CustomStringConvertible {
    case field(DataPath)
    case text(String)
    /// A number literal, as written, and its value.
    case number(String, Double)
    case bool(Bool)
    case null

    /// The operand as a condition writes it: `{type}`, `'video'`, `12`, `true`, `null`.
    public var description: String {
      switch self {
      case .field(let p): "{\(p.source)}"
      case .text(let s): "'\(s)'"
      case .number(let s, _): s
      case .bool(let b): b ? "true" : "false"
      case .null: "null"
      }
    }
  }

  /// A comparison operator.
  public enum Comparison: String, Hashable, Sendable, CaseIterable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">"
    case greaterOrEqual = ">="

    /// Whether the operator compares numbers only.
    public var isOrdering: Bool { self != .equal && self != .notEqual }
  }

  /// Parses a condition; the error names the character (from 1) where it went wrong.
  public static func parse(_ source: String) -> Result<Condition, ConditionError> {
    var parser = Parser(Array(source))
    do throws(ConditionError) {
      let condition = try parser.or()
      parser.skipSpaces()
      if parser.i < parser.chars.count {
        let rest = String(parser.chars[parser.i...])
        let hint =
          rest.first == "=" ? " (compare with ==)"
          : rest.first == "&" || rest.first == "|" ? " (write && or ||)"
          : " (join tests with && or ||)"
        throw parser.error("unexpected \"\(rest.prefix(12))\"\(hint)")
      }
      return .success(condition)
    } catch {
      return .failure(error)
    }
  }

  /// Whether the item's data passes the test.
  ///
  /// - Complexity: O(size of the condition), each field looked up once.
  public func evaluate(_ data: ItemData) -> Bool {
    switch self {
    case .truth(let path): data[path]?.isTrue ?? false
    case .not(let c): !c.evaluate(data)
    case .and(let a, let b): a.evaluate(data) && b.evaluate(data)
    case .or(let a, let b): a.evaluate(data) || b.evaluate(data)
    case .compare(let a, let op, let b): Self.compare(a, op, b, data)
    }
  }

  private static func compare(_ a: Operand, _ op: Comparison, _ b: Operand, _ data: ItemData)
    -> Bool
  {
    func value(_ o: Operand) -> DataValue? {
      switch o {
      case .field(let path): data[path]
      case .text(let s): .string(s)
      case .number(let s, _): .number(s)
      case .bool(let b): .bool(b)
      case .null: .null
      }
    }
    let left = value(a)
    let right = value(b)
    if op.isOrdering {
      guard let x = left?.number, let y = right?.number else { return false }
      switch op {
      case .less: return x < y
      case .lessOrEqual: return x <= y
      case .greater: return x > y
      default: return x >= y
      }
    }
    let equal: Bool
    switch (left ?? .null, right ?? .null) {
    case (.null, .null): equal = true
    case (.null, _), (_, .null): equal = false
    case (let l, let r) where isNumberLiteral(a) || isNumberLiteral(b):
      equal = l.number != nil && l.number == r.number
    case (let l, let r): equal = l.text != nil && l.text == r.text
    }
    return op == .equal ? equal : !equal
  }

  private static func isNumberLiteral(_ o: Operand) -> Bool {
    if case .number = o { return true }
    return false
  }

  /// Every field the condition reads, in order.
  public var fields: [DataPath] {
    switch self {
    case .truth(let p): [p]
    case .not(let c): c.fields
    case .and(let a, let b), .or(let a, let b): a.fields + b.fields
    case .compare(let a, _, let b):
      [a, b].compactMap { if case .field(let p) = $0 { p } else { nil } }
    }
  }

  /// The fields the condition reads as numbers: in `<`, `<=`, `>`, `>=`, and in `==` or `!=`
  /// against a number.
  public var numberFields: [DataPath] {
    switch self {
    case .truth: []
    case .not(let c): c.numberFields
    case .and(let a, let b), .or(let a, let b): a.numberFields + b.numberFields
    case .compare(let a, let op, let b):
      (op.isOrdering || Self.isNumberLiteral(a) || Self.isNumberLiteral(b))
        ? [a, b].compactMap { if case .field(let p) = $0 { p } else { nil } } : []
    }
  }

  public var description: String {
    func operand(_ o: Operand) -> String { o.description }
    switch self {
    case .truth(let p): return "{\(p.source)}"
    case .not(let c): return "!" + c.nested
    case .and(let a, let b): return "\(a.nested) && \(b.nested)"
    case .or(let a, let b): return "\(a.nested) || \(b.nested)"
    case .compare(let a, let op, let b): return "\(operand(a)) \(op.rawValue) \(operand(b))"
    }
  }

  private var nested: String {
    switch self {
    case .and, .or: "(\(description))"
    default: description
    }
  }
}

/// Why a condition could not be read, and the character (from 1) where it went wrong.
public struct ConditionError: Error, Hashable, Sendable {
  public var message: String
  public var column: Int
}

/// A recursive-descent reader of the grammar in ``Condition``: small enough that a parser
/// library would be more code to configure than this is to write.
private struct Parser {
  let chars: [Character]
  var i = 0

  init(_ chars: [Character]) { self.chars = chars }

  func error(_ message: String, at column: Int? = nil) -> ConditionError {
    ConditionError(message: message, column: (column ?? i) + 1)
  }

  mutating func skipSpaces() {
    while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
  }

  mutating func take(_ token: String) -> Bool {
    skipSpaces()
    let t = Array(token)
    guard i + t.count <= chars.count, Array(chars[i..<(i + t.count)]) == t else { return false }
    i += t.count
    return true
  }

  mutating func or() throws(ConditionError) -> Condition {
    var left = try and()
    while take("||") { left = .or(left, try and()) }
    return left
  }

  mutating func and() throws(ConditionError) -> Condition {
    var left = try not()
    while take("&&") { left = .and(left, try not()) }
    return left
  }

  mutating func not() throws(ConditionError) -> Condition {
    skipSpaces()
    if i < chars.count, chars[i] == "!", i + 1 >= chars.count || chars[i + 1] != "=" {
      i += 1
      return .not(try not())
    }
    return try comparison()
  }

  mutating func comparison() throws(ConditionError) -> Condition {
    skipSpaces()
    let start = i
    if take("(") {
      let inner = try or()
      guard take(")") else { throw error("\"(\" is not closed", at: start) }
      return inner
    }
    let left = try operand()
    skipSpaces()
    // Longest operators first, so "<=" is not read as "<".
    let ops = Condition.Comparison.allCases.sorted { $0.rawValue.count > $1.rawValue.count }
    guard let op = ops.first(where: { take($0.rawValue) }) else {
      guard case .field(let path) = left else {
        throw error(
          "a condition tests a field: write {field}, or compare one: {field} == \(left.description)",
          at: start)
      }
      return .truth(path)
    }
    skipSpaces()
    let rightStart = i
    let right = try operand()
    switch (left, right) {
    case (.field, _), (_, .field): break
    default: throw error("compares two values and no field: one side must be a {field}", at: start)
    }
    if op.isOrdering {
      for (o, at) in [(left, start), (right, rightStart)] {
        switch o {
        case .field, .number: continue
        default: throw error("\(op.rawValue) compares numbers, not \(o.description)", at: at)
        }
      }
    }
    return .compare(left, op, right)
  }


  mutating func operand() throws(ConditionError) -> Condition.Operand {
    skipSpaces()
    guard i < chars.count else { throw error("ends where a {field} or a value should be") }
    let start = i
    let c = chars[i]
    switch c {
    case "{":
      guard let close = chars[i...].firstIndex(of: "}") else {
        throw error("\"{\" is not closed")
      }
      let name = String(chars[(i + 1)..<close])
      switch DataPath.parse(name) {
      case .success(let path):
        i = close + 1
        return .field(path)
      case .failure(let e):
        throw error("\(e.message), in {\(name)}", at: start + e.column)
      }
    case "'", "\"":
      guard let close = chars[(i + 1)...].firstIndex(of: c) else {
        throw error("the text starting here is not closed with \(c)")
      }
      let text = String(chars[(i + 1)..<close])
      i = close + 1
      return .text(text)
    default:
      var word = ""
      while i < chars.count, !" \t()!=<>&|{}'\"".contains(chars[i]) {
        word.append(chars[i])
        i += 1
      }
      switch word {
      case "true": return .bool(true)
      case "false": return .bool(false)
      case "null": return .null
      case "":
        throw error("expected a {field} or a value, found \"\(c)\"", at: start)
      default:
        if let n = Double(word), n.isFinite { return .number(word, n) }
        throw error(
          "\"\(word)\" is neither a {field} nor a value: put a text in quotes ('\(word)'), a field in braces ({\(word)})",
          at: start)
      }
    }
  }
}

extension Condition: ExpressibleByStringLiteral {
  /// A condition written in Swift, as a regex literal is: a mistake in it stops the program
  /// with the parser's message, since a literal is never user input.
  public init(stringLiteral value: String) {
    switch Self.parse(value) {
    case .success(let c): self = c
    case .failure(let e): preconditionFailure("condition \"\(value)\", column \(e.column): \(e.message)")
    }
  }
}
