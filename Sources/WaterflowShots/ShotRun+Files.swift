import FileTransactions
import WaterflowJSON

// `shots.json` and `index.html`: what a shot folder says about itself.

extension ShotRun {
  private enum Key: String, CaseIterable { case rightToLeft, shard, shotFile, shots, total }
  private enum EntryKey: String, CaseIterable {
    case appearance, caption, device, height, index, locale, name, path, scene, width
  }
  private static let keys = JSONKeys<Key>()
  private static let entryKeys = JSONKeys<EntryKey>()

  /// Reads a folder's `shots.json`.
  ///
  /// - Throws: `JSONInputError` naming the file and the field.
  public init(contentsOf path: String) throws(JSONInputError) {
    self = try JSONDocument(contentsOf: path).read { (r: inout JSONReader) throws(JSONInputError) in
      var run = ShotRun(shotFile: "", shard: "1/1", total: 0, entries: [], rightToLeftLocales: [])
      try r.beginObject()
      while let key = try r.nextKey(Self.keys) {
        switch key {
        case .shotFile: run.shotFile = try r.string()
        case .shard: run.shard = try r.string()
        case .total: run.total = try r.integer(min: 0, max: 10_000_000)
        case .rightToLeft:
          try r.beginArray()
          while try r.nextElement() { run.rightToLeftLocales.append(try r.string()) }
        case .shots:
          try r.beginArray()
          while try r.nextElement() {
            var e = Entry(
              name: "", index: 0, locale: "", appearance: "", device: "", scene: "", width: 0,
              height: 0, caption: nil)
            try r.beginObject()
            while let key = try r.nextKey(Self.entryKeys) {
              switch key {
              case .name: e.name = try r.string()
              case .index: e.index = try r.integer(min: 0, max: 10_000_000)
              case .locale: e.locale = try r.string()
              case .appearance: e.appearance = try r.string()
              case .device: e.device = try r.string()
              case .scene: e.scene = try r.string()
              case .width: e.width = try r.integer(min: 0, max: 100_000)
              case .height: e.height = try r.integer(min: 0, max: 100_000)
              case .caption: e.caption = try r.string()
              case .path: _ = try r.string()
              }
            }
            // The name becomes a path below the folder: refuse anything that climbs out.
            let parts = e.name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 4, parts.allSatisfy({ ShotFile.isFolderName(String($0)) }) else {
              throw r.fail(key: "name", "\"\(e.name)\" is not LOCALE/APPEARANCE/DEVICE/SCENE")
            }
            run.entries.append(e)
          }
        }
      }
      return run
    }
  }

  /// Writes `shots.json` and the contact sheet `index.html` into a folder.
  func writeIndex(in folder: String) throws(ShotSetError) {
    let json = JSONWriter.text { w in
      w.write("{\n  \"shotFile\": ")
      w.write(quoting: shotFile)
      w.write(",\n  \"shard\": ")
      w.write(quoting: shard)
      w.write(",\n  \"total\": ")
      w.write(total)
      w.write(",\n  \"rightToLeft\": [")
      for (i, locale) in rightToLeftLocales.enumerated() {
        if i > 0 { w.write(", ") }
        w.write(quoting: locale)
      }
      w.write("],\n  \"shots\": [")
      for (i, e) in entries.enumerated() {
        w.write(i == 0 ? "\n    {\"name\": " : ",\n    {\"name\": ")
        w.write(quoting: e.name)
        w.write(", \"index\": ")
        w.write(e.index)
        w.write(", \"path\": ")
        w.write(quoting: e.path)
        for (key, value) in [
          ("locale", e.locale), ("appearance", e.appearance), ("device", e.device), ("scene", e.scene),
        ] {
          w.write(", \"\(key)\": ")
          w.write(quoting: value)
        }
        w.write(", \"width\": ")
        w.write(e.width)
        w.write(", \"height\": ")
        w.write(e.height)
        if let caption = e.caption {
          w.write(", \"caption\": ")
          w.write(quoting: caption)
        }
        w.write("}")
      }
      w.write("\n  ]\n}\n")
    }
    do {
      try writeAtomically(Array(json.utf8), to: folder + "/shots.json", sweeping: false)
      try writeAtomically(Array(contactSheet().utf8), to: folder + "/index.html", sweeping: false)
    } catch { throw ShotSetError(error.description) }
  }

  /// The contact sheet: every image as a thumbnail linking to it, grouped by locale. Plain
  /// HTML and CSS, nothing fetched.
  func contactSheet() -> String {
    var locales: [String] = []
    for e in entries where !locales.contains(e.locale) { locales.append(e.locale) }
    var html = """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Shots: \(escapeHTML(shotFile))</title>
      <style>
      body{font:14px/1.4 -apple-system,"DejaVu Sans",sans-serif;margin:24px;background:#f5f5f7;color:#1d1d1f}
      main{display:flex;flex-wrap:wrap;gap:8px 40px;align-items:flex-start}
      h1{font-size:20px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d2d2d7;padding-bottom:4px}
            .grid{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-end}
      figure{margin:0;text-align:center}figure img{height:300px;border-radius:6px;box-shadow:0 1px 4px #0003;background:#fff}
      figcaption{font-size:12px;color:#6e6e73;margin-top:4px;width:150px;margin-left:auto;margin-right:auto}
      .caption{color:#1d1d1f;display:block}
      p.meta{color:#6e6e73;margin:0}
      </style></head><body>
      <h1>Shots of \(escapeHTML(shotFile))</h1>
      <p class="meta">\(entries.count) of \(total) shots\(shard == "1/1" ? "" : " · slice \(escapeHTML(shard))") · \(locales.count) locale\(locales.count == 1 ? "" : "s")</p>
      <main>

      """
    for locale in locales {
      let rtl = rightToLeftLocales.contains(locale)
      html += "<section id=\"\(escapeHTML(locale))\"><h2>\(escapeHTML(locale))\(rtl ? " · right to left" : "")</h2>\n"
      html += "<div class=\"grid\">\n"
      for e in entries where e.locale == locale {
        let title = Device.named(e.device)?.title ?? e.device
        html += "<figure><a href=\"\(escapeHTML(e.path))\"><img src=\"\(escapeHTML(e.path))\" alt=\"\(escapeHTML(e.name))\" loading=\"lazy\"></a>"
        html += "<figcaption>"
        if let caption = e.caption {
          html += "<span class=\"caption\"\(rtl ? " dir=\"rtl\"" : "")>\(escapeHTML(caption))</span>"
        }
        html += "\(escapeHTML(e.scene)) · \(escapeHTML(e.appearance)) · \(escapeHTML(title))</figcaption></figure>\n"
      }
      html += "</div>\n"
      html += "</section>\n"
    }
    html += "</main></body></html>\n"
    return html
  }
}
