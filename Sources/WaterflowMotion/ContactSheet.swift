internal import Cairo
internal import PNGCodec
import Foundation
import WaterflowRender
import WaterflowScene

/// A grid of numbered thumbnails of an animation, drawn as the frames go by.
///
/// The sheet is allocated once, with one slot for every `stride`-th frame (at most
/// ``maximumThumbnails``) and one for each frame that shows an event (load more, refresh,
/// rotate), which sampling could skip, so its size does not depend on the frame count.
final class ContactSheet {
  static let maximumThumbnails = 48
  static let thumbnailWidth = 150.0
  static let labelHeight = 18.0
  static let gap = 8.0

  let stride: Int
  /// The frames (numbers from 1) that show an event: always on the sheet.
  let eventFrames: Set<Int>
  private let columns: Int
  private let thumbnail: Size
  private let zoom: Double
  private let surface: ImageSurface
  private let context: Context
  private let renderer: Renderer
  private var slot = 0

  /// Prepares a sheet for `frameCount` frames whose canvases fit in `canvas` (points), with at
  /// most `thumbnails` sampled ones.
  init(
    frameCount: Int, canvas: Size, renderer: Renderer, eventFrames: Set<Int> = [],
    thumbnails: Int = maximumThumbnails
  ) throws {
    let stride = max(
      1, Int((Double(frameCount) / Double(max(1, thumbnails))).rounded(.up))
    )
    self.stride = stride
    self.eventFrames = eventFrames
    let count =
      (frameCount + stride - 1) / stride
      + eventFrames.count { ($0 - 1) % stride != 0 && $0 <= frameCount }
    columns = min(count, 8)
    let rows = (count + columns - 1) / columns
    zoom = Self.thumbnailWidth / canvas.width
    thumbnail = Size(
      width: Self.thumbnailWidth, height: (canvas.height * zoom).rounded(.up))
    let width = Self.gap + Double(columns) * (thumbnail.width + Self.gap)
    let height =
      Self.gap + Double(rows) * (thumbnail.height + Self.labelHeight + Self.gap)
    surface = try ImageSurface(width: Int(width * 2), height: Int(height * 2))
    context = try Context(surface)
    context.scale(x: 2, y: 2)
    context.setSource(red: 1, green: 1, blue: 1)
    context.paint()
    self.renderer = renderer
  }

  /// Whether a frame gets a thumbnail: every `stride`-th one, and every one with an event.
  func includes(_ number: Int) -> Bool {
    (number - 1) % stride == 0 || eventFrames.contains(number)
  }

  /// Draws the frame if it is one of the sampled ones, or shows an event.
  func add(_ frame: SimulatedFrame, options: RenderOptions) {
    guard includes(frame.number) else { return }
    let x = Self.gap + Double(slot % columns) * (thumbnail.width + Self.gap)
    let y =
      Self.gap + Double(slot / columns)
      * (thumbnail.height + Self.labelHeight + Self.gap)
    slot += 1
    context.withSavedState {
      context.rectangle(
        x: x, y: y, width: thumbnail.width, height: thumbnail.height)
      context.clip()
      context.translate(x: x, y: y)
      context.scale(x: zoom, y: zoom)
      renderer.draw(frame.content, in: context, options: options)
    }
    context.setSource(red: 0.7, green: 0.7, blue: 0.72)
    context.lineWidth = 0.5
    context.rectangle(
      x: x, y: y, width: thumbnail.width, height: thumbnail.height)
    context.stroke()
    var label =
      "#\(frame.number)  \(String(format: "%.2f", frame.time)) s  y \(Int(frame.offset.rounded()))"
    if let e = frame.event { label += "  \(e)" }
    // An event ("load more 20") can make the label wider than a narrow thumbnail: shrink it to
    // fit rather than run into the next label.
    var text = TextLayout(label, fonts: renderer.fonts, size: 10)
    if text.width > thumbnail.width {
      text = TextLayout(
        label, fonts: renderer.fonts, size: max(6, 10 * thumbnail.width / text.width))
    }
    context.setSource(red: 0.15, green: 0.15, blue: 0.18)
    context.withSavedState {
      context.rectangle(
        x: x, y: y + thumbnail.height, width: thumbnail.width,
        height: Self.labelHeight)
      context.clip()
      context.draw(text, x: x, baselineY: y + thumbnail.height + 13)
    }
  }

  func pngData() throws -> [UInt8] {
    try context.checkStatus()
    return surface.pngData()
  }
}

extension ScrollJob {
  /// Only the job's contact sheet, as PNG bytes: the scroll is played and about `thumbnails` of
  /// its frames are drawn, the last among them (more when events need showing), and no other
  /// output is written. With ``markReuse``, each
  /// thumbnail marks the cells created (green) or reused (orange) since the one before it.
  ///
  /// - Parameters:
  ///   - thumbnails: About how many frames to draw.
  ///   - renderer: A renderer to draw with (its fonts loaded, its photos decoded), used on this
  ///     thread only; nil makes one with the job's font.
  /// - Throws: ``ScrollJobError`` when no renderer can be made or the sheet cannot be drawn.
  public func contactSheetPNG(thumbnails: Int = 8, renderer: Renderer? = nil) throws -> [UInt8] {
    let (total, canvas, eventFrames) = survey()
    let drawing: Renderer
    do { drawing = try renderer ?? Renderer(fontPath: fontPath) } catch { throw ScrollJobError("\(error)") }
    do {
      // The last frame (where the scroll arrives) always ends the sheet, in one of its slots.
      let sheet = try ContactSheet(
        frameCount: total, canvas: canvas, renderer: drawing, eventFrames: eventFrames.union([total]),
        thumbnails: max(1, thumbnails - 1))
      var marks = ReuseMarks()
      for frame in simulation() {
        let shown = sheet.includes(frame.number)
        var options = self.options
        let pass = marks.marks(for: frame, shown: shown)
        options.reuseMarks = markReuse ? pass : nil
        if shown { sheet.add(frame, options: options) }
      }
      return try sheet.pngData()
    } catch {
      throw ScrollJobError("Cannot draw the contact sheet: \(error)")
    }
  }
}
