internal import WaterflowGolden
internal import WaterflowJSON

/// A golden whose own renderings differ from one another (`golden check --repeat`): its pixels
/// depend on something besides its inputs (what was drawn before it, the thread, a cache), so
/// any comparison with its golden says nothing about a change.
public struct GoldenFlake: Sendable {
  /// The golden.
  public var name: String
  /// The frame that differed (0 for a single golden).
  public var frame: Int
  /// The two renderings that differ, by pass: pass 0 draws in manifest order, the others in
  /// seeded random orders.
  public var passes: (Int, Int)
  /// The first pixel that differs, in reading order, or nil when the sizes differ.
  public var pixel: (x: Int, y: Int)?
  /// How many pixels differ.
  public var differing: Int

  /// Describes a flaky golden.
  public init(name: String, frame: Int, passes: (Int, Int), pixel: (x: Int, y: Int)?, differing: Int) {
    self.name = name
    self.frame = frame
    self.passes = passes
    self.pixel = pixel
    self.differing = differing
  }

  /// One line: where its renderings first differ.
  public var summary: String {
    let at = pixel.map { "first at pixel (\($0.x), \($0.y))" } ?? "in size"
    return
      "flaky: its own renderings differ (pass \(passes.0) and pass \(passes.1)\(frame > 0 ? ", frame \(frame)" : ""): \(differing) pixels, \(at))"
  }

  /// What to do about it.
  public var message: String {
    """
    Golden '\(name)' is flaky: drawn twice from the same inputs, in different orders, it gave different pixels. \
    It was not compared with its golden, since a difference would say nothing about a change. \
    Something besides its inputs decides its pixels: a cache keyed on less than what it changes, \
    or state left by the golden drawn before it. Draw it alone (waterflow golden check \(name) --jobs 1) \
    and in the order of pass \(passes.1) to narrow it down.
    """
  }
}

extension GoldenRecord {
  /// The record of a golden found flaky, in place of its check's: a failure with the verdict
  /// `flaky`, never a layout or content change.
  ///
  /// - Parameters:
  ///   - flake: Where its renderings differ.
  ///   - json: The `--json` line to print for it.
  public mutating func markFlaky(_ flake: GoldenFlake, json: String) {
    status = "failed"
    label = "FLAKY"
    detail = flake.summary
    message = flake.message
    self.json = json
    junit.failure = .init(type: "flaky", message: flake.summary, body: flake.message)
    cause = GoldenCause(verdict: "flaky", summary: "its own renderings differ")
    review = nil
    let id = "golden-" + escapeHTML(name)
    report.status = .failed
    report.row =
      "<tr class=\"bad st-failed\"><td><a href=\"#\(id)\">\(escapeHTML(name))</a></td><td><span class=\"badge bad\">FLAKY</span></td><td>\(escapeHTML(flake.summary))</td></tr>"
    report.section =
      "<section class=\"entry st-failed\" id=\"\(id)\"><h2>\(escapeHTML(name))</h2>\n<pre class=\"msg\">\(escapeHTML(flake.message))</pre>\n</section>\n"
    report.images = []
  }
}

extension GoldenCause {
  /// A cause of its parts.
  public init(verdict: String, summary: String) {
    self.verdict = verdict
    self.summary = summary
  }
}
