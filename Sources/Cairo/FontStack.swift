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
/// text is drawn rather than boxes.
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

  /// The default chain: DejaVu Sans, then the CJK font.
  public static var defaultPaths: [String] { [Font.defaultPath, cjkPath] }

  /// What to install for the CJK font, per system: the end of a "font not found" message.
  static let cjkInstallAdvice =
    "install WenQuanYi Micro Hei (Debian/Ubuntu: apt-get install fonts-wqy-microhei; Fedora: "
    + "dnf install wqy-microhei-fonts; Arch: pacman -S wqy-microhei; macOS: brew install --cask "
    + "font-wqy-microhei)"

  /// Loads a chain of font files; the first is tried first.
  ///
  /// A font whose family an earlier font already has is left out, so that `--font` with, say,
  /// a bold DejaVu Sans replaces the regular one instead of losing to it in fontconfig's match.
  ///
  /// - Throws: A ``GraphicsError`` naming the first file that cannot be loaded.
  public convenience init(paths: [String]) throws {
    var fonts: [Font] = []
    for path in paths where !fonts.contains(where: { $0.path == path }) {
      fonts.append(try Font(contentsOfFile: path))
    }
    try self.init(fonts: fonts)
  }

  /// Makes a chain of loaded fonts; the first is tried first.
  ///
  /// - Throws: A ``GraphicsError`` when the list is empty.
  public init(fonts: [Font]) throws {
    var chain: [Font] = []
    for font in fonts where !chain.contains(where: { $0.familyName == font.familyName }) {
      chain.append(font)
    }
    guard !chain.isEmpty else {
      throw GraphicsError(.invalidFont, path: "", "A font stack needs at least one font.")
    }
    self.fonts = chain
    // Commas separate families in a Pango description; a family name with one is never split.
    families = chain.map { $0.familyName.replacingOccurrences(of: ",", with: " ") }
      .joined(separator: ",")
    configuration = try FontConfiguration.shared(for: chain.map(\.path))
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
  /// - Complexity: O(n × f) for n characters and f fonts.
  public func missingCharacters(in text: String) -> [Unicode.Scalar] {
    var missing: [Unicode.Scalar] = []
    for scalar in text.unicodeScalars where !Self.needsNoGlyph(scalar) {
      if !missing.contains(scalar) && !fonts.contains(where: { $0.hasGlyph(for: scalar) }) {
        missing.append(scalar)
      }
    }
    return missing
  }

  /// Characters Pango draws without a glyph: controls, white space, joiners, direction marks,
  /// variation selectors and other default-ignorable code points.
  private static func needsNoGlyph(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    return properties.generalCategory == .control || properties.isWhitespace
      || properties.isDefaultIgnorableCodePoint
  }
}

/// A fontconfig configuration that knows only some font files, shared by every ``FontStack``
/// of the same files: scanning WenQuanYi's 5 MB collection once per process, not per renderer.
final class FontConfiguration: @unchecked Sendable {
  // @unchecked: the configuration is never changed after it is built, and fontconfig
  // reference-counts and locks configurations itself.

  /// The `FcConfig *`; kept for the life of the process once shared.
  let pointer: OpaquePointer

  private init(paths: [String]) throws {
    // FcConfigCreate, unlike FcInitLoadConfig, reads no configuration file: no system fonts,
    // no substitution rules, no cache directories.
    guard let config = FcConfigCreate() else {
      throw GraphicsError(.invalidFont, path: "", "fontconfig could not create a configuration.")
    }
    for path in paths where FcConfigAppFontAddFile(config, path) == 0 {
      FcConfigDestroy(config)
      throw GraphicsError(
        .invalidFont, path: path, "The font file '\(path)' could not be read by fontconfig.")
    }
    pointer = config
  }

  private static let cache = Mutex<[[String]: FontConfiguration]>([:])

  /// The configuration of these files, built on first use.
  static func shared(for paths: [String]) throws -> FontConfiguration {
    try cache.withLock { cache in
      if let configuration = cache[paths] { return configuration }
      let configuration = try FontConfiguration(paths: paths)
      cache[paths] = configuration
      return configuration
    }
  }
}
