// The words messages use about data: a value quoted, how to read the parts of a list or an
// object, and the path a mistyped one was probably meant to be.

extension DataValue {
  /// The value as messages quote it: `"tall"`, `0`, `true`, `an object`.
  public var quoted: String {
    switch self {
    case .string(let s): "\"\(s)\""
    case .number(let s): s
    case .bool(let b): b ? "true" : "false"
    default: kindName
    }
  }

  /// How to read a part of the value where a text was wanted: `{cover.url}` of an object, or
  /// `{tags[0]}` of a list. `field` is the value's path.
  public func partsHint(field: String) -> String {
    switch self {
    case .object(let o):
      let names = o.keys.prefix(4).map { "{\(field).\($0)}" }.joined(separator: ", ")
      return "read one of its fields: \(names)"
    case .array:
      return "read one entry, {\(field)[0]}, or repeat an element over it with \"foreach\": \"{\(field)}\""
    default:
      return "give it a text"
    }
  }
}

extension ItemData {
  /// " (did you mean "user.nickname"?)" when the data has a path a slip away from `name` (at
  /// most a third of its letters changed, added or dropped); else "".
  ///
  /// - Complexity: O(*p* × *n*²) for *p* paths of length *n*: only when a field is missing.
  public func nearestPath(to name: String) -> String {
    nearest(to: name, among: paths).map { " (did you mean \"\($0)\"?)" } ?? ""
  }
}

/// The candidate a slip away from `name` (at most a third of its letters changed, added or
/// dropped; the first in order among equals), or nil.
///
/// - Complexity: O(*c* × *n*²) for *c* candidates of length *n*: only when something is missing.
func nearest(to name: String, among candidates: [String]) -> String? {
  // Levenshtein by hand: neither the standard library nor a dependency has an edit distance,
  // and messages about a missing name are the only callers.
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
  let best = candidates.map { (name: $0, cost: distance(wanted, Array($0))) }
    .min { ($0.cost, $0.name) < ($1.cost, $1.name) }
  guard let best, best.cost > 0, best.cost <= max(1, wanted.count / 3) else { return nil }
  return best.name
}
