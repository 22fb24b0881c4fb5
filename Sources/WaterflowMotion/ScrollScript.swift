import Foundation
import WaterflowScene

/// A script of scrolls and data changes: a starting offset, a frame rate and segments played one
/// after another. The one dialect of `waterflow trace --script` and `waterflow scroll --script`.
///
/// The first frame (one layout pass) shows the starting offset. Each segment then adds frames:
/// a scroll timed in frames or seconds (one frame every `1 / fps` seconds) or in steps of so many
/// points, a pause, a fling, or a data change (load more, refresh, rotate, jump) that takes one
/// frame. In JSON:
/// ```json
/// {"fps": 30, "from": 0, "segments": [
///   {"scroll": {"to": 1500, "duration": 1.2, "curve": "ease-in-out"}},
///   {"pause": 0.5},
///   {"fling": {"velocity": 3000, "rate": "normal", "bounce": true}},
///   {"loadMore": {"count": 30}},
///   {"scroll": {"by": -400, "frames": 20, "curve": "linear"}},
///   {"refresh": 10},
///   {"rotate": {"width": 667, "height": 375, "columns": 5}},
///   {"jump": 0}]}
/// ```
public struct ScrollScript: Hashable, Sendable {
  /// One segment of the animation.
  public enum Segment: Hashable, Sendable {
    /// Where a timed scroll ends.
    public enum Target: Hashable, Sendable {
      case offset(Double)
      case distance(Double)
    }
    /// Scrolls to a target over `frames` frames along a curve.
    case scroll(to: Target, frames: Int, curve: ScrollCurve)
    /// Scrolls to a target in steps of `step` points, the last one shorter if need be, as a
    /// finger would: one frame per step.
    case scrollInSteps(to: Target, step: Double)
    /// Holds the offset for `frames` frames.
    case pause(frames: Int)
    /// Lets go with a velocity and decelerates until at rest or at a content edge (where it
    /// stops, or bounces).
    case fling(Deceleration)
    /// At the end of the content (or `anywhere`), appends items ("load more"), then reloads
    /// when `reload`, as the seeds do; without a reload, displayed cells are kept.
    case loadMore(count: Int, reload: Bool, anywhere: Bool = false)
    /// At the top (or `anywhere`), prepends items ("pull to refresh"), then reloads when
    /// `reload`, as the seeds do; without a reload, displayed cells are kept.
    case refresh(count: Int, reload: Bool, anywhere: Bool = false)
    /// Changes the viewport and optionally the column count (a rotation).
    case rotate(Size, columns: Int?)
    /// Jumps to an offset.
    case jump(Double)
  }

  /// Frames per second.
  public var fps: Double
  /// The offset of the first frame.
  public var from: Double
  public var segments: [Segment]
  /// What reading the file noticed, such as a segment in an old form and the form that
  /// replaces it; empty for a script made in code.
  public var notes: [String] = []

  public init(fps: Double = 30, from: Double = 0, segments: [Segment]) {
    precondition(fps > 0, "fps must be positive")
    self.fps = fps
    self.from = from
    self.segments = segments
  }

  /// A scroll from `from` to `to` in steps of `step` points, both ends included: what
  /// `waterflow trace --from --to --step` plays.
  public static func scroll(from: Double, to: Double, step: Double) -> ScrollScript {
    ScrollScript(from: from, segments: [.scrollInSteps(to: .offset(to), step: step)])
  }

  /// A single scroll from `from` to `to` in `frames` frames, both ends included.
  public static func scroll(
    from: Double, to: Double, frames: Int, fps: Double = 30,
    curve: ScrollCurve = .linear
  ) -> ScrollScript {
    precondition(frames >= 1, "a scroll has at least one frame")
    let segments: [Segment] =
      frames > 1
      ? [.scroll(to: .offset(to), frames: frames - 1, curve: curve)] : []
    return ScrollScript(fps: fps, from: from, segments: segments)
  }

  /// A single fling from `from`: the first frame, then one frame per `1 / fps` until at rest.
  public static func fling(
    from: Double, velocity: Double, rate: DecelerationRate = .normal,
    bounces: Bool = false, fps: Double = 30
  ) -> ScrollScript {
    ScrollScript(
      fps: fps, from: from,
      segments: [
        .fling(Deceleration(velocity: velocity, rate: rate, bounces: bounces))
      ])
  }
}

/// A problem in a scroll script file, naming the file and the field (`segments[2].scroll.to`).
public struct ScrollScriptError: Error, CustomStringConvertible, Hashable,
  Sendable
{
  public var file: String
  public var field: String
  public var message: String

  public var description: String {
    field.isEmpty ? "\(file): \(message)" : "\(file): \(field): \(message)"
  }
}

extension ScrollScript {
  /// The longest animation a script may describe, in frames (about 9 hours at 30 fps).
  public static let maximumFrames = 1_000_000

  /// Reads a script file: an object with `fps`, `from` and `segments`, or a bare array of segments.
  ///
  /// The old trace-script forms are still read, each with a note in ``notes`` naming the form
  /// that replaces it: `append` and `prepend` (a load more or refresh anywhere, keeping cells),
  /// `resize` (a rotation), `offset` (a jump), a scroll without pacing (steps of 10 points) and
  /// `steps` for `segments`.
  ///
  /// - Parameters:
  ///   - path: The JSON file.
  ///   - defaultFPS: The frame rate when the file names none.
  ///   - defaultFrom: The first offset when the file names none.
  /// - Throws: ``ScrollScriptError`` naming the file and the field at fault.
  public init(
    contentsOf path: String, fps defaultFPS: Double = 30,
    from defaultFrom: Double = 0
  ) throws(ScrollScriptError) {
    do throws(JSONInputError) {
      self = try JSONDocument(contentsOf: path).read {
        (r: inout JSONReader) throws(JSONInputError) in
        try ScrollScript(reading: &r, fps: defaultFPS, from: defaultFrom)
      }
    } catch {
      throw ScrollScriptError(
        file: error.file, field: error.field, message: error.message)
    }
  }

  private enum TopKey: String, CaseIterable { case fps, from, segments, steps }
  private enum SegmentKey: String, CaseIterable {
    case scroll, pause, fling, loadMore, refresh, rotate, jump
    // The old trace-script forms.
    case append, prepend, resize, offset
  }
  private enum ScrollKey: String, CaseIterable { case by, curve, duration, frames, step, to }
  private enum FlingKey: String, CaseIterable { case bounce, rate, velocity }
  private enum ChangeKey: String, CaseIterable { case anywhere, count, reload }
  private enum RotateKey: String, CaseIterable { case columns, height, width }
  private static let topKeys = JSONKeys<TopKey>()
  private static let segmentKeys = JSONKeys<SegmentKey>(
    unknownMessage:
      "unknown segment (expected scroll, pause, fling, loadMore, refresh, rotate or jump)"
  )
  private static let scrollKeys = JSONKeys<ScrollKey>()
  private static let flingKeys = JSONKeys<FlingKey>()
  private static let changeKeys = JSONKeys<ChangeKey>()
  private static let rotateKeys = JSONKeys<RotateKey>()
  private static let oneSegment =
    "a segment has exactly one of: scroll, pause, fling, loadMore, refresh, rotate, jump"
  /// The range of offsets and distances.
  private static let offsets = 1e9

  private init(
    reading r: inout JSONReader, fps defaultFPS: Double,
    from defaultFrom: Double
  )
    throws(JSONInputError)
  {
    var fps = defaultFPS
    var from = defaultFrom
    var notes: [String] = []
    switch try r.peek() {
    case .array:
      let segments = try Self.readSegments(&r, fps: fps, field: "", notes: &notes)
      self.init(fps: fps, from: from, segments: segments)
    case .object:
      // The frame rate turns seconds into frames, and it may come after the segments: fps and
      // from are read first, from a copy of the reader.
      var ahead = r
      try ahead.beginObject()
      while let key = try ahead.nextKey(Self.topKeys) {
        switch key {
        case .fps: fps = try ahead.number(min: 1, max: 240)
        case .from: from = try ahead.number(min: -Self.offsets, max: Self.offsets)
        case .segments, .steps: try ahead.skipValue()
        }
      }
      var segments: [Segment]?
      try r.beginObject()
      while let key = try r.nextKey(Self.topKeys) {
        switch key {
        case .segments, .steps:
          if segments != nil {
            throw r.fail("give segments once (steps is its old name)")
          }
          if key == .steps { notes.append("steps is the old name of segments") }
          segments = try Self.readSegments(&r, fps: fps, field: key.rawValue, notes: &notes)
        case .fps, .from: try r.skipValue()
        }
      }
      guard let segments else {
        throw r.fail(key: "segments", "expected an array of segments")
      }
      self.init(fps: fps, from: from, segments: segments)
    default:
      throw r.fail(
        "expected an object with \"segments\", or an array of segments")
    }
    self.notes = notes
  }

  private static func readSegments(
    _ r: inout JSONReader, fps: Double, field: String, notes: inout [String]
  ) throws(JSONInputError) -> [Segment] {
    func frames(_ seconds: Double) -> Int { Int((seconds * fps).rounded()) }
    let maxSeconds = Double(Self.maximumFrames) / fps
    var segments: [Segment] = []
    try r.beginArray()
    while try r.nextElement() {
      let at = "\(field)[\(r.elementIndex)]"
      func old(_ form: String, _ replacement: String) {
        notes.append("\(at): \(form) is the old form of \(replacement)")
      }
      try r.beginObject()
      guard let key = try r.nextKey(segmentKeys) else {
        throw r.fail(oneSegment)
      }
      switch key {
      case .scroll:
        var target: Segment.Target?
        var count: Int?
        var step: Double?
        var curve: ScrollCurve?
        var given = Set<ScrollKey>()
        try r.beginObject()
        while let key = try r.nextKey(scrollKeys) {
          given.insert(key)
          switch key {
          case .to: target = .offset(try r.number(min: -offsets, max: offsets))
          case .by:
            target = .distance(try r.number(min: -offsets, max: offsets))
          case .duration:
            count = max(1, frames(try r.number(min: 0, max: maxSeconds)))
          case .frames: count = try r.integer(min: 1, max: Self.maximumFrames)
          case .step: step = try r.number(min: 0, max: 1_000_000, exclusiveMin: true)
          case .curve:
            guard try r.peek() == .string,
              let parsed = ScrollCurve(rawValue: try r.string())
            else {
              throw r.fail(
                "expected \"linear\" or \"ease-in-out\" (use a fling segment to decelerate)"
              )
            }
            curve = parsed
          }
        }
        guard let target, !given.isSuperset(of: [.to, .by]) else {
          throw r.fail("give one of \"to\" (an offset) or \"by\" (a distance)")
        }
        let pacing = given.intersection([.duration, .frames, .step])
        guard pacing.count <= 1 else {
          throw r.fail("give one of \"duration\" (seconds), \"frames\" or \"step\" (points)")
        }
        if let count {
          segments.append(.scroll(to: target, frames: count, curve: curve ?? .easeInOut))
        } else {
          if curve != nil {
            throw r.fail(key: "curve", "a scroll in steps has no curve: give duration or frames")
          }
          if step == nil {
            old("a scroll without duration, frames or step", "{\"scroll\": {\"to\": …, \"step\": 10}}")
          }
          segments.append(.scrollInSteps(to: target, step: step ?? 10))
        }
      case .pause:
        segments.append(
          .pause(frames: frames(try r.number(min: 0, max: maxSeconds))))
      case .fling:
        var velocity: Double?
        var rate = DecelerationRate.normal
        var bounces = false
        try r.beginObject()
        while let key = try r.nextKey(flingKeys) {
          switch key {
          case .velocity: velocity = try r.number(min: -1e6, max: 1e6)
          case .rate:
            let kind = try r.peek()
            if kind == .string,
              let parsed = DecelerationRate(name: try r.string())
            {
              rate = parsed
            } else if kind == .number, case let d = try r.number(), d > 0, d < 1
            {
              rate = DecelerationRate(perMillisecond: d)
            } else {
              throw r.fail(
                "expected \"normal\" (0.998), \"fast\" (0.99) or a number between 0 and 1"
              )
            }
          case .bounce: bounces = try r.bool()
          }
        }
        guard let velocity else { throw r.fail(key: "velocity", "missing") }
        segments.append(
          .fling(Deceleration(velocity: velocity, rate: rate, bounces: bounces))
        )
      case .loadMore, .refresh:
        var count: Int?
        var reload = true
        var anywhere = false
        if try r.peek() == .object {
          try r.beginObject()
          while let key = try r.nextKey(changeKeys) {
            switch key {
            case .count:
              count = try r.integer(min: 0, max: Scene.maximumItemCount)
            case .reload: reload = try r.bool()
            case .anywhere: anywhere = try r.bool()
            }
          }
          guard count != nil else { throw r.fail(key: "count", "missing") }
        } else {
          count = try r.integer(min: 0, max: Scene.maximumItemCount)
        }
        segments.append(
          key == .loadMore
            ? .loadMore(count: count!, reload: reload, anywhere: anywhere)
            : .refresh(count: count!, reload: reload, anywhere: anywhere))
      case .append, .prepend:
        // The old trace scripts added items wherever the scroll was, keeping the cells.
        let count = try r.integer(min: 0, max: Scene.maximumItemCount)
        let name = key == .append ? "loadMore" : "refresh"
        old(
          "{\"\(key.rawValue)\": \(count)}",
          "{\"\(name)\": {\"count\": \(count), \"reload\": false, \"anywhere\": true}}")
        segments.append(
          key == .append
            ? .loadMore(count: count, reload: false, anywhere: true)
            : .refresh(count: count, reload: false, anywhere: true))
      case .rotate, .resize:
        var width: Double?
        var height: Double?
        var columns: Int?
        try r.beginObject()
        while let key = try r.nextKey(rotateKeys) {
          switch key {
          case .width: width = try r.number(min: 1, max: 16_384)
          case .height: height = try r.number(min: 1, max: 16_384)
          case .columns: columns = try r.integer(min: 1, max: 100)
          }
        }
        guard let width else { throw r.fail(key: "width", "missing") }
        guard let height else { throw r.fail(key: "height", "missing") }
        if key == .resize {
          old(
            "{\"resize\": …}",
            "{\"rotate\": {\"width\": \(width.jsonText), \"height\": \(height.jsonText)}}")
        }
        segments.append(.rotate(Size(width: width, height: height), columns: columns))
      case .jump, .offset:
        let y = try r.number(min: -offsets, max: offsets)
        if key == .offset { old("{\"offset\": \(y.jsonText)}", "{\"jump\": \(y.jsonText)}") }
        segments.append(.jump(y))
      }
      if try r.nextKey(segmentKeys) != nil {
        throw r.failInContainer(oneSegment)
      }
    }
    return segments
  }
}

/// Numbers as `waterflow trace --json` prints them: whole numbers without a fraction.
enum JSONNumber {
  static func format(_ d: Double) -> String { d.jsonText }
}
