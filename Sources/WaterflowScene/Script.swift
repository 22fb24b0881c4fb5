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

  /// Reads a script file: an array of steps, or an object with `"steps"`.
  ///
  /// - Throws: ``SceneError`` naming the file and the step at fault.
  public init(contentsOf path: String) throws(SceneError) {
    do {
      steps = try JSONDocument(contentsOf: path).read(
        options: Scene.readingOptions
      ) {
        (r: inout JSONReader) throws(JSONInputError) in
        guard try r.peek() == .object else { return try Self.readSteps(&r) }
        var steps: [Step]?
        try r.beginObject()
        while try r.nextKey(Self.topKeys) != nil {
          steps = try Self.readSteps(&r)
        }
        guard let steps else {
          throw r.fail(
            "expected an array of steps, or an object with \"steps\"")
        }
        return steps
      }
    } catch {
      throw SceneError(error)
    }
  }

  private enum TopKey: String, CaseIterable { case steps }
  private enum StepKey: String, CaseIterable {
    case scroll, offset, append, prepend, resize
  }
  private enum ScrollKey: String, CaseIterable { case step, to }
  private enum SizeKey: String, CaseIterable { case height, width }
  private static let topKeys = JSONKeys<TopKey>()
  private static let stepKeys = JSONKeys<StepKey>(
    unknownMessage:
      "unknown step (expected scroll, offset, append, prepend or resize)")
  private static let scrollKeys = JSONKeys<ScrollKey>()
  private static let sizeKeys = JSONKeys<SizeKey>()
  private static let oneStep =
    "a step has exactly one of: scroll, offset, append, prepend, resize"

  private static func readSteps(_ r: inout JSONReader) throws(JSONInputError)
    -> [Step]
  {
    var steps: [Step] = []
    try r.beginArray()
    while try r.nextElement() {
      try r.beginObject()
      guard let key = try r.nextKey(stepKeys) else { throw r.fail(oneStep) }
      switch key {
      case .scroll:
        var to: Double?
        var step = 10.0
        try r.beginObject()
        while let key = try r.nextKey(scrollKeys) {
          switch key {
          case .to: to = try r.number()
          case .step:
            step = try r.number(min: 0, max: 1_000_000, exclusiveMin: true)
          }
        }
        guard let to else { throw r.fail(key: "to", "missing") }
        steps.append(.scroll(to: to, step: step))
      case .offset: steps.append(.offset(try r.number()))
      case .append:
        steps.append(
          .append(try r.integer(min: 0, max: Scene.maximumItemCount)))
      case .prepend:
        steps.append(
          .prepend(try r.integer(min: 0, max: Scene.maximumItemCount)))
      case .resize:
        var width: Double?
        var height: Double?
        try r.beginObject()
        while let key = try r.nextKey(sizeKeys) {
          switch key {
          case .width: width = try r.number(min: 1, max: 16_384)
          case .height: height = try r.number(min: 1, max: 16_384)
          }
        }
        guard let width, let height else {
          throw r.fail("needs width and height")
        }
        steps.append(.resize(Size(width: width, height: height)))
      }
      if try r.nextKey(stepKeys) != nil { throw r.failInContainer(oneStep) }
    }
    return steps
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
    run(script) { records.append($0) }
    return records
  }

  /// Runs a script, laying out at every step, and hands over each record as it is made, so a
  /// long script's trace can be written without holding it.
  public func run(_ script: Script, each record: (TraceRecord) -> Void) {
    for step in script.steps {
      switch step {
      case .offset(let y):
        record(TraceRecord(event: nil, pass: view.scroll(to: y)))
      case .scroll(let target, let step):
        for pass in view.scroll(to: target, step: step) {
          record(TraceRecord(event: nil, pass: pass))
        }
      case .append(let n):
        // A layout file's frames are fixed: the step is recorded, and changes nothing.
        guard canChangeItems else {
          record(TraceRecord(event: "append \(n) skipped (fixed frames)", pass: view.layoutSubviews()))
          continue
        }
        appendItems(n)
        record(TraceRecord(event: "append \(n)", pass: view.layoutSubviews()))
      case .prepend(let n):
        guard canChangeItems else {
          record(TraceRecord(event: "prepend \(n) skipped (fixed frames)", pass: view.layoutSubviews()))
          continue
        }
        prependItems(n)
        record(TraceRecord(event: "prepend \(n)", pass: view.layoutSubviews()))
      case .resize(let size):
        resize(to: size)
        record(
          TraceRecord(
            event: "resize \(size.width.jsonText)x\(size.height.jsonText)",
            pass: view.layoutSubviews()))
      }
    }
  }
}
