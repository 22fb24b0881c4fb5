package import Cairo
import WaterflowStyle
import WaterflowView

extension Renderer {
  /// Draws the view into a context whose user space is in points, origin at the canvas's top-left.
  ///
  /// Cells are drawn at their frames minus the content offset and clipped to the viewport, so a
  /// cell partly off screen is cut at the edge, as on the phone.
  package func draw(
    _ view: WaterflowView, in context: Context,
    options: RenderOptions
  ) {
    draw(FrameContent(view: view), in: context, options: options)
  }

  /// Draws a captured frame into a context whose user space is in points.
  package func draw(
    _ frame: FrameContent, in context: Context, options: RenderOptions
  ) {
    let style = options.style
    drawnTexts = []
    let canvas = frame.canvasSize(debug: options.debug)
    fill(context, Rect(origin: .zero, size: canvas), style.background)
    let band = options.debug ? frame.preloadBuffer : 0
    let viewport = Rect(
      x: frame.isHorizontal ? band : 0, y: frame.isHorizontal ? 0 : band,
      width: frame.viewport.width, height: frame.viewport.height)
    context.withSavedState {
      // In debug mode the buffered cells outside the viewport show too.
      let clip = options.debug ? Rect(origin: .zero, size: canvas) : viewport
      context.rectangle(
        x: clip.minX, y: clip.minY, width: clip.width, height: clip.height)
      context.clip()
      textOrigin = Point(
        x: viewport.minX - frame.contentOffset.x, y: viewport.minY - frame.contentOffset.y)
      context.translate(x: textOrigin.x, y: textOrigin.y)
      drawSupplements(frame, style: style, in: context)
      for cell in frame.cells {
        drawCell(
          cell, in: context, style: style, debug: options.debug, marks: options.reuseMarks)
      }
      if options.debug { drawGuides(frame.columnGuides, in: context) }
      textOrigin = .zero
    }
    if options.debug {
      drawDebugBounds(frame, viewport: viewport, canvas: canvas, in: context)
    }
  }

  // MARK: - Cells

  func drawCell(
    _ cell: FrameContent.Cell, in context: Context, style: Style, debug: Bool,
    marks: LayoutPass?
  ) {
    let r = cell.frame
    guard r.width > 0, r.height > 0 else { return }
    context.withSavedState {
      if style.cornerRadius > 0 {
        context.roundedRectangle(
          x: r.minX, y: r.minY, width: r.width, height: r.height, radius: style.cornerRadius)
      } else {
        context.rectangle(x: r.minX, y: r.minY, width: r.width, height: r.height)
      }
      context.clip()
      // A title takes a band at the bottom; the image and its price bar fill the rest.
      let titleBand = cell.title == nil ? 0 : min(style.title.bandHeight, r.height)
      let picture = Rect(x: r.minX, y: r.minY, width: r.width, height: r.height - titleBand)
      fill(context, r, cell.color ?? style.placeholder)
      if let path = cell.imagePath, picture.height > 0 {
        if let image = images.image(at: path, item: cell.index) {
          context.draw(
            image, aspectFillX: picture.minX, y: picture.minY, width: picture.width,
            height: picture.height)
        } else {
          drawLoadingPlaceholder(in: picture, style: style, context: context)
        }
      }
      if let price = cell.price {
        let priceBar = style.priceBar
        let bar = Rect(
          x: picture.minX, y: picture.maxY - priceBar.height, width: picture.width,
          height: priceBar.height)
        fill(context, bar, priceBar.color)
        setSource(priceBar.textColor, in: context)
        drawText(price, centeredIn: bar, size: priceBar.fontSize, in: context)
      }
      if let title = cell.title, titleBand > 0 {
        drawTitle(
          title, in: Rect(x: r.minX, y: picture.maxY, width: r.width, height: titleBand),
          style: style.title, context: context)
      }
      if style.indexLabels || debug {
        var label = cell.text ?? String(cell.index)
        if debug { label += "  #\(cell.instanceID)" }
        drawLabel(label, at: Point(x: r.minX + 4, y: r.minY + 4), style: style.label, in: context)
      }
      if let marks {
        let id = cell.instanceID
        let created = marks.created.contains { $0.cell == id }
        let reused = marks.reused.contains { $0.cell == id }
        if created || reused {
          let c =
            created
            ? Color(red: 0.1, green: 0.75, blue: 0.3)
            : Color(red: 1, green: 0.55, blue: 0)
          context.setSource(red: c.red, green: c.green, blue: c.blue)
          context.lineWidth = 4
          context.rectangle(
            x: r.minX + 2, y: r.minY + 2, width: r.width - 4,
            height: r.height - 4)
          context.stroke()
          let tag = created ? "new" : "reused"
          // Set here too: with index labels hidden, no font is set yet.
          context.setFont(font, size: Palette.labelFontSize)
          let e = context.textExtents(tag)
          let box = Rect(
            x: r.maxX - e.xAdvance - 12, y: r.minY + 4, width: e.xAdvance + 8,
            height: 16)
          fill(context, box, c)
          context.setSource(red: 1, green: 1, blue: 1)
          drawText(
            tag, centeredIn: box, size: Palette.labelFontSize, in: context)
        }
      }
      if debug {
        context.setSource(red: 0, green: 0, blue: 0, alpha: 0.75)
        context.lineWidth = 1
        context.rectangle(
          x: r.minX + 0.5, y: r.minY + 0.5, width: r.width - 1,
          height: r.height - 1)
        context.stroke()
      }
    }
  }

  /// The index label: text on a rounded tag in the top-left corner, readable at scale 1.
  private func drawLabel(
    _ text: String, at origin: Point, style: Style.Bar, in context: Context
  ) {
    context.setFont(font, size: Palette.labelFontSize)
    let e = context.textExtents(text)
    setSource(style.color, in: context)
    context.roundedRectangle(
      x: origin.x, y: origin.y, width: e.xAdvance + 8, height: 16, radius: 3)
    context.fill()
    setSource(style.textColor, in: context)
    context.moveTo(x: origin.x + 4, y: origin.y + 12.5)
    context.showText(text)
    record(text, Rect(x: origin.x + 4, y: origin.y, width: e.xAdvance, height: 16))
  }

  /// An item's title in its band: up to two lines, left-aligned, the last ending in "…" when
  /// the text does not fit.
  private func drawTitle(
    _ text: String, in band: Rect, style: Style.Title, context: Context
  ) {
    fill(context, band, style.color)
    context.setFont(font, size: style.fontSize)
    let padding = 8.0
    let lines = TextFitting.lines(
      text, width: band.width - 2 * padding, maxLines: 2
    ) { context.textExtents($0).xAdvance }
    let metrics = context.fontExtents
    // Each line's ink centred in its line height, below a padding of 6 pt.
    let lead = (style.lineHeight - (metrics.ascent + metrics.descent)) / 2 + metrics.ascent
    setSource(style.textColor, in: context)
    for (i, line) in lines.enumerated() {
      context.moveTo(
        x: band.minX + padding, y: band.minY + 6 + Double(i) * style.lineHeight + lead)
      context.showText(line)
    }
    record(
      text,
      Rect(
        x: band.minX + padding, y: band.minY + 6, width: band.width - 2 * padding,
        height: Double(lines.count) * style.lineHeight))
  }

  private func drawLoadingPlaceholder(in r: Rect, style: Style, context: Context) {
    fill(context, r, style.placeholder)
    let color = style.empty.textColor
    drawSpinner(at: Point(x: r.midX, y: r.midY - 10), radius: 8, color: color, in: context)
    context.setSource(red: color.red, green: color.green, blue: color.blue)
    drawText(
      "loading",
      centeredIn: Rect(x: r.minX, y: r.midY + 4, width: r.width, height: 16),
      size: 11, in: context)
  }

  // MARK: - Header, footer, empty and loading views

  func drawSupplements(_ frame: FrameContent, style: Style, in context: Context) {
    for bar in frame.bars {
      switch bar.style {
      case .header:
        drawBar(bar.text, in: bar.frame, style: style.header, separator: style.separator,
          context: context, edge: .bottom)
      case .footer:
        drawBar(bar.text, in: bar.frame, style: style.footer, separator: style.separator,
          context: context, edge: .top)
      case .section:
        drawBar(
          bar.text, in: bar.frame, style: style.section, separator: style.separator,
          context: context, edge: .none, leading: true)
      }
    }
    if let empty = frame.emptyView {
      let r = empty.frame
      if style.empty.color.alpha > 0 { fill(context, r, style.empty.color) }
      let color = style.empty.textColor
      if frame.isLoading {
        drawSpinner(
          at: Point(x: r.midX, y: r.midY - 24), radius: 12, color: color,
          in: context)
      }
      context.setSource(red: color.red, green: color.green, blue: color.blue)
      drawText(
        empty.text, centeredIn: r, size: Palette.titleFontSize, in: context)
    }
  }

  private enum Edge { case top, bottom, none }

  private func drawBar(
    _ text: String, in r: Rect, style: Style.Bar, separator: Color, context: Context, edge: Edge,
    leading: Bool = false
  ) {
    guard r.width > 0, r.height > 0 else { return }
    context.withSavedState {
      context.rectangle(x: r.minX, y: r.minY, width: r.width, height: r.height)
      context.clip()
      fill(context, r, style.color)
      if edge != .none {
        let y = edge == .bottom ? r.maxY - 0.5 : r.minY
        fill(context, Rect(x: r.minX, y: y, width: r.width, height: 0.5), separator)
      }
      setSource(style.textColor, in: context)
      if leading {
        context.setFont(font, size: Palette.titleFontSize)
        let e = context.textExtents(text)
        context.moveTo(x: r.minX + 8, y: r.midY - (e.yBearing + e.height / 2))
        context.showText(text)
        record(
          text, Rect(x: r.minX + 8 + e.xBearing, y: r.midY - e.height / 2, width: e.width,
            height: e.height))
      } else {
        drawText(text, centeredIn: r, size: Palette.titleFontSize, in: context)
      }
    }
  }

  /// Eight dots in a ring, fading: the activity indicator of a loading view.
  private func drawSpinner(
    at centre: Point, radius: Double, color: Color, in context: Context
  ) {
    for i in 0..<8 {
      let angle = Double(i) * .pi / 4
      context.setSource(
        red: color.red, green: color.green, blue: color.blue,
        alpha: 0.2 + 0.1 * Double(i))
      context.newPath()
      context.arc(
        centerX: centre.x + radius * cosine(angle),
        centerY: centre.y + radius * sine(angle), radius: radius / 5,
        startAngle: 0, endAngle: 2 * .pi)
      context.fill()
    }
  }

  // MARK: - Debug overlay

  private func drawGuides(_ guides: [Rect], in context: Context) {
    context.setSource(
      red: Palette.guide.red, green: Palette.guide.green,
      blue: Palette.guide.blue, alpha: Palette.guide.alpha)
    context.lineWidth = 1
    context.setDash([4, 3])
    for lane in guides {
      context.rectangle(
        x: lane.minX + 0.5, y: lane.minY + 0.5, width: max(0, lane.width - 1),
        height: max(0, lane.height - 1))
      context.stroke()
    }
    context.setDash([])
  }

  private func drawDebugBounds(
    _ frame: FrameContent, viewport: Rect, canvas: Size, in context: Context
  ) {
    if frame.preloadBuffer > 0 {
      // Tint the buffer bands, where cells are displayed although not on screen.
      let bands: [Rect] =
        frame.isHorizontal
        ? [
          Rect(x: 0, y: 0, width: viewport.minX, height: canvas.height),
          Rect(
            x: viewport.maxX, y: 0, width: canvas.width - viewport.maxX,
            height: canvas.height),
        ]
        : [
          Rect(x: 0, y: 0, width: canvas.width, height: viewport.minY),
          Rect(
            x: 0, y: viewport.maxY, width: canvas.width,
            height: canvas.height - viewport.maxY),
        ]
      for band in bands {
        fill(
          context, band,
          Color(
            red: Palette.buffer.red, green: Palette.buffer.green,
            blue: Palette.buffer.blue, alpha: 0.12))
      }
      context.setSource(
        red: Palette.buffer.red, green: Palette.buffer.green,
        blue: Palette.buffer.blue)
      context.lineWidth = 1
      context.setDash([6, 4])
      context.rectangle(
        x: 0.5, y: 0.5, width: canvas.width - 1, height: canvas.height - 1)
      context.stroke()
      context.setDash([])
    }
    context.setSource(
      red: Palette.viewport.red, green: Palette.viewport.green,
      blue: Palette.viewport.blue)
    context.lineWidth = 2
    context.rectangle(
      x: viewport.minX + 1, y: viewport.minY + 1, width: viewport.width - 2,
      height: viewport.height - 2)
    context.stroke()
    let text =
      "offset \(short(frame.offset)) · \(frame.cells.count) displayed · pool \(frame.poolCount)"
    context.setFont(font, size: 11)
    let e = context.textExtents(text)
    let tag = Rect(
      x: viewport.maxX - e.xAdvance - 14, y: viewport.maxY - 22,
      width: e.xAdvance + 10, height: 18)
    fill(
      context, tag,
      Color(
        red: Palette.viewport.red, green: Palette.viewport.green,
        blue: Palette.viewport.blue, alpha: 0.9))
    context.setSource(red: 1, green: 1, blue: 1)
    drawText(text, centeredIn: tag, size: 11, in: context)
  }

  // MARK: - Helpers

  func setSource(_ c: Color, in context: Context) {
    context.setSource(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
  }

  func fill(_ context: Context, _ r: Rect, _ c: Color) {
    context.setSource(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    context.rectangle(x: r.minX, y: r.minY, width: r.width, height: r.height)
    context.fill()
  }

  /// Draws text centred in a rectangle with the current source colour.
  func drawText(
    _ text: String, centeredIn r: Rect, size: Double, in context: Context
  ) {
    context.setFont(font, size: size)
    let e = context.textExtents(text)
    context.moveTo(
      x: r.midX - (e.xBearing + e.width / 2),
      y: r.midY - (e.yBearing + e.height / 2))
    context.showText(text)
    record(
      text, Rect(x: r.midX - e.width / 2, y: r.midY - e.height / 2, width: e.width, height: e.height))
  }

  /// Notes a drawn text and its box, given in the coordinates it was drawn in.
  func record(_ text: String, _ box: Rect) {
    drawnTexts.append(
      DrawnText(
        text: text,
        box: Rect(
          x: box.minX + textOrigin.x, y: box.minY + textOrigin.y, width: box.width,
          height: box.height)))
  }
}

/// A number for labels: at most one decimal.
func short(_ d: Double) -> String {
  let r = (d * 10).rounded() / 10
  return r == r.rounded() ? String(Int(r)) : String(r)
}

// The standard library has no trigonometry; these series are exact enough for placing dots.
func sine(_ x: Double) -> Double {
  var x = x.truncatingRemainder(dividingBy: 2 * .pi)
  if x > .pi { x -= 2 * .pi }
  if x < -.pi { x += 2 * .pi }
  var term = x
  var sum = x
  for n in 1...10 {
    term *= -x * x / Double((2 * n) * (2 * n + 1))
    sum += term
  }
  return sum
}

func cosine(_ x: Double) -> Double { sine(x + .pi / 2) }
