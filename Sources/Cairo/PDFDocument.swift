internal import CCairo

/// A PDF document drawn page by page into memory, with byte-identical output on every run.
///
/// Cairo stamps PDFs with the current time unless told otherwise; this class fixes the creation
/// and modification dates to ``fixedDate`` and the creator to "Waterflow", so the same drawing
/// always gives the same bytes. Text drawn with ``Context/draw(_:x:y:)`` stays real text, with
/// the font subset embedded.
///
/// ```swift
/// let document = try PDFDocument(width: 595, height: 842)
/// let context = try Context(document)
/// context.setFont(font, size: 24)
/// context.moveTo(x: 72, y: 72)
/// context.showText("Page 1")
/// document.showPage()
/// let bytes = try document.finish()
/// ```
public final class PDFDocument {
  /// The date written as the document's creation and modification date.
  public static let fixedDate = "2000-01-01T00:00:00Z"

  /// The `cairo_surface_t *`; owned, destroyed in `deinit`.
  let pointer: OpaquePointer
  /// Receives the bytes cairo writes; cairo holds an unretained pointer to it.
  private let sink: ByteSink

  /// Creates an empty document whose first page has the given size.
  ///
  /// - Parameters:
  ///   - width: The page width in points (1/72 inch).
  ///   - height: The page height in points.
  ///   - title: The document title stored in its metadata, if any.
  ///   - write: Where the bytes go as cairo writes them (a file being written), instead of
  ///     memory: a long document (a page per scroll frame) then never needs its whole size in
  ///     memory, and ``finish()`` returns no bytes.
  /// - Throws: A ``CairoError`` if cairo cannot create the document.
  public init(
    width: Double, height: Double, title: String? = nil,
    streamingTo write: ((UnsafeRawBufferPointer) -> Void)? = nil
  ) throws(CairoError) {
    sink = ByteSink(forward: write)
    let surface = cairo_pdf_surface_create_for_stream(
      ByteSink.write, Unmanaged.passUnretained(sink).toOpaque(), width, height)!
    try adoptSurface(surface)
    pointer = surface
    cairo_pdf_surface_set_metadata(
      surface, CAIRO_PDF_METADATA_CREATE_DATE, Self.fixedDate)
    cairo_pdf_surface_set_metadata(
      surface, CAIRO_PDF_METADATA_MOD_DATE, Self.fixedDate)
    cairo_pdf_surface_set_metadata(
      surface, CAIRO_PDF_METADATA_CREATOR, "Waterflow")
    if let title {
      cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
    }
  }

  deinit {
    // Destroying an unfinished surface finishes it, writing into `sink`, which is released
    // only after this deinit body.
    cairo_surface_destroy(pointer)
  }

  /// Sets the size of the current page, which must have nothing drawn on it yet.
  ///
  /// Call it after ``showPage()`` to give the next page a different size.
  public func setPageSize(width: Double, height: Double) {
    cairo_pdf_surface_set_size(pointer, width, height)
  }

  /// Ends the current page and starts a new, empty one of the same size.
  ///
  /// A page that is never shown (the last one, if nothing was drawn on it) is not written.
  public func showPage() {
    cairo_surface_show_page(pointer)
  }

  /// Ends the document and returns the PDF file.
  ///
  /// Drawing after this fails with `.surfaceFinished`; calling it again returns the same bytes.
  ///
  /// - Returns: The bytes of the PDF file; none when they were streamed.
  /// - Throws: A ``CairoError`` if any drawing or writing failed.
  public func finish() throws(CairoError) -> [UInt8] {
    // Finishing twice is harmless in cairo: the second call returns at once.
    cairo_surface_finish(pointer)
    try check(cairo_surface_status(pointer))
    return sink.bytes
  }
}
