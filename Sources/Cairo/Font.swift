internal import CCairo
internal import SystemPackage
internal import Foundation

/// A font loaded from a file with FreeType, independent of fontconfig and the fonts installed.
///
/// Text drawn with a `Font` always uses that file: nothing consults fontconfig, so a
/// `FONTCONFIG_FILE` or a newly installed font cannot change the output. ``fileHash`` identifies
/// the exact file, for golden-image fingerprints.
///
/// ```swift
/// let font = try Font(contentsOfFile: Font.defaultPath)
/// context.setFont(font, size: 14)
/// context.showText("42")
/// ```
public final class Font: @unchecked Sendable {
  // @unchecked: every stored property is immutable after init, and cairo font faces are
  // reference-counted with atomics and lock their FreeType face while in use.

  /// DejaVu Sans, the font Waterflow's goldens are drawn with: the first of
  /// ``defaultSearchPaths`` that exists (Debian's fonts-dejavu-core path when none does, so
  /// that the error names it).
  public static let defaultPath: String =
    defaultSearchPaths.first { FileManager.default.fileExists(atPath: $0) } ?? defaultSearchPaths[0]

  /// Where systems install DejaVu Sans: Debian and Ubuntu, Fedora, Arch, Alpine and openSUSE,
  /// then Homebrew (Apple silicon, Intel) and a user's fonts on macOS. Tested on Debian only.
  public static let defaultSearchPaths = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/DejaVuSans.ttf",
    "/opt/homebrew/share/fonts/DejaVuSans.ttf",
    "/usr/local/share/fonts/DejaVuSans.ttf",
    NSHomeDirectory() + "/Library/Fonts/DejaVuSans.ttf",
  ]

  /// DejaVu Sans Bold, the bold face of the default font: the first of
  /// ``defaultBoldSearchPaths`` that exists (Debian's path when none does, so that the error
  /// names it).
  public static let defaultBoldPath: String =
    defaultBoldSearchPaths.first { FileManager.default.fileExists(atPath: $0) }
    ?? defaultBoldSearchPaths[0]

  /// Where systems install DejaVu Sans Bold: beside DejaVu Sans, from the same package on each.
  public static let defaultBoldSearchPaths = defaultSearchPaths.map {
    FilePath($0).removingLastComponent().appending("DejaVuSans-Bold.ttf").string
  }

  /// What to install for the default font, per system: the end of a "font not found" message.
  static let installAdvice =
    "install DejaVu Sans (Debian/Ubuntu: apt-get install fonts-dejavu-core; Fedora: dnf install "
    + "dejavu-sans-fonts; Arch: pacman -S ttf-dejavu; macOS: brew install --cask font-dejavu), "
    + "or give a font file with --font"

  /// The path the font was loaded from.
  public let path: String
  /// The FNV-1a 64-bit hash of the file's bytes, as `fnv1a64:` and 16 lowercase hex digits.
  ///
  /// Computed on each access (about 1 ms for DejaVu Sans) from the bytes FreeType reads, so
  /// that only golden fingerprints pay for it, not every renderer a scroll job starts.
  ///
  /// - Complexity: O(n) in the file's size.
  public var fileHash: String { fnv1a64Hex(bytes) }
  /// The file's stamp when it was opened, taken from the descriptor that was mapped: the stamp
  /// of the bytes ``fileHash`` reads.
  package var fileStamp: FileStamp { file.stamp }
  /// The font file, mapped; the FreeType face that `face` keeps alive holds it too.
  private let file: MappedFile
  /// The font file's bytes.
  private var bytes: UnsafeRawBufferPointer { file.bytes }
  /// The family name stored in the font, such as "DejaVu Sans".
  public let familyName: String
  /// The style name stored in the font, such as "Bold".
  public let styleName: String
  /// Whether the font has colour glyphs (colour bitmaps or layers), as an emoji font has.
  public let isColor: Bool
  /// Whether the font is its family's upright, non-bold face, as FreeType reads its style.
  public let isRegularStyle: Bool
  /// The `cairo_font_face_t *`; we hold one reference, released in `deinit`.
  let face: OpaquePointer
  /// The FreeType face behind `face`, alive as long as `face` is: for coverage questions.
  private let freeTypeFace: FT_Face

  /// Loads the first face in a TrueType, OpenType or other FreeType-readable font file.
  ///
  /// - Parameter path: The path of the font file.
  /// - Throws: A ``GraphicsError`` naming the file: `.fileNotReadable` if it cannot be read,
  ///   `.invalidFont` if FreeType cannot load it.
  public init(contentsOfFile path: String) throws {
    guard let file = MappedFile(path: path) else {
      let reason =
        FileManager.default.fileExists(atPath: path)
        ? "is not readable" : "does not exist"
      // The default font missing is a set-up problem: say where we looked and what to install.
      let advice =
        reason != "does not exist"
        ? ""
        : path == Self.defaultPath
          ? " DejaVu Sans is in none of \(Self.defaultSearchPaths.joined(separator: ", ")): \(Self.installAdvice)."
          : path == Self.defaultBoldPath
            ? " DejaVu Sans Bold is in none of \(Self.defaultBoldSearchPaths.joined(separator: ", ")): \(Self.installAdvice)."
            : path == FontStack.cjkPath
              ? " A CJK font is in none of \(FontStack.cjkSearchPaths.joined(separator: ", ")): \(FontStack.cjkInstallAdvice)."
              : path == FontStack.emojiPath
                ? " A colour emoji font is in none of \(FontStack.emojiSearchPaths.joined(separator: ", ")): \(FontStack.emojiInstallAdvice)."
                : ""
      throw GraphicsError(
        .fileNotReadable, path: path, "The font file '\(path)' \(reason).\(advice)")
    }
    guard file.bytes.count > 0 else {
      throw GraphicsError(.invalidFont, path: path, "The font file '\(path)' is empty.")
    }
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else {
      throw GraphicsError(
        .invalidFont, path: path,
        "FreeType could not be initialised to load '\(path)'.")
    }
    // FreeType reads the font from the mapping, so the hash is of the bytes it reads.
    var ftFace: FT_Face?
    let error = FT_New_Memory_Face(
      library, file.bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self),
      FT_Long(file.bytes.count), 0, &ftFace)
    guard error == 0, let ftFace else {
      FT_Done_FreeType(library)
      throw GraphicsError(
        .invalidFont, path: path,
        "The font file '\(path)' could not be loaded by FreeType (error \(error))."
      )
    }
    // One FT_Library per font: FreeType libraries are not thread-safe, and this one is used
    // only through cairo, which locks the face it wraps.
    let handles = FreeTypeFace(library: library, face: ftFace, file: file)
    let face = cairo_ft_font_face_create_for_ft_face(ftFace, 0)!
    // Cairo's font caches may keep the face after this object is gone, so the FreeType face
    // must live exactly as long as cairo's: cairo releases `handles` when it destroys the face.
    let retained = Unmanaged.passRetained(handles).toOpaque()
    let status = cairo_font_face_set_user_data(face, freeTypeFaceKey, retained)
    { handles in
      Unmanaged<FreeTypeFace>.fromOpaque(handles!).release()
    }
    if status != CAIRO_STATUS_SUCCESS {
      Unmanaged<FreeTypeFace>.fromOpaque(retained).release()
      cairo_font_face_destroy(face)
      throw GraphicsError(
        .invalidFont, path: path, underlying: CairoError(status),
        "The font file '\(path)' could not be used by cairo: \(CairoError(status))."
      )
    }
    let faceStatus = cairo_font_face_status(face)
    if faceStatus != CAIRO_STATUS_SUCCESS {
      cairo_font_face_destroy(face)
      throw GraphicsError(
        .invalidFont, path: path, underlying: CairoError(faceStatus),
        "The font file '\(path)' could not be used by cairo: \(CairoError(faceStatus))."
      )
    }
    self.face = face
    self.freeTypeFace = ftFace
    self.path = path
    self.file = file
    self.familyName =
      ftFace.pointee.family_name.map { String(cString: $0) } ?? ""
    self.styleName = ftFace.pointee.style_name.map { String(cString: $0) } ?? ""
    self.isColor = ftFace.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
    self.isRegularStyle =
      ftFace.pointee.style_flags & FT_Long(FT_STYLE_FLAG_BOLD | FT_STYLE_FLAG_ITALIC) == 0
  }

  deinit {
    cairo_font_face_destroy(face)
  }

  /// Whether the font's character map has a glyph for the character.
  ///
  /// - Complexity: O(log n) in the font's character map.
  public func hasGlyph(for character: Unicode.Scalar) -> Bool {
    FT_Get_Char_Index(freeTypeFace, FT_ULong(character.value)) != 0
  }
}

/// The key under which a cairo font face holds its FreeType handles; only its address matters.
nonisolated(unsafe) private let freeTypeFaceKey = UnsafeMutablePointer<
  cairo_user_data_key_t
>.allocate(capacity: 1)

/// The FreeType library, face and font file behind one cairo font face, freed when cairo lets go.
private final class FreeTypeFace {
  let library: FT_Library
  let face: FT_Face
  let file: MappedFile

  init(library: FT_Library, face: FT_Face, file: MappedFile) {
    self.library = library
    self.face = face
    self.file = file
  }

  deinit {
    FT_Done_Face(face)
    FT_Done_FreeType(library)
  }
}

/// A font file mapped read-only rather than read into memory. Reading copied every file of the
/// chain into each renderer, 17 MB with the emoji font: 5,600 page faults and a third more time
/// for a one-picture render. Mapped, FreeType touches only the pages it needs (the character
/// map, for coverage), shared through the page cache with fontconfig's and cairo's own
/// mappings of the same file; the hash still reads every byte, when a fingerprint asks.
private final class MappedFile: @unchecked Sendable {
  // @unchecked: the mapping is read-only and never changes while this object lives.

  let bytes: UnsafeRawBufferPointer
  /// The file's stamp, from the descriptor that was mapped.
  let stamp: FileStamp

  /// Nil when the path is not a regular file that can be opened and mapped.
  init?(path: String) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    stamp = FileStamp(status)
    let count = Int(status.st_size)
    guard count > 0 else {
      bytes = UnsafeRawBufferPointer(start: nil, count: 0)
      return
    }
    guard let base = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED
    else { return nil }
    bytes = UnsafeRawBufferPointer(start: base, count: count)
  }

  deinit {
    if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
  }
}

/// FNV-1a, 64-bit, as `fnv1a64:` and 16 hex digits: simple, stable across platforms and runs
/// (unlike `Hasher`), and enough to tell font files or font stacks apart (this is an identity
/// check, not a defence against forgery).
package func fnv1a64Hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
  var hash = FNV1a64()
  hash.add(bytes)
  return hash.text
}

/// FNV-1a, 64-bit, fed piece by piece: ``fnv1a64Hex(_:)`` of the pieces' bytes in turn, without
/// joining them first (a golden's inputs are hashed field by field).
package struct FNV1a64 {
  private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

  package init() {}

  package mutating func add(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }

  package mutating func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
    var h = hash
    // Font files are hashed whole for every fingerprint, 17 MB for the default stack, in debug
    // builds too: an index loop over the buffer takes a fifth of the time the generic iterator
    // does.
    let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
      var i = 0
      while i < buffer.count {
        h = (h ^ UInt64(buffer[i])) &* 0x0000_0100_0000_01b3
        i &+= 1
      }
    }
    if done == nil {
      for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    }
    hash = h
  }

  /// A text, then a byte no UTF-8 text contains, so that "ab" then "c" differs from "a" then "bc".
  package mutating func add(field text: String) {
    add(text.utf8)
    add(0xFF)
  }

  /// Numbers, by their bits, least significant byte first.
  package mutating func add(_ numbers: Double...) {
    for number in numbers {
      var bits = number.bitPattern
      for _ in 0..<8 {
        add(UInt8(truncatingIfNeeded: bits))
        bits >>= 8
      }
    }
  }

  /// `fnv1a64:` and 16 lowercase hex digits.
  package var text: String { "fnv1a64:" + hexDigits }

  /// The hash as 16 lowercase hex digits.
  package var hexDigits: String {
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
