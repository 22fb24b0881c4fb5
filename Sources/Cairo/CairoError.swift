internal import CCairo

/// A status code reported by cairo, such as "out of memory" or "invalid matrix".
///
/// The raw value is cairo's `cairo_status_t`; the description is cairo's own text for it,
/// from `cairo_status_to_string`. Failures Waterflow detects itself (a surface that is too
/// big, a path that cannot be written) are a ``GraphicsError`` instead.
public struct CairoError: Error, RawRepresentable, Hashable, Sendable,
  CustomStringConvertible
{
  /// The value of cairo's `cairo_status_t`.
  public let rawValue: UInt32

  /// Creates an error from a raw `cairo_status_t` value.
  public init(rawValue: UInt32) {
    self.rawValue = rawValue
  }

  init(_ status: cairo_status_t) {
    self.rawValue = status.rawValue
  }

  /// Cairo's description of the status, for example "out of memory".
  public var description: String {
    String(cString: cairo_status_to_string(cairo_status_t(rawValue: rawValue)))
  }

  /// Out of memory.
  public static var noMemory: CairoError { CairoError(CAIRO_STATUS_NO_MEMORY) }
  /// `restore()` without a matching `save()`.
  public static var invalidRestore: CairoError {
    CairoError(CAIRO_STATUS_INVALID_RESTORE)
  }
  /// A path operation that needs a current point, without one.
  public static var noCurrentPoint: CairoError {
    CairoError(CAIRO_STATUS_NO_CURRENT_POINT)
  }
  /// A transformation that cannot be inverted, such as a scale by zero.
  public static var invalidMatrix: CairoError {
    CairoError(CAIRO_STATUS_INVALID_MATRIX)
  }
  /// Text that is not valid UTF-8.
  public static var invalidString: CairoError {
    CairoError(CAIRO_STATUS_INVALID_STRING)
  }
  /// A failure while reading an input stream, such as a corrupt PNG file.
  public static var readError: CairoError {
    CairoError(CAIRO_STATUS_READ_ERROR)
  }
  /// A failure while writing an output stream.
  public static var writeError: CairoError {
    CairoError(CAIRO_STATUS_WRITE_ERROR)
  }
  /// Drawing on, or finishing, a surface that is already finished.
  public static var surfaceFinished: CairoError {
    CairoError(CAIRO_STATUS_SURFACE_FINISHED)
  }
  /// A file that does not exist.
  public static var fileNotFound: CairoError {
    CairoError(CAIRO_STATUS_FILE_NOT_FOUND)
  }
  /// A dash pattern with a negative length, or only zero lengths.
  public static var invalidDash: CairoError {
    CairoError(CAIRO_STATUS_INVALID_DASH)
  }
  /// A size that is out of range, typically too big.
  public static var invalidSize: CairoError {
    CairoError(CAIRO_STATUS_INVALID_SIZE)
  }
  /// A failure inside libpng.
  public static var pngError: CairoError { CairoError(CAIRO_STATUS_PNG_ERROR) }
  /// A failure inside FreeType.
  public static var freetypeError: CairoError {
    CairoError(CAIRO_STATUS_FREETYPE_ERROR)
  }
}

/// Turns a cairo status into a thrown ``CairoError``; every cairo status goes through here.
@inline(__always)
func check(_ status: cairo_status_t) throws(CairoError) {
  if status != CAIRO_STATUS_SUCCESS {
    throw CairoError(status)
  }
}

/// Takes ownership of a newly created cairo surface: checks its status, destroying it on failure.
func adoptSurface(_ surface: OpaquePointer) throws(CairoError) {
  do {
    try check(cairo_surface_status(surface))
  } catch {
    cairo_surface_destroy(surface)
    throw error
  }
}

/// A failure that Waterflow's Cairo module detects itself, with a message naming the bad input.
///
/// For example, a surface larger than cairo's limit of 32767 pixels per side, a PNG file that
/// cannot be read, or a directory that does not exist. Errors reported by cairo itself are
/// ``CairoError``s; when one of them is the cause, it is kept in ``underlying``.
public struct GraphicsError: Error, Hashable, Sendable, CustomStringConvertible
{
  /// The kind of failure; compare it with the static members, such as `.surfaceTooLarge`.
  public struct Code: Hashable, Sendable {
    let value: Int
    /// A width or height of zero or less.
    public static let invalidSize = Code(value: 1)
    /// A width or height above cairo's limit of 32767 pixels.
    public static let surfaceTooLarge = Code(value: 2)
    /// A file that does not exist or cannot be read.
    public static let fileNotReadable = Code(value: 3)
    /// A PNG file that exists but cannot be decoded.
    public static let invalidPNG = Code(value: 4)
    /// A file or directory that cannot be written.
    public static let fileNotWritable = Code(value: 5)
    /// A font file that FreeType cannot load.
    public static let invalidFont = Code(value: 6)
    /// An image file in a format that is not PNG, JPEG or WebP.
    public static let unsupportedImage = Code(value: 7)
    /// A JPEG or WebP file that cannot be decoded.
    public static let invalidImage = Code(value: 8)
    /// An image that declares more pixels than ``ImageSurface/maximumImagePixels``.
    public static let imageTooLarge = Code(value: 9)
  }

  /// The kind of failure.
  public let code: Code
  /// The file involved, if any.
  public let path: String?
  /// The cairo status that caused the failure, if any.
  public let underlying: CairoError?
  /// A sentence that names the bad value and what is accepted.
  public let description: String

  init(
    _ code: Code, path: String? = nil, underlying: CairoError? = nil,
    _ description: String
  ) {
    self.code = code
    self.path = path
    self.underlying = underlying
    self.description = description
  }
}
