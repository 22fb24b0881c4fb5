internal import Cairo
internal import PNGCodec
import WaterflowView

/// The sizes of an overview: the whole content shrunk to fit, under a legend.
struct OverviewGeometry {
  /// Overview points per content point.
  let factor: Double
  let legendHeight = 96.0
  let margin = 12.0
  let canvas: Size
  let content: Size

  init(view: WaterflowView) {
    content = view.contentSize
    let along = view.isHorizontal ? content.width : content.height
    // Long content shrinks to about 1600 pt along the scroll axis; short content keeps 1:2.
    factor = min(0.5, 1600 / max(1, along))
    let width = max(content.width * factor + 2 * margin, 380)
    canvas = Size(
      width: width, height: content.height * factor + legendHeight + 2 * margin)
  }
}

extension Renderer {
  /// Draws the overview: every item at a reduced scale, the displayed ones in their cells'
  /// colours, the others grey (darker behind the viewport, where cells were recycled, lighter
  /// ahead of it, where none has been created yet), the viewport in red and the reuse pool.
  func drawOverview(
    _ view: WaterflowView, geometry g: OverviewGeometry, in context: Context
  ) {
    drawnTexts = []
    truncatedTexts = []
    fill(
      context, Rect(origin: .zero, size: g.canvas),
      Color(red: 1, green: 1, blue: 1))
    drawLegend(view, geometry: g, in: context)
    guard let snapshot = view.snapshot else { return }
    let originX = (g.canvas.width - g.content.width * g.factor) / 2
    context.withSavedState {
      context.translate(x: originX, y: g.legendHeight + g.margin)
      context.scale(x: g.factor, y: g.factor)
      (textOrigin, textScale) = (Point(x: originX, y: g.legendHeight + g.margin), g.factor)
      defer { (textOrigin, textScale) = (.zero, 1) }
      fill(context, Rect(origin: .zero, size: g.content), Palette.background)
      let viewportStart = view.offset
      for i in 0..<snapshot.count {
        let r = snapshot.frame(at: i)
        guard r.width > 0, r.height > 0 else { continue }
        if let cell = view.cell(at: i) {
          fill(context, r, cell.backgroundColor ?? Palette.placeholder)
          if r.height * g.factor >= 9 {
            context.setSource(red: 0.1, green: 0.1, blue: 0.12)
            drawText(String(i), in: r, TextPlacement(size: min(28, r.height * 0.5)), in: context)
          }
        } else {
          let end = view.isHorizontal ? r.maxX : r.maxY
          fill(
            context, r,
            end <= viewportStart ? Palette.recycled : Palette.notYetShown)
        }
      }
      // The viewport, and the buffer around it.
      let vp = Rect(origin: view.contentOffset, size: view.bounds)
      context.lineWidth = 2 / g.factor
      if view.preloadBuffer > 0 {
        let b = view.preloadBuffer
        let band =
          view.isHorizontal
          ? Rect(
            x: vp.minX - b, y: vp.minY, width: vp.width + 2 * b,
            height: vp.height)
          : Rect(
            x: vp.minX, y: vp.minY - b, width: vp.width,
            height: vp.height + 2 * b)
        context.setSource(
          red: Palette.buffer.red, green: Palette.buffer.green,
          blue: Palette.buffer.blue)
        context.setDash([6 / g.factor, 4 / g.factor])
        context.rectangle(
          x: band.minX, y: band.minY, width: band.width, height: band.height)
        context.stroke()
        context.setDash([])
      }
      context.setSource(
        red: Palette.viewport.red, green: Palette.viewport.green,
        blue: Palette.viewport.blue)
      context.rectangle(
        x: vp.minX, y: vp.minY, width: vp.width, height: vp.height)
      context.stroke()
    }
  }

  private func drawLegend(
    _ view: WaterflowView, geometry g: OverviewGeometry, in context: Context
  ) {
    let x = g.margin
    var y = g.margin
    let rows: [(Color, String)] = [
      (
        Palette.viewport,
        "viewport at offset \(short(view.offset)): \(view.displayedCells.count) cells displayed"
      ),
      (Palette.recycled, "scrolled past: their cells went to the reuse pool"),
      (Palette.notYetShown, "not yet shown: no cell created for them"),
    ]
    // Each text on a 14-pt line beside its swatch, as wide as the canvas allows.
    let text = TextPlacement(size: 11, alignment: .leading)
    func line(_ string: String, x: Double, y: Double) {
      drawText(
        string, in: Rect(x: x, y: y, width: max(0, g.canvas.width - g.margin - x), height: 14),
        text, in: context)
    }
    for (color, label) in rows {
      fill(context, Rect(x: x, y: y, width: 14, height: 12), color)
      context.setSource(red: 0.15, green: 0.15, blue: 0.18)
      line(label, x: x + 20, y: y - 1)
      y += 18
    }
    let pool = view.reusePool.cells
    context.setSource(red: 0.15, green: 0.15, blue: 0.18)
    let caption = "reuse pool (\(pool.count)):"
    line(caption, x: x, y: y + 1)
    var px = x + textWidth(caption, size: 11) + 8
    for cell in pool.prefix(24) {
      fill(
        context, Rect(x: px, y: y + 2, width: 12, height: 12),
        cell.backgroundColor ?? Palette.placeholder)
      px += 15
    }
    if pool.isEmpty { line("empty", x: px, y: y + 1) }
  }
}
