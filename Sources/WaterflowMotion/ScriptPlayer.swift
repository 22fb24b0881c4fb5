import WaterflowRender
import WaterflowScene

/// One traced layout pass, with the data change that caused it, if any.
public struct TraceRecord: Hashable, Sendable {
  /// What happened before the pass ("load more 20", "rotate 667x375", "jump 0"), or nil for a
  /// scroll step.
  public var event: String?
  /// The pass.
  public var pass: LayoutPass

  public init(event: String?, pass: LayoutPass) {
    self.event = event
    self.pass = pass
  }
}

/// A view Waterflow does not own, played by a ``ScriptPlayer`` one layout pass at a time: a
/// `UICollectionView` running an app's own layout, through `WaterflowCollectionView`'s adapter.
public protocol ScrollFrameSource: AnyObject {
  /// The content offset along the scroll axis.
  var offset: Double { get }
  /// The largest offset at which the content still fills the viewport (0 when it is shorter).
  var maximumOffset: Double { get }
  /// The viewport's length along the scroll axis.
  var viewportLength: Double { get }
  /// Scrolls to an offset along the scroll axis and lays out: what the pass displayed, created,
  /// reused and enqueued.
  func scroll(to offset: Double) -> LayoutPass
  /// What the view displays now, ready to be drawn on any thread.
  func frameContent() -> FrameContent
}

/// Plays a ``ScrollScript`` on a scene, one layout pass at a time and strictly in order: what
/// `waterflow trace --script` prints and what every frame of `waterflow scroll` shows.
///
/// The first pass jumps to the script's starting offset (and so performs the first reload).
///
/// ```swift
/// let player = ScriptPlayer(scene: scene, script: .scroll(from: 0, to: 600, step: 150))
/// for record in player { print(record.pass.offset, record.pass.created.count) }
/// ```
public final class ScriptPlayer: Sequence, IteratorProtocol {
  /// The controller being scrolled, for a scene: its view, and the scene with items added since;
  /// nil for a view of your own.
  public let sceneController: SceneController?
  /// The view being scrolled, or the frame source.
  private let played: Played
  private enum Played {
    case view(WaterflowView)
    case source(any ScrollFrameSource)
  }

  /// The view being scrolled; only for players of a scene or a `WaterflowView`.
  public var view: WaterflowView {
    guard case .view(let view) = played else { preconditionFailure("this player plays a frame source, not a view") }
    return view
  }

  /// The frame source being scrolled, or nil for a scene or a `WaterflowView`.
  public var frameSource: (any ScrollFrameSource)? {
    if case .source(let source) = played { return source }
    return nil
  }
  /// Keeps a view's data source and delegate alive while it plays (the view holds them weakly).
  private let owner: AnyObject?
  public let script: ScrollScript
  /// Segments that did nothing, and why ("load more skipped: not at the end").
  public private(set) var notes: [String] = []
  /// How many passes were played so far.
  public private(set) var passCount = 0
  /// Whether timed and stepped scrolls stop at the content's ends, as a finger's do, noting the
  /// clamp (true for animations); false plays them to any offset (traces, and `--overscroll`).
  public var clampsScrolls = false

  private var segmentIndex = 0
  private var pending: [Double] = []
  private var pendingIndex = 0

  public init(scene: Scene, script: ScrollScript) {
    let controller = SceneController(scene: scene)
    sceneController = controller
    played = .view(controller.view)
    owner = controller
    self.script = script
  }

  /// Plays a script on any view (your data source, your own layout).
  ///
  /// Scrolls, flings, pauses, jumps and rotations play as on a scene; `loadMore` and `refresh`
  /// are skipped with a note, since only your data source can add items.
  ///
  /// - Parameters:
  ///   - view: The view to scroll, at offset 0.
  ///   - owner: An object to keep alive while playing, such as the view's data source.
  ///   - script: The segments to play.
  public init(view: WaterflowView, owner: AnyObject? = nil, script: ScrollScript) {
    sceneController = nil
    played = .view(view)
    self.owner = owner
    self.script = script
  }

  /// Plays a script on a frame source (a collection view's adapter). Scrolls, flings, pauses
  /// and jumps play; `loadMore`, `refresh` and `rotate` are skipped with a note.
  public init(source: any ScrollFrameSource, owner: AnyObject? = nil, script: ScrollScript) {
    sceneController = nil
    played = .source(source)
    self.owner = owner
    self.script = script
  }

  /// The scene's controller; only for players made from a scene.
  public var controller: SceneController {
    guard let sceneController else { preconditionFailure("this player plays a view, not a scene") }
    return sceneController
  }

  /// Why items cannot be added here, or nil when they can.
  private var fixedItemsReason: String? {
    guard let sceneController else { return "the view's data source is yours to change" }
    return sceneController.canChangeItems
      ? nil : "a layout file's frames continue only with one section, growing down or right"
  }
  /// The largest offset at which the content still fills the viewport (0 when it is shorter).
  public var maximumOffset: Double {
    switch played {
    case .source(let source): return source.maximumOffset
    case .view(let view):
      let content = view.isHorizontal ? view.contentSize.width : view.contentSize.height
      let viewport = view.isHorizontal ? view.bounds.width : view.bounds.height
      return Swift.max(0, content - viewport)
    }
  }

  private var viewportLength: Double {
    switch played {
    case .source(let source): source.viewportLength
    case .view(let view): view.isHorizontal ? view.bounds.width : view.bounds.height
    }
  }

  private var offset: Double {
    switch played {
    case .source(let source): source.offset
    case .view(let view): view.offset
    }
  }

  private func scroll(to offset: Double) -> LayoutPass {
    switch played {
    case .source(let source): source.scroll(to: offset)
    case .view(let view): view.scroll(to: offset)
    }
  }

  public func next() -> TraceRecord? {
    if passCount == 0 { return emit(scroll(to: script.from), event: nil) }
    while true {
      if pendingIndex < pending.count {
        pendingIndex += 1
        return emit(scroll(to: pending[pendingIndex - 1]), event: nil)
      }
      guard segmentIndex < script.segments.count else { return nil }
      let segment = script.segments[segmentIndex]
      segmentIndex += 1
      pending = []
      pendingIndex = 0
      let start = offset
      func end(_ target: ScrollScript.Segment.Target) -> Double {
        let y: Double
        switch target {
        case .offset(let offset): y = offset
        case .distance(let d): y = start + d
        }
        guard clampsScrolls else { return y }
        let clamped = Swift.min(Swift.max(y, 0), maximumOffset)
        if clamped != y {
          note(
            "scroll to \(y.jsonText) clamped to \(clamped.jsonText), the content's \(clamped == 0 ? "start" : "end") (--overscroll keeps it)"
          )
        }
        return clamped
      }
      switch segment {
      case .scroll(let target, let frames, let curve):
        let end = end(target)
        pending = (1...frames).map { k in
          k == frames
            ? end
            : start + (end - start) * curve.progress(Double(k) / Double(frames))
        }
      case .scrollInSteps(let target, let step):
        pending = Array(WaterflowView.offsets(from: start, to: end(target), step: step))
      case .pause(let frames):
        pending = Array(repeating: start, count: frames)
      case .fling(let deceleration):
        pending = deceleration.offsets(
          from: start, fps: script.fps, bounds: 0...maximumOffset,
          viewportLength: viewportLength)
      case .jump(let y):
        return emit(scroll(to: y), event: "jump \(y.jsonText)")
      case .loadMore(let count, let reload, let anywhere):
        if let reason = fixedItemsReason {
          note("load more skipped: \(reason)")
          continue
        }
        guard anywhere || start >= maximumOffset - 1 else {
          note(
            "load more skipped: not at the end (offset \(start.jsonText), end \(maximumOffset.jsonText))"
          )
          continue
        }
        controller.appendItems(count)
        // The seeds reload after loading more: every visible cell is asked for again.
        if reload { view.reloadData() }
        return emit(view.layoutSubviews(), event: "load more \(count)")
      case .refresh(let count, let reload, let anywhere):
        if let reason = fixedItemsReason {
          note("refresh skipped: \(reason)")
          continue
        }
        guard anywhere || start <= 1 else {
          note("refresh skipped: not at the top (offset \(start.jsonText))")
          continue
        }
        controller.prependItems(count)
        if reload { view.reloadData() }
        return emit(view.layoutSubviews(), event: "refresh \(count)")
      case .rotate(let size, let columns):
        guard case .view(let view) = played else {
          note("rotate skipped: a frame source keeps its size")
          continue
        }
        var event = "rotate \(size.width.jsonText)x\(size.height.jsonText)"
        if let columns, var layout = view.layout {
          for s in layout.sections.indices {
            layout.sections[s].columns = .count(columns)
          }
          view.layout = layout
          event += ", \(columns) columns"
        }
        // A new size or column count lays out again and asks for every visible cell again.
        if let sceneController { sceneController.resize(to: size) } else { view.bounds = size }
        var pass = view.layoutSubviews()
        // A rotation can leave the offset past the new end of the content; UIKit pulls it back.
        let limit = maximumOffset
        if view.offset > limit { pass = merged(pass, view.scroll(to: limit)) }
        return emit(pass, event: event)
      }
    }
  }

  private func note(_ text: String) {
    notes.append("segment \(segmentIndex) (frame \(passCount)): \(text)")
  }

  private func emit(_ pass: LayoutPass, event: String?) -> TraceRecord {
    passCount += 1
    return TraceRecord(event: event, pass: pass)
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
