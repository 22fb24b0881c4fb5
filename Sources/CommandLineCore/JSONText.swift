import WaterflowJSON

/// A JSON value that prints with its keys in the order given, so output is stable and diffable.
///
/// Foundation's JSONSerialization sorts keys only alphabetically and prints numbers with platform
/// quirks; commands need a fixed, documented order ("index", "column", "x", …).
package enum JSONText: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
  ExpressibleByBooleanLiteral
{
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONText])
  case object([(String, JSONText)])

  package init(integerLiteral value: Int) { self = .number(Double(value)) }
  package init(stringLiteral value: String) { self = .string(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(_ value: Int) { self = .number(Double(value)) }
  package init(_ value: Double) { self = .number(value) }
  package init(_ value: Int?) { self = value.map { .number(Double($0)) } ?? .null }

  /// Compact JSON; `breakingArrays` puts each element of a top-level array or of the named arrays
  /// on its own line.
  package func rendered(breakingArrays: Set<String> = []) -> String {
    JSONWriter.text {
      write(to: $0, breaking: breakingArrays, key: nil, depth: 0)
    }
  }

  /// Writes the value, as ``rendered(breakingArrays:)`` renders it.
  package func write(
    to out: JSONWriter, breaking: Set<String> = [], key: String? = nil,
    depth: Int = 0
  ) {
    switch self {
    case .null: out.write("null")
    case .bool(let b): out.write(b ? "true" : "false")
    case .number(let d): out.write(d)
    case .string(let s): out.write(quoting: s)
    case .array(let items):
      let broken =
        (key == nil && depth == 0) || (key.map(breaking.contains) ?? false)
      out.write("[")
      for (i, item) in items.enumerated() {
        if i > 0 { out.write(",") }
        if broken { out.write("\n  ") }
        item.write(to: out, breaking: breaking, key: nil, depth: depth + 1)
      }
      if broken && !items.isEmpty { out.write("\n") }
      out.write("]")
    case .object(let pairs):
      out.write("{")
      for (i, (k, v)) in pairs.enumerated() {
        if i > 0 { out.write(", ") }
        out.write(quoting: k)
        out.write(": ")
        v.write(to: out, breaking: breaking, key: k, depth: depth + 1)
      }
      out.write("}")
    }
  }

  package static func format(_ d: Double) -> String { d.jsonText }
}
