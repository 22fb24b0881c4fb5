import WaterflowRender
import WaterflowView

/// Which cells carry a reuse mark in each frame of an animation.
///
/// A cell is created or reused as it enters, when it is a sliver at the edge: a mark drawn only
/// in that frame is invisible at 60 fps. So a mark stays on its cell instance until the frame in
/// which the cell is first wholly on screen (that frame included), or until the cell leaves.
struct ReuseMarks {
  /// Marked cell instances: true for created, false for reused.
  private var marked: [Int: Bool] = [:]

  /// The marks to draw in `frame`, in the shape the renderer reads (`created`, `reused`).
  ///
  /// Frames must come in order: the marks carry from one frame to the next.
  ///
  /// - Parameter shown: Whether the frame is seen: a mark stays until a frame that shows its
  ///   cell whole is seen, so a contact sheet that skips frames still marks every cell created
  ///   or reused since the thumbnail before.
  mutating func marks(for frame: SimulatedFrame, shown isSeen: Bool = true) -> LayoutPass {
    // Leaving first: a cell enqueued and reused in the same pass is marked again below.
    for cell in frame.pass.enqueued { marked[cell.cell] = nil }
    for cell in frame.pass.created { marked[cell.cell] = true }
    for cell in frame.pass.reused { marked[cell.cell] = false }
    var pass = LayoutPass(offset: frame.pass.offset)
    let content = frame.content
    let start = content.contentStart
    let end = start + (content.isHorizontal ? content.viewport.width : content.viewport.height)
    for cell in content.cells {
      guard let created = marked[cell.instanceID] else { continue }
      let shown = DisplayedCell(index: cell.index, cell: cell.instanceID)
      if created { pass.created.append(shown) } else { pass.reused.append(shown) }
      let (lo, hi) =
        content.isHorizontal ? (cell.frame.minX, cell.frame.maxX) : (cell.frame.minY, cell.frame.maxY)
      // Wholly on screen now: this frame shows the mark, and the next ones need not.
      if isSeen, lo >= start - 1e-9 && hi <= end + 1e-9 { marked[cell.instanceID] = nil }
    }
    return pass
  }
}
