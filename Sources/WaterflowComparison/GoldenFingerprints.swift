package import Foundation
package import WaterflowJSON

/// The golden folder's `fingerprint.json`: the font stack each golden was recorded with.
///
/// The file keeps the folder's stack at its top level, exactly as older versions wrote it, and
/// adds a `goldens` object only for goldens recorded on another stack, one line each:
/// ```json
/// {
///   "cairo" : "1.16.0",
///   …
///   "goldens" : {
///     "shop/top" : {"cairo" : "1.18.4", "font" : "DejaVuSans.ttf", …}
///   }
/// }
/// ```
/// So re-recording one golden changes one line, a file without `goldens` is read as before, and
/// an older Waterflow reading a newer file sees the folder's stack (it skips unknown keys).
package struct GoldenFingerprints: Equatable {
  /// The folder's stack: of every golden without an entry.
  package var folder: FontStackFingerprint
  /// Goldens recorded on another stack than the folder's, by name.
  package var goldens: [String: FontStackFingerprint] = [:]

  package init(folder: FontStackFingerprint, goldens: [String: FontStackFingerprint] = [:]) {
    self.folder = folder
    self.goldens = goldens
  }

  /// The stack a golden was recorded with.
  package func fingerprint(of name: String) -> FontStackFingerprint {
    goldens[name] ?? folder
  }

  /// Notes that `name` was recorded on `stack`: its own entry, or none when it is the folder's.
  package mutating func set(_ stack: FontStackFingerprint, for name: String) {
    goldens[name] = stack == folder ? nil : stack
  }

  /// Serialises writers of the file in this process (goldens are recorded in parallel).
  package static let lock = NSLock()

  /// Reads the file; nil when it does not exist.
  ///
  /// - Throws: ``GoldenError`` (`.file`) naming the file and the field that is wrong.
  package static func read(from path: String) throws(GoldenError) -> GoldenFingerprints? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    do throws(JSONInputError) {
      return try read(JSONDocument(contentsOf: path))
    } catch {
      throw invalid(error, in: path)
    }
  }

  /// Reads a fingerprint document: the folder's stack, and any goldens' own.
  ///
  /// - Throws: ``JSONInputError`` naming the field that is wrong.
  package static func read(_ document: JSONDocument) throws(JSONInputError) -> GoldenFingerprints {
    try document.read { (r: inout JSONReader) throws(JSONInputError) in
      var goldens: [String: FontStackFingerprint] = [:]
      let folder = try FontStackFingerprint.read(&r) { (r: inout JSONReader) throws(JSONInputError) in
        try r.beginObject()
        while let name = try r.nextName() {
          guard goldens[name] == nil else { throw r.fail("given twice") }
          goldens[name] = try FontStackFingerprint.read(&r)
        }
      }
      return GoldenFingerprints(folder: folder, goldens: goldens)
    }
  }

  /// The error for a damaged fingerprint file, naming the file and the field.
  package static func invalid(_ error: JSONInputError, in path: String) -> GoldenError {
    GoldenError(
      .file,
      "The font-stack fingerprint '\(path)' is not valid (\(error.field.isEmpty ? "" : error.field + ": ")\(error.message)); delete it and re-record."
    )
  }

  /// The file's bytes: without entries, exactly ``FontStackFingerprint/fileContents``; entries
  /// go last, sorted by name, one line each.
  package var fileContents: [UInt8] {
    let plain = folder.fileContents
    guard !goldens.isEmpty else { return plain }
    // Drop the closing "}\n" and continue the object.
    var text = String(decoding: plain.dropLast(2), as: UTF8.self)
    while text.last == "\n" || text.last == " " { text.removeLast() }
    text += ",\n  \"goldens\" : {\n"
    text += goldens.keys.sorted().map { name in
      let s = goldens[name]!
      let fields = s.fields.map { "\(quote($0.key)) : \(quote($0.value))" }
        .joined(separator: ", ")
      return "    \(quote(name)) : {\(fields)}"
    }.joined(separator: ",\n")
    text += "\n  }\n}\n"
    return Array(text.utf8)
  }

  private func quote(_ s: String) -> String { JSONWriter.text { $0.write(quoting: s) } }
}
