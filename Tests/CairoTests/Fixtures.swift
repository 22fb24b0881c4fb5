import Cairo
import PNGCodec
import Foundation
import WaterflowTestSupport

// MARK: - Shared fixtures

/// The font every text test draws with; loaded once.
let testFont: Font = {
  do { return try Font(contentsOfFile: Font.defaultPath) } catch {
    fatalError("\(error)")
  }
}()

/// The default chain (DejaVu Sans, WenQuanYi Micro Hei, Noto Color Emoji, with DejaVu Sans Bold
/// as a face): a new stack per call, since a stack
/// lays out on one thread at a time and tests run in parallel.
func makeTestFonts() -> FontStack {
  do { return try FontStack(paths: FontStack.defaultPaths) } catch { fatalError("\(error)") }
}

/// Draws a frame like the ones Waterflow renders: a grey background, `count` solid cards in a
/// three-column staggered grid with index labels, and a translucent caption strip with white
/// text near each card's bottom.
func drawTestFrame(
  on context: Context, width: Double, height: Double, count: Int = 40
) {
  context.setSource(red: 0.93, green: 0.93, blue: 0.94)
  context.paint()
  let fonts = makeTestFonts()
  let columns = 3
  let margin = 16.0
  let columnWidth = (width - margin * Double(columns + 1)) / Double(columns)
  var columnHeights = [Double](repeating: margin, count: columns)
  for index in 0..<count {
    let column = columnHeights.indices.min {
      columnHeights[$0] < columnHeights[$1]
    }!
    let cardHeight = 180 + Double((index * 97) % 260)
    let x = margin + Double(column) * (columnWidth + margin)
    let y = columnHeights[column]
    columnHeights[column] += cardHeight + margin
    let hue = Double((index * 37) % 360) / 360
    context.setSource(
      red: 0.4 + 0.5 * hue, green: 0.8 - 0.5 * hue, blue: 0.3 + 0.4 * (1 - hue))
    context.roundedRectangle(
      x: x, y: y, width: columnWidth, height: cardHeight, radius: 12)
    context.fill()
    context.setSource(red: 0.1, green: 0.1, blue: 0.12)
    context.draw(TextLayout("\(index)", fonts: fonts, size: 48), x: x + 20, baselineY: y + 64)
    context.setSource(red: 0, green: 0, blue: 0, alpha: 0.45)
    context.rectangle(
      x: x, y: y + cardHeight - 48, width: columnWidth, height: 36)
    context.fill()
    context.setSource(red: 1, green: 1, blue: 1)
    context.draw(
      TextLayout("Item \(index) · caption", fonts: fonts, size: 18), x: x + 12,
      baselineY: y + cardHeight - 24)
  }
}

/// A 1500×2668 surface with the test frame drawn on it, as in the encoder benchmark.
func makeTestFrame(width: Int = 1500, height: Int = 2668) throws -> ImageSurface
{
  let surface = try ImageSurface(width: width, height: height)
  let context = try Context(surface)
  drawTestFrame(on: context, width: Double(width), height: Double(height))
  try context.checkStatus()
  return surface
}

/// The surface's pixels, row by row without stride padding, as premultiplied ARGB words.
func argbPixels(of surface: ImageSurface) -> [UInt32] {
  surface.withUnsafePixels { buffer, stride in
    var words: [UInt32] = []
    words.reserveCapacity(surface.width * surface.height)
    for y in 0..<surface.height {
      let row = (buffer.baseAddress! + y * stride).assumingMemoryBound(
        to: UInt32.self)
      words.append(
        contentsOf: UnsafeBufferPointer(start: row, count: surface.width))
    }
    return words
  }
}

/// Sets every pixel in `rows` (all rows by default) to `pixel(x, y)`, a premultiplied ARGB word;
/// nil leaves the pixel as it is.
func setPixels(
  of surface: ImageSurface, rows: Range<Int>? = nil,
  _ pixel: (_ x: Int, _ y: Int) -> UInt32?
) {
  surface.withUnsafeMutablePixels { buffer, stride in
    for y in rows ?? 0..<surface.height {
      let row = (buffer.baseAddress! + y * stride).assumingMemoryBound(
        to: UInt32.self)
      for x in 0..<surface.width {
        if let value = pixel(x, y) { row[x] = value }
      }
    }
  }
}

/// Writes `bytes` to a new temporary file and returns its path.
func writeTemporaryFile(_ bytes: [UInt8], named name: String) throws -> String {
  let path = try makeTemporaryDirectory() + "/" + name
  try Data(bytes).write(to: URL(fileURLWithPath: path))
  return path
}

/// Writes a file for a person to look at (test outputs need no atomic replacement).
func writeFile(_ bytes: [UInt8], to path: String) throws {
  try Data(bytes).write(to: URL(fileURLWithPath: path))
}
