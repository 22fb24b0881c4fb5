/// A value in an item's data, as an app's API gives it: text, a number, a boolean, null, a list
/// or an object of named values.
///
/// Numbers keep the text they were written in, so `12.50` shows as `12.50` and `1e3` as `1e3`;
/// ``number`` reads them when a comparison or a formatter needs the value.
public enum DataValue: Hashable, Sendable {
  case null
  case bool(Bool)
  /// A number, as written.
  case number(String)
  case string(String)
  case array([DataValue])
  case object(DataObject)

  /// The value as a template shows it: texts and numbers as written, booleans as `true` and
  /// `false`; nil for null, lists and objects, which have no text of their own.
  public var text: String? {
    switch self {
    case .string(let s), .number(let s): s
    case .bool(let b): b ? "true" : "false"
    case .null, .array, .object: nil
    }
  }

  /// The value as a number: a JSON number, or a text such as `1080`, `1,080` or ` 12.5 `; nil
  /// otherwise (booleans are not numbers).
  ///
  /// - Complexity: O(length of the text).
  public var number: Double? {
    switch self {
    case .number(let s), .string(let s): Self.number(fromText: s)
    default: nil
    }
  }

  /// A text as a number: digits with optional grouping commas and spaces, as CSV files and
  /// hand-written data give them.
  public static func number(fromText text: String) -> Double? {
    // Filtering by Character walks grapheme clusters; most numbers have nothing to remove.
    if !text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") }) {
      return Double(text)
    }
    return Double(text.filter { $0 != "," && $0 != " " })
  }

  /// Whether a condition counts the value as true: anything but null, `false`, `0`, an empty
  /// text or an empty list.
  public var isTrue: Bool {
    switch self {
    case .null: false
    case .bool(let b): b
    case .number(let s): (Double(s) ?? 1) != 0
    case .string(let s): !s.isEmpty
    case .array(let a): !a.isEmpty
    case .object: true
    }
  }

  /// What the value is, as messages name it: `a string`, `an object`, …
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "a list"
    case .object: "an object"
    }
  }

  /// The value one step down: an object's field or a list's entry; nil when there is none.
  ///
  /// - Complexity: O(number of the object's fields), O(1) for a list.
  public subscript(step: DataPath.Step) -> DataValue? {
    switch (self, step) {
    case (.object(let o), .key(let k)): o[k]
    case (.array(let a), .index(let i)): a.indices.contains(i) ? a[i] : nil
    default: nil
    }
  }

  /// The leaves under this value, with their paths from it (`cover.width`, `tags[0]`), in
  /// order: how facts and messages list nested data.
  public func leaves(prefix: String) -> [(path: String, value: DataValue)] {
    switch self {
    case .object(let o):
      return o.fields.flatMap { $0.value.leaves(prefix: prefix + "." + $0.key) }
    case .array(let a):
      return a.enumerated().flatMap { $1.leaves(prefix: "\(prefix)[\($0)]") }
    default:
      return [(prefix, self)]
    }
  }
}

/// An object in item data: names and values, in the order written.
///
/// Kept as one list of pairs rather than a dictionary: API objects hold a handful of fields,
/// which a scan finds as fast as a hash, in one allocation per object of a large feed.
public struct DataObject: Hashable, Sendable {
  struct Field: Hashable, Sendable {
    var key: String
    var value: DataValue
  }

  var fields: [Field]

  /// An empty object.
  public init() { fields = [] }

  /// An object of named values, in order; a name given twice keeps its last value.
  public init(_ fields: [(String, DataValue)]) {
    self.init()
    self.fields.reserveCapacity(fields.count)
    for (k, v) in fields { self[k] = v }
  }

  /// The names, in order.
  public var keys: [String] { fields.map(\.key) }
  /// The values, in the order of ``keys``.
  public var values: [DataValue] { fields.map(\.value) }

  /// The value of a name, or nil.
  ///
  /// - Complexity: O(number of fields).
  public subscript(key: String) -> DataValue? {
    get {
      for field in fields where field.key == key { return field.value }
      return nil
    }
    set {
      if let i = fields.firstIndex(where: { $0.key == key }) {
        if let newValue { fields[i].value = newValue } else { fields.remove(at: i) }
      } else if let newValue {
        fields.append(Field(key: key, value: newValue))
      }
    }
  }

  /// The number of fields.
  public var count: Int { fields.count }

  /// The object without the room its list grew into: for objects kept long, as a feed's rows
  /// are, where a list doubled to 16 for 9 fields would waste almost half.
  public func trimmed() -> DataObject {
    var copy = DataObject()
    copy.fields = fields.withUnsafeBufferPointer { Array($0) }
    return copy
  }
}

extension DataValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .number(String(value)) }
  public init(floatLiteral value: Double) { self = .number(String(value)) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: DataValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, DataValue)...) {
    self = .object(DataObject(elements))
  }
  public init(nilLiteral: ()) { self = .null }
}
