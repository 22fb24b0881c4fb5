internal import CCairo
internal import Foundation

/// An SVG document drawn into memory, with the same bytes for the same drawing.
///
/// Cairo names elements after its surfaces' process-wide serial numbers (`surface7`,
/// `image12`), which would differ between two renders in one process; ``finish()`` renumbers
/// them in order of appearance, so the output depends only on the drawing.
///
/// Sizes are in pixels (the document's width and height are written with `px` units). Text
/// drawn with ``Context/draw(_:x:y:)`` becomes glyph outlines, as cairo's SVG backend does.
///
/// ```swift
/// let document = try SVGDocument(width: 390, height: 844)
/// let context = try Context(document)
/// context.rectangle(x: 0, y: 0, width: 390, height: 844)
/// context.fill()
/// let bytes = try document.finish()
/// ```
public final class SVGDocument {
  /// The `cairo_surface_t *`; owned, destroyed in `deinit`.
  let pointer: OpaquePointer
  /// Receives the bytes cairo writes; cairo holds an unretained pointer to it.
  private let sink = ByteSink()

  /// Creates an empty document of the given size.
  ///
  /// - Parameters:
  ///   - width: The width in pixels.
  ///   - height: The height in pixels.
  /// - Throws: A ``CairoError`` if cairo cannot create the document.
  public init(width: Double, height: Double) throws(CairoError) {
    let surface = cairo_svg_surface_create_for_stream(
      ByteSink.write, Unmanaged.passUnretained(sink).toOpaque(), width, height)!
    try adoptSurface(surface)
    pointer = surface
    cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1)
    cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX)
  }

  deinit {
    cairo_surface_destroy(pointer)
  }

  /// Ends the document and returns the SVG file.
  ///
  /// Drawing after this fails with `.surfaceFinished`; calling it again returns the same bytes.
  ///
  /// - Returns: The bytes of the SVG file, UTF-8 XML.
  /// - Throws: A ``CairoError`` if any drawing or writing failed.
  public func finish() throws(CairoError) -> [UInt8] {
    // Finishing twice is harmless in cairo: the second call returns at once.
    cairo_surface_finish(pointer)
    try check(cairo_surface_status(pointer))
    return renumberingSurfaceIDs(sink.bytes)
  }
}

/// Rewrites cairo's `surfaceN` and `imageN` ids (and references to them) to 1, 2, … per prefix.
func renumberingSurfaceIDs(_ svg: [UInt8]) -> [UInt8] {
  let text = String(decoding: svg, as: UTF8.self)
  let pattern = try! NSRegularExpression(
    pattern: #"(id="|#)(surface|image)([0-9]+)"#)
  let source = text as NSString
  var numbers: [String: Int] = [:]
  var next: [String: Int] = [:]
  var result = ""
  var position = 0
  for match in pattern.matches(
    in: text, range: NSRange(location: 0, length: source.length))
  {
    let kind = source.substring(with: match.range(at: 2))
    let key = kind + source.substring(with: match.range(at: 3))
    let number =
      numbers[key]
      ?? {
        let n = next[kind, default: 0] + 1
        next[kind] = n
        numbers[key] = n
        return n
      }()
    result += source.substring(
      with: NSRange(location: position, length: match.range.location - position)
    )
    result += source.substring(with: match.range(at: 1)) + kind + String(number)
    position = match.range.location + match.range.length
  }
  result += source.substring(from: position)
  return Array(result.utf8)
}
