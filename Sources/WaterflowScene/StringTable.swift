internal import WaterflowInputs
import WaterflowJSON

/// A locale's strings: a JSON object from key to text, which a scene's `"@key"` texts are
/// looked up in (`"@@"` starts a text that is a literal `@`).
public struct StringTable: Sendable {
  /// The locale's name, as the shot file gives it (`ar`, `zh-Hans`).
  public var locale: String
  /// The file the strings came from, for messages.
  public var path: String
  /// The texts, by key.
  public var strings: [String: String]

  /// A table of strings for a locale.
  public init(locale: String, strings: [String: String], path: String = "") {
    self.locale = locale
    self.strings = strings
    self.path = path
  }

  /// Reads a string table: a JSON object whose values are strings.
  ///
  /// - Throws: ``SceneError`` naming the file, and the key whose value is not a string.
  public init(contentsOf path: String, locale: String) throws(SceneError) {
    let document: JSONDocument
    InputRecorder.note(path)
    do { document = try JSONDocument(contentsOf: path) } catch {
      throw SceneError(
        file: path, field: "", message: "the strings of locale \(locale): \(error.message)")
    }
    do {
      let strings = try document.read(options: Scene.readingOptions) {
        (r: inout JSONReader) throws(JSONInputError) -> [String: String] in
        guard try r.peek() == .object else {
          throw r.fail(
            "expected an object of strings like {\"title\": \"夏日穿搭\"}, found \(try r.peek().name)")
        }
        var strings: [String: String] = [:]
        try r.beginObject()
        while let key = try r.nextName() {
          if strings[key] != nil { throw r.fail("given twice") }
          guard try r.peek() == .string else {
            throw r.fail("expected a string, found \(try r.peek().name)")
          }
          strings[key] = try r.string()
        }
        return strings
      }
      self.init(locale: locale, strings: strings, path: path)
    } catch { throw SceneError(error) }
  }

  /// What a text shows in this locale: the table's text for `"@key"`, `"@…"` for `"@@…"`, each
  /// `{@key}` inside a longer text replaced by the table's text (`"{likes} · {@likes.unit}"`),
  /// and any other text as it is; the key when the table lacks one.
  ///
  /// - Complexity: O(length of the text).
  public func lookUp(_ text: String) -> Result<String, MissingKey> {
    if text.utf8.first == UInt8(ascii: "@") {
      let key = text.dropFirst()
      if key.utf8.first == UInt8(ascii: "@") { return .success(String(key)) }
      guard let value = strings[String(key)] else { return .failure(MissingKey(key: String(key))) }
      return .success(value)
    }
    guard Self.hasEmbeddedKey(text) else { return .success(text) }
    var result = ""
    var rest = text[...]
    while let open = rest.range(of: "{@") {
      // `{{` is a literal brace, as anywhere in a field text: an even run of braces before the
      // @ is literal braces, not a key.
      let before = rest[..<open.lowerBound]
      let braces = 1 + before.reversed().prefix(while: { $0 == "{" }).count
      if braces % 2 == 0 {
        result += rest[..<open.upperBound]
        rest = rest[open.upperBound...]
        continue
      }
      guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
      let key = String(rest[open.upperBound..<close])
      guard let value = strings[key] else { return .failure(MissingKey(key: key)) }
      result += before
      result += value
      rest = rest[rest.index(after: close)...]
    }
    result += rest
    return .success(result)
  }

  /// Whether a text has a `{@key}` inside it: the one scan a localized feed's data costs.
  public static func hasEmbeddedKey(_ text: String) -> Bool {
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if previous == UInt8(ascii: "{") && byte == UInt8(ascii: "@") { return true }
      previous = byte
    }
    return false
  }

  /// A key a text names that the table lacks.
  public struct MissingKey: Error, Hashable, Sendable {
    public var key: String
    public init(key: String) { self.key = key }
  }

  /// Whether the locale's script reads right to left: Arabic, Hebrew, Persian and Urdu (by the
  /// language subtag, so `ar-SA` and `he-IL` count).
  public var isRightToLeft: Bool { Self.isRightToLeft(locale: locale) }

  /// Whether a locale's language reads right to left.
  public static func isRightToLeft(locale: String) -> Bool {
    let language = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? ""
    return ["ar", "he", "fa", "ur", "iw", "yi", "ps", "sd", "ug", "ckb", "dv"].contains(
      language.lowercased())
  }
}
