internal import CCairo

/// The renderer's drawing of plain cells written directly in C, for `waterflow bench`.
///
/// It issues the same cairo calls as the Swift renderer does for a cell with no image or price,
/// so timing both on the same surface shows what the Swift layers cost. The cells are converted
/// to C arrays once, when the baseline is made, so only drawing is timed.
public final class DrawingBaseline {
  private let rects: [Double]
  private let colors: [Double]
  private let labels: [UnsafeMutablePointer<CChar>?]
  private let count: Int32

  /// Prepares cells given as frames (x, y, width, height), colours (r, g, b) and labels.
  public init(
    frames: [(Double, Double, Double, Double)],
    colors: [(Double, Double, Double)], labels: [String]
  ) {
    precondition(
      frames.count == colors.count && colors.count == labels.count,
      "one colour and label per frame")
    rects = frames.flatMap { [$0.0, $0.1, $0.2, $0.3] }
    self.colors = colors.flatMap { [$0.0, $0.1, $0.2] }
    self.labels = labels.map { strdup($0) }
    count = Int32(frames.count)
  }

  deinit {
    labels.forEach { free($0) }
  }

  /// Draws the cells, offset and clipped to a viewport, into the surface.
  public func draw(
    into surface: ImageSurface, font: Font, scale: Double, offset: Double,
    viewportWidth: Double, viewportHeight: Double
  ) {
    labels.map { UnsafePointer($0) }.withUnsafeBufferPointer { labelPointers in
      waterflow_baseline_draw(
        surface.pointer, font.face, scale, offset, viewportWidth,
        viewportHeight, count, rects, colors,
        labelPointers.baseAddress)
    }
  }
}
