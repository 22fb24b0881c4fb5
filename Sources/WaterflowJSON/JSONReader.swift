/// Reads JSON text in one pass, handing each value to the format's code as it is reached: a
/// scene's items go straight into their storage, with no tree of values in between.
///
/// Every JSON input of Waterflow is read with it (scenes, shop data, trace and scroll scripts,
/// golden manifests, the font-stack fingerprint), so all of them name the file and the field
/// (`items[765432].h`) in their messages and give a line and column for syntax errors.
///
/// Why a scanner of our own: the issue asks a 1,000,000-item scene (`{"w", "h", "price"}` items,
/// 41 MB) to load in half the time of Python's `json.load`. Measured in one hyperfine run on the
/// project's 2-core machine, `json.load` took 0.84–0.96 s and Foundation's `JSONDecoder` 1.8–2.0 s
/// (435 MB) even into plain synthesized `Decodable` structs, with no field paths and no unknown-key
/// checks: twice Python's time, not half. The `JSONValue` enum tree it used to build took 8.6–14 s
/// (488 MB). This reader loads that scene in about 120 ms against 455 ms for `json.load`, both timed
/// in process (`Tests/WaterflowMotionTests/Bench/bench-json.sh`).
///
/// The reader is a cursor: `beginObject()` then `nextKey(_:)` until nil, `beginArray()` then
/// `nextElement()` until false, and one scalar read (or `skipValue()`) for every key and element.
/// A copy of a reader is a bookmark: reading on from the copy leaves the original where it was.
public struct JSONReader {
  /// Leniencies of a format.
  public struct Options: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A string that holds a number is read as that number (`"w": "200"`), as plists carry them.
    public static let numericStrings = Options(rawValue: 1)
    /// A number is read as its text where text is asked for (`"price": 12.5` is `"12.5"`).
    public static let numbersAsText = Options(rawValue: 2)
    /// An object member whose value is `null` is skipped, as if it were absent.
    public static let nullIsAbsent = Options(rawValue: 4)
  }

  /// The type of a JSON value.
  public enum Kind: Sendable {
    case object, array, string, number, bool, null

    /// "an object", "a number", …: the words messages use.
    public var name: String {
      switch self {
      case .object: "an object"
      case .array: "an array"
      case .string: "a string"
      case .number: "a number"
      case .bool: "a boolean"
      case .null: "null"
      }
    }
  }

  /// One open object or array, and the member being read in it.
  @usableFromInline struct Level {
    @usableFromInline var isArray: Bool
    @usableFromInline var hasMember = false
    /// The offset of the current key's opening quote (objects).
    @usableFromInline var key = 0
    /// The current element (arrays).
    @usableFromInline var index = 0
    /// The table keys already given, to catch one given twice.
    @usableFromInline var seen: UInt64 = 0

    @usableFromInline init(isArray: Bool) { self.isArray = isArray }
  }

  /// The file, as messages name it.
  public let file: String
  /// The format's leniencies.
  public let options: Options
  // The leniencies as plain flags: `Options`' static members are lazily made globals, and
  // asking for one in the key loop cost a `swift_once` call per key.
  @usableFromInline let numericStrings: Bool
  @usableFromInline let numbersAsText: Bool
  @usableFromInline let nullIsAbsent: Bool
  @usableFromInline let base: UnsafePointer<UInt8>
  /// The offset of the terminating zero.
  @usableFromInline let end: Int
  @usableFromInline var pos = 0
  /// The innermost open container (at the top, a level with no member, which names nothing).
  @usableFromInline var current = Level(isArray: false)
  /// The containers around it, outermost first.
  @usableFromInline var outer: [Level] = []

  init(_ buffer: UnsafeBufferPointer<UInt8>, file: String, options: Options) {
    base = buffer.baseAddress!
    end = buffer.count - 1
    self.file = file
    self.options = options
    numericStrings = options.contains(.numericStrings)
    numbersAsText = options.contains(.numbersAsText)
    nullIsAbsent = options.contains(.nullIsAbsent)
    outer.reserveCapacity(8)
  }

  @usableFromInline static let maximumDepth = 512

  // MARK: - Looking ahead

  @inlinable @inline(__always)
  mutating func skipWhitespace() {
    while true {
      let c = base[pos]
      guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
      pos += 1
    }
  }

  /// The type of the next value.
  ///
  /// - Throws: a syntax error when no value starts here.
  @inlinable
  public mutating func peek() throws(JSONInputError) -> Kind {
    skipWhitespace()
    guard let kind = kind(at: pos) else { throw noValue(at: pos) }
    return kind
  }

  @inlinable
  func kind(at offset: Int) -> Kind? {
    switch base[offset] {
    case UInt8(ascii: "{"): .object
    case UInt8(ascii: "["): .array
    case UInt8(ascii: "\""): .string
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): .number
    case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
    case UInt8(ascii: "n"): .null
    default: nil
    }
  }

  /// A field error for a value of the wrong type: "expected an object, found an array".
  @usableFromInline
  mutating func typeMismatch(_ expected: String) -> JSONInputError {
    skipWhitespace()
    guard let kind = kind(at: pos) else { return noValue(at: pos) }
    if let word = nonFiniteWord(at: pos) { return fail("\(word) is not a JSON number") }
    // A short string is quoted: "found the string \"tall\"" says what to fix.
    if kind == .string, let (text, _) = try? string(at: pos), text.count <= 40 {
      return fail("expected \(expected), found the string \"\(text)\"")
    }
    return fail("expected \(expected), found \(kind.name)")
  }

  // MARK: - Objects and arrays

  /// Enters the object that comes next.
  ///
  /// - Throws: "expected an object, found …" at the current field.
  @inlinable
  public mutating func beginObject() throws(JSONInputError) {
    skipWhitespace()
    guard base[pos] == UInt8(ascii: "{") else {
      throw typeMismatch("an object")
    }
    try enter(isArray: false)
  }

  /// Enters the array that comes next.
  ///
  /// - Throws: "expected an array, found …" at the current field.
  @inlinable
  public mutating func beginArray() throws(JSONInputError) {
    skipWhitespace()
    guard base[pos] == UInt8(ascii: "[") else { throw typeMismatch("an array") }
    try enter(isArray: true)
  }

  @inlinable @inline(__always)
  mutating func enter(isArray: Bool) throws(JSONInputError) {
    guard outer.count < Self.maximumDepth else {
      throw syntaxError(
        at: pos, "nested more than \(Self.maximumDepth) levels deep")
    }
    pos += 1
    outer.append(current)
    current = Level(isArray: isArray)
  }

  @inlinable @inline(__always)
  mutating func leave() {
    current = outer.removeLast()
  }

  /// Moves to the next key of the current object and returns it, or leaves the object and
  /// returns nil at its end. The caller then reads or skips the key's value.
  ///
  /// - Throws: at the key, when `keys` does not know it (unless it skips unknown keys) or it
  ///   was given before; a syntax error for broken text.
  @inlinable
  public mutating func nextKey<Key>(_ keys: JSONKeys<Key>)
    throws(JSONInputError) -> Key?
  {
    while try nextMember() {
      let keyStart = pos
      var i = pos + 1
      while true {
        let c = base[i]
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 {
          break
        }
        i += 1
      }
      let match: Int?
      if base[i] == UInt8(ascii: "\"") {
        match = keys.index(of: base + keyStart + 1, count: i - keyStart - 1)
        pos = i + 1
      } else {
        let (text, after) = try string(at: keyStart)
        var utf8 = Array(text.utf8)
        match = utf8.withUnsafeMutableBufferPointer {
          keys.index(of: $0.baseAddress!, count: $0.count)
        }
        pos = after
      }
      try colon()
      guard let match else {
        if case .skip = keys.unknown {
          try skipValue()
          continue
        }
        throw fail(keys.unknownMessage)
      }
      let bit: UInt64 = 1 << UInt64(match)
      guard current.seen & bit == 0 else { throw fail("given twice") }
      current.seen |= bit
      if nullIsAbsent && base[pos] == UInt8(ascii: "n") {
        try skipValue()
        continue
      }
      return keys.keys[match]
    }
    return nil
  }

  /// Moves to the next member of an object whose keys are names its writer chose (a map, such
  /// as the goldens of a fingerprint file) and returns the name, or leaves the object and
  /// returns nil at its end. The caller reads or skips the value, and checks names given twice.
  ///
  /// - Throws: a syntax error for broken text.
  public mutating func nextName() throws(JSONInputError) -> String? {
    guard try nextMember() else { return nil }
    let (name, after) = try string(at: pos)
    pos = after
    try colon()
    return name
  }

  /// Steps over the comma before the next member of the current object and stops at its key's
  /// opening quote (true), or leaves the object at its closing brace (false).
  @inlinable @inline(__always)
  mutating func nextMember() throws(JSONInputError) -> Bool {
    skipWhitespace()
    if current.hasMember {
      if base[pos] == UInt8(ascii: ",") {
        pos += 1
        skipWhitespace()
      } else if base[pos] == UInt8(ascii: "}") {
        pos += 1
        leave()
        return false
      } else {
        throw syntaxError(
          at: pos,
          "expected ',' or '}' after a value, found \(describe(at: pos))")
      }
    } else if base[pos] == UInt8(ascii: "}") {
      pos += 1
      leave()
      return false
    }
    guard base[pos] == UInt8(ascii: "\"") else {
      throw syntaxError(
        at: pos, "expected a key in double quotes, found \(describe(at: pos))"
      )
    }
    current.hasMember = true
    current.key = pos
    return true
  }

  /// Steps over the colon after a key, and the space around it.
  @inlinable @inline(__always)
  mutating func colon() throws(JSONInputError) {
    skipWhitespace()
    guard base[pos] == UInt8(ascii: ":") else {
      throw syntaxError(
        at: pos, "expected ':' after the key, found \(describe(at: pos))")
    }
    pos += 1
    skipWhitespace()
  }

  /// Moves to the next element of the current array (true), or leaves the array at its end
  /// (false). The caller then reads or skips the element.
  ///
  /// - Throws: a syntax error for broken text.
  @inlinable
  public mutating func nextElement() throws(JSONInputError) -> Bool {
    skipWhitespace()
    if current.hasMember {
      if base[pos] == UInt8(ascii: ",") {
        pos += 1
        current.index += 1
        return true
      }
      guard base[pos] == UInt8(ascii: "]") else {
        throw syntaxError(
          at: pos,
          "expected ',' or ']' after a value, found \(describe(at: pos))")
      }
    } else if base[pos] != UInt8(ascii: "]") {
      current.hasMember = true
      return true
    }
    pos += 1
    leave()
    return false
  }

  /// How far the cursor is into the text, in bytes.
  public var bytesRead: Int { pos }
  /// How much text is left after the cursor, in bytes.
  public var bytesLeft: Int { end - pos }

  /// The index of the current element, in the innermost array.
  public var elementIndex: Int { current.index }

  // MARK: - Scalars

  /// A finite number; with ``Options/numericStrings`` also a string that holds one.
  ///
  /// - Throws: "expected a number, found …", or "must be a finite number" (`1e999`, `"NaN"`).
  @inlinable
  public mutating func number() throws(JSONInputError) -> Double {
    skipWhitespace()
    let c = base[pos]
    let d: Double
    if c == UInt8(ascii: "-")
      || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
    {
      d = try scanNumber()
    } else if c == UInt8(ascii: "\"") && numericStrings {
      let (text, after) = try string(at: pos)
      guard let n = Double(text.trimmingWhitespace) else {
        throw fail("expected a number, found the string \"\(text)\"")
      }
      pos = after
      d = n
    } else {
      throw typeMismatch("a number")
    }
    guard d.isFinite else { throw fail("must be a finite number") }
    return d
  }

  /// `true` or `false`.
  ///
  /// - Throws: "expected true or false, found …".
  @inlinable
  public mutating func bool() throws(JSONInputError) -> Bool {
    skipWhitespace()
    if try literal("true") { return true }
    if try literal("false") { return false }
    throw typeMismatch("true or false")
  }

  /// A string; with ``Options/numbersAsText`` also a number, as ``Swift/Double/jsonText`` writes it.
  ///
  /// - Throws: "expected a string, found …".
  @inlinable
  public mutating func string() throws(JSONInputError) -> String {
    skipWhitespace()
    let c = base[pos]
    if c == UInt8(ascii: "\"") {
      let (text, after) = try string(at: pos)
      pos = after
      return text
    }
    if numbersAsText,
      c == UInt8(ascii: "-")
        || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
    {
      return try scanNumber().jsonText
    }
    throw typeMismatch("a string")
  }

  /// Reads a `null` if one comes next.
  @inlinable
  public mutating func skipNull() throws(JSONInputError) -> Bool {
    skipWhitespace()
    return try literal("null")
  }

  /// Skips the next value, whatever it is, checking its syntax.
  public mutating func skipValue() throws(JSONInputError) {
    switch try peek() {
    case .object:
      try enter(isArray: false)
      skipWhitespace()
      if base[pos] == UInt8(ascii: "}") {
        pos += 1
        leave()
        return
      }
      while true {
        skipWhitespace()
        guard base[pos] == UInt8(ascii: "\"") else {
          throw syntaxError(
            at: pos,
            "expected a key in double quotes, found \(describe(at: pos))")
        }
        current.hasMember = true
        current.key = pos
        pos = try skipString(at: pos)
        skipWhitespace()
        guard base[pos] == UInt8(ascii: ":") else {
          throw syntaxError(
            at: pos, "expected ':' after the key, found \(describe(at: pos))")
        }
        pos += 1
        try skipValue()
        skipWhitespace()
        if base[pos] == UInt8(ascii: ",") {
          pos += 1
        } else if base[pos] == UInt8(ascii: "}") {
          pos += 1
          leave()
          return
        } else {
          throw syntaxError(
            at: pos,
            "expected ',' or '}' after a value, found \(describe(at: pos))")
        }
      }
    case .array:
      try enter(isArray: true)
      while try nextElement() { try skipValue() }
    case .string:
      pos = try skipString(at: pos)
    case .number:
      _ = try scanNumber()
    case .bool:
      if try literal("true") { return }
      if try !literal("false") {
        throw syntaxError(
          at: pos, "expected a value, found \(describe(at: pos))")
      }
    case .null:
      if try !literal("null") {
        throw syntaxError(
          at: pos, "expected a value, found \(describe(at: pos))")
      }
    }
  }

  /// Checks that only whitespace follows the value.
  mutating func finish() throws(JSONInputError) {
    skipWhitespace()
    guard pos == end else {
      throw syntaxError(
        at: pos,
        "expected the end of the file after the value, found \(describe(at: pos))"
      )
    }
  }

  @inlinable @inline(__always)
  mutating func literal(_ word: StaticString) throws(JSONInputError) -> Bool {
    let w = word.utf8Start
    guard base[pos] == w[0] else { return false }
    for i in 1..<word.utf8CodeUnitCount where base[pos + i] != w[i] {
      throw syntaxError(at: pos, "expected a value, found \(describe(at: pos))")
    }
    pos += word.utf8CodeUnitCount
    return true
  }
}

extension String {
  /// Without leading and trailing spaces, tabs and newlines.
  @usableFromInline
  var trimmingWhitespace: Substring {
    let isSpace: (Character) -> Bool = {
      $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r"
    }
    guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
    let last = lastIndex(where: { !isSpace($0) })!
    return self[first...last]
  }
}
