import Foundation
import Testing

@testable import WaterflowJSON

@Suite struct JSONReaderTests {}

// MARK: - Fixtures

private enum PointKey: String, CaseIterable { case x, y, label }
private let pointKeys = JSONKeys<PointKey>()

/// Reads `text` with `body`, as a file named `test.json`.
private func read<T>(
  _ text: String, options: JSONReader.Options = [],
  _ body: (inout JSONReader) throws(JSONInputError) -> T
) -> Result<T, JSONInputError> {
  Result { () throws(JSONInputError) in
    try JSONDocument(Array(text.utf8), file: "test.json").read(
      options: options, body)
  }
}

/// The one number `text` holds.
private func number(_ text: String, options: JSONReader.Options = []) -> Result<
  Double, JSONInputError
> {
  read(text, options: options) { (r: inout JSONReader) throws(JSONInputError) in
    try r.number()
  }
}

/// A list of points `[{"x": …, "y": …, "label": …}]`, read as the formats read objects.
private func points(_ text: String, options: JSONReader.Options = []) -> Result<
  [(Double?, Double?, String?)], JSONInputError
> {
  read(text, options: options) { (r: inout JSONReader) throws(JSONInputError) in
    var out: [(Double?, Double?, String?)] = []
    try r.beginArray()
    while try r.nextElement() {
      var point: (Double?, Double?, String?) = (nil, nil, nil)
      try r.beginObject()
      while let key = try r.nextKey(pointKeys) {
        switch key {
        case .x: point.0 = try r.number()
        case .y: point.1 = try r.number(min: 0, max: 10)
        case .label: point.2 = try r.string()
        }
      }
      out.append(point)
    }
    return out
  }
}

private func error<T>(_ result: Result<T, JSONInputError>) -> JSONInputError? {
  if case .failure(let e) = result { return e }
  return nil
}

// MARK: - Numbers

extension JSONReaderTests {
  @Test(arguments: [
    ("0", 0.0), ("1", 1), ("-0", -0.0), ("-1", -1), ("0.5", 0.5), ("1e3", 1000),
    ("1E-3", 0.001),
    ("1.25e+2", 125), ("123456789", 123_456_789), ("0.1", 0.1),
    ("0.000001", 0.000001),
    ("9007199254740993", 9_007_199_254_740_992),
    ("1.7976931348623157e308", .greatestFiniteMagnitude),
    ("5e-324", .leastNonzeroMagnitude),
    ("2.2250738585072014e-308", 2.2250738585072014e-308),
    ("123456789012345678901234567890", 1.2345678901234568e29),
    ("0.30000000000000004", 0.30000000000000004),
  ])
  func numbers_ReadAsTheNearestDouble(text: String, value: Double) throws {
    let d = try number(text).get()
    #expect(d == value && d.sign == value.sign, "\(text) read as \(d)")
  }

  @Test func numbers_AgreeWithTheStandardLibrary_OnManyDecimals() throws {
    // The fast path and the standard library's parser must give the same double.
    var g = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let digits = Int.random(in: 1...20, using: &g)
      var text = String(UInt64.random(in: 1...UInt64.max, using: &g)).prefix(
        digits)
      if Bool.random(using: &g) {
        text.insert(
          ".",
          at: text.index(
            text.startIndex, offsetBy: Int.random(in: 0..<text.count)))
        if text.first == "." { text = "0" + text }
        if text.last == "." { text += "5" }
      }
      if Bool.random(using: &g) {
        text += "e\(Int.random(in: -30...30, using: &g))"
      }
      let s = String(text)
      #expect(try number(s).get() == Double(s)!, "\(s)")
    }
  }

  @Test(arguments: ["01", "-", "1.", ".5", "1e", "+1", "1.e5", "--1", "0x10"])
  func badNumbers_AreSyntaxErrorsWithLineAndColumn(text: String) {
    let e = error(number(text))
    #expect(e?.field == "", "\(text): \(String(describing: e))")
    #expect(
      e?.message.hasPrefix("invalid JSON at line 1, column ") == true,
      "\(text): \(String(describing: e))")
  }

  @Test func hugeNumbers_AreNotFinite() {
    #expect(error(number("1e999"))?.message == "must be a finite number")
  }

  /// JSON has no NaN or Infinity, but Python and JavaScript write them bare: each is named at
  /// its field, wherever a value is read, skipped or checked.
  @Test(arguments: ["NaN", "Infinity", "-Infinity"])
  func nonFiniteWords_AreNamedAtTheirField(word: String) {
    let field = error(points(#"[{"x": 1, "y": 2}, {"x": \#(word)}]"#))
    #expect(field?.description == "test.json: [1].x: \(word) is not a JSON number")
    // Where a string is expected, and in an array.
    let label = error(points(#"[{"label": \#(word)}]"#))
    #expect(label?.description == "test.json: [0].label: \(word) is not a JSON number")
    let element = error(number("[\(word)]"))
    let skipped: Result<Void, JSONInputError> = read("[\(word)]") {
      (r: inout JSONReader) throws(JSONInputError) in
      try r.beginArray()
      while try r.nextElement() { try r.skipValue() }
    }
    #expect(error(skipped)?.description == "test.json: [0]: \(word) is not a JSON number")
    // Reported by the syntax check of the whole file too, when reading stopped elsewhere.
    #expect(element?.description == "test.json: [0]: \(word) is not a JSON number")
  }

  @Test(arguments: ["NaNa", "Infinityy", "nan", "-Inf", "inf"])
  func wordsThatAreNotNonFiniteNumbers_StaySyntaxErrors(text: String) {
    let e = error(number(text))
    #expect(e?.field == "", "\(text): \(String(describing: e))")
    #expect(e?.message.hasPrefix("invalid JSON at line 1, column 1") == true, "\(text): \(String(describing: e))")
  }

  @Test func zeroAndOne_AreNumbers_TrueAndFalseAreNot() throws {
    #expect(try number("0").get() == 0)
    #expect(try number("1").get() == 1)
    #expect(
      error(number("true"))?.message == "expected a number, found a boolean")
    #expect(
      error(number("false"))?.message == "expected a number, found a boolean")
    let flag = read("1") { (r: inout JSONReader) throws(JSONInputError) in
      try r.bool()
    }
    #expect(error(flag)?.message == "expected true or false, found a number")
  }

  @Test func numericStrings_OnlyWhenTheFormatAllowsThem() throws {
    #expect(try number("\" 12.5 \"", options: .numericStrings).get() == 12.5)
    #expect(
      error(number("\"12.5\""))?.message == #"expected a number, found the string "12.5""#)
    #expect(
      error(number("\"tall\"", options: .numericStrings))?.message
        == "expected a number, found the string \"tall\"")
    let text = read("12.50", options: .numbersAsText) {
      (r: inout JSONReader) throws(JSONInputError) in try r.string()
    }
    #expect(try text.get() == "12.5")
  }
}

// MARK: - Strings

extension JSONReaderTests {
  @Test func strings_DecodeEscapesAndUnicode() throws {
    let text = #""a\"b\\c\/d\b\f\n\r\t \u00e9 \uD83D\uDE00 ü 日本""#
    let s = try read(text) { (r: inout JSONReader) throws(JSONInputError) in
      try r.string()
    }.get()
    #expect(s == "a\"b\\c/d\u{8}\u{c}\n\r\t é 😀 ü 日本")
  }

  @Test(arguments: [
    (#""abc"#, "a string that does not end"),
    ("\"a\u{1}b\"", "a control character"),
    (#""\x""#, "an unknown escape"),
    (#""\u12G4""#, "four hex digits"),
    (#""\uD83D""#, "half a surrogate pair"),
    (#""\uDE00""#, "half a surrogate pair"),
  ])
  func badStrings_AreSyntaxErrors(text: String, says: String) {
    let e = error(
      read(text) { (r: inout JSONReader) throws(JSONInputError) in
        try r.string()
      })
    #expect(
      e?.message.hasPrefix("invalid JSON at line 1, column ") == true, "\(text)"
    )
    #expect(
      e?.message.contains(says) == true, "\(text): \(String(describing: e))")
  }

  @Test func invalidUTF8_IsASyntaxError() {
    let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x22]
    let result = Result { () throws(JSONInputError) in
      try JSONDocument(bytes, file: "x.json").read {
        (r: inout JSONReader) throws(JSONInputError) in
        try r.string()
      }
    }
    #expect(error(result)?.message.contains("invalid UTF-8") == true)
  }
}

// MARK: - Objects, arrays and paths

extension JSONReaderTests {
  @Test func objects_ReadInAnyOrder_NullIsAbsentWhenAsked() throws {
    let p = try points(
      #"[{"y": 2, "x": 1}, {"label": "a"}, {}, {"x": null}]"#,
      options: .nullIsAbsent
    ).get()
    #expect(p.count == 4)
    #expect(p[0].0 == 1 && p[0].1 == 2 && p[0].2 == nil)
    #expect(p[1].2 == "a" && p[2].0 == nil && p[3].0 == nil)
    #expect(
      error(points(#"[{"x": null}]"#))?.message
        == "expected a number, found null")
  }

  @Test(arguments: [
    (
      #"[{"x": 1}, {"z": 1}]"#, "[1].z",
      "unknown key (expected one of: x, y, label)"
    ),
    (#"[{"x": 1, "x": 2}]"#, "[0].x", "given twice"),
    (#"[{"x": 1}, {"y": 11}]"#, "[1].y", "must be at most 10, got 11"),
    (#"[{"y": -1}]"#, "[0].y", "must be at least 0, got -1"),
    (#"[{"label": 5}]"#, "[0].label", "expected a string, found a number"),
    (#"[{"x": "tall"}]"#, "[0].x", #"expected a number, found the string "tall""#),
    (#"[3]"#, "[0]", "expected an object, found a number"),
    (#"{"x": 1}"#, "", "expected an array, found an object"),
    (
      #"[{"x\u0031": 1}]"#, "[0].x1",
      "unknown key (expected one of: x, y, label)"
    ),
  ])
  func fieldErrors_NameTheFileAndThePath(
    text: String, field: String, message: String
  ) {
    let e = error(points(text))
    #expect(e?.file == "test.json")
    #expect(e?.field == field, "\(text): \(String(describing: e))")
    #expect(e?.message == message, "\(text): \(String(describing: e))")
  }

  @Test(arguments: [
    (
      "[{\"x\": 1}\n {\"x\": 2}]", 2, 2,
      "expected ',' or ']' after a value, found '{'"
    ),
    ("[{\"x\" 1}]", 1, 7, "expected ':' after the key, found '1'"),
    ("[{\"x\": 1,}]", 1, 10, "expected a key in double quotes, found '}'"),
    ("[\n  {\"x\": 1},\n  {\"x\": }\n]", 3, 9, "expected a value, found '}'"),
    (
      "[{\"x\": 1}", 1, 10,
      "expected ',' or ']' after a value, found the end of the file"
    ),
    (
      "[{\"x\": 1}] x", 1, 12,
      "expected the end of the file after the value, found 'x'"
    ),
    ("[{“x”: 1}]", 1, 3, "expected a key in double quotes, found '“'"),
    ("[{\"label\": \"é\", \"x\": tru}]", 1, 22, "expected a value, found 't'"),
  ])
  func syntaxErrors_GiveLineAndColumn(
    text: String, line: Int, column: Int, problem: String
  ) {
    let e = error(points(text))
    #expect(e?.field == "")
    #expect(
      e?.message
        == "invalid JSON at line \(line), column \(column): \(problem)",
      "\(text): \(String(describing: e))")
  }

  @Test
  func syntaxErrors_ComeBeforeFieldErrors_AsIfTheWholeFileWereParsedFirst() {
    // [3] alone is a field error at [0]; the broken text after it is what gets reported.
    let e = error(points("[3, {"))
    #expect(
      e?.field == ""
        && e?.message.hasPrefix("invalid JSON at line 1, column 6") == true)
    #expect(error(points("[3]"))?.field == "[0]")
  }

  @Test func skippedKeys_AreSkipped_ValueAndAll() throws {
    let lenient = JSONKeys<PointKey>(unknown: .skip)
    let x = try read(
      #"{"extra": {"a": [1, {"b": null}], "c": "d"}, "x": 3, "more": [true]}"#
    ) {
      (r: inout JSONReader) throws(JSONInputError) -> Double? in
      var x: Double?
      try r.beginObject()
      while let key = try r.nextKey(lenient) {
        #expect(key == .x)
        x = try r.number()
      }
      return x
    }.get()
    #expect(x == 3)
  }

  @Test func names_OfAMap_AreReadWithEscapes_AndNameTheirField() throws {
    // A map's keys are data (goldens by name), not a format's fixed keys.
    let text = #"{"shop/top": {"x": 1}, "caf\u00e9": {"x": 2}, "b": {"x": "no"}}"#
    let body = { (r: inout JSONReader) throws(JSONInputError) -> [String] in
      var names: [String] = []
      try r.beginObject()
      while let name = try r.nextName() {
        names.append(name)
        try r.beginObject()
        while try r.nextKey(pointKeys) != nil { _ = try r.number() }
      }
      return names
    }
    let e = error(read(text, body))
    #expect(e?.field == "b.x" && e?.message == #"expected a number, found the string "no""#)
    let names = try read(text.replacingOccurrences(of: #""no""#, with: "3"), body).get()
    #expect(names == ["shop/top", "café", "b"])
    #expect(try read("{}", body).get() == [])
    #expect(error(read(#"{"a" 1}"#, body))?.message.hasPrefix("invalid JSON at line 1, column 6") == true)
  }

  @Test func aCopyOfTheReader_IsABookmark() throws {
    let (first, again) = try read("[1, 2]") {
      (r: inout JSONReader) throws(JSONInputError) in
      var ahead = r
      try ahead.beginArray()
      _ = try ahead.nextElement()
      let first = try ahead.number()
      try r.beginArray()
      var all: [Double] = []
      while try r.nextElement() { all.append(try r.number()) }
      return (first, all)
    }.get()
    #expect(first == 1 && again == [1, 2])
  }

  @Test func deepNesting_IsRefusedNotACrash() {
    let text =
      String(repeating: "[", count: 100_000)
      + String(repeating: "]", count: 100_000)
    let e = error(
      read(text) { (r: inout JSONReader) throws(JSONInputError) in
        try r.skipValue()
      })
    #expect(e?.message.contains("nested more than 512 levels deep") == true)
  }
}

// MARK: - Files

extension JSONReaderTests {
  @Test func files_AreReadWhole_AndAMissingOneIsNamed() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waterflow-json-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("big.json").path
    let text =
      "[" + (0..<50_000).map { "{\"x\": \($0)}" }.joined(separator: ",") + "]"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let document = try JSONDocument(contentsOf: path)
    #expect(Array(document.text) == Array(text.utf8))
    let sum = try document.read {
      (r: inout JSONReader) throws(JSONInputError) in
      var sum = 0.0
      try r.beginArray()
      while try r.nextElement() {
        try r.beginObject()
        while try r.nextKey(pointKeys) != nil { sum += try r.number() }
      }
      return sum
    }
    #expect(sum == Double(49_999 * 50_000 / 2))
    let missing = dir.appendingPathComponent("missing.json").path
    #expect(
      throws: JSONInputError(
        file: missing, field: "",
        message: "cannot read the file (no such file or directory)")
    ) { try JSONDocument(contentsOf: missing) }
  }
}

// MARK: - Writing

extension JSONReaderTests {
  @Test func writer_QuotesAndNumbers_FollowTheOneRule() {
    let values: [Double] = [
      0, 1, -1, 0.5, 1e15, 1e15 - 1, -1e15 + 1, 123.456, 1e-7, .infinity,
      -.infinity, .nan, -0.0,
      2.5e20,
    ]
    let text = JSONWriter.text { w in
      for d in values {
        w.write(d)
        w.write(" ")
      }
      w.write(quoting: "a\"b\\c\nd\te\rf\u{1}g\u{1f}h é 😀")
    }
    #expect(
      text
        == values.map { $0.jsonText + " " }.joined()
        + "\"a\\\"b\\\\c\\nd\\te\\rf\\u0001g\\u001fh é 😀\"")
    #expect(
      1e15.jsonText == "1000000000000000.0"
        && (1e15 - 1).jsonText == "999999999999999")
    #expect(
      (-0.0).jsonText == "0" && Double.nan.jsonText == "null"
        && 0.5.jsonText == "0.5")
  }

  @Test func writer_GivesTheSameText_InPiecesOfAnySize() {
    let long = String(repeating: "ab\"", count: 100)
    func write(_ w: JSONWriter) {
      for i in 0..<500 {
        w.write(i)
        w.write(", ")
        w.write(Double(i) / 7)
        w.write(quoting: long)
      }
    }
    var pieces: [Int] = []
    var small: [UInt8] = []
    do {
      let w = JSONWriter(capacity: 64) {
        pieces.append($0.count)
        small += $0
      }
      write(w)
      w.flush()
    }
    #expect(String(decoding: small, as: UTF8.self) == JSONWriter.text(write))
    #expect(pieces.count > 100 && pieces.dropLast().allSatisfy { $0 >= 1 })
  }
}

// MARK: - Fast paths

extension JSONReaderTests {
  @Test(arguments: [
    ("9007199254740991", 9_007_199_254_740_991.0),
    ("-9007199254740991", -9_007_199_254_740_991.0),
    ("9007199254740992", 9_007_199_254_740_992.0),
    ("18446744073709551615", 18_446_744_073_709_551_615.0),
    ("-0", -0.0), ("10e-1", 1), ("1e0", 1), ("1.0", 1), ("100", 100),
  ])
  func wholeNumbers_AroundTheExactLimit_ReadAsTheStandardLibraryReadsThem(
    text: String, value: Double
  ) throws {
    // Whole numbers below 2^53 skip the table of powers; those above must not.
    let d = try number(text).get()
    #expect(d == value && d.sign == value.sign && d == Double(text)!, "\(text) read as \(d)")
  }

  private enum LongKey: String, CaseIterable {
    case columnWidth, columnWidthRounding, columnWidthX, column, c, columnWi
  }

  @Test func keys_SharingTheirFirstEightBytes_AreToldApart() throws {
    let keys = JSONKeys<LongKey>()
    for key in LongKey.allCases {
      let bytes = Array(key.rawValue.utf8)
      let found = bytes.withUnsafeBufferPointer {
        keys.index(of: $0.baseAddress!, count: $0.count)
      }
      #expect(found.map { keys.keys[$0] } == key, "\(key)")
    }
    for unknown in ["columnWidthY", "columnWidt", "columnW", "columnWidthRoundinG", "d", ""] {
      let bytes = Array(unknown.utf8)
      let found = bytes.withUnsafeBufferPointer {
        keys.index(of: $0.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: $0.count)
      }
      #expect(found == nil, "\(unknown)")
    }
  }

  @Test func hugePages_AreTheWholeAlignedPagesInsideTheBuffer() {
    let mib = 1 << 20
    #expect(hugePages(in: 0, byteCount: 4 * mib - 1) == nil)
    #expect(hugePages(in: 0, byteCount: 4 * mib) == 0..<4 * mib)
    #expect(hugePages(in: 16, byteCount: 4 * mib) == 2 * mib..<4 * mib)
    #expect(hugePages(in: 2 * mib - 1, byteCount: 41 * mib) == 2 * mib..<42 * mib)
    #expect(hugePages(in: 2 * mib + 1, byteCount: 4 * mib) == 4 * mib..<6 * mib)
    #expect(hugePages(in: 0, byteCount: 256 * mib) == 0..<256 * mib)
    #expect(hugePages(in: 0, byteCount: 256 * mib + 1) == nil)
  }

  @Test func largeFiles_ReadInHugePages_AreReadWhole() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waterflow-json-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("large.json").path
    // Over 4 MiB and not a whole number of pages: the buffer has whole huge pages and a tail.
    let text = "[" + (0..<500_000).map { "{\"x\": \($0)}" }.joined(separator: ",") + "]"
    #expect(text.utf8.count > 5 << 20)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let document = try JSONDocument(contentsOf: path)
    #expect(document.text.elementsEqual(text.utf8))
    let sum = try document.read { (r: inout JSONReader) throws(JSONInputError) in
      var sum = 0.0
      try r.beginArray()
      while try r.nextElement() {
        try r.beginObject()
        while try r.nextKey(pointKeys) != nil { sum += try r.number() }
      }
      return sum
    }
    #expect(sum == Double(499_999 * 500_000 / 2))
  }
}
