package import Cairo
package import WaterflowView

/// Draws template cells into a Cairo context: the renderer's half of ``CellLayoutEngine``.
///
/// The painter owns no caches: the renderer hands it its text layouts and images, so template
/// cells share the renderer's caches and its record of drawn texts.
package struct CellPainter {
  /// The text laid out in a style at a width, from the renderer's cache.
  package var layoutText: (String, CellTextStyle, Double?) -> TextLayout
  /// The image at a path resized to at most a pixel size (its own, when larger), or nil when it
  /// cannot be loaded (the renderer warns).
  package var image: (String, Int, Int) -> ImageSurface?
  /// The width-to-height ratio of an image file, for images the data gives no size for.
  package var imageAspect: (String) -> Double?
  /// Notes a drawn text and its box, for golden facts.
  package var record: (String, Rect, Bool) -> Void
  /// The fill of an image that is missing or still "loading".
  package var placeholder: (Rect, Context) -> Void
  /// Whether the image at a path, resized as ``image`` resizes it, is loaded and opaque: the
  /// cell's background is then left out under it.
  package var imageIsOpaque: (String, Int, Int) -> Bool
  /// Told each time a background is left out under a photo.
  package var leftOutBackground: () -> Void

  package init(
    layoutText: @escaping (String, CellTextStyle, Double?) -> TextLayout,
    image: @escaping (String, Int, Int) -> ImageSurface?,
    imageAspect: @escaping (String) -> Double?,
    record: @escaping (String, Rect, Bool) -> Void,
    placeholder: @escaping (Rect, Context) -> Void,
    imageIsOpaque: @escaping (String, Int, Int) -> Bool = { _, _, _ in false },
    leftOutBackground: @escaping () -> Void = {}
  ) {
    self.layoutText = layoutText
    self.image = image
    self.imageAspect = imageAspect
    self.record = record
    self.placeholder = placeholder
    self.imageIsOpaque = imageIsOpaque
    self.leftOutBackground = leftOutBackground
  }

  /// The layout engine for one item, measuring with the renderer's layouts.
  package func engine(data: ItemData, index: Int) -> CellLayoutEngine {
    let layoutText = self.layoutText
    return CellLayoutEngine(
      data: data, index: index,
      measureText: { text, style, width in
        guard !text.isEmpty else { return TextSize(width: 0, height: 0) }
        let layout = layoutText(text, style, width)
        let box = layout.logicalBox
        return TextSize(width: box.width, height: box.height, baseline: layout.baseline)
      },
      imageAspect: imageAspect)
  }

  /// Draws an item's cell in its frame: shadow, background, content, border.
  ///
  /// - Parameter mirrored: Whether the cell is laid out right to left, as UIKit mirrors a cell
  ///   in an Arabic or Hebrew app: leading is the right edge, a row runs from the right, and a
  ///   text reads from the right edge (a right-to-left text already does).
  package func draw(
    _ template: CellTemplate, data: ItemData, index: Int, frame r: Rect, cellColor: Color,
    mirrored: Bool = false, in context: Context
  ) {
    guard r.width > 0, r.height > 0 else { return }
    if let shadow = template.shadow {
      drawShadow(shadow, under: r, cornerRadius: template.cornerRadius, in: context)
    }
    let pieces = engine(data: data, index: index).pieces(of: template, in: r).map {
      mirrored ? $0.mirrored(across: r) : $0
    }
    // Taken before the cell's own clip (photos cover whole pixels fully only inside it), and
    // only for a cell with a photo that fills its box: most cells of a flat scene have none.
    let fillsWithPhotos = pieces.contains {
      if case .image(_?, _, .fill, _) = $0 { true } else { false }
    }
    let outerClip = fillsWithPhotos ? context.clipRectangles ?? [] : []
    context.withSavedState {
      context.roundedRectangle(
        x: r.minX, y: r.minY, width: r.width, height: r.height, radius: template.cornerRadius)
      context.clip()
      fillBackground(
        r, template.background ?? cellColor, under: pieces, cornerRadius: template.cornerRadius,
        within: outerClip, in: context)
      for piece in pieces {
        draw(piece, mirrored: mirrored, in: context)
      }
    }
    if let border = template.border, border.width > 0 {
      let inset = border.width / 2
      set(border.color, in: context)
      context.lineWidth = border.width
      context.roundedRectangle(
        x: r.minX + inset, y: r.minY + inset, width: max(0, r.width - border.width),
        height: max(0, r.height - border.width),
        radius: max(0, template.cornerRadius - inset))
      context.stroke()
    }
  }

  /// A soft shadow from stacked translucent outlines: cairo has no blur, and a few rings of
  /// growing radius read as one at cell sizes (and stay vector in PDF and SVG).
  private func drawShadow(_ shadow: CellShadow, under r: Rect, cornerRadius: Double, in context: Context) {
    let rings = max(1, min(8, Int(shadow.radius.rounded(.up))))
    let alpha = shadow.color.alpha / Double(rings)
    context.withSavedState {
      context.setSource(
        red: shadow.color.red, green: shadow.color.green, blue: shadow.color.blue, alpha: alpha)
      for ring in 0..<rings {
        let grow = shadow.radius * Double(ring + 1) / Double(rings)
        context.roundedRectangle(
          x: r.minX + shadow.x - grow / 2, y: r.minY + shadow.y - grow / 2,
          width: r.width + grow, height: r.height + grow, radius: cornerRadius + grow / 2)
        context.fill()
      }
    }
  }

  private func draw(_ piece: CellPiece, mirrored: Bool, in context: Context) {
    switch piece {
    case .image(let path, let box, let fit, let radius):
      guard box.width > 0, box.height > 0 else { return }
      context.withSavedState {
        if radius > 0 {
          context.roundedRectangle(
            x: box.minX, y: box.minY, width: box.width, height: box.height, radius: radius)
          context.clip()
        }
        guard let path, let picture = picture(path, filling: box, fit: fit, in: context) else {
          placeholder(box, context)
          return
        }
        switch fit {
        case .fill:
          context.draw(
            picture, aspectFillX: box.minX, y: box.minY, width: box.width, height: box.height)
        case .fit:
          context.draw(
            picture, aspectFitX: box.minX, y: box.minY, width: box.width, height: box.height)
        }
      }
    case .text(let text, let style, let color, let box):
      drawText(text, style: style, color: color, in: box, context: context, mirrored: mirrored)
    case .avatar(let path, let initial, let box):
      let side = min(box.width, box.height)
      guard side > 0 else { return }
      let circle = Rect(x: box.minX, y: box.minY + (box.height - side) / 2, width: side, height: side)
      context.withSavedState {
        context.newPath()
        context.arc(
          centerX: circle.midX, centerY: circle.midY, radius: side / 2, startAngle: 0,
          endAngle: 2 * Double.pi)
        context.clip()
        if let path, let picture = picture(path, filling: circle, fit: .fill, in: context) {
          context.draw(
            picture, aspectFillX: circle.minX, y: circle.minY, width: side, height: side)
        } else {
          fill(circle, Self.avatarColor(for: initial), in: context)
          if !initial.isEmpty {
            drawText(
              initial, style: CellTextStyle(size: side * 0.5, weight: .bold, alignment: .center),
              color: Color(red: 1, green: 1, blue: 1), in: circle, context: context,
              centeredVertically: true)
          }
        }
      }
    case .icon(let name, let color, let box):
      guard let shape = IconShape(named: name) else { return }
      let side = min(box.width, box.height)
      let scale = side / 24
      let x0 = box.minX + (box.width - side) / 2
      let y0 = box.minY + (box.height - side) / 2
      context.withSavedState {
        set(color, in: context)
        for part in shape.parts {
          context.newPath()
          for segment in part.segments {
            switch segment {
            case .move(let x, let y): context.moveTo(x: x0 + x * scale, y: y0 + y * scale)
            case .line(let x, let y): context.lineTo(x: x0 + x * scale, y: y0 + y * scale)
            case .curve(let x1, let y1, let x2, let y2, let x, let y):
              context.curveTo(
                x1: x0 + x1 * scale, y1: y0 + y1 * scale, x2: x0 + x2 * scale,
                y2: y0 + y2 * scale, x: x0 + x * scale, y: y0 + y * scale)
            case .close: context.closePath()
            }
          }
          switch part.paint {
          case .fill:
            context.fillsEvenOdd = false
            context.fill()
          case .fillEvenOdd:
            context.fillsEvenOdd = true
            context.fill()
          case .stroke(let width):
            context.roundsLineEnds = true
            context.lineWidth = width * scale
            context.stroke()
          }
        }
      }
    case .badge(let text, let style, let color, let background, let box):
      guard box.width > 0, box.height > 0 else { return }
      set(background, in: context)
      context.roundedRectangle(
        x: box.minX, y: box.minY, width: box.width, height: box.height, radius: box.height / 2)
      context.fill()
      drawText(text, style: style, color: color, in: box, context: context, centeredVertically: true)
    case .rect(let color, let radius, let box):
      guard box.width > 0, box.height > 0 else { return }
      set(color, in: context)
      context.roundedRectangle(
        x: box.minX, y: box.minY, width: box.width, height: box.height, radius: radius)
      context.fill()
    }
  }

  /// The image at `path` at the pixel size it is drawn at in `box`: scroll frames then copy
  /// it instead of filtering the full-size photo down on every frame.
  private func picture(_ path: String, filling box: Rect, fit: ImageFit, in context: Context)
    -> ImageSurface?
  {
    guard let size = pictureSize(path, filling: box, fit: fit, in: context) else {
      return image(path, 0, 0)
    }
    return image(path, size.width, size.height)
  }

  /// The pixel size ``picture(_:filling:fit:in:)`` asks for; nil when the image's aspect is
  /// unknown.
  private func pictureSize(_ path: String, filling box: Rect, fit: ImageFit, in context: Context)
    -> (width: Int, height: Int)?
  {
    guard let aspect = imageAspect(path), aspect > 0 else { return nil }
    let boxAspect = box.width / box.height
    // The drawn size in points: covering the box (fill) or inside it (fit).
    let covers = (fit == .fill) == (aspect > boxAspect)
    let (width, height) =
      covers ? (box.height * aspect, box.height) : (box.width, box.width / aspect)
    let scale = context.deviceScale
    return (Int((width * scale).rounded(.up)), Int((height * scale).rounded(.up)))
  }

  private func drawText(
    _ text: String, style: CellTextStyle, color: Color, in box: Rect, context: Context,
    centeredVertically: Bool = false, mirrored: Bool = false
  ) {
    guard !text.isEmpty, box.width > 0 else { return }
    // A badge's or avatar's text is one unwrapped line; others wrap at their box's width.
    var laidOut = layoutText(text, style, centeredVertically ? nil : box.width)
    // Pango already puts a right-to-left paragraph's leading edge on the right; a
    // left-to-right one in a mirrored cell is moved there by swapping its alignment.
    if mirrored, !centeredVertically, style.alignment != .center, !laidOut.isRightToLeft {
      var swapped = style
      swapped.alignment = style.alignment == .leading ? .trailing : .leading
      laidOut = layoutText(text, swapped, box.width)
    }
    let logical = laidOut.logicalBox
    let x = centeredVertically ? box.midX - logical.width / 2 - logical.x : box.minX
    let y = centeredVertically ? box.midY - logical.height / 2 : box.minY
    set(color, in: context)
    context.draw(laidOut, x: x, y: y)
    record(
      text,
      Rect(x: x + logical.x, y: y + logical.y, width: logical.width, height: logical.height),
      laidOut.isTruncated)
  }

  /// A colour for an avatar without a picture, the same for the same initial.
  static func avatarColor(for initial: String) -> Color {
    let palette = [
      Color(red: 0.95, green: 0.45, blue: 0.45), Color(red: 0.98, green: 0.65, blue: 0.3),
      Color(red: 0.4, green: 0.7, blue: 0.45), Color(red: 0.35, green: 0.6, blue: 0.9),
      Color(red: 0.6, green: 0.5, blue: 0.85), Color(red: 0.3, green: 0.7, blue: 0.75),
    ]
    // By the initial's code point: Swift's own hashes are seeded per process.
    let code = Int(initial.unicodeScalars.first?.value ?? 0)
    return palette[code % palette.count]
  }

  /// Fills the cell's background, except the whole pixels that an opaque photo filling its box
  /// covers entirely: they show the photo whatever was under it. In a photo feed most of a card is
  /// its photo, and these fills were most of a frame's pixman fills.
  ///
  /// - Parameter clip: The clip around the cell, as whole-pixel rectangles (none: no pixel is
  ///   left out, as a clip that is not such a region covers some pixels only in part).
  private func fillBackground(
    _ r: Rect, _ c: Color, under pieces: [CellPiece], cornerRadius: Double,
    within clip: [(x: Double, y: Double, width: Double, height: Double)], in context: Context
  ) {
    context.withSavedState {
      set(c, in: context)
      context.rectangle(x: r.minX, y: r.minY, width: r.width, height: r.height)
      var holes = false
      // Holes that overlap (two photos in one cell) are filled again where they overlap, under
      // the even-odd rule: pixels a photo covers, so it does not matter.
      for case .image(let path?, let box, .fill, let radius) in pieces where !clip.isEmpty {
        guard let size = pictureSize(path, filling: box, fit: .fill, in: context),
          imageIsOpaque(path, size.width, size.height)
        else { continue }
        // Between the corners of the cell's rounded outline and of the photo's own: a rounded
        // rectangle holds its full width between its corners' arcs, and there the clips cover
        // whole pixels fully.
        let top = max(box.minY + radius, r.minY + cornerRadius)
        let bottom = min(box.maxY - radius, r.maxY - cornerRadius)
        let left = max(box.minX, r.minX)
        let right = min(box.maxX, r.maxX)
        for rect in clip {
          let (x0, y0) = (max(left, rect.x), max(top, rect.y))
          let (x1, y1) = (min(right, rect.x + rect.width), min(bottom, rect.y + rect.height))
          guard x1 > x0, y1 > y0 else { continue }
          if context.addWholePixels(insideX: x0, y: y0, width: x1 - x0, height: y1 - y0) {
            holes = true
            leftOutBackground()
          }
        }
      }
      context.fillsEvenOdd = holes
      context.fill()
    }
  }

  private func fill(_ r: Rect, _ c: Color, in context: Context) {
    set(c, in: context)
    context.rectangle(x: r.minX, y: r.minY, width: r.width, height: r.height)
    context.fill()
  }

  private func set(_ c: Color, in context: Context) {
    context.setSource(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
  }
}
