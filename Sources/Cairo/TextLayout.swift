internal import CCairo

/// Where lines sit across the width of a text box.
public enum TextAlignment: Sendable {
  /// At the start of the line: the left for left-to-right text, the right for Arabic or Hebrew.
  case leading
  /// Centred.
  case center
  /// At the end of the line: the right for left-to-right text, the left for Arabic or Hebrew.
  case trailing
}

/// The weight text is drawn in; the font file of that weight is used when the stack has one.
public enum TextWeight: Int32, Sendable {
  case regular = 400
  case medium = 500
  case semibold = 600
  case bold = 700
}

/// Text shaped and broken into lines with a ``FontStack``, ready to draw.
///
/// HarfBuzz shapes each run with the first font of the stack that has its characters (Arabic
/// joins, marks attach), and Pango orders the runs with the Unicode bidi algorithm. Lines break
/// at `\n`, between words and, where there are no spaces (Chinese), between characters; text
/// that needs more lines than `maxLines`, or is wider than the box on one line, ends in "…".
///
/// ```swift
/// let title = TextLayout("蘑菇街 · 新品上架", fonts: fonts, size: 17, width: 300)
/// context.draw(title, x: 20, y: 12)
/// ```
public final class TextLayout {
  /// The text as given.
  public private(set) var text: String
  /// The `PangoLayout *`; owned.
  private let layout: OpaquePointer
  /// Whether paragraphs after the last line were dropped and "…" added by us.
  private var droppedLines = false
  /// At most this many lines.
  private let maxLines: Int32
  /// The height Pango is given, in its units: the lines that fit in it are kept.
  private let heightUnits: Int32
  /// Whether Pango is given `maxLines` lines per paragraph instead of the height, to measure.
  private var countsLines = false
  /// The height Pango starts from for a text's first line, in its units; found when first
  /// needed.
  private var emptyLineHeight: Int32?

  /// Lays out text.
  ///
  /// - Parameters:
  ///   - text: The text; `\n` starts a new line.
  ///   - fonts: The fonts, tried in order for each character.
  ///   - size: The em size, in user-space units.
  ///   - width: The box's width: longer lines wrap, and a line that cannot wrap is cut with
  ///     "…". Nil for no limit.
  ///   - maxLines: At most this many lines; the last ends in "…" when text is left over.
  ///   - lineHeight: From one baseline to the next; 1.2 × `size` when nil.
  ///   - alignment: Where lines sit in the width.
  ///   - weight: The font weight.
  public convenience init(
    _ text: String, fonts: FontStack, size: Double, width: Double? = nil, maxLines: Int = 1,
    lineHeight: Double? = nil, alignment: TextAlignment = .leading, weight: TextWeight = .regular
  ) {
    self.init(
      fonts: fonts, size: size, maxLines: maxLines, lineHeight: lineHeight, alignment: alignment,
      weight: weight)
    setText(text, width: width)
  }

  /// A layout of no text yet, in a style: ``setText(_:width:)`` lays out each text in turn.
  ///
  /// Measuring many texts in one style with one layout skips making a Pango layout, a font
  /// description and an attribute list per text; the lines are those a new layout would give.
  package init(
    fonts: FontStack, size: Double, maxLines: Int = 1, lineHeight: Double? = nil,
    alignment: TextAlignment = .leading, weight: TextWeight = .regular
  ) {
    text = ""
    layout = pango_layout_new(fonts.pangoContext)
    let description = pango_font_description_new()
    pango_font_description_set_family(description, fonts.families)
    pango_font_description_set_absolute_size(description, units(size))
    if weight != .regular {
      pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(weight.rawValue)))
    }
    pango_layout_set_font_description(layout, description)
    pango_font_description_free(description)
    // A fixed line height makes "at most n lines" an exact height, even when a line mixes
    // DejaVu with the taller CJK font.
    let lineHeight = lineHeight ?? (size * 1.2)
    let attributes = pango_attr_list_new()
    pango_attr_list_insert(attributes, pango_attr_line_height_new_absolute(Int32(units(lineHeight))))
    pango_layout_set_attributes(layout, attributes)
    pango_attr_list_unref(attributes)
    // Pango mirrors left and right for a right-to-left paragraph, so these are leading and
    // trailing.
    switch alignment {
    case .leading: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
    case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
    case .trailing: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
    }
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
    // Half a line of slack: Pango keeps the lines whose whole height fits.
    let lines = max(1, maxLines)
    self.maxLines = Int32(lines)
    heightUnits = Int32(units((Double(lines) + 0.5) * lineHeight))
    pango_layout_set_height(layout, heightUnits)
  }

  /// Lays out another text, in the same style, for a box's width (nil for no limit).
  package func setText(_ text: String, width: Double?) {
    countLines(false)
    lay(text, width: width)
  }

  /// The logical size of a text laid out in this style at a width: what ``setText(_:width:)``
  /// then ``logicalBox`` give, for less.
  ///
  /// With a height, Pango works out the empty line's height (a font loaded, its metrics read)
  /// for every text, to tell which line is the last that fits; a count of lines per paragraph
  /// spares that. For one paragraph the two keep the same lines whenever the height would have
  /// made the same line the last: checked from the lines' heights, as Pango decides it, and
  /// laid out again with the height when not.
  package func size(of text: String, width: Double?) -> (width: Double, height: Double) {
    if Self.isOneParagraph(text) {
      // Found before the text is laid out: from a layout of no text.
      let start = width == nil ? 0 : startHeight
      countLines(true)
      lay(text, width: width)
      // Unwrapped, no line is ever cut, whatever the limit.
      if width == nil || keepsTheHeightsLines(startingAt: start) {
        let box = logicalBox
        return (box.width, box.height)
      }
    }
    setText(text, width: width)
    let box = logicalBox
    return (box.width, box.height)
  }

  /// Gives Pango a count of lines per paragraph, or the height.
  private func countLines(_ counts: Bool) {
    guard counts != countsLines else { return }
    countsLines = counts
    pango_layout_set_height(layout, counts ? -maxLines : heightUnits)
  }

  /// Whether the lines laid out to a count are those the height keeps: Pango, given a height,
  /// makes a line the last (its text all on it, cut with "…") when two lines as tall as the one
  /// before it do not fit in what is left; given a count, the line of that number.
  private func keepsTheHeightsLines(startingAt startHeight: Int32) -> Bool {
    var left = Int(heightUnits)
    var previous = Int(startHeight)
    for index in 0..<pango_layout_get_line_count(layout) {
      if (2 * previous > left) != (index + 1 == maxLines) { return false }
      guard let line = pango_layout_get_line_readonly(layout, index) else { return false }
      var logical = PangoRectangle()
      pango_layout_line_get_extents(line, nil, &logical)
      left -= Int(logical.height)
      previous = Int(logical.height)
    }
    return true
  }

  /// The empty line's height, Pango's guess for a text's first line: that of the layout of no
  /// text, whose one line is empty.
  private var startHeight: Int32 {
    if let emptyLineHeight { return emptyLineHeight }
    setText("", width: nil)
    var logical = PangoRectangle()
    if let line = pango_layout_get_line_readonly(layout, 0) {
      pango_layout_line_get_extents(line, nil, &logical)
    }
    emptyLineHeight = logical.height
    return logical.height
  }

  private func lay(_ text: String, width: Double?) {
    ShapingGate.shared.pass(alone: ShapingGate.mustShapeAlone(text)) {
      layOut(text, width: width)
      // Lines are made on first use: made here, inside the gate, they are never shaped again.
      _ = pango_layout_get_line_count(layout)
    }
  }

  private func layOut(_ text: String, width: Double?) {
    self.text = text
    droppedLines = false
    pango_layout_set_width(layout, width.map { Int32(units(max(0, $0))) } ?? -1)
    pango_layout_set_text(layout, text, -1)
    // Pango ellipsizes only a paragraph that goes on; paragraphs after the last line that fits
    // are dropped silently. Then lay out the text up to that line with "…" after it, which
    // Pango shortens to fit as it would its own.
    let shown = Int(shownByteCount)
    let rest = text.utf8.dropFirst(shown)
    if pango_layout_is_ellipsized(layout) == 0
      && rest.contains(where: { $0 != 0x0A && $0 != 0x20 })
    {
      var prefix = String(decoding: text.utf8.prefix(shown), as: UTF8.self)
      while prefix.last?.isWhitespace == true { prefix.removeLast() }
      pango_layout_set_text(layout, prefix + "…", -1)
      droppedLines = true
    }
  }

  deinit {
    waterflow_object_unref(UnsafeMutableRawPointer(layout))
  }

  /// Whether a one-line layout of a paragraph as wide as `naturalWidth` unwrapped is laid out
  /// the same in a box of `width`: its line fits, so Pango neither wraps it nor cuts it.
  ///
  /// In Pango units, as Pango compares them: the natural width is a whole number of them.
  package static func keepsOneLine(naturalWidth: Double, in width: Double) -> Bool {
    naturalWidth * scale <= units(max(0, width))
  }

  /// Whether a text is one paragraph with no line separator: no `\n`, `\r`, U+2028 or U+2029.
  package static func isOneParagraph(_ text: String) -> Bool {
    var previous: (UInt8, UInt8) = (0, 0)
    for byte in text.utf8 {
      if byte == 0x0A || byte == 0x0D { return false }
      // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
      if (byte == 0xA8 || byte == 0xA9) && previous == (0xE2, 0x80) { return false }
      previous = (previous.1, byte)
    }
    return true
  }

  /// How many UTF-8 bytes of the layout's text its lines show.
  private var shownByteCount: Int32 {
    let count = pango_layout_get_line_count(layout)
    guard count > 0, let line = pango_layout_get_line_readonly(layout, count - 1) else { return 0 }
    return line.pointee.start_index + line.pointee.length
  }

  /// The logical box: the lines' advance widths and line heights, from the drawing origin.
  ///
  /// - Complexity: O(1) once laid out (Pango caches the layout).
  public var logicalBox: (x: Double, y: Double, width: Double, height: Double) {
    extents().logical
  }

  /// The ink box: where the glyphs put paint, from the drawing origin.
  ///
  /// - Complexity: O(1) once laid out.
  public var inkBox: (x: Double, y: Double, width: Double, height: Double) {
    extents().ink
  }

  /// The width of the widest line.
  public var width: Double { logicalBox.width }

  /// From the top of the layout to the first line's baseline.
  public var baseline: Double { Double(pango_layout_get_baseline(layout)) / scale }

  /// The number of lines.
  public var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

  /// Whether text was cut and ended in "…".
  public var isTruncated: Bool { droppedLines || pango_layout_is_ellipsized(layout) != 0 }

  /// The number of glyphs drawn as boxes because no font of the stack has their character.
  public var unknownGlyphCount: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

  /// Whether the first paragraph reads right to left (Arabic, Hebrew), by its first strong
  /// character.
  public var isRightToLeft: Bool {
    guard let line = pango_layout_get_line_readonly(layout, 0) else { return false }
    return line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue
  }

  /// Draws the layout with its top-left corner (of the logical box's first line) at a point,
  /// in the context's current source.
  ///
  /// - Parameter exactText: Whether the output keeps text (PDF, SVG): an ellipsized layout is
  ///   then drawn from the text it shows, so that the document's text reads "…" where the
  ///   picture does. Pango maps its "…" glyph to the whole elided text, and a PDF reader would
  ///   copy or find the full title.
  func draw(in context: OpaquePointer, x: Double, y: Double, exactText: Bool = false) {
    cairo_move_to(context, x, y)
    if exactText, pango_layout_is_ellipsized(layout) != 0, let shown = shownText,
      let copy = pango_layout_copy(layout)
    {
      defer { waterflow_object_unref(UnsafeMutableRawPointer(copy)) }
      pango_layout_set_ellipsize(copy, PANGO_ELLIPSIZE_NONE)
      pango_layout_set_text(copy, shown, -1)
      // The copy is shaped as it is drawn.
      ShapingGate.shared.pass(alone: ShapingGate.mustShapeAlone(shown)) {
        pango_cairo_show_layout(context, copy)
      }
      return
    }
    pango_cairo_show_layout(context, layout)
  }

  /// The text as an ellipsized layout shows it: what comes before the elided part, then "…";
  /// nil when Pango cut nothing.
  ///
  /// Pango's ellipsis is a run of its own on the last line, whose item spans the elided bytes.
  var shownText: String? {
    guard pango_layout_is_ellipsized(layout) != 0 else { return nil }
    let count = pango_layout_get_line_count(layout)
    guard count > 0, let line = pango_layout_get_line_readonly(layout, count - 1) else { return nil }
    let drawn = pango_layout_get_text(layout).map { String(cString: $0) } ?? text
    let bytes = Array(drawn.utf8)
    var cut: Int?
    var run = line.pointee.runs
    while let node = run {
      if let item = node.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self).pointee.item {
        let start = Int(item.pointee.offset)
        let end = start + Int(item.pointee.length)
        // The run that reaches the text's end and starts latest is the ellipsis.
        if end == bytes.count, start > line.pointee.start_index || cut == nil {
          cut = max(cut ?? 0, start)
        }
      }
      run = node.pointee.next
    }
    guard let cut, cut <= bytes.count else { return nil }
    var prefix = String(decoding: bytes[..<cut], as: UTF8.self)
    while prefix.last?.isWhitespace == true { prefix.removeLast() }
    return prefix + "…"
  }

  private func extents() -> (
    ink: (x: Double, y: Double, width: Double, height: Double),
    logical: (x: Double, y: Double, width: Double, height: Double)
  ) {
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, &ink, &logical)
    func box(_ r: PangoRectangle) -> (x: Double, y: Double, width: Double, height: Double) {
      (Double(r.x) / scale, Double(r.y) / scale, Double(r.width) / scale, Double(r.height) / scale)
    }
    return (box(ink), box(logical))
  }
}

private let scale = Double(PANGO_SCALE)

private func units(_ points: Double) -> Double { (points * scale).rounded() }

extension Context {
  /// Draws laid-out text with the top-left of its first line's box at a point, in the current
  /// source colour. The output is real, searchable text in PDF and SVG documents.
  public func draw(_ text: TextLayout, x: Double, y: Double) {
    text.draw(in: pointer, x: x, y: y, exactText: keepsText)
  }

  /// Draws laid-out text with its first baseline starting at a point, in the current source
  /// colour.
  public func draw(_ text: TextLayout, x: Double, baselineY: Double) {
    text.draw(in: pointer, x: x, y: baselineY - text.baseline, exactText: keepsText)
  }
}
