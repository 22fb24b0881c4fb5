internal import CCairo

/// The size of a piece of text, in user-space units.
///
/// The corresponding C type is `cairo_text_extents_t`.
public struct TextExtents: Hashable, Sendable {
  /// From the origin to the left edge of the ink.
  public var xBearing: Double
  /// From the baseline to the top of the ink; negative for ink above the baseline.
  public var yBearing: Double
  /// The width of the ink.
  public var width: Double
  /// The height of the ink.
  public var height: Double
  /// How far the current point moves horizontally after showing the text.
  public var xAdvance: Double
  /// How far the current point moves vertically after showing the text.
  public var yAdvance: Double
}

/// The vertical metrics of a font at its current size, in user-space units.
///
/// The corresponding C type is `cairo_font_extents_t`.
public struct FontExtents: Hashable, Sendable {
  /// From the baseline up to the top of the tallest glyphs.
  public var ascent: Double
  /// From the baseline down to the bottom of the lowest glyphs.
  public var descent: Double
  /// The recommended distance between baselines.
  public var height: Double
  /// The largest horizontal advance of any glyph.
  public var maxXAdvance: Double
  /// The largest vertical advance of any glyph.
  public var maxYAdvance: Double
}

extension Context {
  /// Sets the font and size for ``showText(_:)`` and the text measurements.
  ///
  /// - Parameters:
  ///   - font: The font.
  ///   - size: The em size in user-space units.
  public func setFont(_ font: Font, size: Double) {
    cairo_set_font_face(pointer, font.face)
    cairo_set_font_size(pointer, size)
  }

  /// Draws text with its baseline starting at the current point, then advances the point.
  ///
  /// Call ``moveTo(x:y:)`` first to place the baseline, and ``setFont(_:size:)`` first to pick
  /// the font. The output is real text in PDF and SVG documents.
  public func showText(_ text: String) {
    requireFont()
    cairo_show_text(pointer, text)
  }

  /// Measures text in the current font without drawing it.
  ///
  /// - Parameter text: The text.
  /// - Returns: The ink box and the advance of the text.
  public func textExtents(_ text: String) -> TextExtents {
    requireFont()
    var e = cairo_text_extents_t()
    cairo_text_extents(pointer, text, &e)
    return TextExtents(
      xBearing: e.x_bearing, yBearing: e.y_bearing, width: e.width,
      height: e.height,
      xAdvance: e.x_advance, yAdvance: e.y_advance)
  }

  /// The vertical metrics of the current font at its current size.
  public var fontExtents: FontExtents {
    requireFont()
    var e = cairo_font_extents_t()
    cairo_font_extents(pointer, &e)
    return FontExtents(
      ascent: e.ascent, descent: e.descent, height: e.height,
      maxXAdvance: e.max_x_advance, maxYAdvance: e.max_y_advance)
  }

  /// Traps unless a ``Font`` is set: cairo's default face is a "toy" font that fontconfig
  /// resolves, which would make output depend on the machine's font configuration.
  private func requireFont() {
    precondition(
      cairo_font_face_get_type(cairo_get_font_face(pointer))
        == CAIRO_FONT_TYPE_FT,
      "call setFont(_:size:) before drawing or measuring text")
  }
}
