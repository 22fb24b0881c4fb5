package import Cairo
public import WaterflowRender
public import PNGCodec
internal import Foundation
internal import WaterflowJSON

/// The libraries and font that decide how text and edges are rasterised: recorded next to the
/// goldens, so a failure on another machine can say first that the stack differs.
///
/// Stored as `Golden/fingerprint.json`:
/// ```json
/// {"cairo": "1.16.0", "pixman": "0.42.2", "freetype": "2.12.1",
///  "font": "DejaVuSans.ttf", "fontHash": "fnv1a64:…"}
/// ```
public struct FontStackFingerprint: Hashable, Sendable, Codable,
  CustomStringConvertible
{
  /// Cairo's version.
  public var cairo: String
  /// Pixman's version (cairo's rasteriser).
  public var pixman: String
  /// FreeType's version (glyph outlines and hinting).
  public var freetype: String
  /// The font file's name.
  public var font: String
  /// ``Font/fileHash`` of the font file.
  public var fontHash: String

  /// The name of the file in the golden folder.
  public static let fileName = "fingerprint.json"

  /// Creates a fingerprint from its parts.
  public init(
    cairo: String, pixman: String, freetype: String, font: String,
    fontHash: String
  ) {
    self.cairo = cairo
    self.pixman = pixman
    self.freetype = freetype
    self.font = font
    self.fontHash = fontHash
  }

  /// The fingerprint of this process: the loaded libraries and the renderer's font.
  public init(renderer: Renderer) {
    self.init(font: renderer.font)
  }

  /// The fingerprint of this process: the loaded libraries and the given font.
  package init(font: Font) {
    let versions = CairoLibrary.versions
    self.init(
      cairo: versions.cairo, pixman: versions.pixman,
      freetype: versions.freetype,
      font: (font.path as NSString).lastPathComponent, fontHash: font.fileHash)
  }

  /// "cairo 1.16.0, pixman 0.42.2, freetype 2.12.1, DejaVuSans.ttf (fnv1a64:…)".
  public var description: String {
    "cairo \(cairo), pixman \(pixman), freetype \(freetype), \(font) (\(fontHash))"
  }

  /// What changed from `recorded` to `self`, one phrase per part, for example
  /// `"freetype 2.12.1 → 2.13.2"`; empty when they are equal.
  public func changes(since recorded: FontStackFingerprint) -> [String] {
    var out: [String] = []
    func compare(_ label: String, _ old: String, _ new: String) {
      if old != new { out.append("\(label) \(old) → \(new)") }
    }
    compare("cairo", recorded.cairo, cairo)
    compare("pixman", recorded.pixman, pixman)
    compare("freetype", recorded.freetype, freetype)
    compare("font", recorded.font, font)
    compare("font file hash", recorded.fontHash, fontHash)
    return out
  }

  /// Reads a fingerprint file; nil when it does not exist.
  ///
  /// - Throws: ``GoldenError`` (`.file`) when the file exists but is not a fingerprint.
  public static func read(from path: String) throws(GoldenError)
    -> FontStackFingerprint?
  {
    guard let document = try? JSONDocument(contentsOf: path) else { return nil }
    do throws(JSONInputError) {
      return try document.read { (r: inout JSONReader) throws(JSONInputError) in
        var parts: [CodingKeys: String] = [:]
        try r.beginObject()
        while let key = try r.nextKey(keys) { parts[key] = try r.string() }
        for key in CodingKeys.allCases where parts[key] == nil {
          throw r.fail(key: key.rawValue, "missing")
        }
        return FontStackFingerprint(
          cairo: parts[.cairo]!, pixman: parts[.pixman]!,
          freetype: parts[.freetype]!,
          font: parts[.font]!, fontHash: parts[.fontHash]!)
      }
    } catch {
      throw GoldenError(
        .file,
        "The font-stack fingerprint '\(path)' is not valid JSON with cairo, pixman, freetype, font and fontHash (\(error.field.isEmpty ? "" : error.field + ": ")\(error.message)); delete it and re-record."
      )
    }
  }

  private enum CodingKeys: String, CodingKey, CaseIterable {
    case cairo, pixman, freetype, font, fontHash
  }
  // A newer Waterflow may record more; what this one reads is checked.
  private static let keys = JSONKeys<CodingKeys>(unknown: .skip)

  /// The file's bytes: pretty, sorted keys, a final newline, so diffs in review stay small.
  public var fileContents: [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [
      .prettyPrinted, .sortedKeys, .withoutEscapingSlashes,
    ]
    return Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
  }
}
