package import Cairo
import WaterflowCells
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
    truncatedTexts = []
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
          cell, in: context, style: style, debug: options.debug, marks: options.reuseMarks,
          isRightToLeft: frame.isRightToLeft)
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
    marks: LayoutPass?, isRightToLeft: Bool
  ) {
    let r = cell.frame
    guard r.width > 0, r.height > 0 else { return }
    if let template = cell.template {
      cellPainter(style: style, item: cell.index).draw(
        template, data: cell.data, index: cell.index, frame: r,
        cellColor: cell.color ?? style.placeholder, mirrored: isRightToLeft, in: context)
      context.withSavedState {
        context.rectangle(x: r.minX, y: r.minY, width: r.width, height: r.height)
        context.clip()
        if debug {
          drawLabel(
            "\(cell.index)  #\(cell.instanceID)", in: r, leadingEdgeIsRight: isRightToLeft,
            style: style.label, in: context)
        }
        drawOverlays(cell, in: context, debug: debug, marks: marks, isRightToLeft: isRightToLeft)
      }
      return
    }
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
      let color = cell.color ?? style.placeholder
      // A photo is drawn opaque (flattened over the cell's colour where it is translucent) and
      // without the colour filled under it: at a fractional cell edge both would be blended in
      // by coverage, and the colour would show as a 1-px fringe round the photo.
      let image = cell.imagePath.flatMap { path -> ImageSurface? in
        guard picture.height > 0 else { return nil }
        let scale = context.deviceScale
        return images.opaqueImage(
          at: path, item: cell.index, over: color,
          filling: (Int((picture.width * scale).rounded(.up)), Int((picture.height * scale).rounded(.up))))
      }
      if let image {
        if titleBand > 0 {
          fill(context, Rect(x: r.minX, y: picture.maxY, width: r.width, height: titleBand), color)
        }
        context.draw(
          image, aspectFillX: picture.minX, y: picture.minY, width: picture.width,
          height: picture.height)
      } else {
        fill(context, r, color)
        if cell.imagePath != nil, picture.height > 0 {
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
        drawText(
          price, in: bar.insetBy(dx: 4, dy: 0), TextPlacement(size: priceBar.fontSize),
          in: context)
      }
      if let title = cell.title, titleBand > 0 {
        drawTitle(
          title, in: Rect(x: r.minX, y: picture.maxY, width: r.width, height: titleBand),
          style: style.title, context: context)
      }
      if style.indexLabels || debug {
        var label = cell.text ?? String(cell.index)
        if debug { label += "  #\(cell.instanceID)" }
        drawLabel(label, in: r, leadingEdgeIsRight: isRightToLeft, style: style.label, in: context)
      }
      drawOverlays(cell, in: context, debug: debug, marks: marks, isRightToLeft: isRightToLeft)
    }
  }

  /// The painter of template cells, drawing with this renderer's text layouts and images.
  func cellPainter(style: Style, item: Int) -> CellPainter {
    CellPainter(
      layoutText: { [unowned self] text, textStyle, width in
        cellTextLayout(text, style: textStyle, width: width)
      },
      image: { [unowned self] path, width, height in
        images.image(at: path, item: item, resizedTo: width, height)
      },
      imageAspect: { [unowned self] path in images.aspectRatio(at: path, item: item) },
      record: { [unowned self] text, box, truncated in record(text, box, truncated: truncated) },
      placeholder: { [unowned self] box, context in
        drawLoadingPlaceholder(in: box, style: style, context: context)
      },
      imageIsOpaque: { [unowned self] path, width, height in
        leavesBackgroundUnderPhotos && images.isOpaque(at: path, item: item, resizedTo: width, height)
      },
      leftOutBackground: { [unowned self] in backgroundsLeftOutUnderPhotos += 1 })
  }

  /// The reuse marks and the debug outline over a cell, whatever draws the cell itself.
  private func drawOverlays(
    _ cell: FrameContent.Cell, in context: Context, debug: Bool, marks: LayoutPass?,
    isRightToLeft: Bool
  ) {
    let r = cell.frame
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
        // At the trailing edge, opposite the index badge.
        let tag = created ? "new" : "reused"
        let width = textWidth(tag, size: Palette.labelFontSize) + 8
        let box = Rect(
          x: isRightToLeft ? r.minX + 4 : r.maxX - width - 4, y: r.minY + 4, width: width,
          height: 16)
        fill(context, box, c)
        context.setSource(red: 1, green: 1, blue: 1)
        drawText(tag, in: box, TextPlacement(size: Palette.labelFontSize), in: context)
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

  /// The index label: text on a rounded tag in the cell's leading top corner (the top-left, or
  /// the top-right when columns run right to left), readable at scale 1, cut with "…" to the
  /// cell's width.
  func drawLabel(
    _ text: String, in cell: Rect, leadingEdgeIsRight: Bool, style: Style.Bar,
    in context: Context
  ) {
    let placement = TextPlacement(size: Palette.labelFontSize)
    let laidOut = layout(text, width: max(0, cell.width - 16), placement)
    let width = min(laidOut.logicalBox.width, max(0, cell.width - 16)) + 8
    let tag = Rect(
      x: leadingEdgeIsRight ? cell.maxX - 4 - width : cell.minX + 4, y: cell.minY + 4,
      width: width, height: 16)
    setSource(style.color, in: context)
    context.roundedRectangle(
      x: tag.minX, y: tag.minY, width: tag.width, height: tag.height, radius: 3)
    context.fill()
    setSource(style.textColor, in: context)
    drawText(text, in: tag.insetBy(dx: 4, dy: 0), placement, in: context)
  }

  /// An item's title in its band: up to two lines, left-aligned, the last ending in "…" when
  /// the text does not fit.
  private func drawTitle(
    _ text: String, in band: Rect, style: Style.Title, context: Context
  ) {
    fill(context, band, style.color)
    setSource(style.textColor, in: context)
    // Below a padding of 6 pt, 8 pt from the sides.
    drawText(
      text,
      in: Rect(
        x: band.minX + 8, y: band.minY + 6, width: max(0, band.width - 16),
        height: band.height - 6),
      TextPlacement(
        size: style.fontSize, alignment: .leading, maxLines: 2, lineHeight: style.lineHeight,
        centeredVertically: false),
      in: context)
  }

  func drawLoadingPlaceholder(in r: Rect, style: Style, context: Context) {
    fill(context, r, style.placeholder)
    let color = style.empty.textColor
    drawSpinner(at: Point(x: r.midX, y: r.midY - 10), radius: 8, color: color, in: context)
    context.setSource(red: color.red, green: color.green, blue: color.blue)
    drawText(
      "loading", in: Rect(x: r.minX, y: r.midY + 4, width: r.width, height: 16),
      TextPlacement(size: 11), in: context)
  }

  // MARK: - Header, footer, empty and loading views

  func drawSupplements(_ frame: FrameContent, style: Style, in context: Context) {
    for bar in frame.bars {
      switch bar.style {
      case .header:
        drawBar(bar.text, in: bar.frame, style: style.header, separator: style.separator,
          context: context, edge: .bottom, rotated: frame.isHorizontal)
      case .footer:
        drawBar(bar.text, in: bar.frame, style: style.footer, separator: style.separator,
          context: context, edge: .top, rotated: frame.isHorizontal)
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
      let lineHeight = Palette.titleFontSize * 1.2
      drawText(
        empty.text, in: r.insetBy(dx: 16, dy: 0),
        TextPlacement(
          size: Palette.titleFontSize,
          maxLines: max(1, Int((r.height - 16) / lineHeight)), lineHeight: lineHeight),
        in: context)
    }
  }

  private enum Edge { case top, bottom, none }

  private func drawBar(
    _ text: String, in r: Rect, style: Style.Bar, separator: Color, context: Context, edge: Edge,
    leading: Bool = false, rotated: Bool = false
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
      // As many lines as the bar has room for (one, usually), 8 pt from its ends.
      let lineHeight = Palette.titleFontSize * 1.2
      let across = rotated ? r.width : r.height
      drawText(
        text, in: rotated ? r.insetBy(dx: 0, dy: 8) : r.insetBy(dx: 8, dy: 0),
        TextPlacement(
          size: Palette.titleFontSize, alignment: leading ? .leading : .center,
          maxLines: max(1, Int((across - 4) / lineHeight)), lineHeight: lineHeight,
          rotated: rotated),
        in: context)
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
    let width = textWidth(text, size: 11)
    let tag = Rect(
      x: viewport.maxX - width - 14, y: viewport.maxY - 22, width: width + 10, height: 18)
    fill(
      context, tag,
      Color(
        red: Palette.viewport.red, green: Palette.viewport.green,
        blue: Palette.viewport.blue, alpha: 0.9))
    context.setSource(red: 1, green: 1, blue: 1)
    drawText(text, in: tag, TextPlacement(size: 11), in: context)
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
