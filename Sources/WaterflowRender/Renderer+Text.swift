internal import Cairo
import WaterflowCells
import WaterflowView

/// How a text sits in its box.
struct TextPlacement: Hashable {
  var size: Double
  var alignment: TextAlignment = .center
  var maxLines = 1
  var lineHeight: Double? = nil
  /// Centred vertically in the box; otherwise its first line starts at the box's top.
  var centeredVertically = true
  /// Drawn along the box's long side, reading bottom to top: the text of a horizontal flow's
  /// narrow header and footer strips.
  var rotated = false
}

/// What a template's laid-out text depends on.
struct CellTextKey: Hashable {
  var text: String
  var style: CellTextStyle
  var width: Double?
}

/// What a laid-out text depends on.
struct TextLayoutKey: Hashable {
  var text: String
  var width: Double?
  var placement: TextPlacement
}

extension Renderer {
  /// How many laid-out texts the renderer keeps: its own and its templates'.
  package var keptTextLayoutCount: Int { textLayouts.count + cellTextLayouts.count }

  /// Lays out text for a box's width with the renderer's fonts.
  ///
  /// Layouts are kept: a scroll's frames draw the same badges and prices again and again, and
  /// laying one out costs about 40 µs, a third of a frame's drawing.
  func layout(_ text: String, width: Double?, _ placement: TextPlacement) -> TextLayout {
    func layOut() -> TextLayout {
      TextLayout(
        text, fonts: fonts, size: placement.size, width: width, maxLines: placement.maxLines,
        lineHeight: placement.lineHeight, alignment: placement.alignment)
    }
    guard keepsTextLayouts else { return layOut() }
    let key = TextLayoutKey(text: text, width: width, placement: placement)
    if let kept = textLayouts[key] { return kept }
    // A bound, not an LRU: a long scroll of distinct texts starts over instead of growing.
    if textLayouts.count >= 2048 { textLayouts.removeAll(keepingCapacity: true) }
    let laidOut = layOut()
    textLayouts[key] = laidOut
    return laidOut
  }

  /// A template's text laid out in its style at a width, kept like the renderer's own texts:
  /// a reused cell draws its unchanged texts from here in the next frame.
  func cellTextLayout(_ text: String, style: CellTextStyle, width: Double?) -> TextLayout {
    let key = CellTextKey(text: text, style: style, width: width)
    guard keepsTextLayouts else { return style.layout(text, fonts: fonts, width: width) }
    if let laidOut = cellTextLayouts[key] { return laidOut }
    if cellTextLayouts.count >= 2048 { cellTextLayouts.removeAll(keepingCapacity: true) }
    let laidOut = style.layout(text, fonts: fonts, width: width)
    cellTextLayouts[key] = laidOut
    return laidOut
  }

  /// Draws text in a box in the current source colour: wrapped and cut with "…" to the box's
  /// width, centred or at its leading edge, and noted in ``drawnTexts``.
  @discardableResult
  func drawText(
    _ text: String, in box: Rect, _ placement: TextPlacement, in context: Context
  ) -> TextLayout {
    guard placement.rotated else {
      let laidOut = layout(text, width: box.width, placement)
      let logical = laidOut.logicalBox
      let y = placement.centeredVertically ? box.midY - logical.height / 2 : box.minY
      context.draw(laidOut, x: box.minX, y: y)
      record(
        text,
        Rect(
          x: box.minX + logical.x, y: y + logical.y, width: logical.width,
          height: logical.height), truncated: laidOut.isTruncated)
      return laidOut
    }
    // Rotated a quarter turn counter-clockwise about the box's centre: the box's height is the
    // text's width.
    let laidOut = layout(text, width: box.height, placement)
    let logical = laidOut.logicalBox
    context.withSavedState {
      context.translate(x: box.midX, y: box.midY)
      context.rotate(by: -Double.pi / 2)
      context.draw(laidOut, x: -box.height / 2, y: -logical.height / 2)
    }
    let along = -box.height / 2 + logical.x
    record(
      text,
      Rect(
        x: box.midX - logical.height / 2, y: box.midY - along - logical.width,
        width: logical.height, height: logical.width), truncated: laidOut.isTruncated)
    return laidOut
  }

  /// The width text takes on one line, unwrapped.
  func textWidth(_ text: String, size: Double) -> Double {
    layout(text, width: nil, TextPlacement(size: size)).logicalBox.width
  }

  /// Notes a drawn text and its box, given in the coordinates it was drawn in.
  func record(_ text: String, _ box: Rect, truncated: Bool) {
    let drawn = DrawnText(
      text: text,
      box: Rect(
        x: box.minX * textScale + textOrigin.x, y: box.minY * textScale + textOrigin.y,
        width: box.width * textScale, height: box.height * textScale))
    drawnTexts.append(drawn)
    if truncated { truncatedTexts.append(drawn) }
  }
}
