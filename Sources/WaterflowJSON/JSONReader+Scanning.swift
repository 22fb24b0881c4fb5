// The byte-level scanning of strings and numbers, and the messages that locate a problem.

extension JSONReader {
  // MARK: - Strings

  /// The string whose opening quote is at `start`, and the offset after its closing quote.
  @inlinable
  func string(at start: Int) throws(JSONInputError) -> (String, Int) {
    var i = start + 1
    var ascii = true
    while true {
      let c = base[i]
      if c == UInt8(ascii: "\"") { break }
      if c == UInt8(ascii: "\\") { return try escapedString(at: start) }
      if c < 0x20 { throw badCharacterInString(at: i) }
      if c >= 0x80 { ascii = false }
      i += 1
    }
    let bytes = UnsafeBufferPointer(
      start: base + start + 1, count: i - start - 1)
    if ascii { return (String(decoding: bytes, as: UTF8.self), i + 1) }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw syntaxError(at: start, "invalid UTF-8 in a string")
    }
    return (text, i + 1)
  }

  /// The offset after the string whose opening quote is at `start`, its escapes checked.
  @usableFromInline
  func skipString(at start: Int) throws(JSONInputError) -> Int {
    var i = start + 1
    while true {
      let c = base[i]
      if c == UInt8(ascii: "\"") { return i + 1 }
      if c == UInt8(ascii: "\\") { return try escapedString(at: start).1 }
      if c < 0x20 { throw badCharacterInString(at: i) }
      i += 1
    }
  }

  @usableFromInline
  func badCharacterInString(at offset: Int) -> JSONInputError {
    offset == end
      ? syntaxError(at: offset, "a string that does not end")
      : syntaxError(
        at: offset, "a control character in a string (write it as \\u00XX)")
  }

  /// The slow path, for strings with backslash escapes.
  @usableFromInline
  func escapedString(at start: Int) throws(JSONInputError) -> (String, Int) {
    var out: [UInt8] = []
    var i = start + 1
    func hex4(_ at: Int) -> UInt32? {
      var v: UInt32 = 0
      for k in 0..<4 {
        let c = base[at + k]
        let d: UInt8
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"):
          d = c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"):
          d = c - UInt8(ascii: "A") + 10
        default: return nil
        }
        v = v << 4 | UInt32(d)
      }
      return v
    }
    while true {
      let c = base[i]
      if c == UInt8(ascii: "\"") { break }
      if c < 0x20 { throw badCharacterInString(at: i) }
      guard c == UInt8(ascii: "\\") else {
        out.append(c)
        i += 1
        continue
      }
      let e = base[i + 1]
      switch e {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
        out.append(e)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        guard var code = hex4(i + 2) else {
          throw syntaxError(at: i, "a \\u escape needs four hex digits")
        }
        var length = 6
        if code >= 0xD800 && code < 0xDC00 {
          // A high surrogate: the low one must follow as a second escape.
          guard base[i + 6] == UInt8(ascii: "\\"),
            base[i + 7] == UInt8(ascii: "u"),
            let low = hex4(i + 8), low >= 0xDC00, low < 0xE000
          else {
            throw syntaxError(at: i, "a \\u escape of half a surrogate pair")
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          length = 12
        } else if code >= 0xDC00 && code < 0xE000 {
          throw syntaxError(at: i, "a \\u escape of half a surrogate pair")
        }
        out.append(contentsOf: String(Character(Unicode.Scalar(code)!)).utf8)
        i += length
        continue
      default:
        throw syntaxError(at: i, "an unknown escape \\\(describeByte(e))")
      }
      i += 2
    }
    guard let text = String(validating: out, as: UTF8.self) else {
      throw syntaxError(at: start, "invalid UTF-8 in a string")
    }
    return (text, i + 1)
  }

  // MARK: - Numbers

  /// The number at the cursor, moving past it.
  ///
  /// Most numbers in our files have at most 15 significant digits and a small exponent: those
  /// are computed exactly here (one correctly rounded multiplication or division of exact values,
  /// Clinger's fast path). Others go to the standard library's correctly rounded parser, so
  /// every number reads as the nearest double either way.
  @inlinable @inline(__always)
  mutating func scanNumber() throws(JSONInputError) -> Double {
    let start = pos
    var i = pos
    let negative = base[i] == UInt8(ascii: "-")
    if negative { i += 1 }
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    var exact = true
    var c = base[i]
    if c == UInt8(ascii: "0") {
      i += 1
      c = base[i]
      if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
        throw syntaxError(at: start, "a number with a leading zero")
      }
    } else if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") {
      repeat {
        if digits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(c &- UInt8(ascii: "0"))
          digits += 1
        } else {
          exponent += 1
          exact = false
        }
        i += 1
        c = base[i]
      } while c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
    } else if let word = nonFiniteWord(at: start) {
      throw fail("\(word) is not a JSON number")
    } else {
      throw syntaxError(at: start, "an invalid number")
    }
    if c == UInt8(ascii: ".") {
      i += 1
      c = base[i]
      guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else {
        throw syntaxError(
          at: start, "an invalid number (a digit must follow the point)")
      }
      repeat {
        if digits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(c &- UInt8(ascii: "0"))
          exponent -= 1
          if mantissa != 0 { digits += 1 }
        } else if c != UInt8(ascii: "0") {
          exact = false
        }
        i += 1
        c = base[i]
      } while c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
    }
    if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
      i += 1
      var sign = 1
      if base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-") {
        if base[i] == UInt8(ascii: "-") { sign = -1 }
        i += 1
      }
      c = base[i]
      guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else {
        throw syntaxError(
          at: start, "an invalid number (a digit must follow the e)")
      }
      var e = 0
      repeat {
        if e < 100_000 { e = e * 10 + Int(c - UInt8(ascii: "0")) }
        i += 1
        c = base[i]
      } while c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
      exponent += sign * e
    }
    pos = i
    if exponent == 0 && mantissa < 1 << 53 {
      // A whole number, as most numbers of a scene are: exact as it is, no table of powers.
      let d = Double(mantissa)
      return negative ? -d : d
    }
    if exact && mantissa < 1 << 53 && exponent >= -22 && exponent <= 22 {
      var d = Double(mantissa)
      d =
        exponent < 0
        ? d / Self.powersOfTen[-exponent] : d * Self.powersOfTen[exponent]
      return negative ? -d : d
    }
    return Self.slowDouble(
      UnsafeBufferPointer(start: base + start, count: i - start))
  }

  /// The standard library's parser, for the numbers the fast path leaves.
  @usableFromInline
  static func slowDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double {
    Double(String(decoding: text, as: UTF8.self))!
  }

  @usableFromInline static let powersOfTen: [Double] = (0...22).map { n in
    (0..<n).reduce(1.0) { d, _ in d * 10 }
  }

  // MARK: - Messages

  /// An error at the current field, naming the file and the field's path.
  public func fail(_ message: String) -> JSONInputError {
    JSONInputError(file: file, field: fieldPath(), message: message)
  }

  /// An error at `key` of the object the cursor is in or has just left.
  public func fail(key: String, _ message: String) -> JSONInputError {
    let path = fieldPath()
    return JSONInputError(
      file: file, field: path.isEmpty ? key : "\(path).\(key)", message: message
    )
  }

  /// An error at the object or array the cursor is in, as a whole.
  public func failInContainer(_ message: String) -> JSONInputError {
    JSONInputError(
      file: file, field: fieldPath(levels: outer), message: message)
  }

  /// The path of the current field: `items[3].h`, `[0].scroll`, or empty at the top.
  ///
  /// - Complexity: O(depth), decoding each key from the text: meant for messages.
  public func fieldPath() -> String { fieldPath(levels: outer + [current]) }

  func fieldPath(levels: [Level]) -> String {
    var path = ""
    for level in levels where level.hasMember {
      if level.isArray {
        path += "[\(level.index)]"
      } else {
        let key = (try? string(at: level.key).0) ?? "?"
        path += path.isEmpty ? key : ".\(key)"
      }
    }
    return path
  }

  /// The error where a value should start and none does: a syntax error with the line and
  /// column, unless a non-finite number is written there.
  @usableFromInline
  func noValue(at offset: Int) -> JSONInputError {
    if let word = nonFiniteWord(at: offset) { return fail("\(word) is not a JSON number") }
    return syntaxError(at: offset, "expected a value, found \(describe(at: offset))")
  }

  /// `NaN`, `Infinity` or `-Infinity` when one of them, as a whole word, starts at `offset`.
  ///
  /// JSON has no such numbers, but Python's `json.dumps` and JavaScript's number printing write
  /// them bare, so a generated scene can hold one. Named at its field, the user learns which
  /// number came out non-finite, where "found 'N'" at a column only points at a letter.
  @usableFromInline
  func nonFiniteWord(at offset: Int) -> String? {
    for word in ["NaN", "Infinity", "-Infinity"] {
      let bytes = Array(word.utf8)
      guard offset + bytes.count <= end,
        bytes.indices.allSatisfy({ base[offset + $0] == bytes[$0] })
      else { continue }
      // A whole word: `NaNa` or `Infinityx` is some other mistake.
      let next = offset + bytes.count < end ? base[offset + bytes.count] : 0
      let isWordByte =
        (next >= UInt8(ascii: "a") && next <= UInt8(ascii: "z"))
        || (next >= UInt8(ascii: "A") && next <= UInt8(ascii: "Z"))
        || (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9")) || next == UInt8(ascii: "_")
      if !isWordByte { return word }
    }
    return nil
  }

  /// A syntax error: "invalid JSON at line 3, column 14: expected ',' or '}' after a value, found ']'".
  @usableFromInline
  func syntaxError(at offset: Int, _ problem: String) -> JSONInputError {
    var line = 1
    var lineStart = 0
    for i in 0..<offset where base[i] == 0x0A {
      line += 1
      lineStart = i + 1
    }
    // Columns count characters (UTF-8 continuation bytes do not start one).
    var column = 1
    for i in lineStart..<offset where base[i] & 0xC0 != 0x80 { column += 1 }
    return JSONInputError(
      file: file, field: "",
      message: "invalid JSON at line \(line), column \(column): \(problem)")
  }

  /// What is at `offset`, for a message: "'}'", "the end of the file", "'“'".
  @usableFromInline
  func describe(at offset: Int) -> String {
    if offset >= end { return "the end of the file" }
    let c = base[offset]
    if c < 0x80 { return "'\(describeByte(c))'" }
    var length = 0
    while length < 4 && offset + length < end
      && (length == 0 || base[offset + length] & 0xC0 == 0x80)
    {
      length += 1
    }
    if let text = String(
      validating: UnsafeBufferPointer(start: base + offset, count: length),
      as: UTF8.self)
    {
      return "'\(text)'"
    }
    return
      "the byte 0x\(String(c, radix: 16, uppercase: true)), which is not UTF-8"
  }

  func describeByte(_ c: UInt8) -> String {
    c >= 0x20 && c < 0x7F
      ? String(UnicodeScalar(c))
      : "\\u\(String(repeating: "0", count: c < 0x10 ? 3 : 2))\(String(c, radix: 16))"
  }
}
