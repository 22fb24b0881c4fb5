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
  /// The reuse marks to draw with `--mark-reuse`: cells created or reused lately, kept until
  /// each is wholly on screen (set by the scroll job, which plays frames in order).
  public var marks: LayoutPass?

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
  /// The player of the script: one layout pass per frame.
  public let player: ScriptPlayer

  /// Plays a script on a scene.
  ///
  /// - Parameters:
  ///   - scene: The scene to scroll.
  ///   - script: The segments to play.
  ///   - overscroll: Plays scrolls past the content's ends as given; by default they
  ///   stop at the ends, with a note, as a finger's scroll would.
  public init(scene: Scene, script: ScrollScript, overscroll: Bool = false) {
    player = ScriptPlayer(scene: scene, script: script)
    player.clampsScrolls = !overscroll
  }

  /// Plays a script on any view; see ``ScriptPlayer/init(view:owner:script:)``.
  public init(
    view: WaterflowView, owner: AnyObject? = nil, script: ScrollScript, overscroll: Bool = false
  ) {
    player = ScriptPlayer(view: view, owner: owner, script: script)
    player.clampsScrolls = !overscroll
  }

  /// Plays a script on a frame source (a collection view's adapter); see
  /// ``ScriptPlayer/init(source:owner:script:)``.
  public init(
    source: any ScrollFrameSource, owner: AnyObject? = nil, script: ScrollScript, overscroll: Bool = false
  ) {
    player = ScriptPlayer(source: source, owner: owner, script: script)
    player.clampsScrolls = !overscroll
  }

  /// The controller being scrolled: its view, and the scene with items added since.
  public var controller: SceneController { player.controller }
  public var script: ScrollScript { player.script }
  /// Segments that did nothing, and why ("load more skipped: not at the end").
  public var notes: [String] { player.notes }
  /// The largest offset at which the content still fills the viewport (0 when it is shorter).
  public var maximumOffset: Double { player.maximumOffset }

  public func next() -> SimulatedFrame? {
    guard let record = player.next() else { return nil }
    let number = player.passCount
    return SimulatedFrame(
      number: number, time: Double(number - 1) / script.fps,
      event: record.event, pass: record.pass,
      content: player.frameSource?.frameContent() ?? FrameContent(view: player.view))
  }
}
