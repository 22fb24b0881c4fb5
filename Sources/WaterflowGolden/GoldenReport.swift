internal import Cairo
internal import PNGCodec
internal import Foundation
internal import WaterflowJSON
internal import WaterflowView

/// One self-contained HTML page about a golden run: a summary table, and for every failure the
/// expected, actual and diff images side by side, a slider and a blink view, and for sequences a
/// per-frame timeline. Images are inlined as base64 PNG, so the page can be mailed or uploaded
/// as a single CI artifact.
///
/// ```swift
/// let html = GoldenReport(title: "waterflow golden check", outcomes: outcomes, fontStack: fingerprint.description).html()
/// ```
public struct GoldenReport {
  /// The page title.
  public var title: String
  /// What was checked, in order.
  public var outcomes: [GoldenSequenceOutcome]
  /// This machine's font stack, shown under the title.
  public var fontStack: String
  /// How the stack differs from the recorded one; shown first, in a warning box, when not empty.
  public var fontStackChanges: [String]

  /// Creates a report.
  public init(
    title: String, outcomes: [GoldenSequenceOutcome], fontStack: String,
    fontStackChanges: [String] = []
  ) {
    self.title = title
    self.outcomes = outcomes
    self.fontStack = fontStack
    self.fontStackChanges = fontStackChanges
  }

  /// The HTML page.
  public func html() -> String {
    let failed = outcomes.count { $0.isFailure }
    var out = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8">
      <title>\(escape(title))</title>
      <style>\(Self.css)</style></head>
      <body data-ready="0">
      <header class="\(failed > 0 ? "fail" : "pass")"><h1>\(failed > 0 ? "\(failed) of \(outcomes.count) goldens failed" : "All \(outcomes.count) goldens passed")</h1>
      <p>\(escape(title)) · font stack: \(escape(fontStack))</p></header>

      """
    if !fontStackChanges.isEmpty {
      out +=
        "<div class=\"warn\"><b>The font stack differs from the one the goldens were recorded with:</b> \(escape(fontStackChanges.joined(separator: ", "))). Differences along glyph edges may come from that alone.</div>\n"
    }
    out += "<table><tr><th>golden</th><th>status</th><th>details</th></tr>\n"
    for (i, o) in outcomes.enumerated() {
      let status = statusLabel(o)
      let name =
        o.isFailure
        ? "<a href=\"#g\(i)\">\(escape(o.name))</a>" : escape(o.name)
      out +=
        "<tr class=\"\(status.css)\"><td>\(name)</td><td><span class=\"badge \(status.css)\">\(status.text)</span></td><td>\(verdictBadge(o.explainedFrame?.changes))\(escape(summary(o)))</td></tr>\n"
    }
    out += "</table>\n"
    for (i, o) in outcomes.enumerated() where o.isFailure {
      out += section(o, id: i)
    }
    out += "<script>\(Self.script)</script>\n</body></html>\n"
    return out
  }

  // MARK: - Parts

  private func statusLabel(_ o: GoldenSequenceOutcome) -> (
    text: String, css: String
  ) {
    if o.frames.contains(where: { $0.status == .missing })
      && !o.frames.contains(where: { $0.status == .failed })
    {
      return ("MISSING", "bad")
    }
    if o.isFailure { return ("FAIL", "bad") }
    if o.frames.contains(where: \.didRecord) { return ("RECORDED", "rec") }
    return ("OK", "ok")
  }

  private func summary(_ o: GoldenSequenceOutcome) -> String {
    if o.isSequence {
      var text = "\(o.frames.count) frames"
      if let first = o.firstFailingFrame {
        text +=
          "; \(o.failingFrameCount) failing, the first is frame \(first) at offset \(GoldenStore.format(o.offsets[first]))"
      }
      return text
    }
    let frame = o.frames[0]
    switch frame.status {
    case .missing: return "no golden at \(frame.goldenPath)"
    case .recordedNew, .recordedAll, .rerecorded:
      return "recorded \(frame.goldenPath)"
    default: return frame.diff.map(\.description) ?? ""
    }
  }

  private func section(_ o: GoldenSequenceOutcome, id: Int) -> String {
    let first = o.firstFailingFrame ?? 0
    var out =
      "<section class=\"entry\" id=\"g\(id)\" data-first=\"\(first)\"><h2>\(verdictBadge(o.explainedFrame?.changes))\(escape(o.name))</h2>\n"
    out += "<pre class=\"msg\">\(escape(o.message))</pre>\n"
    if o.isSequence {
      out +=
        "<p class=\"seq\">First failing frame: <b>\(first)</b> (offset \(GoldenStore.format(o.offsets[first]))); failing frames: <b>\(o.failingFrameCount)</b> of \(o.frames.count). <span class=\"showing\"></span></p>\n"
      out += "<div class=\"timeline\">"
      for (k, frame) in o.frames.enumerated() {
        let css = frame.isFailure ? "bad" : (frame.didRecord ? "rec" : "ok")
        out +=
          "<button class=\"\(css)\" data-f=\"\(k)\" title=\"\(escape(frame.diff?.description ?? frame.status.rawValue))\">\(k)<small>\(GoldenStore.format(o.offsets[k]))</small></button>"
      }
      out += "</div>\n"
    }
    for (k, frame) in o.frames.enumerated() {
      out +=
        "<div class=\"frame\" data-f=\"\(k)\"\(k == first ? "" : " hidden")>\n"
      if let changes = frame.changes { out += changeList(changes) }
      out += panels(frame)
      out += "</div>\n"
    }
    return out + "</section>\n"
  }

  private func panels(_ frame: GoldenOutcome) -> String {
    let actual = dataURI(frame.actual)
    guard let expected = frame.expected.map(dataURI) else {
      return
        "<div class=\"panels\">\(figure("actual (no golden yet)", actual))</div>\n"
    }
    var out =
      "<div class=\"panels\">\(figure("expected", expected))\(figure("actual", actual))"
    if let diff = frame.diff?.diffImage, frame.status != .matched {
      out += figure(
        "diff: red counted, yellow anti-aliasing"
          + (frame.changes?.moved.isEmpty == false ? "; moved cells: dashed was, solid is" : ""),
        dataURI(diff),
        overlay: frame.changes.flatMap { moveOverlay($0, width: diff.width, height: diff.height) })
    } else if frame.status == .matched {
      out += "<figure><figcaption>matches</figcaption></figure>"
    }
    out += "</div>\n"
    guard frame.isFailure || frame.status == .rerecorded,
      frame.diff?.sizesDiffer == false
    else { return out }
    out += """
      <div class="compare"><figure><figcaption>slider: expected left, actual right · <label><input type="checkbox" class="blink"> blink</label></figcaption>
      <div class="stack"><img src="\(expected)" alt="expected"><img class="top" src="\(actual)" alt="actual" style="clip-path: inset(0 0 0 50%)"></div>
      <input type="range" min="0" max="100" value="50" aria-label="slider position"></figure></div>

      """
    return out
  }

  private func figure(_ caption: String, _ src: String, overlay: String? = nil) -> String {
    let image = "<img src=\"\(src)\" alt=\"\(escape(caption))\">"
    return
      "<figure><figcaption>\(escape(caption))</figcaption>"
      + (overlay.map { "<div class=\"stack\">\(image)\($0)</div>" } ?? image) + "</figure>"
  }

  /// The verdict as a coloured badge: layout, content, reuse or drawing.
  private func verdictBadge(_ changes: GoldenChanges?) -> String {
    guard let changes else { return "" }
    return
      "<span class=\"verdict \(changes.verdict.rawValue)\" title=\"\(escape(changes.summary))\">\(changes.verdict.rawValue)</span> "
  }

  /// What the facts say changed: the summary and details, then every content and reuse change.
  private func changeList(_ c: GoldenChanges) -> String {
    var out = "<div class=\"changes\"><p>\(verdictBadge(c))\(escape(c.summary))</p>"
    if !c.details.isEmpty {
      out += "<p class=\"details\">\(c.details.map(escape).joined(separator: "<br>"))</p>"
    }
    if !c.content.isEmpty {
      out += "<ul class=\"content\">"
      for change in c.content {
        out +=
          "<li>item \(change.index) \(escape(change.field)): <del>\(escape(change.from ?? "none"))</del> → <ins>\(escape(change.to ?? "none"))</ins></li>"
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

  /// The moved cells over the diff image: the old frame dashed, the new one solid, with the index.
  private func moveOverlay(_ c: GoldenChanges, width: Int, height: Int) -> String? {
    guard let origin = c.pixelOrigin, !c.moved.isEmpty else { return nil }
    func box(_ r: Rect) -> (x: String, y: String, w: String, h: String) {
      let s = c.pixelScale
      return (
        ((r.minX - origin.x) * s).jsonText, ((r.minY - origin.y) * s).jsonText,
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

  private func dataURI(_ image: RGBAImage) -> String {
    "data:image/png;base64,"
      + Data(image.pngData(compression: .fast)).base64EncodedString()
  }

  private func escape(_ text: String) -> String {
    var out = ""
    for c in text {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(c)
      }
    }
    return out
  }

  static let css = """
    body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#f6f6f6;color:#222}
    header{padding:10px 16px;color:#fff}header.fail{background:#b3261e}header.pass{background:#1e7b34}
    header h1{margin:0;font-size:20px}header p{margin:2px 0 0;opacity:.9}
    .warn{margin:10px 16px;padding:8px 12px;background:#fff4ce;border:1px solid #e0b400}
    table{margin:10px 16px;border-collapse:collapse;background:#fff}td,th{padding:3px 10px;border-bottom:1px solid #ddd;text-align:left}
    .badge{padding:1px 6px;border-radius:3px;color:#fff;font-size:12px}.badge.ok{background:#1e7b34}.badge.bad{background:#b3261e}.badge.rec{background:#8a6d00}
    .entry{margin:10px 16px;padding:8px 12px;background:#fff;border:1px solid #ccc}.entry h2{margin:0 0 6px;font-size:16px}
    .msg{white-space:pre-wrap;font-size:12px;background:#f0f0f0;padding:6px;margin:0 0 8px}
    .timeline{display:flex;gap:3px;margin-bottom:8px}.timeline button{border:2px solid transparent;color:#fff;font:12px monospace;padding:2px 6px;cursor:pointer}
    .timeline button small{display:block;font-size:10px}.timeline .ok{background:#1e7b34}.timeline .bad{background:#b3261e}.timeline .rec{background:#8a6d00}
    .timeline button.sel{border-color:#000;outline:2px solid #fff;outline-offset:-4px}
    .panels,.compare{display:flex;gap:10px;flex-wrap:wrap;align-items:flex-start}figure{margin:0}figcaption{font-size:12px;color:#555}
    img{display:block;image-rendering:pixelated;border:1px solid #999}
    .compare{margin-top:8px}.stack{position:relative;display:inline-block}.stack .top{position:absolute;left:0;top:0}
    .verdict{padding:1px 6px;border-radius:3px;color:#fff;font-size:12px;background:#555}.verdict.layout{background:#6a1b9a}
    .verdict.content{background:#0b5cad}.verdict.reuse{background:#00796b}.verdict.drawing{background:#8a6d00}
    .changes p{margin:0 0 4px}.changes .details{font:12px monospace}.changes ul{margin:0 0 6px;font-size:13px}
    svg.moves{position:absolute;left:1px;top:1px;pointer-events:none}svg.moves rect{fill:none;stroke-width:2}
    svg.moves .was{stroke:#1565c0;stroke-dasharray:5 3}svg.moves .is{stroke:#6a1b9a}svg.moves text{font:bold 11px sans-serif;fill:#6a1b9a}
    .compare input[type=range]{width:100%}.blinking .top{clip-path:none!important;animation:blink 1s steps(2) infinite}
    @keyframes blink{50%{opacity:0}}
    """

  static let script = """
    document.querySelectorAll('.entry').forEach(function (e) {
      var frames = e.querySelectorAll('.frame'), buttons = e.querySelectorAll('.timeline button');
      var showing = e.querySelector('.showing');
      function show(k) {
        frames.forEach(function (f) { f.hidden = f.dataset.f !== String(k); });
        buttons.forEach(function (b) { b.classList.toggle('sel', b.dataset.f === String(k)); });
        if (showing) showing.textContent = 'Showing frame ' + k + '.';
      }
      buttons.forEach(function (b) { b.onclick = function () { show(b.dataset.f); }; });
      show(e.dataset.first);
    });
    document.querySelectorAll('.compare').forEach(function (c) {
      var range = c.querySelector('input[type=range]'), top = c.querySelector('.top');
      range.oninput = function () { top.style.clipPath = 'inset(0 0 0 ' + range.value + '%)'; };
      c.querySelector('.blink').onchange = function (ev) { c.classList.toggle('blinking', ev.target.checked); };
    });
    document.body.dataset.ready = '1';
    """
}
