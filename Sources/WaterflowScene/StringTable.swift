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

  /// What a text shows in this locale: the table's text for `"@key"`, `"@…"` for `"@@…"`,
  /// and any other text as it is; nil (with the key) when the table lacks the key.
  ///
  /// - Complexity: O(length of the text).
  public func lookUp(_ text: String) -> Result<String, MissingKey> {
    guard text.utf8.first == UInt8(ascii: "@") else { return .success(text) }
    let key = text.dropFirst()
    if key.utf8.first == UInt8(ascii: "@") { return .success(String(key)) }
    guard let value = strings[String(key)] else { return .failure(MissingKey(key: String(key))) }
    return .success(value)
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
