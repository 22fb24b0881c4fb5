package import Cairo
internal import SystemPackage
public import WaterflowRender
internal import PNGCodec
internal import Foundation
internal import WaterflowJSON

/// The libraries and font that decide how text and edges are rasterised: recorded next to the
/// goldens, so a failure on another machine can say first that the stack differs.
///
/// Stored as `Golden/fingerprint.json`:
/// ```json
/// {"cairo": "1.16.0", "pixman": "0.42.2", "freetype": "2.12.1", "pango": "1.50.12",
///  "harfbuzz": "6.0.0", "fontconfig": "2.14.1", "font": "DejaVuSans.ttf",
///  "fontHash": "fnv1a64:…", "fonts": "DejaVuSans.ttf fnv1a64:…, wqy-microhei.ttc fnv1a64:…,
///  NotoColorEmoji.ttf fnv1a64:…, DejaVuSans-Bold.ttf fnv1a64:…"}
/// ```
///
/// Files recorded before text was laid out with Pango lack the last four fields; they read as
/// empty, so such goldens are known to come from another stack.
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
  /// `Font.fileHash` of the font file.
  public var fontHash: String
  /// Pango's version (line breaking, bidi, font fallback).
  public var pango = ""
  /// HarfBuzz's version (shaping).
  public var harfbuzz = ""
  /// Fontconfig's version (which font of the chain covers a character).
  public var fontconfig = ""
  /// Every font file of the configuration, as "NAME HASH" joined by ", ": the chain in the order
  /// tried, then the other faces of its families (`FontStack.faces`).
  public var fonts = ""
  /// The rules the font configuration adds to the files (`FontStack.rules`): "synthetic bold";
  /// empty in files from before there were any.
  public var rules = ""

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

  /// The fingerprint of this process: the loaded libraries and the renderer's fonts.
  public init(renderer: Renderer) {
    self.init(fonts: renderer.fonts)
  }

  /// The fingerprint of this process: the loaded libraries and a chain of fonts.
  ///
  /// - Parameters:
  ///   - fonts: The chain and its other faces.
  ///   - digests: Where the font files' hashes are cached between processes; the value is the
  ///     same whichever cache, or none, gives them.
  package init(fonts: FontStack, digests: FontDigests = .shared) {
    let versions = CairoLibrary.versions
    let files = fonts.fonts + fonts.faces
    // Each file hashed at most once: the first font's digest is both `fontHash` and in `fonts`.
    let hashes = digests.digests(of: files)
    let first = fonts.fonts[0]
    self.init(
      cairo: versions.cairo, pixman: versions.pixman,
      freetype: versions.freetype,
      font: FilePath(first.path).lastComponent?.string ?? first.path, fontHash: hashes[0])
    pango = versions.pango
    harfbuzz = versions.harfbuzz
    fontconfig = versions.fontconfig
    rules = FontStack.rules
    self.fonts = zip(files, hashes)
      .map { "\(FilePath($0.path).lastComponent?.string ?? $0.path) \($1)" }
      .joined(separator: ", ")
  }

  /// The keys every fingerprint file has.
  static let requiredKeys = ["cairo", "pixman", "freetype", "font", "fontHash"]

  /// A fingerprint from a file's fields: the ``requiredKeys`` must be there.
  init(fields: [String: String]) {
    self.init(
      cairo: fields["cairo"] ?? "", pixman: fields["pixman"] ?? "",
      freetype: fields["freetype"] ?? "", font: fields["font"] ?? "",
      fontHash: fields["fontHash"] ?? "")
    pango = fields["pango"] ?? ""
    harfbuzz = fields["harfbuzz"] ?? ""
    fontconfig = fields["fontconfig"] ?? ""
    fonts = fields["fonts"] ?? ""
    rules = fields["rules"] ?? ""
  }

  /// The fields as a file writes them, by key.
  var fields: [(key: String, value: String)] {
    [
      ("cairo", cairo), ("font", font), ("fontHash", fontHash), ("fontconfig", fontconfig),
      ("fonts", fonts), ("freetype", freetype), ("harfbuzz", harfbuzz), ("pango", pango),
      ("pixman", pixman), ("rules", rules),
    ]
  }

  /// "cairo 1.16.0, pixman 0.42.2, freetype 2.12.1, DejaVuSans.ttf (fnv1a64:…)".
  public var description: String {
    // The text libraries and the chain only when recorded (files from before Pango lack them).
    let text = pango.isEmpty ? "" : ", pango \(pango), harfbuzz \(harfbuzz), fontconfig \(fontconfig)"
    let chain = fonts.isEmpty ? "\(font) (\(fontHash))" : fonts
    let extra = rules.isEmpty ? "" : ", \(rules)"
    return "cairo \(cairo), pixman \(pixman), freetype \(freetype)\(text), \(chain)\(extra)"
  }

  /// What changed from `recorded` to `self`, one phrase per part, for example
  /// `"freetype 2.12.1 → 2.13.2"`; empty when they are equal.
  public func changes(since recorded: FontStackFingerprint) -> [String] {
    var out: [String] = []
    func compare(_ label: String, _ old: String, _ new: String) {
      // Fingerprints from before Pango have no text libraries.
      if old != new { out.append("\(label) \(old.isEmpty ? "(none)" : old) → \(new)") }
    }
    compare("cairo", recorded.cairo, cairo)
    compare("pixman", recorded.pixman, pixman)
    compare("freetype", recorded.freetype, freetype)
    compare("pango", recorded.pango, pango)
    compare("harfbuzz", recorded.harfbuzz, harfbuzz)
    compare("fontconfig", recorded.fontconfig, fontconfig)
    compare("font rules", recorded.rules, rules)
    compare("font", recorded.font, font)
    compare("font file hash", recorded.fontHash, fontHash)
    if recorded.font == font && recorded.fontHash == fontHash {
      compare("fonts", recorded.fonts, fonts)
    }
    return out
  }

  /// The names of the chain's font files, without their hashes: what tells another font (a
  /// drawing change) from another build of the same font on another system.
  package var fontNames: [String] {
    guard !fonts.isEmpty else { return [font] }
    return fonts.split(separator: ", ").map { String($0.split(separator: " ").first ?? "") }
  }

  /// Whether text drawn on `recorded`'s stack may have been drawn with other font files than
  /// on this one, by name: then its boxes would misreport a change of font as moved text.
  ///
  /// Fonts added after the recorded ones (the emoji font and the bold face, which goldens from
  /// before them lack) are not other fonts: every font recorded is still tried first, in the
  /// same order, so text the recorded fonts drew is drawn by them again, and a text that now
  /// draws differently (a box that became an emoji) fails by its box, as a change should.
  package func drawsWithOtherFonts(than recorded: FontStackFingerprint) -> Bool {
    let (old, new) = (recorded.fontNames, fontNames)
    return !(new.starts(with: old) || old.starts(with: new))
  }

  /// Reads a fingerprint file (the folder's stack of a golden folder's file); nil when it does
  /// not exist.
  ///
  /// - Throws: ``GoldenError`` (`.file`) when the file exists but is not a fingerprint.
  public static func read(from path: String) throws(GoldenError)
    -> FontStackFingerprint?
  {
    try GoldenFingerprints.read(from: path)?.folder
  }

  /// Reads the fingerprint that comes next; a `goldens` member is handed to `goldens`, and
  /// skipped when there is none to take it.
  ///
  /// - Throws: ``JSONInputError``: a field that is not a string, or a required one missing.
  static func read(
    _ r: inout JSONReader,
    goldens: ((inout JSONReader) throws(JSONInputError) -> Void)? = nil
  ) throws(JSONInputError) -> FontStackFingerprint {
    var parts: [String: String] = [:]
    try r.beginObject()
    while let key = try r.nextKey(keys) {
      if key == .goldens {
        if let goldens { try goldens(&r) } else { try r.skipValue() }
      } else {
        parts[key.rawValue] = try r.string()
      }
    }
    for key in requiredKeys where parts[key] == nil {
      throw r.fail(key: key, "missing")
    }
    return FontStackFingerprint(fields: parts)
  }

  /// The fingerprint in `text`, a fingerprint file's contents, as a snapshot's PNG carries it.
  ///
  /// - Throws: ``GoldenError`` (`.file`) naming `file` and the field that is wrong.
  package static func read(_ text: some Collection<UInt8>, file: String) throws(GoldenError)
    -> FontStackFingerprint
  {
    do throws(JSONInputError) {
      return try GoldenFingerprints.read(JSONDocument(text, file: file)).folder
    } catch {
      throw GoldenFingerprints.invalid(error, in: file)
    }
  }

  /// The keys a fingerprint object may have; a newer Waterflow may record more, which are
  /// skipped.
  private enum Key: String, CaseIterable {
    case cairo, pixman, freetype, font, fontHash, pango, harfbuzz, fontconfig, fonts, rules, goldens
  }
  private static let keys = JSONKeys<Key>(unknown: .skip)

  private enum CodingKeys: String, CodingKey, CaseIterable {
    case cairo, pixman, freetype, font, fontHash, pango, harfbuzz, fontconfig, fonts, rules
  }

  /// The file's bytes: pretty, sorted keys, a final newline, so diffs in review stay small.
  public var fileContents: [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [
      .prettyPrinted, .sortedKeys, .withoutEscapingSlashes,
    ]
    return Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
  }
}
