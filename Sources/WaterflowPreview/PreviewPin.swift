internal import Foundation
internal import FileTransactions
public import WaterflowScene

/// One screen of a live preview: a scene of the file at an offset, on a device (or the scene's
/// own viewport), in an appearance and a locale.
public struct PreviewPin: Hashable, Sendable, Codable {
  /// The scene's name in the file (its file's base name).
  public var scene: String
  /// The scroll offset.
  public var offset: Double
  /// A device's name (`iphone-6.9`), or ``PreviewPin/sceneViewport`` for the scene's own.
  public var device: String
  /// `light` or `dark`.
  public var appearance: Appearance
  /// The locale's name (`base`: the texts as written).
  public var locale: String

  /// The device name that stands for the scene's own viewport and scale.
  public static let sceneViewport = "scene"

  /// Creates a pin.
  public init(
    scene: String, offset: Double, device: String = PreviewPin.sceneViewport, appearance: Appearance = .light,
    locale: String = "base"
  ) {
    self.scene = scene
    self.offset = offset
    self.device = device
    self.appearance = appearance
    self.locale = locale
  }

  /// What the page shows under the pin: `notes · 600 pt · iphone-6.9 · dark · ar`.
  public var label: String {
    var offsetText = String(offset)
    if offsetText.hasSuffix(".0") { offsetText.removeLast(2) }
    return [scene, "\(offsetText) pt", device, appearance.rawValue, locale].joined(separator: " · ")
  }
}

extension PreviewPin {
  private enum CodingKeys: String, CodingKey { case scene, offset, device, appearance, locale }

  // By hand: Appearance is WaterflowStyle's, and a conformance added here would be everyone's.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let appearance = try c.decodeIfPresent(String.self, forKey: .appearance) ?? "light"
    guard let look = Appearance(rawValue: appearance) else {
      throw DecodingError.dataCorruptedError(
        forKey: .appearance, in: c, debugDescription: "expected \"light\" or \"dark\", got \"\(appearance)\"")
    }
    self.init(
      scene: try c.decode(String.self, forKey: .scene), offset: try c.decode(Double.self, forKey: .offset),
      device: try c.decodeIfPresent(String.self, forKey: .device) ?? PreviewPin.sceneViewport, appearance: look,
      locale: try c.decodeIfPresent(String.self, forKey: .locale) ?? "base")
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(scene, forKey: .scene)
    try c.encode(offset, forKey: .offset)
    try c.encode(device, forKey: .device)
    try c.encode(appearance.rawValue, forKey: .appearance)
    try c.encode(locale, forKey: .locale)
  }
}

/// The pins saved beside a previewed file, `FILE.preview.json`, so that a team commits them:
/// `{"pins": [{"scene": "notes", "offset": 0, "device": "scene", "appearance": "dark", "locale": "base"}]}`.
public enum PreviewPins {
  /// The file the pins of `file` are kept in.
  public static func path(for file: String) -> String { file + ".preview.json" }

  /// The pins saved for a file, or nil when none are.
  ///
  /// - Throws: ``PreviewError`` naming the pins file and what is wrong with it.
  public static func saved(for file: String) throws(PreviewError) -> [PreviewPin]? {
    let path = path(for: file)
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    struct Saved: Decodable { var pins: [PreviewPin] }
    do {
      return try JSONDecoder().decode(Saved.self, from: data).pins
    } catch let DecodingError.dataCorrupted(context) {
      throw PreviewError("\(path): \(field(context.codingPath)): \(context.debugDescription)")
    } catch let DecodingError.keyNotFound(key, context) {
      throw PreviewError("\(path): \(field(context.codingPath + [key])): missing")
    } catch let DecodingError.typeMismatch(_, context) {
      throw PreviewError("\(path): \(field(context.codingPath)): \(context.debugDescription)")
    } catch let DecodingError.valueNotFound(_, context) {
      throw PreviewError("\(path): \(field(context.codingPath)): missing")
    } catch {
      throw PreviewError("\(path): \(error)")
    }
  }

  /// Writes the pins of a file, whole, then renamed over the old ones.
  ///
  /// - Throws: ``PreviewError`` naming the file when it cannot be written.
  public static func save(_ pins: [PreviewPin], for file: String) throws(PreviewError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(["pins": pins])) ?? Data("{\"pins\": []}".utf8)
    do { try writeAtomically(Array(data) + [0x0A], to: path(for: file)) } catch {
      throw PreviewError("\(error)")
    }
  }

  /// `pins[2].offset`, as the command line names fields.
  private static func field(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
    }
    return text.isEmpty ? "the file" : text
  }
}

/// A preview's failure: a message naming the file and the field, as the command line prints it.
public struct PreviewError: Error, CustomStringConvertible, Sendable {
  public var description: String
  /// Creates an error.
  public init(_ description: String) { self.description = description }
}
