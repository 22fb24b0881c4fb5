internal import CCairo

/// Draws on an ``ImageSurface``, a ``PDFDocument`` page or an ``SVGDocument``.
///
/// A context holds the current path, source colour, transformation, clip, line settings and
/// font, as cairo's `cairo_t` does. Drawing calls do not throw: cairo records the first
/// failure and ignores later calls, and ``checkStatus()`` reports it.
///
/// Text is drawn with hinting off, metrics unhinted and grayscale anti-aliasing, whatever
/// fontconfig or the surface would choose, so glyphs land at the same place on every machine.
///
/// ```swift
/// let context = try Context(surface)
/// context.setSource(red: 1, green: 0, blue: 0)
/// context.roundedRectangle(x: 10, y: 10, width: 100, height: 60, radius: 8)
/// context.fill()
/// try context.checkStatus()
/// ```
public final class Context {
  /// The `cairo_t *`; owned, destroyed in `deinit`.
  let pointer: OpaquePointer
  /// The Swift object that owns the target surface; cairo's surface may write into it (a
  /// document's byte sink), so it must outlive the `cairo_t`.
  private let target: AnyObject
  /// Whether the output keeps text as text (PDF, SVG), not only its pixels.
  let keepsText: Bool

  /// Creates a context that draws on an image surface.
  ///
  /// - Throws: A ``CairoError`` if cairo cannot create the context.
  public convenience init(_ surface: ImageSurface) throws(CairoError) {
    try self.init(surface: surface.pointer, target: surface)
  }

  /// Creates a context that draws on the current page of a PDF document.
  ///
  /// - Throws: A ``CairoError`` if cairo cannot create the context.
  public convenience init(_ document: PDFDocument) throws(CairoError) {
    try self.init(surface: document.pointer, target: document)
  }

  /// Creates a context that draws on an SVG document.
  ///
  /// - Throws: A ``CairoError`` if cairo cannot create the context.
  public convenience init(_ document: SVGDocument) throws(CairoError) {
    try self.init(surface: document.pointer, target: document)
  }

  private init(surface: OpaquePointer, target: AnyObject) throws(CairoError) {
    let cr = cairo_create(surface)!
    do {
      try check(cairo_status(cr))
    } catch {
      cairo_destroy(cr)
      throw error
    }
    self.pointer = cr
    self.target = target
    keepsText = target is PDFDocument || target is SVGDocument
    // Set before any save(), so every saved state, and so every text draw, has them.
    let options = cairo_font_options_create()
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    cairo_set_font_options(cr, options)
    cairo_font_options_destroy(options)
  }

  deinit {
    cairo_destroy(pointer)
  }

  /// Throws the first error cairo met while drawing with this context, if any.
  ///
  /// - Throws: The ``CairoError``; the context ignores all drawing after it.
  public func checkStatus() throws(CairoError) {
    try check(cairo_status(pointer))
  }

  // MARK: - State

  /// Pushes a copy of the drawing state (source, transformation, clip, line and font settings).
  public func save() {
    cairo_save(pointer)
  }

  /// Pops the state saved by the matching ``save()``.
  public func restore() {
    cairo_restore(pointer)
  }

  /// Runs `body` between ``save()`` and ``restore()``, so its state changes do not leak.
  ///
  /// - Parameter body: The drawing to do.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws; the state is restored first.
  public func withSavedState<R, E: Error>(_ body: () throws(E) -> R) throws(E)
    -> R
  {
    cairo_save(pointer)
    defer { cairo_restore(pointer) }
    return try body()
  }

  /// Moves the origin of user space by (x, y).
  public func translate(x: Double, y: Double) {
    cairo_translate(pointer, x, y)
  }

  /// Device pixels per user-space unit along x: the scale the context draws at.
  public var deviceScale: Double {
    var dx = 1.0
    var dy = 0.0
    cairo_user_to_device_distance(pointer, &dx, &dy)
    return (dx * dx + dy * dy).squareRoot()
  }

  /// Scales user space by (x, y).
  public func scale(x: Double, y: Double) {
    cairo_scale(pointer, x, y)
  }

  /// Rotates user space by `angle` radians, clockwise on screen.
  public func rotate(by angle: Double) {
    cairo_rotate(pointer, angle)
  }

  /// Sets the source to a solid colour, with components from 0 to 1.
  public func setSource(
    red: Double, green: Double, blue: Double, alpha: Double = 1
  ) {
    cairo_set_source_rgba(pointer, red, green, blue, alpha)
  }

  /// The width of stroked lines, in user-space units; cairo's default is 2.
  public var lineWidth: Double {
    get { cairo_get_line_width(pointer) }
    set { cairo_set_line_width(pointer, newValue) }
  }

  /// Sets the dash pattern for strokes: alternating on and off lengths, starting at `offset`.
  ///
  /// An empty array turns dashing off.
  public func setDash(_ lengths: [Double], offset: Double = 0) {
    cairo_set_dash(pointer, lengths, Int32(lengths.count), offset)
  }

  /// Whether fills leave holes where sub-paths overlap an even number of times, instead of
  /// cairo's default non-zero winding rule.
  public var fillsEvenOdd: Bool {
    get { cairo_get_fill_rule(pointer) == CAIRO_FILL_RULE_EVEN_ODD }
    set { cairo_set_fill_rule(pointer, newValue ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING) }
  }

  /// Whether stroked lines end and turn in round caps and joins, instead of cairo's butt caps
  /// and mitred joins.
  public var roundsLineEnds: Bool {
    get { cairo_get_line_cap(pointer) == CAIRO_LINE_CAP_ROUND }
    set {
      cairo_set_line_cap(pointer, newValue ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
      cairo_set_line_join(pointer, newValue ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_MITER)
    }
  }

  // MARK: - Paths

  /// Discards the current path.
  public func newPath() {
    cairo_new_path(pointer)
  }

  /// Starts a new sub-path at (x, y).
  public func moveTo(x: Double, y: Double) {
    cairo_move_to(pointer, x, y)
  }

  /// Adds a straight line from the current point to (x, y).
  public func lineTo(x: Double, y: Double) {
    cairo_line_to(pointer, x, y)
  }

  /// Adds a cubic Bézier curve from the current point to (x, y), pulled towards the two
  /// control points.
  public func curveTo(x1: Double, y1: Double, x2: Double, y2: Double, x: Double, y: Double) {
    cairo_curve_to(pointer, x1, y1, x2, y2, x, y)
  }

  /// Closes the current sub-path with a line back to its start.
  public func closePath() {
    cairo_close_path(pointer)
  }

  /// Adds a rectangle as a closed sub-path.
  public func rectangle(x: Double, y: Double, width: Double, height: Double) {
    cairo_rectangle(pointer, x, y, width, height)
  }

  /// The current clip as rectangles in user space, each edge on a device pixel's boundary; nil
  /// when the clip is not such a region (a rounded clip, or one with an edge inside a pixel),
  /// which then covers some pixels only in part.
  public var clipRectangles: [(x: Double, y: Double, width: Double, height: Double)]? {
    guard let list = cairo_copy_clip_rectangle_list(pointer) else { return nil }
    defer { cairo_rectangle_list_destroy(list) }
    guard list.pointee.status == CAIRO_STATUS_SUCCESS else { return nil }
    return (0..<Int(list.pointee.num_rectangles)).map {
      let r = list.pointee.rectangles[$0]
      return (r.x, r.y, r.width, r.height)
    }
  }

  /// Adds the largest rectangle of whole device pixels inside a user-space rectangle to the
  /// path, and returns true; adds nothing and returns false when the context draws into a PDF or
  /// SVG document (which has no pixels), when user space is rotated or skewed, or when no whole
  /// pixel fits.
  ///
  /// Its edges lie on pixel boundaries exactly, so a fill that leaves it out (with
  /// ``fillsEvenOdd``) covers every other pixel as it would without it.
  public func addWholePixels(insideX x: Double, y: Double, width: Double, height: Double) -> Bool {
    // A document is drawn again at any resolution, where a hole's edge beside a photo's would
    // show as a seam.
    guard cairo_surface_get_type(cairo_get_target(pointer)) == CAIRO_SURFACE_TYPE_IMAGE else {
      return false
    }
    var m = cairo_matrix_t()
    cairo_get_matrix(pointer, &m)
    guard m.xy == 0, m.yx == 0, m.xx != 0, m.yy != 0, width > 0, height > 0 else { return false }
    var (x0, y0, x1, y1) = (x, y, x + width, y + height)
    cairo_user_to_device(pointer, &x0, &y0)
    cairo_user_to_device(pointer, &x1, &y1)
    let left = min(x0, x1).rounded(.up)
    let right = max(x0, x1).rounded(.down)
    let top = min(y0, y1).rounded(.up)
    let bottom = max(y0, y1).rounded(.down)
    guard left < right, top < bottom else { return false }
    // In device space, where whole pixels are whole numbers: the path keeps device coordinates.
    cairo_save(pointer)
    cairo_identity_matrix(pointer)
    cairo_rectangle(pointer, left, top, right - left, bottom - top)
    cairo_restore(pointer)
    return true
  }

  /// Adds a circular arc, from `startAngle` to `endAngle` radians in the direction of increasing angle.
  public func arc(
    centerX: Double, centerY: Double, radius: Double, startAngle: Double,
    endAngle: Double
  ) {
    cairo_arc(pointer, centerX, centerY, radius, startAngle, endAngle)
  }

  /// Adds a rectangle with circular corners as a closed sub-path.
  ///
  /// The radius is clamped to half the shorter side, so a large radius gives a capsule.
  public func roundedRectangle(
    x: Double, y: Double, width: Double, height: Double, radius: Double
  ) {
    let r = max(0, min(radius, width / 2, height / 2))
    guard r > 0 else {
      rectangle(x: x, y: y, width: width, height: height)
      return
    }
    let half = Double.pi / 2
    cairo_new_sub_path(pointer)
    cairo_arc(pointer, x + width - r, y + r, r, -half, 0)
    cairo_arc(pointer, x + width - r, y + height - r, r, 0, half)
    cairo_arc(pointer, x + r, y + height - r, r, half, 2 * half)
    cairo_arc(pointer, x + r, y + r, r, 2 * half, 3 * half)
    cairo_close_path(pointer)
  }

  // MARK: - Painting

  /// Fills the current path with the source, then discards the path.
  public func fill() {
    cairo_fill(pointer)
  }

  /// Fills the current path with the source and keeps the path.
  public func fillPreserve() {
    cairo_fill_preserve(pointer)
  }

  /// Strokes the current path with the source and line settings, then discards the path.
  public func stroke() {
    cairo_stroke(pointer)
  }

  /// Strokes the current path and keeps the path.
  public func strokePreserve() {
    cairo_stroke_preserve(pointer)
  }

  /// Intersects the clip with the current path, then discards the path.
  public func clip() {
    cairo_clip(pointer)
  }

  /// Removes the clip, so drawing reaches the whole surface again.
  public func resetClip() {
    cairo_reset_clip(pointer)
  }

  /// Paints the source everywhere inside the clip.
  public func paint() {
    cairo_paint(pointer)
  }

  /// Paints the source everywhere inside the clip, at the given opacity from 0 to 1.
  public func paint(alpha: Double) {
    cairo_paint_with_alpha(pointer, alpha)
  }

  /// Draws an image so that it covers a rectangle, keeping its aspect ratio.
  ///
  /// The image is scaled until both sides cover the rectangle, centred, and clipped to the
  /// rectangle (UIKit's `UIView.ContentMode.scaleAspectFill`). The context's state is unchanged.
  ///
  /// - Parameters:
  ///   - image: The image to draw.
  ///   - x: The left edge of the rectangle.
  ///   - y: The top edge of the rectangle.
  ///   - width: The width of the rectangle.
  ///   - height: The height of the rectangle.
  ///   - alpha: The opacity, from 0 to 1.
  public func draw(
    _ image: ImageSurface, aspectFillX x: Double, y: Double, width: Double,
    height: Double,
    alpha: Double = 1
  ) {
    draw(image, x: x, y: y, width: width, height: height, alpha: alpha, covering: true)
  }

  /// Draws an image whole inside a rectangle, keeping its aspect ratio and centring it
  /// (UIKit's `UIView.ContentMode.scaleAspectFit`). The context's state is unchanged.
  public func draw(
    _ image: ImageSurface, aspectFitX x: Double, y: Double, width: Double, height: Double,
    alpha: Double = 1
  ) {
    draw(image, x: x, y: y, width: width, height: height, alpha: alpha, covering: false)
  }

  private func draw(
    _ image: ImageSurface, x: Double, y: Double, width: Double, height: Double, alpha: Double,
    covering: Bool
  ) {
    guard width > 0, height > 0 else { return }
    let imageWidth = Double(image.width)
    let imageHeight = Double(image.height)
    let s =
      covering
      ? max(width / imageWidth, height / imageHeight)
      : min(width / imageWidth, height / imageHeight)
    let left = x + (width - imageWidth * s) / 2
    let top = y + (height - imageHeight * s) / 2
    withSavedState {
      // A fitted image is clipped to itself: PAD would smear its edges across the bands.
      if covering {
        cairo_rectangle(pointer, x, y, width, height)
      } else {
        cairo_rectangle(pointer, left, top, imageWidth * s, imageHeight * s)
      }
      cairo_clip(pointer)
      cairo_translate(pointer, left, top)
      cairo_scale(pointer, s, s)
      cairo_set_source_surface(pointer, image.pointer, 0, 0)
      let pattern = cairo_get_source(pointer)
      // PAD repeats edge pixels instead of fading to transparent at the image's border when
      // it is scaled with filtering.
      cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
      cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
      cairo_paint_with_alpha(pointer, alpha)
    }
  }
}

extension Context {
  /// Fills the current path with a vertical linear gradient from one colour at `top` to
  /// another at `bottom` (straight RGBA components from 0 to 1), clearing the path.
  public func fillVerticalGradient(
    top: Double, bottom: Double,
    from start: (red: Double, green: Double, blue: Double, alpha: Double),
    to end: (red: Double, green: Double, blue: Double, alpha: Double)
  ) {
    guard let pattern = cairo_pattern_create_linear(0, top, 0, bottom) else { return }
    defer { cairo_pattern_destroy(pattern) }
    cairo_pattern_add_color_stop_rgba(pattern, 0, start.red, start.green, start.blue, start.alpha)
    cairo_pattern_add_color_stop_rgba(pattern, 1, end.red, end.green, end.blue, end.alpha)
    cairo_set_source(pointer, pattern)
    cairo_fill(pointer)
  }
}
