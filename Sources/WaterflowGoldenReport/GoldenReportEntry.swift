public import WaterflowGolden
internal import Foundation
internal import WaterflowJSON
internal import WaterflowView

/// One golden's part of a ``GoldenReport``: its table row and, for a failure, its section, with
/// images named by key rather than embedded.
///
/// Made while the outcome's images are in memory and kept without them, so a run holds a few
/// kilobytes per golden; shards save entries for `golden merge`.
public struct GoldenReportEntry: Hashable, Sendable, Codable {
  /// How the golden ended, in the order the report lists them.
  public enum Status: String, Hashable, Sendable, Codable, CaseIterable {
    case failed, missing, recorded, passed

    /// The position in the report: failures first.
    var rank: Int { Status.allCases.firstIndex(of: self)! }
  }

  /// The golden's name.
  public var name: String
  /// How it ended.
  public var status: Status
  /// The table row.
  public var row: String
  /// The failure's section, or nil.
  public var section: String?
  /// The images the section shows (`<img data-img="KEY">`), in order.
  public var images: [String]

  /// Makes the entry of an outcome.
  ///
  /// - Parameters:
  ///   - outcome: The outcome, with its artifacts written.
  ///   - imageKey: The key of an artifact's path (for example its path inside the artifacts
  ///     folder), by which the report finds the file later.
  public init(_ outcome: GoldenSequenceOutcome, imageKey: (String) -> String) {
    name = outcome.name
    if outcome.isMissingOnly {
      status = .missing
    } else if outcome.isFailure {
      status = .failed
    } else {
      status = outcome.frames.contains(where: \.didRecord) ? .recorded : .passed
    }
    let label = ["FAIL", "MISSING", "RECORDED", "OK"][status.rank]
    let css = ["bad", "bad", "rec", "ok"][status.rank]
    let id = "golden-" + escapeHTML(outcome.name)
    let nameCell =
      outcome.isFailure
      ? "<input type=\"checkbox\" class=\"pick\" value=\"\(escapeHTML(outcome.name))\" aria-label=\"select \(escapeHTML(outcome.name))\"> <a href=\"#\(id)\">\(escapeHTML(outcome.name))</a>"
      : escapeHTML(outcome.name)
    row =
      "<tr class=\"\(css) st-\(status.rawValue)\"><td>\(nameCell)</td><td><span class=\"badge \(css)\">\(label)</span></td><td>\(verdictBadge(outcome.explainedFrame?.changes))\(escapeHTML(Self.summary(outcome)))</td></tr>"
    var images: [String] = []
    section = outcome.isFailure ? Self.section(outcome, id: id, status: status, images: &images, key: imageKey) : nil
    self.images = images
  }

  private static func summary(_ o: GoldenSequenceOutcome) -> String {
    if o.isUnchanged { return GoldenOutcome.unchangedPhrase }
    if o.isSequence {
      var text = "\(o.frames.count) frames"
      if let first = o.firstFailingFrame {
        text +=
          "; \(o.failingFrameCount) failing, the first is frame \(first) at offset \(o.offsets[first].jsonText)"
      } else if let crossStack = o.crossStack {
        text += "; " + crossStack.summary
      }
      return text
    }
    let frame = o.frames[0]
    switch frame.status {
    case .missing: return "no golden at \(frame.goldenPath)"
    case .unchanged: return GoldenOutcome.unchangedPhrase
    case .recordedNew, .recordedAll, .rerecorded: return "recorded \(frame.goldenPath)"
    case .matched where frame.crossStack != nil: return frame.crossStack!.summary
    default: return frame.diff.map(\.description) ?? ""
    }
  }

  private static func section(
    _ o: GoldenSequenceOutcome, id: String, status: Status, images: inout [String],
    key: (String) -> String
  ) -> String {
    let first = o.firstFailingFrame ?? 0
    var out =
      "<section class=\"entry st-\(status.rawValue)\" id=\"\(id)\" data-first=\"\(first)\"><h2>\(verdictBadge(o.explainedFrame?.changes))\(escapeHTML(o.name))</h2>\n"
    out += "<pre class=\"msg\">\(escapeHTML(o.message))</pre>\n"
    if o.isSequence {
      out +=
        "<p class=\"seq\">First failing frame: <b>\(first)</b> (offset \(o.offsets[first].jsonText)); failing frames: <b>\(o.failingFrameCount)</b> of \(o.frames.count). <span class=\"showing\"></span></p>\n"
      out += "<div class=\"timeline\">"
      for (k, frame) in o.frames.enumerated() {
        let css = frame.isFailure ? "bad" : (frame.didRecord ? "rec" : "ok")
        out +=
          "<button class=\"\(css)\" data-f=\"\(k)\" title=\"\(escapeHTML(frame.diff?.description ?? frame.status.rawValue))\">\(k)<small>\(o.offsets[k].jsonText)</small></button>"
      }
      out += "</div>\n"
    }
    for (k, frame) in o.frames.enumerated() {
      out += "<div class=\"frame\" data-f=\"\(k)\"\(k == first ? "" : " hidden")>\n"
      if let changes = frame.changes { out += changeList(changes) }
      out += panels(frame, images: &images, key: key)
      out += "</div>\n"
    }
    return out + "</section>\n"
  }

  /// The three-panel diff (expected | actual | diff) and the slider over expected and actual:
  /// each file appears once in the page, however many places show it.
  private static func panels(
    _ frame: GoldenOutcome, images: inout [String], key: (String) -> String
  ) -> String {
    func image(_ path: String, _ alt: String, _ extra: String = "") -> String {
      let k = key(path)
      if !images.contains(k) { images.append(k) }
      return "<img data-img=\"\(escapeHTML(k))\" alt=\"\(alt)\" loading=\"lazy\"\(extra)>"
    }
    guard let artifacts = frame.artifacts, frame.isFailure || frame.status == .rerecorded else {
      let what =
        switch frame.status {
        case .matched: "matches its golden"
        case .unchanged: "was not drawn: its inputs are identical to its last pass"
        default: frame.status.rawValue
        }
      return "<p class=\"same\">This frame \(what).</p>\n"
    }
    guard let expected = artifacts.expected, let diff = artifacts.diff else {
      return "<div class=\"panels\">\(figure("actual (no golden yet)", image(artifacts.actual, "actual")))</div>\n"
    }
    let overlay = frame.changes.flatMap { changes -> String? in
      guard let e = frame.expected, let d = frame.diff?.diffImage else { return nil }
      let width = e.width + frame.actual.width + d.width + 2 * DiffPanels.gap
      let height = max(e.height, frame.actual.height)
      return moveOverlay(
        changes, x: e.width + frame.actual.width + 2 * DiffPanels.gap, width: width, height: height)
    }
    var out =
      "<div class=\"panels\">"
      + figure(
        "diff: red counted, yellow anti-aliasing (expected | actual | diff)"
          + (frame.changes?.moved.isEmpty == false ? "; moved cells: dashed was, solid is" : ""),
        image(diff, "expected, actual and diff"), overlay: overlay)
      + "</div>\n"
    guard frame.diff?.sizesDiffer == false else { return out }
    out += """
      <div class="compare"><figure><figcaption>slider: expected left, actual right · <label><input type="checkbox" class="blink"> blink</label></figcaption>
      <div class="stack">\(image(expected, "expected"))\(image(artifacts.actual, "actual", " class=\"top\" style=\"clip-path: inset(0 0 0 50%)\""))</div>
      <input type="range" min="0" max="100" value="50" aria-label="slider position"></figure></div>

      """
    return out
  }

  private static func figure(_ caption: String, _ image: String, overlay: String? = nil) -> String {
    "<figure><figcaption>\(escapeHTML(caption))</figcaption>"
      + (overlay.map { "<div class=\"stack\">\(image)\($0)</div>" } ?? image) + "</figure>"
  }

  /// What the facts say changed: the summary and details, then every content and reuse change.
  private static func changeList(_ c: GoldenChanges) -> String {
    var out = "<div class=\"changes\"><p>\(verdictBadge(c))\(escapeHTML(c.summary))</p>"
    if !c.details.isEmpty {
      out += "<p class=\"details\">\(c.details.map(escapeHTML).joined(separator: "<br>"))</p>"
    }
    if !c.content.isEmpty {
      out += "<ul class=\"content\">"
      for change in c.content {
        out +=
          "<li>item \(change.index) \(escapeHTML(change.field)): <del>\(escapeHTML(change.from ?? "none"))</del> → <ins>\(escapeHTML(change.to ?? "none"))</ins></li>"
      }
      out += "</ul>"
    }
    if !c.reuse.isEmpty {
      out += "<ul class=\"reuse\">"
      for change in c.reuse {
        out += "<li>index \(change.index) shows cell #\(change.to) (was #\(change.from))</li>"
      }
      out += "</ul>"
    }
    return out + "</div>\n"
  }

  /// The moved cells over the diff panel (which starts at `x`): the old frame dashed, the new
  /// one solid, with the index.
  private static func moveOverlay(_ c: GoldenChanges, x: Int, width: Int, height: Int) -> String? {
    guard let origin = c.pixelOrigin, !c.moved.isEmpty else { return nil }
    func box(_ r: Rect) -> (x: String, y: String, w: String, h: String) {
      let s = c.pixelScale
      return (
        ((r.minX - origin.x) * s + Double(x)).jsonText, ((r.minY - origin.y) * s).jsonText,
        (r.width * s).jsonText, (r.height * s).jsonText
      )
    }
    var svg =
      "<svg class=\"moves\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\">"
    for m in c.moved {
      let (a, b) = (box(m.from), box(m.to))
      svg +=
        "<rect class=\"was\" x=\"\(a.x)\" y=\"\(a.y)\" width=\"\(a.w)\" height=\"\(a.h)\"/>"
        + "<rect class=\"is\" x=\"\(b.x)\" y=\"\(b.y)\" width=\"\(b.w)\" height=\"\(b.h)\"/>"
        + "<text x=\"\(b.x)\" y=\"\(b.y)\" dx=\"3\" dy=\"12\">\(m.index)</text>"
    }
    return svg + "</svg>"
  }
}

/// The verdict as a coloured badge: layout, content, reuse or drawing.
func verdictBadge(_ changes: GoldenChanges?) -> String {
  guard let changes else { return "" }
  return
    "<span class=\"verdict \(changes.verdict.rawValue)\" title=\"\(escapeHTML(changes.summary))\">\(changes.verdict.rawValue)</span> "
}
