import Foundation

/// A script of steps that scroll and change the data: the shop demo's refresh / load-more cycle.
///
/// In JSON, a script is an array of steps:
/// ```json
/// [{"scroll": {"to": 1200, "step": 100}}, {"append": 20}, {"prepend": 10},
///  {"offset": 0}, {"resize": {"width": 667, "height": 375}}]
/// ```
public struct Script: Hashable, Sendable {
  /// One step.
  public enum Step: Hashable, Sendable {
    /// Scroll from the current offset to `to` in steps of `step` points, laying out at each.
    case scroll(to: Double, step: Double)
    /// Jump to an offset and lay out once.
    case offset(Double)
    /// Append items at the end ("load more"), then lay out.
    case append(Int)
    /// Prepend items at the top ("refresh"), then lay out.
    case prepend(Int)
    /// Change the viewport (a rotation), then lay out.
    case resize(Size)
  }

  public var steps: [Step]

  public init(steps: [Step]) { self.steps = steps }

  /// Reads a script file.
  ///
  /// - Throws: ``SceneError`` naming the file and the step at fault.
  public init(contentsOf path: String) throws(SceneError) {
    let data: Data
    do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
      throw SceneError(file: path, field: "", message: "cannot read the file")
    }
    let root: JSONValue
    do { root = try JSONDecoder().decode(JSONValue.self, from: data) } catch {
      throw SceneError(file: path, field: "", message: "invalid JSON")
    }
    let top = Field(value: root, path: "", file: path)
    var steps: [Step] = []
    for f in try (top.child("steps") ?? top).array() {
      let keys = try f.object().keys
      guard keys.count == 1, let key = keys.first else {
        throw f.fail(
          "a step has exactly one of: scroll, offset, append, prepend, resize")
      }
      let v = f.child(key)!
      switch key {
      case "scroll":
        try v.checkKeys(["to", "step"])
        guard let to = v.child("to") else {
          throw SceneError(
            file: path, field: "\(v.path).to", message: "missing")
        }
        let step =
          try v.child("step")?.number(
            min: 0, max: 1_000_000, exclusiveMin: true) ?? 10
        steps.append(.scroll(to: try to.number(), step: step))
      case "offset": steps.append(.offset(try v.number()))
      case "append":
        steps.append(
          .append(try v.integer(min: 0, max: Scene.maximumItemCount)))
      case "prepend":
        steps.append(
          .prepend(try v.integer(min: 0, max: Scene.maximumItemCount)))
      case "resize":
        try v.checkKeys(["width", "height"])
        guard let w = v.child("width"), let h = v.child("height") else {
          throw v.fail("needs width and height")
        }
        steps.append(
          .resize(
            Size(
              width: try w.number(min: 1, max: 16_384),
              height: try h.number(min: 1, max: 16_384))))
      default:
        throw SceneError(
          file: path, field: v.path,
          message:
            "unknown step (expected scroll, offset, append, prepend or resize)")
      }
    }
    self.steps = steps
  }

  /// A plain scroll from `from` to `to` in steps of `step`, both ends included.
  public static func scroll(from: Double, to: Double, step: Double) -> Script {
    Script(steps: [.offset(from), .scroll(to: to, step: step)])
  }
}

/// One traced layout pass, with the data change that caused it, if any.
public struct TraceRecord: Hashable, Sendable {
  /// What happened before the pass: "append 20", "prepend 10", "resize 667x375", or nil for a scroll.
  public var event: String?
  /// The pass.
  public var pass: LayoutPass
}

extension SceneController {
  /// Runs a script, laying out at every step, and returns one record per `layoutSubviews()`.
  @discardableResult
  public func run(_ script: Script) -> [TraceRecord] {
    var records: [TraceRecord] = []
    for step in script.steps {
      switch step {
      case .offset(let y):
        records.append(TraceRecord(event: nil, pass: view.scroll(to: y)))
      case .scroll(let target, let step):
        var y = view.offset
        let direction: Double = target >= y ? 1 : -1
        while (target - y) * direction > 1e-9 {
          y += direction * step
          if (y - target) * direction > 0 { y = target }
          records.append(TraceRecord(event: nil, pass: view.scroll(to: y)))
        }
      case .append(let n):
        appendItems(n)
        records.append(
          TraceRecord(event: "append \(n)", pass: view.layoutSubviews()))
      case .prepend(let n):
        prependItems(n)
        records.append(
          TraceRecord(event: "prepend \(n)", pass: view.layoutSubviews()))
      case .resize(let size):
        resize(to: size)
        records.append(
          TraceRecord(
            event: "resize \(format(size.width))x\(format(size.height))",
            pass: view.layoutSubviews()))
      }
    }
    return records
  }
}
