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
    func scene(items count: Int, run: Int, templated: Bool) -> Scene {
      var rng = SeededGenerator(seed: UInt64(7 + run))
      var scene = Scene(path: dir + "/scene.json")
      scene.viewport = Size(width: 375, height: 812)
      scene.layout.sections = [
        Section(columns: .count(2), margins: Margins(top: 8, bottom: 8, left: 8, right: 8, column: 7, row: 7))
      ]
      scene.cells = ["note": Self.noteTemplate]
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
    // Distinct titles in every run, so no run measures from an earlier run's cache.
    var laidOut = 0
    results.append(
      (
        "template_layout_ms",
        median(max(1, min(runs, 3))) { run in
          var s = scene(items: templateItems, run: run, templated: true)
          try! s.bindCells()
          let controller = SceneController(scene: s)
          controller.view.reloadData()
          laidOut = controller.view.snapshot!.count
        } * 1e3
      ))
    if laidOut != templateItems { warn("laid out \(laidOut) of \(templateItems) items") }

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
