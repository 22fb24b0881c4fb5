import WaterflowRender
import WaterflowScene

/// One frame of a scroll animation: when it shows, what the layout pass did, and what it shows.
public struct SimulatedFrame: Hashable, Sendable {
  /// The frame number, from 1.
  public var number: Int
  /// Seconds since the first frame: `(number − 1) / fps`.
  public var time: Double
  /// The data change shown first in this frame ("load more 30", "rotate 667x375"), if any.
  public var event: String?
  /// What the layout pass of this frame displayed, created, reused and enqueued.
  public var pass: LayoutPass
  /// The captured frame, ready to be drawn on any thread.
  public var content: FrameContent

  /// The offset along the scroll axis.
  public var offset: Double { pass.offset }
}

/// Plays a ``ScrollScript`` on a scene, one frame at a time and strictly in order.
///
/// Frames are produced lazily, so an animation of any length needs memory for one frame only.
/// Each frame is one `layoutSubviews()` pass of the view, exactly as `waterflow trace` runs them:
/// the first frame jumps to the script's starting offset (and so performs the first reload).
///
/// ```swift
/// let simulation = ScrollSimulation(scene: scene, script: .scroll(from: 0, to: 1000, frames: 21))
/// for frame in simulation { print(frame.offset, frame.pass.reused.count) }
/// ```
public final class ScrollSimulation: Sequence, IteratorProtocol {
  /// The controller being scrolled: its view, and the scene with items added since.
  public let controller: SceneController
  public let script: ScrollScript
  /// Segments that did nothing, and why ("load more skipped: not at the end").
  public private(set) var notes: [String] = []

  private var frameCount = 0
  private var segmentIndex = 0
  private var pending: [Double] = []
  private var pendingIndex = 0

  public init(scene: Scene, script: ScrollScript) {
    controller = SceneController(scene: scene)
    self.script = script
  }

  private var view: WaterflowView { controller.view }
  private var isHorizontal: Bool { view.isHorizontal }

  /// The largest offset at which the content still fills the viewport (0 when it is shorter).
  public var maximumOffset: Double {
    let content =
      isHorizontal ? view.contentSize.width : view.contentSize.height
    let viewport = isHorizontal ? view.bounds.width : view.bounds.height
    return Swift.max(0, content - viewport)
  }

  public func next() -> SimulatedFrame? {
    if frameCount == 0 { return emit(view.scroll(to: script.from), event: nil) }
    while true {
      if pendingIndex < pending.count {
        pendingIndex += 1
        return emit(view.scroll(to: pending[pendingIndex - 1]), event: nil)
      }
      guard segmentIndex < script.segments.count else { return nil }
      let segment = script.segments[segmentIndex]
      segmentIndex += 1
      pending = []
      pendingIndex = 0
      let start = view.offset
      switch segment {
      case .scroll(let target, let frames, let curve):
        let end: Double
        switch target {
        case .offset(let y): end = y
        case .distance(let d): end = start + d
        }
        pending = (1...frames).map { k in
          k == frames
            ? end
            : start + (end - start) * curve.progress(Double(k) / Double(frames))
        }
      case .pause(let frames):
        pending = Array(repeating: start, count: frames)
      case .fling(let deceleration):
        pending = deceleration.offsets(
          from: start, fps: script.fps, bounds: 0...maximumOffset,
          viewportLength: isHorizontal ? view.bounds.width : view.bounds.height)
      case .jump(let y):
        return emit(view.scroll(to: y), event: "jump \(JSONNumber.format(y))")
      case .loadMore(let count, let reload):
        guard controller.canChangeItems else {
          note("load more skipped: a layout file's frames are fixed")
          continue
        }
        guard start >= maximumOffset - 1 else {
          note(
            "load more skipped: not at the end (offset \(JSONNumber.format(start)), end \(JSONNumber.format(maximumOffset)))"
          )
          continue
        }
        controller.appendItems(count)
        if reload { view.reloadData() }
        return emit(view.layoutSubviews(), event: "load more \(count)")
      case .refresh(let count, let reload):
        guard controller.canChangeItems else {
          note("refresh skipped: a layout file's frames are fixed")
          continue
        }
        guard start <= 1 else {
          note(
            "refresh skipped: not at the top (offset \(JSONNumber.format(start)))"
          )
          continue
        }
        controller.prependItems(count)
        if reload { view.reloadData() }
        return emit(view.layoutSubviews(), event: "refresh \(count)")
      case .rotate(let size, let columns):
        var event =
          "rotate \(JSONNumber.format(size.width))x\(JSONNumber.format(size.height))"
        if let columns, var layout = view.layout {
          for s in layout.sections.indices {
            layout.sections[s].columns = .count(columns)
          }
          view.layout = layout
          event += ", \(columns) columns"
        }
        controller.resize(to: size)
        var pass = view.layoutSubviews()
        // A rotation can leave the offset past the new end of the content; UIKit pulls it back.
        let limit = maximumOffset
        if view.offset > limit { pass = merged(pass, view.scroll(to: limit)) }
        return emit(pass, event: event)
      }
    }
  }

  private func note(_ text: String) {
    notes.append("segment \(segmentIndex) (frame \(frameCount)): \(text)")
  }

  private func emit(_ pass: LayoutPass, event: String?) -> SimulatedFrame {
    frameCount += 1
    return SimulatedFrame(
      number: frameCount, time: Double(frameCount - 1) / script.fps,
      event: event, pass: pass,
      content: FrameContent(view: view))
  }

  /// Two passes of one frame as one: cells created, reused or enqueued in either.
  private func merged(_ a: LayoutPass, _ b: LayoutPass) -> LayoutPass {
    var pass = b
    pass.created = a.created + b.created
    pass.reused = a.reused + b.reused
    pass.enqueued = a.enqueued + b.enqueued
    return pass
  }
}
