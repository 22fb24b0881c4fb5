public import WaterflowGolden
internal import Cairo
internal import SystemPackage
internal import FileTransactions
internal import PNGCodec
internal import Foundation
internal import WaterflowJSON
internal import WaterflowView

/// One HTML page about a golden run: a status filter and a summary table with failures first,
/// and for every failure the three-panel diff, a slider and a blink view, and for sequences a
/// per-frame timeline.
///
/// Each image is stored once and loaded lazily (`<img data-img>` filled from one map), so a run
/// of hundreds of goldens opens quickly. Up to ``inlineLimit`` bytes of PNG the images are
/// inlined as data URIs and the page is a single file to mail or upload; above it they are
/// copied to a folder beside the page (`report.html` → `report-images/`).
///
/// ```swift
/// let html = GoldenReport(title: "waterflow golden check", outcomes: outcomes, fontStack: fingerprint.description).html()
/// ```
public struct GoldenReport {
  /// The page title.
  public var title: String
  /// What was checked, in order.
  public var entries: [GoldenReportEntry]
  /// This machine's font stack, shown under the title.
  public var fontStack: String
  /// How the stack differs from the recorded one; shown first, in a warning box, when not empty.
  public var fontStackChanges: [String]

  /// The command that records goldens, which the page completes with the names ticked:
  /// `waterflow golden record`, with the manifest when it is not the default one.
  public var recordCommand = "waterflow golden record"

  /// The most PNG bytes a report inlines; above it, images go to a folder beside the page.
  /// 8 MB by default: the page (base64 adds a third) stays near 11 MB, which opens at once.
  public var inlineLimit = 8 << 20

  /// Creates a report from outcomes whose artifacts are on disk (images are read from them).
  public init(
    title: String, outcomes: [GoldenSequenceOutcome], fontStack: String,
    fontStackChanges: [String] = []
  ) {
    self.init(
      title: title, entries: outcomes.map { GoldenReportEntry($0, imageKey: { $0 }) },
      fontStack: fontStack, fontStackChanges: fontStackChanges)
  }

  /// Creates a report from entries made earlier (one golden at a time, or by shards).
  public init(
    title: String, entries: [GoldenReportEntry], fontStack: String,
    fontStackChanges: [String] = []
  ) {
    self.title = title
    self.entries = entries
    self.fontStack = fontStack
    self.fontStackChanges = fontStackChanges
  }

  /// The page with every image inlined, as one string; images are read from their keys' paths.
  public func html() -> String {
    var out = ""
    write(to: { out += $0 }, image: { key in
      FileManager.default.contents(atPath: key).map {
        "data:image/png;base64," + $0.base64EncodedString()
      }
    })
    return out
  }

  /// Writes the page to `path` atomically, reading each image when it is written, so memory
  /// does not grow with the number of goldens.
  ///
  /// - Parameters:
  ///   - path: The page.
  ///   - imagePath: Where the PNG of an image key is, or nil when it is missing.
  /// - Returns: The folder the images were copied to, or nil when they were inlined.
  /// - Throws: `GoldenError` (`.file`) naming the file that cannot be written.
  @discardableResult
  public func write(to path: String, imagePath: (String) -> String?) throws(GoldenError) -> String? {
    let keys = entries.flatMap(\.images)
    var total = 0
    for key in keys {
      if let file = imagePath(key),
        let size = try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int
      {
        total += size
      }
    }
    var folder: String?
    var folderURL: [String: String] = [:]
    if total > inlineLimit {
      let name = (FilePath(path).stem ?? "report") + "-images"
      let target = FilePath(path).removingLastComponent().appending(name).string
      do {
        let staged = try StagedFolder(replacing: target, kind: Self.imagesKind)
        defer { staged.discard() }
        try writeAtomically([], to: staged.path + "/" + Self.imagesKind.marker, sweeping: false)
        for (i, key) in keys.enumerated() {
          guard let file = imagePath(key), FileManager.default.fileExists(atPath: file)
          else { continue }
          let base = String(format: "%05d", i) + ".png"
          // Copies were 600 MB of writes for 200 failed goldens of 750×1624.
          try linkOrCopy(file, to: staged.path + "/" + base) { bytes, path in
            try writeAtomically(bytes, to: path, sweeping: false)
          }
          folderURL[key] = name + "/" + base
        }
        try staged.commit()
      } catch {
        throw GoldenError(.file, "Cannot write the report's images beside '\(path)': \(error)")
      }
      folder = target
    }
    let file: AtomicFile
    // A `FileWriteError` names the path itself ("Cannot write 'PATH': reason.").
    do { file = try AtomicFile(path: path) } catch {
      throw GoldenError(.file, error.description)
    }
    write(to: { file.write($0) }, image: { key in
      if folder != nil { return folderURL[key] }
      return imagePath(key).flatMap { FileManager.default.contents(atPath: $0) }.map {
        "data:image/png;base64," + $0.base64EncodedString()
      }
    })
    do { try file.commit() } catch {
      throw GoldenError(.file, error.description)
    }
    return folder
  }

  /// The folder of a report's images: only ever replaced by another such folder.
  static let imagesKind = StagedFolder.Kind(marker: ".waterflow-report-images") {
    $0 == ".waterflow-report-images" || $0.hasSuffix(".png")
  }

  /// Streams the page to `out`; `image` gives the URL of each image key, once.
  func write(to out: (String) -> Void, image: (String) -> String?) {
    let failed = entries.count { $0.status == .failed || $0.status == .missing }
    out(
      """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8">
      <title>\(escapeHTML(title))</title>
      <style>\(Self.css)</style></head>
      <body data-ready="0">
      <header class="\(failed > 0 ? "fail" : "pass")"><h1>\(failed > 0 ? "\(failed) of \(entries.count) goldens failed" : "All \(entries.count) goldens passed")</h1>
      <p>\(escapeHTML(title)) · font stack: \(escapeHTML(fontStack))</p></header>

      """)
    if !fontStackChanges.isEmpty {
      out(
        "<div class=\"warn\"><b>The font stack differs from the one the goldens were recorded with:</b> \(escapeHTML(fontStackChanges.joined(separator: ", "))). Differences along glyph edges may come from that alone.</div>\n"
      )
    }
    // Failures first, then missing, recorded and passed goldens, each in manifest order.
    let ordered = entries.enumerated().sorted {
      ($0.element.status.rank, $0.offset) < ($1.element.status.rank, $1.offset)
    }.map(\.element)
    out("<nav class=\"filter\">show:")
    for status in GoldenReportEntry.Status.allCases {
      let count = entries.count { $0.status == status }
      out(
        " <label><input type=\"checkbox\" id=\"show-\(status.rawValue)\" checked> \(status.rawValue) (\(count))</label>"
      )
    }
    out("</nav>\n<table><tr><th>golden</th><th>status</th><th>details</th></tr>\n")
    for entry in ordered { out(entry.row + "\n") }
    out("</table>\n")
    if failed > 0 {
      // Tick the failures whose change is intended; the command records exactly those.
      out(
        "<div class=\"pickbar\" data-command=\"\(escapeHTML(recordCommand))\"><label><input type=\"checkbox\" id=\"pick-all\"> all failures</label> <button id=\"copy-record\" disabled>Copy the record command for the selected</button> <code id=\"record-command\"></code></div>\n"
      )
    }
    for entry in ordered { if let section = entry.section { out(section) } }
    // Each image once; the script puts it into every <img data-img> that shows it.
    out("<script type=\"application/json\" id=\"report-images\">{")
    var seen = Set<String>()
    for key in entries.flatMap(\.images) where seen.insert(key).inserted {
      guard let url = image(key) else { continue }
      out((seen.count == 1 ? "" : ",\n") + jsonString(key) + ":" + jsonString(url))
    }
    out("}</script>\n<script>\(Self.script)</script>\n</body></html>\n")
  }

  private func jsonString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "<": out += "\\u003c"  // never "</script>" inside the script element
      default:
        if scalar.value < 0x20 {
          out += String(format: "\\u%04x", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
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
    .pickbar{margin:8px 16px}.pickbar code{margin-left:8px;font-size:12px}
    .filter{margin:10px 16px}.filter label{margin-right:8px}.same{font-size:13px;color:#1e7b34}
    body:has(#show-failed:not(:checked)) .st-failed,body:has(#show-missing:not(:checked)) .st-missing,
    body:has(#show-recorded:not(:checked)) .st-recorded,body:has(#show-passed:not(:checked)) .st-passed{display:none}
    """

  static let script = """
    var images = JSON.parse(document.getElementById('report-images').textContent);
    document.querySelectorAll('img[data-img]').forEach(function (img) {
      if (images[img.dataset.img]) img.src = images[img.dataset.img];
    });
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
    (function () {
      var bar = document.querySelector('.pickbar');
      if (!bar) return;
      var boxes = document.querySelectorAll('input.pick'), button = document.getElementById('copy-record');
      var code = document.getElementById('record-command');
      function command() {
        var names = [];
        boxes.forEach(function (b) { if (b.checked) names.push(b.value); });
        var text = names.length ? bar.dataset.command + ' ' + names.join(' ') : '';
        code.textContent = text;
        button.disabled = !names.length;
        return text;
      }
      boxes.forEach(function (b) { b.onchange = command; });
      document.getElementById('pick-all').onchange = function (ev) {
        boxes.forEach(function (b) { b.checked = ev.target.checked; });
        command();
      };
      button.onclick = function () {
        var text = command();
        if (navigator.clipboard) navigator.clipboard.writeText(text).catch(function () {});
        var range = document.createRange();
        range.selectNodeContents(code);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
      };
    })();
    document.body.dataset.ready = '1';
    """
}
