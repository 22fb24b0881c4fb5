internal import CCairo
internal import Foundation
import Synchronization

/// The fonts text is drawn with, tried in order for each character: a fallback chain loaded
/// from files only.
///
/// Text is shaped by HarfBuzz and laid out by Pango (bidi, line breaks, "…" tails), but the
/// fonts come from a private fontconfig configuration that holds exactly these files: no
/// system font, `fonts.conf` or `FONTCONFIG_FILE` can change what is drawn. The default chain is
/// DejaVu Sans, then a CJK font (WenQuanYi Micro Hei), so that Chinese, Japanese and Korean
/// text is drawn rather than boxes, then a colour emoji font (Noto Color Emoji). Besides the
/// chain, the configuration holds other faces of its families (DejaVu Sans Bold), so that a bold
/// request gets the real bold face rather than the regular one.
///
/// A stack lays out text on one thread at a time (Pango contexts are not thread-safe); give
/// each thread its own.
///
/// ```swift
/// let fonts = try FontStack(paths: FontStack.defaultPaths)
/// let price = TextLayout("¥129", fonts: fonts, size: 13)
/// context.draw(price, x: 10, y: 10)
/// ```
public final class FontStack {
  /// The fonts, in the order they are tried.
  public let fonts: [Font]
  /// Other faces of the chain's families (DejaVu Sans Bold): what a weight or style request
  /// gets, never a fallback of their own (fontconfig tries them only within their family).
  public let faces: [Font]
  /// The family list Pango is asked for: the fonts' families in chain order.
  let families: String
  /// The shared fontconfig configuration holding exactly these files.
  private let configuration: FontConfiguration
  /// The font map and context, made on first use: a stack made only for its fingerprint or
  /// its coverage never pays for fontconfig's scan of the files.
  private var pango: (map: UnsafeMutablePointer<PangoFontMap>, context: OpaquePointer)?

  /// The CJK fonts looked for after DejaVu Sans: WenQuanYi Micro Hei where systems install it
  /// (Debian and Ubuntu, Fedora, Arch), then Noto Sans CJK (Debian, Fedora, Arch).
  public static let cjkSearchPaths = [
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc",
    "/usr/share/fonts/wenquanyi/wqy-microhei/wqy-microhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/opt/homebrew/share/fonts/wqy-microhei.ttc",
    "/usr/local/share/fonts/wqy-microhei.ttc",
    NSHomeDirectory() + "/Library/Fonts/wqy-microhei.ttc",
  ]

  /// The CJK font of the default chain: the first of ``cjkSearchPaths`` that exists (Debian's
  /// fonts-wqy-microhei path when none does, so that the error names it).
  public static let cjkPath: String =
    cjkSearchPaths.first { FileManager.default.fileExists(atPath: $0) } ?? cjkSearchPaths[0]

  /// The colour emoji fonts looked for after the CJK font: Noto Color Emoji where Debian and
  /// Ubuntu, Fedora, Arch and Alpine, openSUSE and Homebrew put it.
  public static let emojiSearchPaths = [
    "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    "/usr/share/fonts/google-noto-color-emoji-fonts/NotoColorEmoji.ttf",
    "/usr/share/fonts/noto/NotoColorEmoji.ttf",
    "/usr/share/fonts/truetype/NotoColorEmoji.ttf",
    "/opt/homebrew/share/fonts/NotoColorEmoji.ttf",
    "/usr/local/share/fonts/NotoColorEmoji.ttf",
    NSHomeDirectory() + "/Library/Fonts/NotoColorEmoji.ttf",
  ]

  /// The emoji font of the default chain: the first of ``emojiSearchPaths`` that exists
  /// (Debian's fonts-noto-color-emoji path when none does, so that the error names it).
  public static let emojiPath: String =
    emojiSearchPaths.first { FileManager.default.fileExists(atPath: $0) } ?? emojiSearchPaths[0]

  /// The default chain: DejaVu Sans, then the CJK font, then the emoji font.
  public static var defaultPaths: [String] { [Font.defaultPath, cjkPath, emojiPath] }

  /// The faces of the default families besides the chain's own: DejaVu Sans Bold.
  public static var defaultFacePaths: [String] { [Font.defaultBoldPath] }

  /// What to install for the CJK font, per system: the end of a "font not found" message.
  static let cjkInstallAdvice =
    "install WenQuanYi Micro Hei (Debian/Ubuntu: apt-get install fonts-wqy-microhei; Fedora: "
    + "dnf install wqy-microhei-fonts; Arch: pacman -S wqy-microhei; macOS: brew install --cask "
    + "font-wqy-microhei)"

  /// What to install for the emoji font, per system: the end of a "font not found" message.
  static let emojiInstallAdvice =
    "install Noto Color Emoji (Debian/Ubuntu: apt-get install fonts-noto-color-emoji; Fedora: "
    + "dnf install google-noto-color-emoji-fonts; Arch: pacman -S noto-fonts-emoji; Alpine: apk "
    + "add font-noto-emoji; macOS: brew install --cask font-noto-color-emoji)"

  /// Loads a chain of font files; the first is tried first.
  ///
  /// A font whose family an earlier font already has is left out, so that `--font` with, say,
  /// a bold DejaVu Sans replaces the regular one instead of losing to it in fontconfig's match.
  ///
  /// - Parameters:
  ///   - paths: The chain's files, in the order they are tried.
  ///   - faces: Other faces of the chain's families, as ``init(fonts:faces:)`` takes them.
  /// - Throws: A ``GraphicsError`` naming the first file that cannot be loaded.
  public convenience init(paths: [String], faces: [String] = FontStack.defaultFacePaths) throws {
    var fonts: [Font] = []
    for path in paths where !fonts.contains(where: { $0.path == path }) {
      fonts.append(try Font(contentsOfFile: path))
    }
    var others: [Font] = []
    for path in faces
    where !fonts.contains(where: { $0.path == path }) && !others.contains(where: { $0.path == path }) {
      others.append(try Font(contentsOfFile: path))
    }
    try self.init(fonts: fonts, faces: others)
  }

  /// Makes a chain of loaded fonts; the first is tried first.
  ///
  /// - Parameters:
  ///   - fonts: The chain.
  ///   - faces: Other faces (bold, italic) of the chain's families. A face is kept only when the
  ///     chain's font of its family is that family's regular face: with a bold or italic font
  ///     in the chain (`--font DejaVuSans-Oblique.ttf`), a bold face would win fontconfig's match
  ///     for upright text, which ranks slant above weight, and that font would no longer draw
  ///     the text it was given for.
  /// - Throws: A ``GraphicsError`` when the list is empty.
  public init(fonts: [Font], faces: [Font] = []) throws {
    var chain: [Font] = []
    for font in fonts where !chain.contains(where: { $0.familyName == font.familyName }) {
      chain.append(font)
    }
    guard !chain.isEmpty else {
      throw GraphicsError(.invalidFont, path: "", "A font stack needs at least one font.")
    }
    var others: [Font] = []
    for face in faces
    where !(chain + others).contains(where: { $0.path == face.path })
      && chain.contains(where: { $0.familyName == face.familyName && $0.isRegularStyle })
    {
      others.append(face)
    }
    self.fonts = chain
    self.faces = others
    // Commas separate families in a Pango description; a family name with one is never split.
    families = chain.map { $0.familyName.replacingOccurrences(of: ",", with: " ") }
      .joined(separator: ",")
    // Pango asks for the family "emoji" for what it segments as emoji (UTS #51: "🍓", "☕️",
    // "1️⃣", "👍🏽"), so that those draw in colour even where a text font has a black-and-white
    // glyph ("😍" in DejaVu Sans); the configuration says which family that is.
    let emoji = chain.first(where: \.isColor).map { color in
      ([color] + chain.filter { $0 !== color }).map(\.familyName)
    }
    configuration = try FontConfiguration.shared(
      for: chain.map(\.path) + others.map(\.path), emojiFamilies: emoji ?? [])
  }

  deinit {
    if let pango {
      waterflow_object_unref(UnsafeMutableRawPointer(pango.context))
      waterflow_object_unref(pango.map)
    }
  }

  /// The Pango context text is laid out in, made on first use.
  var pangoContext: OpaquePointer {
    if let pango { return pango.context }
    let map = waterflow_font_map_new(configuration.pointer)!
    let context = waterflow_pango_context_new(map)!
    pango = (map, context)
    return context
  }

  /// The characters of `text` that no font in the chain has a glyph for, in order, without
  /// repeats; controls, spaces and invisible formatting characters are never missing.
  ///
  /// The other faces count too: fontconfig tries them after their family's chain font, so a
  /// character only DejaVu Sans Bold has (bold mathematical letters) is drawn, not a box.
  ///
  /// - Complexity: O(n × f) for n characters and f fonts.
  public func missingCharacters(in text: String) -> [Unicode.Scalar] {
    var missing: [Unicode.Scalar] = []
    for scalar in text.unicodeScalars where !Self.needsNoGlyph(scalar) {
      if !missing.contains(scalar) && !fonts.contains(where: { $0.hasGlyph(for: scalar) })
        && !faces.contains(where: { $0.hasGlyph(for: scalar) })
      {
        missing.append(scalar)
      }
    }
    return missing
  }

  /// Gets a program's fonts ready while it starts: call it first thing in `main`, in programs
  /// only.
  ///
  /// Two costs otherwise fall on the start of the first drawing, before any frame can be drawn
  /// on any core. Fontconfig's scan of the default chain's files (the glyph coverage of
  /// WenQuanYi's 5 MB collection and the emoji font: 26 M instructions, about 8 ms) runs here on
  /// another thread, while the program parses its arguments and loads its scene; a stack of the
  /// same files then finds it done, one of other files scans its own. And every Pango font map
  /// waits for Pango's background `FcInit`, which reads the system's `fonts.conf` files (25 M
  /// instructions) although no stack ever consults them: an empty configuration is made
  /// fontconfig's default instead, which `FcInit` then keeps. A library must not change the
  /// process's fontconfig default, hence a call for programs rather than part of `init`.
  package static func prepareForProgram() {
    // Kept for the life of the process: fontconfig before 2.14 took no reference of its own.
    if let empty = FcConfigCreate() { FcConfigSetCurrent(empty) }
    let warmUp = Thread { _ = try? FontStack(paths: FontStack.defaultPaths) }
    warmUp.start()
  }

  /// Characters Pango draws without a glyph: controls, white space, joiners, direction marks,
  /// variation selectors and other default-ignorable code points.
  private static func needsNoGlyph(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    return properties.generalCategory == .control || properties.isWhitespace
      || properties.isDefaultIgnorableCodePoint
  }
}

/// A fontconfig configuration that knows only some font files and our two rules, shared by
/// every ``FontStack`` of the same files: scanning WenQuanYi's 5 MB collection and the 11 MB
/// emoji font once per process, not per renderer.
final class FontConfiguration: @unchecked Sendable {
  // @unchecked: the configuration is never changed after it is built, and fontconfig
  // reference-counts and locks configurations itself.

  /// The `FcConfig *`; kept for the life of the process once shared.
  let pointer: OpaquePointer

  private init(_ key: Key) throws {
    // FcConfigCreate, unlike FcInitLoadConfig, reads no configuration file: no system fonts,
    // no substitution rules, no cache directories. The rules it gets are ours, in memory.
    guard let config = FcConfigCreate() else {
      throw GraphicsError(.invalidFont, path: "", "fontconfig could not create a configuration.")
    }
    let rules = "<?xml version=\"1.0\"?>\n<fontconfig>\n\(Self.bitmapScaling)\(Self.syntheticBold)"
      + Self.emojiFamily(key.emojiFamilies) + "</fontconfig>\n"
    guard FcConfigParseAndLoadFromMemory(config, Array(rules.utf8) + [0], FcTrue) != 0 else {
      FcConfigDestroy(config)
      throw GraphicsError(.invalidFont, path: "", "fontconfig could not read Waterflow's rules.")
    }
    let paths = key.paths
    for path in paths where FcConfigAppFontAddFile(config, path) == 0 {
      FcConfigDestroy(config)
      throw GraphicsError(
        .invalidFont, path: path, "The font file '\(path)' could not be read by fontconfig.")
    }
    pointer = config
  }

  /// Fontconfig's own 10-scale-bitmap-fonts.conf without its hinting exception (we never hint).
  /// A font without outlines (Noto Color Emoji: colour bitmaps at 109 px only) is otherwise
  /// drawn at the size of its strike, whatever size was asked for; this scales it by
  /// asked ÷ strike. Fonts with outlines are never touched.
  private static let bitmapScaling = """
      <match target="font">
        <test name="outline" compare="eq"><bool>false</bool></test>
        <edit name="pixelsizefixupfactor" mode="assign">
          <divide><name target="pattern">pixelsize</name><name target="font">pixelsize</name></divide>
        </edit>
      </match>
      <match target="font">
        <test name="outline" compare="eq"><bool>false</bool></test>
        <test name="pixelsizefixupfactor" compare="not_eq"><double>1.0</double></test>
        <edit name="matrix" mode="assign">
          <times>
            <name>matrix</name>
            <matrix>
              <name>pixelsizefixupfactor</name><double>0</double>
              <double>0</double><name>pixelsizefixupfactor</name>
            </matrix>
          </times>
        </edit>
        <edit name="size" mode="assign"><divide><name>size</name><name>pixelsizefixupfactor</name></divide></edit>
      </match>

    """

  /// Fontconfig's own 90-synthetic.conf for weight: a text asked for semibold or bold in a font
  /// with no such face (WenQuanYi Micro Hei has one weight) is emboldened by FreeType, as
  /// desktops draw it, instead of drawn regular beside bold Latin. Outline fonts only: the emoji
  /// font's bitmaps are not smeared.
  private static let syntheticBold = """
      <match target="font">
        <test name="outline" compare="eq"><bool>true</bool></test>
        <test name="weight" compare="less_eq"><const>medium</const></test>
        <test target="pattern" name="weight" compare="more_eq"><const>semibold</const></test>
        <edit name="embolden" mode="assign"><bool>true</bool></edit>
        <edit name="weight" mode="assign"><const>bold</const></edit>
      </match>

    """

  /// The generic family "emoji" as these families, as fontconfig's 60-generic.conf makes it
  /// the system's emoji fonts; nothing when there are none. Without it, "emoji" names no font,
  /// and fontconfig ranks the fonts by language instead, DejaVu Sans first.
  private static func emojiFamily(_ families: [String]) -> String {
    guard !families.isEmpty else { return "" }
    func escaped(_ s: String) -> String {
      s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
    let strings = families.map { "<string>\(escaped($0))</string>" }.joined()
    return """
        <match target="pattern">
          <test name="family"><string>emoji</string></test>
          <edit name="family" mode="assign" binding="strong">\(strings)</edit>
        </match>

      """
  }

  /// What a configuration is made of: the font files, and the families "emoji" stands for.
  private struct Key: Hashable {
    var paths: [String]
    var emojiFamilies: [String]
  }

  private static let cache = Mutex<[Key: FontConfiguration]>([:])

  /// The configuration of these files, built on first use.
  static func shared(for paths: [String], emojiFamilies: [String]) throws -> FontConfiguration {
    let key = Key(paths: paths, emojiFamilies: emojiFamilies)
    return try cache.withLock { cache in
      if let configuration = cache[key] { return configuration }
      let configuration = try FontConfiguration(key)
      cache[key] = configuration
      return configuration
    }
  }
}

extension FontStack {
  /// The rules Waterflow adds to fontconfig that change what is drawn, for fingerprints and
  /// `--version`.
  public static let rules = "synthetic bold"
}
