/// A JSON value that prints with its keys in the order given, so output is stable and diffable.
///
/// Foundation's JSONSerialization sorts keys only alphabetically and prints numbers with platform
/// quirks; commands need a fixed, documented order ("index", "column", "x", …).
enum JSONText: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
  ExpressibleByBooleanLiteral
{
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONText])
  case object([(String, JSONText)])

  init(integerLiteral value: Int) { self = .number(Double(value)) }
  init(stringLiteral value: String) { self = .string(value) }
  init(booleanLiteral value: Bool) { self = .bool(value) }
  init(_ value: Int) { self = .number(Double(value)) }
  init(_ value: Double) { self = .number(value) }
  init(_ value: Int?) { self = value.map { .number(Double($0)) } ?? .null }

  /// Compact JSON; `lineBreaks` puts each element of a top-level array or of named arrays on its own line.
  func rendered(breakingArrays: Set<String> = []) -> String {
    var out = ""
    write(to: &out, breaking: breakingArrays, key: nil, depth: 0)
    return out
  }

  private func write(
    to out: inout String, breaking: Set<String>, key: String?, depth: Int
  ) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let d): out += JSONText.format(d)
    case .string(let s): JSONText.quote(s, into: &out)
    case .array(let items):
      let broken =
        (key == nil && depth == 0) || (key.map(breaking.contains) ?? false)
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        if broken { out += "\n  " }
        item.write(to: &out, breaking: breaking, key: nil, depth: depth + 1)
      }
      if broken && !items.isEmpty { out += "\n" }
      out += "]"
    case .object(let pairs):
      out += "{"
      for (i, (k, v)) in pairs.enumerated() {
        if i > 0 { out += ", " }
        JSONText.quote(k, into: &out)
        out += ": "
        v.write(to: &out, breaking: breaking, key: k, depth: depth + 1)
      }
      out += "}"
    }
  }

  static func format(_ d: Double) -> String { d.jsonText }

  private static func quote(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 {
          out +=
            "\\u"
            + String(
              repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
            + String(scalar.value, radix: 16)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}
