import WaterflowCommandLine
import Cairo
import FileTransactions
import Foundation
import PNGCodec
import WaterflowRender
import WaterflowScene

extension BenchCommand {
  /// The notes template of the samples, built in Swift: a cover, a two-line title, and a row of
  /// avatar, author, heart and likes.
  static let noteTemplate = CellTemplate(
    background: Color(red: 1, green: 1, blue: 1), cornerRadius: 6
  ) {
    CellImage("{cover}", aspect: .fields(width: "w", height: "h"))
    CellStack(.vertical, spacing: 8, padding: EdgeInsets(top: 8, left: 8, bottom: 10, right: 8)) {
      CellText("{title}", size: 13, weight: .medium, lines: 2)
      CellStack(.horizontal, spacing: 4) {
        CellAvatar("{face}", size: 16, name: "{author}")
        CellText("{author}", size: 11, color: CellText.secondaryColor)
        CellSpacer()
        CellIcon("heart", size: 13)
        CellText("{likes}", size: 11, color: CellText.secondaryColor)
      }
    }
  }

  /// The notes template of the samples as it reads an API's nested data: a cover with a play
  /// icon and a duration over it for videos, tags repeated as badges, a heart chosen by a
  /// condition, and a compact like count.
  static let nestedNoteTemplate: CellTemplate = {
    var template = CellTemplate(background: Color(red: 1, green: 1, blue: 1), cornerRadius: 6) {
      CellZStack {
        CellImage("{cover.url}", aspect: .fields(width: "cover.width", height: "cover.height"))
        CellIcon("play", size: 22, color: Color(red: 1, green: 1, blue: 1))
          .placed(.topTrailing, x: -8, y: 8).when("{type} == 'video'")
        CellBadge("{video.duration}", size: 9).placed(.bottomTrailing, x: -6, y: -6)
          .when("{video.duration}")
      }
      CellStack(.vertical, spacing: 8, padding: EdgeInsets(top: 8, left: 8, bottom: 10, right: 8)) {
        CellText("{title}", size: 13, weight: .medium, lines: 2)
        CellStack(.horizontal, spacing: 4, foreach: "tags", limit: 2) { CellBadge("#{item.name}", size: 9) }
        CellStack(.horizontal, spacing: 4) {
          CellAvatar("{user.avatar}", size: 16, name: "{user.nickname}")
          CellText("{user.nickname}", size: 11, color: CellText.secondaryColor)
          CellSpacer()
          CellIcon("heart", size: 13)
            .from(.icon, FieldText(choosing: "{interact.liked}", then: "heart.fill", else: "heart"))
          CellText("{interact.likedCount|compact}", size: 11, color: CellText.secondaryColor)
        }
      }
    }
    template.formatting = DataFormatting(locale: "zh-Hans")
    return template
  }()

  /// Template cells: laying out `templateItems` self-sized items with distinct titles, and one
  /// screen of template cells against one of today's photo-and-title cells at the same offset.
  func templateFigures() throws -> [(String, Double)] {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waterflow-bench-cells-\(getpid())"
    ).path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // A 540 × 720 photo (a cell's width at 3×), drawn here so the benchmark needs no assets.
    let photo = try ImageSurface(width: 540, height: 720)
    let context = try Context(photo)
    for band in 0..<36 {
      context.setSource(red: 0.9, green: 0.5 + Double(band) / 80, blue: 0.4 + Double(band) / 60)
      context.rectangle(x: 0, y: Double(band * 20), width: 540, height: 20)
      context.fill()
    }
    try writeAtomically(photo.pngData(), to: dir + "/cover.png")

    let words = ["夏日", "穿搭", "summer", "outfit", "咖啡", "latte", "旅行", "city", "walk", "美食"]
    func scene(items count: Int, run: Int, templated: Bool, nested: Bool = false) -> Scene {
      var rng = SeededGenerator(seed: UInt64(7 + run))
      var scene = Scene(path: dir + "/scene.json")
      scene.viewport = Size(width: 375, height: 812)
      scene.layout.sections = [
        Section(columns: .count(2), margins: Margins(top: 8, bottom: 8, left: 8, right: 8, column: 7, row: 7))
      ]
      scene.cells = ["note": nested ? Self.nestedNoteTemplate : Self.noteTemplate]
      scene.sections = [
        ItemList(
          (0..<count).map { i in
            let title =
              (0..<(2 + Int(rng.next() % 8))).map { _ in words[Int(rng.next() % 10)] }
              .joined(separator: " ") + " \(run)#\(i)"
            let (w, h) = ([540, 540, 405][i % 3], [720, 540, 540][i % 3])
            if !templated {
              return Item(
                length: .aspectRatio(width: Double(w), height: Double(h)), price: "¥\(i % 300)",
                image: dir + "/cover.png", title: title)
            }
            if nested {
              let tags: [DataValue] = ["旅行", "穿搭", "美食"].prefix(i % 4).map { ["name": .string($0)] }
              var values: [String: DataValue] = [
                "id": .string(String(i, radix: 16)), "type": i % 5 == 0 ? "video" : "normal",
                "cover": ["url": "cover.png", "width": .number("\(w)"), "height": .number("\(h)")],
                "title": .string(title),
                "user": ["nickname": .string(["Mia", "小鹿", "Leo"][i % 3])],
                "interact": ["liked": .bool(i % 3 == 0), "likedCount": .number("\(rng.next() % 99999)")],
                "tags": .array(tags),
              ]
              if i % 5 == 0 { values["video"] = ["duration": "0:42"] }
              return Item(
                length: .fixed(0), identifier: "note", data: ItemData(values: values, folder: dir),
                isSelfSizing: true)
            }
            return Item(
              length: .fixed(0), identifier: "note",
              data: ItemData(
                [
                  "cover": "cover.png", "w": "\(w)", "h": "\(h)", "title": title,
                  "author": ["Mia", "小鹿", "Leo"][i % 3], "likes": "\(rng.next() % 9999)",
                ], folder: dir),
              isSelfSizing: true)
          })
      ]
      return scene
    }

    var results: [(String, Double)] = [("template_items", Double(templateItems))]
    // Distinct titles in every run, so no run measures from an earlier run's cache; the flat and
    // the nested feed alternate, so the ratio is taken under the same load.
    var laidOut = 0
    var flat: [Double] = []
    var nested: [Double] = []
    for run in 0..<max(1, min(runs, 3)) {
      for isNested in [false, true] {
        var s = scene(items: templateItems, run: run + (isNested ? 100 : 0), templated: true, nested: isNested)
        let start = ContinuousClock.now
        try s.bindCells()
        let controller = SceneController(scene: s)
        controller.view.reloadData()
        let seconds = (ContinuousClock.now - start).inSeconds
        laidOut = controller.view.snapshot!.count
        if isNested { nested.append(seconds) } else { flat.append(seconds) }
      }
    }
    if laidOut != templateItems { warn("laid out \(laidOut) of \(templateItems) items") }
    let middle = { (xs: [Double]) in xs.sorted()[xs.count / 2] }
    results.append(("template_layout_ms", middle(flat) * 1e3))
    results.append(("template_nested_layout_ms", middle(nested) * 1e3))
    results.append(("template_nested_layout_ratio", middle(nested) / middle(flat)))

    let renderer = try Renderer()
    func screen(templated: Bool) throws -> Double {
      var s = scene(items: 60, run: 99, templated: templated)
      try s.bindCells()
      let controller = SceneController(scene: s)
      controller.scroll(to: 600, step: 50)
      let options = RenderOptions(scale: 3)
      let surface = try renderer.surface(of: controller.view, options: options)
      return median(runs) { _ in
        let context = try! Context(surface)
        context.scale(x: 3, y: 3)
        renderer.draw(controller.view, in: context, options: options)
      }
    }
    let plain = try screen(templated: false)
    let templated = try screen(templated: true)
    results.append(("photo_title_screen_ms", plain * 1e3))
    results.append(("template_screen_ms", templated * 1e3))
    results.append(("template_screen_ratio", templated / plain))
    return results
  }
}
