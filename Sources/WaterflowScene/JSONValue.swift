import Foundation

/// A parsed JSON (or property-list) value, read with a path so errors can name the field.
enum JSONValue: Decodable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let c = try decoder.singleValueContainer()
    if c.decodeNil() {
      self = .null
    } else if let b = try? c.decode(Bool.self) {
      self = .bool(b)
    } else if let d = try? c.decode(Double.self) {
      self = .number(d)
    } else if let s = try? c.decode(String.self) {
      self = .string(s)
    } else if let a = try? c.decode([JSONValue].self) {
      self = .array(a)
    } else {
      self = .object(try c.decode([String: JSONValue].self))
    }
  }

  /// Converts what PropertyListSerialization returns.
  init(plist: Any) {
    switch plist {
    case let s as String: self = .string(s)
    case let b as Bool where type(of: plist) == Bool.self: self = .bool(b)
    case let n as NSNumber: self = .number(n.doubleValue)
    case let a as [Any]: self = .array(a.map(JSONValue.init(plist:)))
    case let d as [String: Any]:
      self = .object(d.mapValues(JSONValue.init(plist:)))
    case let d as Date: self = .number(d.timeIntervalSince1970)
    default: self = .null
    }
  }

  var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// A value being read at a path such as `items[3].height`, for messages that name the field.
struct Field {
  let value: JSONValue
  let path: String
  let file: String

  func fail(_ message: String) -> SceneError {
    SceneError(file: file, field: path, message: message)
  }

  func child(_ key: String) -> Field? {
    guard case .object(let o) = value, let v = o[key], v != .null else {
      return nil
    }
    return Field(
      value: v, path: path.isEmpty ? key : "\(path).\(key)", file: file)
  }

  func object() throws(SceneError) -> [String: JSONValue] {
    guard case .object(let o) = value else {
      throw fail("expected an object, found \(value.typeName)")
    }
    return o
  }

  func array() throws(SceneError) -> [Field] {
    guard case .array(let a) = value else {
      throw fail("expected an array, found \(value.typeName)")
    }
    return a.enumerated().map {
      Field(value: $1, path: "\(path)[\($0)]", file: file)
    }
  }

  func string() throws(SceneError) -> String {
    switch value {
    case .string(let s): return s
    case .number(let d):
      return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    default: throw fail("expected a string, found \(value.typeName)")
    }
  }

  func bool() throws(SceneError) -> Bool {
    guard case .bool(let b) = value else {
      throw fail("expected true or false, found \(value.typeName)")
    }
    return b
  }

  /// A finite number; plists often carry numbers as strings, so numeric strings are accepted.
  func number() throws(SceneError) -> Double {
    let d: Double
    switch value {
    case .number(let n): d = n
    case .string(let s):
      guard let n = Double(s.trimmingCharacters(in: .whitespaces)) else {
        throw fail("expected a number, found the string \"\(s)\"")
      }
      d = n
    default: throw fail("expected a number, found \(value.typeName)")
    }
    guard d.isFinite else { throw fail("must be a finite number") }
    return d
  }

  func number(
    min: Double, max: Double = .greatestFiniteMagnitude,
    exclusiveMin: Bool = false
  )
    throws(SceneError) -> Double
  {
    let d = try number()
    if exclusiveMin ? d <= min : d < min {
      throw fail(
        "must be \(exclusiveMin ? "greater than" : "at least") \(format(min)), got \(format(d))"
      )
    }
    if d > max {
      throw fail("must be at most \(format(max)), got \(format(d))")
    }
    return d
  }

  func integer(min: Int, max: Int) throws(SceneError) -> Int {
    let d = try number()
    guard d == d.rounded() else {
      throw fail("expected a whole number, got \(format(d))")
    }
    guard d >= Double(min) else {
      throw fail("must be at least \(min), got \(format(d))")
    }
    guard d <= Double(max) else {
      throw fail(
        "must be at most \(max), got \(format(d)) (the documented limit)")
    }
    return Int(d)
  }

  func oneOf<T>(_ choices: [String: T]) throws(SceneError) -> T {
    let s = try string()
    guard let v = choices[s] else {
      throw fail(
        "\"\(s)\" is not one of \(choices.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", "))"
      )
    }
    return v
  }

  /// Rejects keys this object does not know, catching typos such as `colums`.
  func checkKeys(_ known: Set<String>) throws(SceneError) {
    for key in try object().keys.sorted() where !known.contains(key) {
      throw SceneError(
        file: file, field: path.isEmpty ? key : "\(path).\(key)",
        message:
          "unknown key (expected one of: \(known.sorted().joined(separator: ", ")))"
      )
    }
  }
}

func format(_ d: Double) -> String { d.jsonText }

/// A problem with a scene file, naming the file and the field.
public struct SceneError: Error, CustomStringConvertible, Equatable {
  /// The file that was read.
  public var file: String
  /// The field at fault, as a path like `items[3].height`; empty for the whole file.
  public var field: String
  /// What is wrong.
  public var message: String

  public init(file: String, field: String, message: String) {
    self.file = file
    self.field = field
    self.message = message
  }

  public var description: String {
    field.isEmpty ? "\(file): \(message)" : "\(file): \(field): \(message)"
  }
}
