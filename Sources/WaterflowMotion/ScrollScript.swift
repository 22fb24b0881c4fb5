import Foundation
import WaterflowScene

/// A scroll animation: a starting offset, a frame rate and segments played one after another.
///
/// The first frame shows the starting offset. Each segment then adds frames, one every
/// `1 / fps` seconds: a timed scroll, a pause, a fling, or a data change (load more, refresh,
/// rotate, jump) that takes one frame. In JSON:
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
    /// Holds the offset for `frames` frames.
    case pause(frames: Int)
    /// Lets go with a velocity and decelerates until at rest or at a content edge (where it
    /// stops, or bounces).
    case fling(Deceleration)
    /// At the end of the content, appends items ("load more"), then reloads when `reload`.
    case loadMore(count: Int, reload: Bool)
    /// At the top, prepends items ("pull to refresh"), then reloads when `reload`.
    case refresh(count: Int, reload: Bool)
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

  public init(fps: Double = 30, from: Double = 0, segments: [Segment]) {
    precondition(fps > 0, "fps must be positive")
    self.fps = fps
    self.from = from
    self.segments = segments
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
  /// - Parameters:
  ///   - path: The JSON file.
  ///   - fps: The frame rate when the file names none.
  ///   - from: The first offset when the file names none.
  /// - Throws: ``ScrollScriptError`` naming the file and the field at fault.
  public init(
    contentsOf path: String, fps defaultFPS: Double = 30,
    from defaultFrom: Double = 0
  ) throws(ScrollScriptError) {
    func fail(_ field: String, _ message: String) -> ScrollScriptError {
      ScrollScriptError(file: path, field: field, message: message)
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw fail("", "cannot read the file")
    }
    let root: Any
    do { root = try JSONSerialization.jsonObject(with: data) } catch {
      throw fail("", "invalid JSON")
    }

    func number(
      _ value: Any?, _ field: String, min: Double = -1e9, max: Double = 1e9
    ) throws(ScrollScriptError) -> Double {
      // JSON true and false are NSNumbers too (type "c"); 0 and 1 also cast to Bool, so test the type.
      guard let n = value as? NSNumber, String(cString: n.objCType) != "c",
        n.doubleValue.isFinite
      else { throw fail(field, "expected a number") }
      let d = n.doubleValue
      guard d >= min, d <= max else {
        throw fail(
          field,
          "\(d) is out of range (\(JSONNumber.format(min)) to \(JSONNumber.format(max)))"
        )
      }
      return d
    }
    func integer(_ value: Any?, _ field: String, min: Int, max: Int)
      throws(ScrollScriptError) -> Int
    {
      let d = try number(value, field, min: Double(min), max: Double(max))
      guard d == d.rounded() else {
        throw fail(field, "expected a whole number")
      }
      return Int(d)
    }
    func object(_ value: Any?, _ field: String, keys: Set<String>)
      throws(ScrollScriptError) -> [String: Any]
    {
      guard let o = value as? [String: Any] else {
        throw fail(field, "expected an object")
      }
      if let bad = o.keys.sorted().first(where: { !keys.contains($0) }) {
        throw fail(
          "\(field).\(bad)",
          "unknown key (expected \(keys.sorted().joined(separator: ", ")))")
      }
      return o
    }

    var fps = defaultFPS
    var from = defaultFrom
    let list: [Any]
    if let array = root as? [Any] {
      list = array
    } else if let top = root as? [String: Any] {
      _ = try object(top, "", keys: ["fps", "from", "segments"])
      if let f = top["fps"] { fps = try number(f, "fps", min: 1, max: 240) }
      if let f = top["from"] { from = try number(f, "from") }
      guard let s = top["segments"] as? [Any] else {
        throw fail("segments", "expected an array of segments")
      }
      list = s
    } else {
      throw fail(
        "", "expected an object with \"segments\", or an array of segments")
    }
    func frames(_ seconds: Double) -> Int { Int((seconds * fps).rounded()) }
    let maxSeconds = Double(Self.maximumFrames) / fps

    var segments: [Segment] = []
    for (i, item) in list.enumerated() {
      let field = "segments[\(i)]"
      guard let o = item as? [String: Any], o.count == 1, let key = o.keys.first
      else {
        throw fail(
          field,
          "a segment has exactly one of: scroll, pause, fling, loadMore, refresh, rotate, jump"
        )
      }
      let f = "\(field).\(key)"
      let v = o[key]
      switch key {
      case "scroll":
        let s = try object(
          v, f, keys: ["to", "by", "duration", "frames", "curve"])
        let target: Segment.Target
        switch (s["to"], s["by"]) {
        case (let to?, nil): target = .offset(try number(to, "\(f).to"))
        case (nil, let by?): target = .distance(try number(by, "\(f).by"))
        default:
          throw fail(f, "give one of \"to\" (an offset) or \"by\" (a distance)")
        }
        let n: Int
        switch (s["duration"], s["frames"]) {
        case (let d?, nil):
          n = max(
            1, frames(try number(d, "\(f).duration", min: 0, max: maxSeconds)))
        case (nil, let c?):
          n = try integer(c, "\(f).frames", min: 1, max: Self.maximumFrames)
        default:
          throw fail(f, "give one of \"duration\" (seconds) or \"frames\"")
        }
        var curve = ScrollCurve.easeInOut
        if let c = s["curve"] {
          guard let name = c as? String,
            let parsed = ScrollCurve(rawValue: name)
          else {
            throw fail(
              "\(f).curve",
              "expected \"linear\" or \"ease-in-out\" (use a fling segment to decelerate)"
            )
          }
          curve = parsed
        }
        segments.append(.scroll(to: target, frames: n, curve: curve))
      case "pause":
        segments.append(
          .pause(frames: frames(try number(v, f, min: 0, max: maxSeconds))))
      case "fling":
        let s = try object(v, f, keys: ["velocity", "rate", "bounce"])
        let velocity = try number(
          s["velocity"], "\(f).velocity", min: -1e6, max: 1e6)
        var rate = DecelerationRate.normal
        if let r = s["rate"] {
          if let name = r as? String, let parsed = DecelerationRate(name: name)
          {
            rate = parsed
          } else if let n = r as? NSNumber, String(cString: n.objCType) != "c",
            n.doubleValue > 0, n.doubleValue < 1
          {
            rate = DecelerationRate(perMillisecond: n.doubleValue)
          } else {
            throw fail(
              "\(f).rate",
              "expected \"normal\" (0.998), \"fast\" (0.99) or a number between 0 and 1"
            )
          }
        }
        var bounces = false
        if let b = s["bounce"] {
          // 0 and 1 cast to Bool too, so only JSON true and false (type "c") are taken.
          guard let n = b as? NSNumber, String(cString: n.objCType) == "c"
          else {
            throw fail("\(f).bounce", "expected true or false")
          }
          bounces = n.boolValue
        }
        segments.append(
          .fling(Deceleration(velocity: velocity, rate: rate, bounces: bounces))
        )
      case "loadMore", "refresh":
        var count: Int
        var reload = true
        if let s = v as? [String: Any] {
          _ = try object(s, f, keys: ["count", "reload"])
          count = try integer(
            s["count"], "\(f).count", min: 0, max: Scene.maximumItemCount)
          if let r = s["reload"] {
            guard let b = r as? Bool else {
              throw fail("\(f).reload", "expected true or false")
            }
            reload = b
          }
        } else {
          count = try integer(v, f, min: 0, max: Scene.maximumItemCount)
        }
        segments.append(
          key == "loadMore"
            ? .loadMore(count: count, reload: reload)
            : .refresh(count: count, reload: reload))
      case "rotate":
        let s = try object(v, f, keys: ["width", "height", "columns"])
        let size = Size(
          width: try number(s["width"], "\(f).width", min: 1, max: 16_384),
          height: try number(s["height"], "\(f).height", min: 1, max: 16_384))
        let columns = try s["columns"].map {
          (c: Any) throws(ScrollScriptError) in
          try integer(c, "\(f).columns", min: 1, max: 100)
        }
        segments.append(.rotate(size, columns: columns))
      case "jump":
        segments.append(.jump(try number(v, f)))
      default:
        throw fail(
          f,
          "unknown segment (expected scroll, pause, fling, loadMore, refresh, rotate or jump)"
        )
      }
    }
    self.init(fps: fps, from: from, segments: segments)
  }
}

/// Numbers as `waterflow trace --json` prints them: whole numbers without a fraction.
enum JSONNumber {
  static func format(_ d: Double) -> String { d.jsonText }
}
