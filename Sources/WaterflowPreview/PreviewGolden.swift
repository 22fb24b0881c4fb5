internal import Foundation
internal import FileTransactions
internal import WaterflowShots

/// A pin as a golden: its manifest entry, named from the scene and the pin, and the edit that
/// adds it to a manifest without rewriting the rest of the file.
public struct PreviewGolden: Sendable, Equatable {
  /// The golden's name: `preview/notes/iphone-6.9-dark-ar-300`.
  public var name: String
  /// The manifest entry, one line of JSON.
  public var entry: String

  /// A golden by name and entry (an existing golden: its entry is already in the manifest).
  public init(name: String, entry: String) {
    self.name = name
    self.entry = entry
  }

  /// The golden of a pin of `file` (a scene or a shot file), for a manifest at `manifest`.
  ///
  /// - Parameters:
  ///   - pin: The pin.
  ///   - file: The previewed scene or shot file.
  ///   - shotFile: Whether `file` is a shot file (the entry then names its shot).
  ///   - manifest: The manifest the entry goes in: paths are made relative to its folder.
  ///   - scale: The scale a scene's own viewport is drawn at (goldens of a scene default to 1).
  public init(pin: PreviewPin, of file: String, shotFile: Bool, manifest: String, scale: Double) {
    var offset = String(pin.offset)
    if offset.hasSuffix(".0") { offset.removeLast(2) }
    let parts = [pin.device, pin.appearance.rawValue] + (pin.locale == "base" ? [] : [pin.locale]) + [offset]
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    func clean(_ text: String) -> String { String(text.map { allowed.contains($0) ? $0 : "-" }) }
    name = "preview/" + clean(pin.scene) + "/" + clean(parts.joined(separator: "-"))
    let path = Self.relative(file, to: URL(fileURLWithPath: FileWatcher.absolute(manifest)).deletingLastPathComponent().path)
    func quoted(_ text: String) -> String {
      let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
      return data.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? "\"\(text)\""
    }
    var fields = ["\"name\": \(quoted(name))"]
    if shotFile {
      fields += [
        "\"shots\": \(quoted(path))",
        "\"shot\": \(quoted("\(pin.locale)/\(pin.appearance.rawValue)/\(pin.device)/\(pin.scene)"))",
        "\"offset\": \(offset)",
      ]
    } else {
      fields += ["\"scene\": \(quoted(path))", "\"offset\": \(offset)", "\"appearance\": \"\(pin.appearance.rawValue)\""]
      if pin.device == PreviewPin.sceneViewport {
        var scaleText = String(scale)
        if scaleText.hasSuffix(".0") { scaleText.removeLast(2) }
        fields.append("\"scale\": \(scaleText)")
      } else {
        fields.append("\"device\": \(quoted(pin.device))")
      }
    }
    entry = "{" + fields.joined(separator: ", ") + "}"
  }

  /// `path` relative to the folder `base` (both made absolute first).
  static func relative(_ path: String, to base: String) -> String {
    let target = FileWatcher.absolute(path).split(separator: "/")
    let from = FileWatcher.absolute(base).split(separator: "/")
    var common = 0
    while common < min(target.count, from.count), target[common] == from[common] { common += 1 }
    let up = Array(repeating: "..", count: from.count - common)
    return (up + target[common...].map(String.init)).joined(separator: "/")
  }

  /// Adds the entry to a manifest's `goldens`, keeping the rest of the file as it is; creates the
  /// manifest when there is none. An entry of the same name already there is left alone.
  ///
  /// - Returns: Whether the entry was added.
  /// - Throws: ``PreviewError`` naming the manifest when it cannot be read or written.
  @discardableResult
  public func add(to manifest: String) throws(PreviewError) -> Bool {
    guard let data = FileManager.default.contents(atPath: manifest) else {
      let folder = URL(fileURLWithPath: manifest).deletingLastPathComponent().path
      try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      return try write("{\n  \"goldens\": [\n    \(entry)\n  ]\n}\n", to: manifest)
    }
    guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
      let goldens = object["goldens"] as? [[String: Any]]
    else {
      throw PreviewError("\(manifest): not a manifest ({\"goldens\": [...]}); fix it, or give another with --manifest.")
    }
    if goldens.contains(where: { $0["name"] as? String == name }) { return false }
    let text = String(decoding: data, as: UTF8.self)
    guard let close = Self.closingBracket(ofArrayAt: "\"goldens\"", in: text) else {
      throw PreviewError("\(manifest): cannot find the end of \"goldens\".")
    }
    // After the last entry, on a line of its own, indented as the last entry's line is.
    var insertAt = close
    while insertAt > text.startIndex, text[text.index(before: insertAt)].isWhitespace { insertAt = text.index(before: insertAt) }
    let lineStart = text[..<insertAt].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
    let indent = goldens.isEmpty ? "    " : String(text[lineStart...].prefix { $0 == " " || $0 == "\t" })
    let separator = goldens.isEmpty ? "" : ","
    return try write(String(text[..<insertAt]) + separator + "\n" + indent + entry + String(text[insertAt...]), to: manifest)
  }

  private func write(_ text: String, to path: String) throws(PreviewError) -> Bool {
    do { try writeAtomically(Array(text.utf8), to: path) } catch { throw PreviewError("\(error)") }
    return true
  }

  /// The `]` that closes the array after `key`, skipping strings.
  static func closingBracket(ofArrayAt key: String, in text: String) -> String.Index? {
    guard let found = text.firstRange(of: key),
      let open = text[found.upperBound...].firstIndex(of: "[")
    else { return nil }
    var depth = 0
    var inString = false
    var escaped = false
    var index = open
    while index < text.endIndex {
      let character = text[index]
      if inString {
        if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
      } else if character == "\"" {
        inString = true
      } else if character == "[" || character == "{" {
        depth += 1
      } else if character == "]" || character == "}" {
        depth -= 1
        if depth == 0 { return index }
      }
      index = text.index(after: index)
    }
    return nil
  }
}
