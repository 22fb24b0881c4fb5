internal import CCairo
internal import PNGKernels

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The versions of the C libraries that draw and encode: the "font-stack fingerprint".
///
/// Anti-aliasing and glyph outlines can change between versions of cairo, pixman and FreeType,
/// so golden images record these next to the pixels.
public struct LibraryVersions: Hashable, Sendable, CustomStringConvertible {
  /// Cairo's version, for example "1.16.0".
  public let cairo: String
  /// Pixman's version, for example "0.42.2".
  public let pixman: String
  /// FreeType's version, for example "2.12.1".
  public let freetype: String
  /// libpng's version, as used by ``ImageSurface/init(contentsOfPNGFile:)``.
  public let libpng: String
  /// libdeflate's version, as used by PNGCodec's `PNGEncoder`.
  public let libdeflate: String
  /// Pango's version: line breaking, bidi and font fallback.
  public let pango: String
  /// HarfBuzz's version: shaping.
  public let harfbuzz: String
  /// Fontconfig's version: which font of a ``FontStack`` covers a character.
  public let fontconfig: String

  /// One line naming every library and its version.
  ///
  /// For example "cairo 1.16.0, pixman 0.42.2, freetype 2.12.1, …".
  public var description: String {
    "cairo \(cairo), pixman \(pixman), freetype \(freetype), pango \(pango), harfbuzz \(harfbuzz), "
      + "fontconfig \(fontconfig), libpng \(libpng), libdeflate \(libdeflate)"
  }
}

/// The C libraries behind the `Cairo` module.
public enum CairoLibrary {
  /// The versions of the drawing, text and encoding libraries loaded at run time.
  public static var versions: LibraryVersions {
    LibraryVersions(
      cairo: String(cString: cairo_version_string()),
      pixman: pixmanVersion(),
      freetype: freeTypeVersion(),
      libpng: String(cString: png_get_libpng_ver(nil)),
      libdeflate: libdeflateVersion,
      pango: String(cString: pango_version_string()),
      harfbuzz: String(cString: hb_version_string()),
      fontconfig: fontconfigVersion())
  }

  /// Pixman's version, looked up in the already-loaded library.
  ///
  /// The module map links cairo, not pixman (pkg-config's `cairo` gives only `-lcairo`), and
  /// with `--as-needed` a direct call would not link; cairo has loaded pixman anyway, so ask
  /// the dynamic linker for the symbol.
  private static func pixmanVersion() -> String {
    typealias VersionString = @convention(c) () -> UnsafePointer<CChar>
    guard
      let symbol = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "pixman_version_string")
    else {
      return "unknown"
    }
    return String(cString: unsafeBitCast(symbol, to: VersionString.self)())
  }

  /// Fontconfig's version as "2.14.1", from its packed integer (major × 10000 + minor × 100 +
  /// revision).
  private static func fontconfigVersion() -> String {
    let packed = Int(FcGetVersion())
    return "\(packed / 10000).\(packed / 100 % 100).\(packed % 100)"
  }

  /// FreeType reports its version only through a library instance, so make a short-lived one.
  private static func freeTypeVersion() -> String {
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else { return "unknown" }
    defer { FT_Done_FreeType(library) }
    var major: Int32 = 0
    var minor: Int32 = 0
    var patch: Int32 = 0
    FT_Library_Version(library, &major, &minor, &patch)
    return "\(major).\(minor).\(patch)"
  }
}
