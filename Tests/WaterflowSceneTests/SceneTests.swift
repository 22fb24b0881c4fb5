import Foundation
import Testing
import WaterflowScene

@Suite struct SceneTests {}

// MARK: - Fixtures

/// Assets/Scenes, found from this file's path.
private let scenesFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
  .appendingPathComponent("Assets/Scenes").path

/// A fresh temporary folder for files a test writes.
private func temporaryFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "waterflow-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(
    at: url, withIntermediateDirectories: true)
  return url
}

private func parse(_ json: String, path: String = "test.json") -> Result<
  Scene, SceneError
> {
  Result { () throws(SceneError) in try Scene(data: Data(json.utf8), path: path)
  }
}

// MARK: - Sample scenes

extension SceneTests {
  @Test func referenceScene_parses() throws {
    let path = scenesFolder + "/reference.json"
    let scene = try Scene(contentsOf: path)
    #expect(scene.path == path)
    #expect(scene.viewport == Size(width: 375, height: 667))
    #expect(scene.scale == 2 && scene.layout.scale == 2)
    #expect(
      scene.layout.sections == [
        Section(
          columns: .count(3),
          margins: Margins(
            top: 10, bottom: 10, left: 10, right: 10, column: 5, row: 5))
      ])
    #expect(scene.seed == 1)
    #expect(scene.itemCount == 100)
    #expect(
      (0..<6).map { scene.item(at: $0).length } == [
        .fixed(90), .fixed(110), .fixed(80), .fixed(90), .fixed(110),
        .fixed(80),
      ])
    #expect(scene.item(at: 99).identifier == Item.defaultIdentifier)
    let snapshot = scene.layout.snapshot(
      viewport: scene.viewport, itemCounts: [scene.itemCount]
    ) { scene.item(at: $0).metrics }
    #expect(
      snapshot.frame(at: 3) == Rect(x: 250, y: 95, width: 115, height: 90))
    #expect(snapshot.contentSize.height == 3300)
  }

  @Test func emptyScene_parses() throws {
    let scene = try Scene(contentsOf: scenesFolder + "/empty.json")
    #expect(scene.itemCount == 0)
    #expect(scene.header == Supplement(length: 44, text: "Waterflow"))
    #expect(scene.footer == Supplement(length: 30, text: "Pull to refresh"))
    #expect(scene.empty.text == "Nothing here yet")
    #expect(scene.layout.headerLength == 44 && scene.layout.footerLength == 30)
    #expect(!scene.isLoading)
    let controller = SceneController(scene: scene)
    let pass = controller.view.layoutSubviews()
    #expect(pass.displayed.isEmpty)
    #expect(
      controller.view.snapshot?.emptyView
        == Rect(x: 0, y: 44, width: 375, height: 667))
    #expect(controller.view.contentSize.height == 44 + 667 + 30)
  }

  @Test func defaults_whenKeysAreOmitted() throws {
    let scene = try parse("{}").get()
    #expect(scene.viewport == Size(width: 375, height: 667))
    #expect(scene.layout == WaterflowLayout(scale: 2))
    #expect(scene.itemCount == 0 && scene.seed == 0 && scene.buffer == 0)
  }

  @Test func fullScene_readsEveryKey() throws {
    let json = """
      {"viewport": {"width": 320, "height": 480, "scale": 3}, "flow": "horizontal", "direction": "rtl",
       "snapToPixels": true, "seed": 7, "buffer": 50, "orientation": "landscape",
       "header": 20, "footer": {"height": 10, "text": "F"}, "loading": {"height": 40, "text": "L"},
       "sections": [
         {"columns": {"portrait": 2, "landscape": 3}, "order": "left-to-right", "header": {"height": 5},
          "items": [{"height": 10, "span": 2, "price": 12.5, "img": "a.png", "identifier": "big"}, {"w": 100, "h": 50, "fullSpan": true}]},
         {"minColumnWidth": 90, "margins": {"row": 2}, "items": {"count": 4, "heights": [1, 2]}}
       ]}
      """
    let scene = try parse(json).get()
    #expect(scene.viewport == Size(width: 320, height: 480) && scene.scale == 3)
    #expect(
      scene.layout.flow == .horizontal && scene.layout.direction == .rightToLeft
        && scene.layout.snapsToPixels)
    #expect(
      scene.seed == 7 && scene.buffer == 50 && scene.orientation == .landscape)
    #expect(scene.header == Supplement(length: 20, text: "Header"))
    #expect(scene.footer == Supplement(length: 10, text: "F"))
    #expect(
      scene.isLoading && scene.loading == Supplement(length: 40, text: "L")
        && scene.layout.emptyLength == 40)
    #expect(scene.layout.sections.count == 2)
    #expect(
      scene.layout.sections[0].columns
        == .perOrientation(portrait: 2, landscape: 3))
    #expect(
      scene.layout.sections[0].order == .leftToRight
        && scene.layout.sections[0].headerLength == 5)
    #expect(
      scene.layout.sections[1].columns == .minimumWidth(90)
        && scene.layout.sections[1].margins.row == 2)
    #expect(scene.itemCount == 6)
    #expect(
      scene.item(at: 0)
        == Item(
          length: .fixed(10), span: .columns(2), price: "12.5", image: "a.png",
          identifier: "big"))
    #expect(
      scene.item(at: 1)
        == Item(length: .aspectRatio(width: 100, height: 50), span: .full))
    #expect(scene.item(at: 5).length == .fixed(2))
  }
}

// MARK: - Bad input

private let badScenes: [(json: String, field: String, says: String)] = [
  ("{", "", "invalid JSON"),
  ("[1", "", "invalid JSON"),
  ("{\"viewport\": {\"width\": \"abc\"}}", "viewport.width", "number"),
  ("{\"viewport\": {\"width\": -1}}", "viewport.width", "greater than 0"),
  ("{\"viewport\": {\"width\": 0}}", "viewport.width", "greater than 0"),
  ("{\"viewport\": {\"height\": \"NaN\"}}", "viewport.height", "finite"),
  (
    "{\"viewport\": {\"width\": 20000, \"scale\": 2}}", "viewport.width",
    "32767"
  ),
  (
    "{\"viewport\": {\"height\": 11000, \"scale\": 3}}", "viewport.height",
    "32767"
  ),
  ("{\"viewport\": {\"scale\": 0}}", "viewport.scale", "greater than 0"),
  ("{\"viewport\": {\"scale\": 5}}", "viewport.scale", "at most 4"),
  ("{\"viewport\": {\"widht\": 5}}", "viewport.widht", "unknown key"),
  ("{\"viewport\": 375}", "viewport", "object"),
  ("{\"columns\": 0}", "columns", "at least 1"),
  ("{\"columns\": 2.5}", "columns", "whole number"),
  ("{\"columns\": \"three\"}", "columns", "number"),
  ("{\"columns\": {\"portrait\": 2}}", "columns", "portrait and landscape"),
  ("{\"colums\": 3}", "colums", "unknown key"),
  ("{\"columns\": 3, \"minColumnWidth\": 100}", "minColumnWidth", "not both"),
  ("{\"columnWeights\": [2, 1], \"columns\": 3}", "columns", "not both columnWeights and columns"),
  ("{\"columnWeights\": []}", "columnWeights", "at least one weight"),
  ("{\"columnWeights\": [1, 0]}", "columnWeights[1]", "greater than 0"),
  ("{\"fitWidth\": true}", "fitWidth", "needs columnWidth"),
  ("{\"columnWidth\": 0}", "columnWidth", "greater than 0"),
  ("{\"columnWidthRounding\": \"round\"}", "columnWidthRounding", "not one of"),
  ("{\"emptyContent\": \"none\"}", "emptyContent", "not one of"),
  ("{\"origin\": \"left\"}", "origin", "not one of"),
  ("{\"reuseOrder\": \"single\"}", "reuseOrder", "not one of"),
  ("{\"minimumContentHeight\": -1}", "minimumContentHeight", "at least 0"),
  ("{\"headerInsets\": {\"top\": -1}}", "headerInsets.top", "at least 0"),
  ("{\"footerInsets\": {\"middle\": 1}}", "footerInsets.middle", "unknown key"),
  ("{\"stamps\": [{\"x\": 0, \"y\": 0, \"width\": 10}]}", "stamps[0].height", "missing"),
  ("{\"stamps\": [{\"x\": 0, \"y\": 0, \"width\": -1, \"height\": 1}]}", "stamps[0].width", "at least 0"),
  ("{\"sections\": [{}], \"stamps\": []}", "stamps", "inside each section"),
  ("{\"minColumnWidth\": 0}", "minColumnWidth", "greater than 0"),
  ("{\"margins\": {\"top\": -1}}", "margins.top", "at least 0"),
  ("{\"margins\": {\"gap\": 1}}", "margins.gap", "unknown key"),
  ("{\"seed\": -1}", "seed", "at least 0"),
  ("{\"buffer\": true}", "buffer", "number"),
  ("{\"flow\": \"diagonal\"}", "flow", "not one of"),
  ("{\"direction\": 1}", "direction", "not one of"),
  ("{\"order\": \"random\"}", "order", "not one of"),
  ("{\"snapToPixels\": \"yes\"}", "snapToPixels", "true or false"),
  ("{\"header\": {\"text\": \"x\"}}", "header.height", "missing"),
  ("{\"footer\": -3}", "footer", "at least 0"),
  ("{\"loading\": {\"active\": \"yes\"}}", "loading.active", "true or false"),
  ("{\"items\": \"x\"}", "items", "a string"),
  ("{\"items\": [{}]}", "items[0]", "needs a height"),
  ("{\"items\": [{\"height\": -1}]}", "items[0].height", "at least 0"),
  (
    "{\"items\": [{\"height\": 10}, {\"height\": \"NaN\"}]}", "items[1].height",
    "finite"
  ),
  (
    "{\"items\": [{\"height\": 10, \"w\": 5, \"h\": 5}]}", "items[0].height",
    "not both"
  ),
  ("{\"items\": [{\"w\": -5, \"h\": 5}]}", "items[0].w", "at least 0"),
  (
    "{\"items\": [{\"height\": 10, \"span\": 0}]}", "items[0].span",
    "at least 1"
  ),
  (
    "{\"items\": [{\"height\": 10, \"span\": 2, \"fullSpan\": true}]}",
    "items[0].fullSpan", "not both"
  ),
  (
    "{\"items\": [{\"height\": 10, \"colour\": 1}]}", "items[0].colour",
    "unknown key"
  ),
  ("{\"items\": {\"count\": 5}}", "items.heights", "missing"),
  ("{\"items\": {\"heights\": [1]}}", "items.count", "missing"),
  (
    "{\"items\": {\"count\": 5, \"heights\": []}}", "items.heights",
    "at least one"
  ),
  (
    "{\"items\": {\"count\": -1, \"heights\": [1]}}", "items.count",
    "at least 0"
  ),
  (
    "{\"items\": {\"count\": 10000001, \"heights\": [1]}}", "items.count",
    "10000000"
  ),
  ("{\"sections\": []}", "sections", "at least one"),
  ("{\"sections\": {}}", "sections", "array"),
  (
    "{\"sections\": [{\"items\": []}], \"columns\": 3}", "columns",
    "inside each section"
  ),
  ("{\"sections\": [{\"colums\": 2}]}", "sections[0].colums", "unknown key"),
  (
    "{\"sections\": [{}, {\"columns\": 0}]}", "sections[1].columns",
    "at least 1"
  ),
  (
    "{\"sections\": [{\"header\": {\"text\": \"s\"}}]}",
    "sections[0].header.height", "missing"
  ),
  // Margins, gaps or a minimum width that leave the columns no room (the layout would draw
  // 0-pt cells): the message says how wide the columns would be.
  (
    "{\"margins\": {\"left\": 200, \"right\": 200}}", "margins",
    "each of the 3 columns would be -15 pt wide"
  ),
  (
    "{\"margins\": {\"left\": 375, \"right\": 0}, \"columns\": 1}", "margins",
    "would be 0 pt wide"
  ),
  (
    "{\"sections\": [{}, {\"margins\": {\"left\": 300, \"right\": 100}}]}",
    "sections[1].margins", "would be -15 pt wide"
  ),
  (
    "{\"flow\": \"horizontal\", \"margins\": {\"top\": 400, \"bottom\": 300}}", "margins",
    "the viewport is 667 pt tall"
  ),
  ("{\"columns\": 40}", "columns", "leave each column -0.88 pt"),
  ("{\"minColumnWidth\": 400}", "minColumnWidth", "leave 355 pt"),
  (
    "{\"sections\": [{\"minColumnWidth\": 356}]}", "sections[0].minColumnWidth",
    "356 pt does not fit"
  ),
  // Layout files: the frames themselves.
  (
    "{\"frames\": [{\"x\": 0, \"y\": 0, \"width\": -5, \"height\": 10}]}",
    "frames[0].width", "must be at least 0, got -5"
  ),
  ("{\"frames\": [{\"x\": 0, \"y\": 0, \"width\": 5}]}", "frames[0].height", "missing"),
  // Bare non-finite numbers, as Python's json.dumps writes them: named, at their field.
  (
    "{\"frames\": [{\"x\": 0, \"y\": 0, \"width\": 5, \"height\": NaN}]}", "frames[0].height",
    "NaN is not a JSON number"
  ),
  (
    "{\"frames\": [{\"x\": 0, \"y\": -Infinity, \"width\": 5, \"height\": 5}]}", "frames[0].y",
    "-Infinity is not a JSON number"
  ),
  ("{\"items\": [{\"height\": 10}, {\"height\": Infinity}]}", "items[1].height", "Infinity is not a JSON number"),
  ("{\"frames\": [{\"y\": 0, \"width\": 5, \"height\": 5}]}", "frames[0].x", "missing"),
  (
    "{\"frames\": [{\"index\": 0, \"x\": 0, \"y\": 0, \"width\": 5, \"height\": 5}, {\"index\": 0, \"x\": 0, \"y\": 9, \"width\": 5, \"height\": 5}]}",
    "frames[1].index", "0 is given twice (also frames[0])"
  ),
  (
    "{\"frames\": [{\"index\": 3, \"x\": 0, \"y\": 0, \"width\": 5, \"height\": 5}]}",
    "frames[0].index", "past the last index"
  ),
  (
    "{\"frames\": [{\"index\": 0, \"x\": 0, \"y\": 0, \"width\": 5, \"height\": 5}, {\"x\": 0, \"y\": 9, \"width\": 5, \"height\": 5}]}",
    "frames[1].index", "give every frame an index, or none"
  ),
  (
    "{\"contentSize\": {\"width\": 375, \"height\": 100}, \"frames\": [{\"x\": 0, \"y\": 95, \"width\": 5, \"height\": 10}]}",
    "frames[0]", "lies outside the content size 375 × 100"
  ),
  (
    "{\"frames\": [], \"framez\": 1}", "framez", "unknown key"
  ),
  (
    "{\"frames\": [{\"x\": 0, \"y\": 0, \"width\": 5, \"height\": 5, \"colour\": 1}]}",
    "frames[0].colour", "unknown key"
  ),
  (
    "{\"sections\": [{\"first\": 0, \"count\": 1}, {\"first\": 2, \"count\": 1}], \"frames\": [{\"x\": 0, \"y\": 0, \"width\": 10, \"height\": 10}, {\"x\": 0, \"y\": 0, \"width\": 10, \"height\": 10}]}",
    "sections[1].first", "expected 1"
  ),
  (
    "{\"sections\": [{\"first\": 0, \"count\": 1}], \"frames\": [{\"x\": 0, \"y\": 0, \"width\": 10, \"height\": 10}, {\"x\": 0, \"y\": 0, \"width\": 10, \"height\": 10}]}",
    "sections", "cover 1 frames, but the file has 2"
  ),
  (
    "{\"header\": {\"x\": 0, \"y\": 0, \"width\": 375}, \"frames\": []}", "header.height",
    "missing"
  ),
  ("{\"flow\": \"diagonal\", \"frames\": []}", "flow", "is not one of"),
  ("[1]", "[0]", "object"),
  ("[{\"w\": 1}]", "[0].h", "missing"),
  ("[{\"w\": -1, \"h\": 2}]", "[0].w", "at least 0"),
  ("[{\"w\": \"wide\", \"h\": 2}]", "[0].w", "number"),
]

extension SceneTests {
  @Test(arguments: badScenes.indices)
  func badScene_givesSceneErrorNamingFileAndField(case index: Int) {
    let bad = badScenes[index]
    switch parse(bad.json, path: "dir/bad.json") {
    case .success:
      Issue.record("\(bad.json) parsed")
    case .failure(let error):
      #expect(error.file == "dir/bad.json", "\(bad.json)")
      #expect(error.field == bad.field, "\(bad.json): \(error)")
      #expect(error.message.contains(bad.says), "\(bad.json): \(error.message)")
      #expect(error.description.hasPrefix("dir/bad.json: "), "\(error)")
      if !bad.field.isEmpty {
        #expect(error.description.contains(": \(bad.field): "), "\(error)")
      }
    }
  }

  @Test func layoutFile_givesItsFramesInIndexOrder_WithItsTextsAndItems() throws {
    let json = """
      {"viewport": {"width": 320, "height": 480, "scale": 3}, "seed": 9, "buffer": 20,
       "contentSize": {"width": 320, "height": 900},
       "header": {"x": 0, "y": 0, "width": 320, "height": 40, "text": "Top"},
       "sections": [{"first": 0, "count": 1, "header": {"x": 0, "y": 40, "width": 320, "height": 20, "text": "One"}},
                    {"first": 1, "count": 2}],
       "frames": [
         {"index": 2, "x": 0, "y": 800, "width": 320, "height": 100, "identifier": "wide"},
         {"index": 0, "x": 10, "y": 60, "width": 100, "height": 0, "price": 12.5},
         {"index": 1, "x": 0, "y": 60, "width": 320, "height": 300, "image": "pics/a.png"}
       ]}
      """
    let scene = try parse(json, path: "dir/feed.json").get()
    let given = try #require(scene.givenFrames)
    #expect(given.frames == [
      Rect(x: 10, y: 60, width: 100, height: 0), Rect(x: 0, y: 60, width: 320, height: 300),
      Rect(x: 0, y: 800, width: 320, height: 100),
    ])
    #expect(given.contentSize == Size(width: 320, height: 900))
    #expect(given.header == Rect(x: 0, y: 0, width: 320, height: 40))
    #expect(given.sections.map(\.items) == [0..<1, 1..<3])
    #expect(scene.viewport == Size(width: 320, height: 480) && scene.scale == 3)
    #expect(scene.seed == 9 && scene.buffer == 20)
    #expect(scene.header?.text == "Top" && scene.header?.length == 40)
    #expect(scene.sectionSupplements[0].header?.text == "One")
    #expect(scene.itemCount == 3)
    #expect(scene.item(at: 0).price == "12.5")
    #expect(scene.item(at: 1).image == "dir/pics/a.png", "relative to the layout file's folder")
    #expect(scene.item(at: 2).identifier == "wide")
    // The frames drive the view, in place of a computed layout.
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    #expect(controller.view.indicesOnScreen == [0, 1])
    controller.view.scroll(to: 500)
    #expect(controller.view.indicesOnScreen == [2])
  }

  @Test func layoutFileWithoutIndicesOrContentSize_takesListOrderAndTheFramesExtent() throws {
    let scene = try parse(
      #"{"frames": [{"x": 5, "y": 700, "width": 10, "height": 50}, {"x": -30, "y": 0, "width": 375, "height": 20}]}"#
    ).get()
    let given = try #require(scene.givenFrames)
    #expect(given.frames[0].minY == 700 && given.frames[1].minX == -30)
    // Without a declared size, the content reaches as far as the frames do.
    #expect(given.contentSize == Size(width: 345, height: 750))
  }

  @Test func columnsThatJustFit_areAccepted() throws {
    // 355 pt between the margins: one 355-pt column, or three of 111.67 with two 10-pt gaps.
    for json in [
      "{\"minColumnWidth\": 355}", "{\"margins\": {\"left\": 374, \"right\": 0}, \"columns\": 1}",
      "{\"columns\": 35}",
    ] {
      let scene = try parse(json).get()
      #expect(scene.layout.columnWidths(viewport: scene.viewport).allSatisfy { $0 > 0 }, "\(json)")
    }
  }

  @Test func itemsOverTheLimitAcrossSections_areRejected() {
    let json = """
      {"sections": [{"items": {"count": 6000000, "heights": [1]}}, {"items": {"count": 6000000, "heights": [1]}}]}
      """
    #expect(throws: SceneError.self) {
      try Scene(data: Data(json.utf8), path: "big.json")
    }
    if case .failure(let e) = parse(json, path: "big.json") {
      #expect(
        e.file == "big.json" && e.message.contains("\(Scene.maximumItemCount)"))
    }
    // Exactly the limit is fine.
    #expect(
      (try? parse("{\"items\": {\"count\": 10000000, \"heights\": [1]}}").get()
        .itemCount) == Scene.maximumItemCount)
  }

  @Test func viewportAtThePixelLimit_isAccepted() throws {
    let scene = try parse(
      "{\"viewport\": {\"width\": 16383.5, \"height\": 100, \"scale\": 2}}"
    ).get()
    #expect(scene.viewport.width == 16383.5)
    #expect(throws: SceneError.self) {
      try Scene(
        data: Data("{\"viewport\": {\"width\": 16384, \"scale\": 2}}".utf8),
        path: "x")
    }
  }

  @Test func unreadableFile_namesTheFile() {
    let path = "/nonexistent-\(UUID().uuidString)/scene.json"
    do {
      _ = try Scene(contentsOf: path)
      Issue.record("read a file that does not exist")
    } catch {
      #expect(error.file == path && error.field == "")
      #expect(error.message.contains("cannot read"))
    }
  }

  @Test func invalidFileOnDisk_namesTheFile() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("broken.json").path
    try Data("{\"columns\": }".utf8).write(to: URL(fileURLWithPath: path))
    do {
      _ = try Scene(contentsOf: path)
      Issue.record("parsed invalid JSON")
    } catch {
      #expect(
        error.file == path && error.field == ""
          && error.message.hasPrefix("invalid JSON"))
    }
  }
}

// MARK: - Shop data

private let shopPlist = """
  <?xml version="1.0" encoding="UTF-8"?>
  <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
  <plist version="1.0">
  <array>
    <dict><key>w</key><string>200</string><key>h</key><string>300</string><key>img</key><string>img/1.jpg</string><key>price</key><string>39.00</string></dict>
    <dict><key>w</key><integer>150</integer><key>h</key><real>75.5</real><key>img</key><string>http://x/2.jpg</string><key>price</key><real>12.5</real></dict>
    <dict><key>w</key><string>0</string><key>h</key><string>100</string></dict>
  </array>
  </plist>
  """

extension SceneTests {
  @Test func shopPlist_numbersAsStringsOrNumbers() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("goods.plist").path
    try Data(shopPlist.utf8).write(to: URL(fileURLWithPath: path))
    let scene = try Scene(contentsOf: path)
    #expect(scene.itemCount == 3)
    // Image paths resolve against the file that names them; URLs stay as they are.
    #expect(
      scene.item(at: 0)
        == Item(
          length: .aspectRatio(width: 200, height: 300), price: "39.00",
          image: folder.path + "/img/1.jpg"))
    #expect(
      scene.item(at: 1)
        == Item(
          length: .aspectRatio(width: 150, height: 75.5), price: "12.5",
          image: "http://x/2.jpg"))
    #expect(scene.item(at: 2).length == .aspectRatio(width: 0, height: 100))
    #expect(scene.layout == WaterflowLayout(scale: 2))
    // Laid out: height = column width × h / w, and w = 0 shows square.
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let width = controller.view.columnWidth
    #expect(controller.view.cell(at: 0)?.frame.height == width * 300 / 200)
    #expect(abs(controller.view.cell(at: 2)!.frame.height - width) < 1e-9)
    #expect(controller.view.cell(at: 0)?.price == "39.00")
    #expect(
      controller.view.cell(at: 0)?.imagePath
        == folder.appendingPathComponent("img/1.jpg").path)
    #expect(controller.view.cell(at: 1)?.imagePath == "http://x/2.jpg")
  }

  @Test func shopImport_fromASceneResolvesRelativeToTheScene() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(shopPlist.utf8).write(
      to: folder.appendingPathComponent("goods.plist"))
    let scenePath = folder.appendingPathComponent("shop.json").path
    try Data("{\"columns\": 2, \"items\": {\"import\": \"goods.plist\"}}".utf8)
      .write(to: URL(fileURLWithPath: scenePath))
    let scene = try Scene(contentsOf: scenePath)
    #expect(
      scene.itemCount == 3 && scene.layout.sections[0].columns == .count(2))
    let missing = folder.appendingPathComponent("missing.json").path
    try Data("{\"items\": {\"import\": \"nope.plist\"}}".utf8).write(
      to: URL(fileURLWithPath: missing))
    do {
      _ = try Scene(contentsOf: missing)
      Issue.record("imported a missing file")
    } catch {
      #expect(error.file == missing && error.field == "items.import")
    }
  }

  @Test func shopJSONArray_isReadLikeThePlist() throws {
    let scene = try parse(
      "[{\"w\": \"100\", \"h\": 50, \"price\": \"9.90\"}, {\"w\": 10, \"h\": \" 20 \"}]",
      path: "goods.json"
    ).get()
    #expect(scene.itemCount == 2)
    #expect(
      scene.item(at: 0)
        == Item(length: .aspectRatio(width: 100, height: 50), price: "9.90"))
    #expect(scene.item(at: 1).length == .aspectRatio(width: 10, height: 20))
  }

  @Test func invalidPlist_isASceneError() {
    if case .failure(let e) = parse(
      "<?xml version=\"1.0\"?><plist><array><dict>", path: "x.plist")
    {
      #expect(e.file == "x.plist" && e.message.contains("property list"))
    } else {
      Issue.record("parsed a broken plist")
    }
  }
}

// MARK: - Item lists

extension SceneTests {
  @Test func itemList_patternAppendContinuesTheSequence() {
    var list = ItemList(count: 4, heights: [1, 2, 3])
    list.append(count: 3)
    #expect(list.count == 7)
    #expect(
      (0..<7).map { list[$0].length }
        == [1, 2, 3, 1, 2, 3, 1].map { .fixed($0) })
  }

  @Test func itemList_prependTakesCyclicallyFromTheEnd() {
    var list = ItemList((1...4).map { Item(length: .fixed(Double($0))) })
    list.prepend(count: 2)
    #expect(
      (0..<6).map { list[$0].length } == [3, 4, 1, 2, 3, 4].map { .fixed($0) })
    var more = ItemList((1...3).map { Item(length: .fixed(Double($0))) })
    more.prepend(count: 5)
    #expect(more.count == 8)
    #expect(
      (0..<8).map { more[$0].length }
        == [2, 3, 1, 2, 3, 1, 2, 3].map { .fixed($0) })
    // With nothing to continue, new items get the reference's default height, so the list and
    // the view (told of 6 new cells) agree.
    var empty = ItemList([])
    empty.prepend(count: 3)
    empty.append(count: 3)
    #expect(empty.count == 6)
    #expect((0..<6).allSatisfy { empty[$0].length == .fixed(100) })
  }
}

// MARK: - Issue 18 keys

extension SceneTests {
  @Test func issue18Keys_parseIntoTheLayoutAndTheView() throws {
    let scene = try parse(
      """
      {"reuseOrder": "single-pass", "columnWidthRounding": "floor", "emptyContent": "viewport",
       "minimumContentHeight": 900, "origin": "bottom",
       "sections": [
         {"columnWeights": [2, 1, 1], "headerInsets": {"top": 5, "left": 20},
          "header": {"height": 40, "text": "A"}, "footerInsets": {"bottom": 7},
          "footer": 20, "stamps": [{"x": 10, "y": 0, "width": 100, "height": 50}],
          "items": {"count": 3, "heights": [50]}},
         {"columnWidth": 100, "fitWidth": true, "items": {"count": 2, "heights": [50]}}]}
      """
    ).get()
    #expect(scene.reuseOrder == .singlePass)
    #expect(scene.layout.columnWidthRounding == .floor)
    #expect(scene.layout.emptyContent == .viewport)
    #expect(scene.layout.minimumContentLength == 900)
    #expect(scene.layout.origin == .bottom)
    #expect(scene.layout.sections[0].columns == .weights([2, 1, 1]))
    #expect(scene.layout.sections[0].headerInsets == EdgeInsets(top: 5, left: 20))
    #expect(scene.layout.sections[0].footerInsets == EdgeInsets(bottom: 7))
    #expect(scene.layout.sections[0].stamps == [Rect(x: 10, y: 0, width: 100, height: 50)])
    #expect(scene.layout.sections[1].columns == .fixedWidth(100, fitWidth: true))
    #expect(SceneController(scene: scene).view.reuseOrder == .singlePass)
    // The defaults are today's.
    let plain = try parse("{}").get()
    #expect(plain.reuseOrder == .leaveFirst)
    #expect(plain.layout.columnWidthRounding == .exact && plain.layout.emptyContent == .emptyView)
    #expect(plain.layout.origin == .top && plain.layout.minimumContentLength == 0)
  }
}

// MARK: - Controller

extension SceneController {
  fileprivate var displayedColours: [Int: Color?] {
    Dictionary(
      uniqueKeysWithValues: view.displayed.map {
        ($0.index, $0.cell.backgroundColor)
      })
  }
}

extension SceneTests {
  @Test func colours_areDeterministicForASeed() throws {
    let scene = try Scene(contentsOf: scenesFolder + "/reference.json")
    let a = SceneController(scene: scene)
    let b = SceneController(scene: scene)
    a.view.scroll(to: 1500, step: 90)
    b.view.scroll(to: 1500, step: 90)
    #expect(a.displayedColours == b.displayedColours)
    for (_, cell) in a.view.displayed {
      #expect(
        cell.backgroundColor
          == SceneController.colour(ofCell: cell.instanceID, seed: scene.seed))
    }
    var other = scene
    other.seed = 2
    let c = SceneController(scene: other)
    c.view.scroll(to: 1500, step: 90)
    #expect(c.displayedColours != a.displayedColours)
  }

  @Test func selection_isRecordedByTheController() throws {
    let controller = SceneController(
      scene: try Scene(contentsOf: scenesFolder + "/reference.json"))
    controller.view.layoutSubviews()
    #expect(controller.view.selectCell(at: Point(x: 300, y: 140)) == 3)
    #expect(controller.view.selectCell(at: Point(x: 127, y: 50)) == nil)
    #expect(controller.selections == [3])
  }

}

// MARK: - 0 and 1 are numbers

/// Every numeric field of a scene, given 0 and 1: each is read as the number (kept, or refused
/// for its range), never as a boolean.
private let zeroAndOne: [(json: String, check: @Sendable (Scene) -> Bool)] = {
  var cases: [(String, @Sendable (Scene) -> Bool)] = []
  func add(_ json: String, _ check: @escaping @Sendable (Scene) -> Bool) {
    cases.append((json, check))
  }
  for n in [0, 1] {
    let d = Double(n)
    add(
      "{\"viewport\": {\"width\": 300, \"height\": 400, \"scale\": 1}, \"seed\": \(n)}",
      { $0.scale == 1 && $0.seed == UInt64(n) })
    add(
      "{\"buffer\": \(n)}", { $0.buffer == d })
    add(
      "{\"columns\": {\"portrait\": 1, \"landscape\": 1}}",
      {
        $0.layout.sections[0].columns
          == .perOrientation(portrait: 1, landscape: 1)
      })
    add(
      "{\"columns\": 1}", { $0.layout.sections[0].columns == .count(1) })
    add(
      "{\"minColumnWidth\": 1}",
      { $0.layout.sections[0].columns == .minimumWidth(1) })
    add(
      "{\"header\": \(n), \"footer\": \(n)}",
      { $0.header?.length == d && $0.footer?.length == d })
    add(
      "{\"header\": {\"height\": \(n)}, \"footer\": {\"height\": \(n), \"text\": \(n)}}",
      {
        $0.header?.length == d
          && $0.footer == Supplement(length: d, text: "\(n)")
      })
    add(
      "{\"empty\": \(n)}", { $0.empty.length == d })
    add(
      "{\"empty\": {\"height\": \(n)}}", { $0.empty.length == d })
    add(
      "{\"loading\": {\"height\": \(n)}}",
      { $0.loading.length == d && $0.isLoading })
    add(
      "{\"items\": [{\"height\": \(n), \"price\": \(n), \"identifier\": \(n)}]}",
      {
        $0.item(at: 0)
          == Item(length: .fixed(d), price: "\(n)", identifier: "\(n)")
      })
    add(
      "{\"items\": [{\"w\": \(n), \"h\": \(n), \"span\": 1}]}",
      { $0.item(at: 0).length == .aspectRatio(width: d, height: d) })
    add(
      "{\"items\": [{\"height\": 5, \"image\": \(n)}]}",
      { $0.item(at: 0).image == "dir/\(n)" })
    add(
      "{\"items\": {\"count\": \(n), \"heights\": [\(n)]}}",
      { $0.itemCount == n && (n == 0 || $0.item(at: 0).length == .fixed(d)) })
    add(
      "{\"sections\": [{\"columns\": 1, \"header\": \(n), \"footer\": {\"height\": \(n)}, \"margins\": {\"row\": \(n)}}]}",
      {
        $0.layout.sections[0].headerLength == d
          && $0.layout.sections[0].footerLength == d
          && $0.layout.sections[0].margins.row == d
      })
    add(
      "[{\"w\": \(n), \"h\": \(1 - n), \"price\": \(n)}]",
      {
        $0.item(at: 0)
          == Item(length: .aspectRatio(width: d, height: 1 - d), price: "\(n)")
      })
    add(
      // One column and no side margins, so a 1-pt viewport still leaves the column room.
      "{\"viewport\": {\"width\": \(n + 1), \"height\": \(n + 1)}, \"columns\": 1, \"margins\": {\"left\": 0, \"right\": 0}}",
      { $0.viewport == Size(width: d + 1, height: d + 1) })
    for type in MarginType.allCases {
      add("{\"margins\": {\"\(type.rawValue)\": \(n)}}") {
        $0.layout.sections[0].margins[type] == d
      }
    }
  }
  return cases
}()

/// 0 where the range starts above it: refused with the range, as a number.
private let zeroRefused: [(json: String, field: String, says: String)] = [
  (
    "{\"viewport\": {\"width\": 0}}", "viewport.width",
    "must be greater than 0, got 0"
  ),
  (
    "{\"viewport\": {\"height\": 0}}", "viewport.height",
    "must be greater than 0, got 0"
  ),
  (
    "{\"viewport\": {\"scale\": 0}}", "viewport.scale",
    "must be greater than 0, got 0"
  ),
  ("{\"columns\": 0}", "columns", "must be at least 1, got 0"),
  (
    "{\"columns\": {\"portrait\": 0, \"landscape\": 1}}", "columns.portrait",
    "must be at least 1, got 0"
  ),
  (
    "{\"columns\": {\"portrait\": 1, \"landscape\": 0}}", "columns.landscape",
    "must be at least 1, got 0"
  ),
  (
    "{\"minColumnWidth\": 0}", "minColumnWidth", "must be greater than 0, got 0"
  ),
  (
    "{\"items\": [{\"height\": 1, \"span\": 0}]}", "items[0].span",
    "must be at least 1, got 0"
  ),
  (
    "{\"sections\": [{\"columns\": 0}]}", "sections[0].columns",
    "must be at least 1, got 0"
  ),
  // true and false are not numbers, wherever a number is meant.
  ("{\"seed\": true}", "seed", "expected a number, found a boolean"),
  (
    "{\"viewport\": {\"scale\": false}}", "viewport.scale",
    "expected a number, found a boolean"
  ),
  (
    "{\"items\": [{\"w\": true, \"h\": 1}]}", "items[0].w",
    "expected a number, found a boolean"
  ),
  (
    "{\"items\": {\"count\": true, \"heights\": [1]}}", "items.count",
    "expected a number, found a boolean"
  ),
  ("[{\"w\": 1, \"h\": false}]", "[0].h", "expected a number, found a boolean"),
  (
    "{\"margins\": {\"row\": true}}", "margins.row",
    "expected a number, found a boolean"
  ),
  (
    "{\"snapToPixels\": 1}", "snapToPixels",
    "expected true or false, found a number"
  ),
  (
    "{\"items\": [{\"height\": 1, \"fullSpan\": 0}]}", "items[0].fullSpan",
    "expected true or false, found a number"
  ),
]

extension SceneTests {
  @Test(arguments: zeroAndOne.indices)
  func zeroAndOne_areNumbersInEveryNumericField(case index: Int) throws {
    let c = zeroAndOne[index]
    let scene = try parse(c.json, path: "dir/test.json").get()
    #expect(c.check(scene), "\(c.json)")
  }

  @Test(arguments: zeroRefused.indices)
  func zero_isRefusedByRange_andBooleansAreNotNumbers(case index: Int) {
    let c = zeroRefused[index]
    switch parse(c.json, path: "dir/bad.json") {
    case .success: Issue.record("\(c.json) parsed")
    case .failure(let e):
      #expect(
        e.description == "dir/bad.json: \(c.field): \(c.says)", "\(c.json)")
    }
  }
}

// MARK: - Reading straight into the items

extension SceneTests {
  @Test func largeListedScene_readsEveryItem() throws {
    let n = 20_000
    let json =
      "{\"items\": ["
      + (0..<n).map {
        "{\"w\": \($0 % 7 + 1), \"h\": \($0 % 5), \"price\": \"\($0).00\"}"
      }
      .joined(separator: ",\n") + "]}"
    let scene = try parse(json).get()
    #expect(scene.itemCount == n)
    for i in [0, 1, 4_999, n - 1] {
      #expect(
        scene.item(at: i)
          == Item(
            length: .aspectRatio(
              width: Double(i % 7 + 1), height: Double(i % 5)),
            price: "\(i).00"))
    }
    let bad = json.replacingOccurrences(
      of: "\"h\": 2, \"price\": \"17.00\"",
      with: "\"h\": \"tall\", \"price\": \"17.00\"")
    #expect(bad != json)
    if case .failure(let e) = parse(bad, path: "big.json") {
      #expect(
        e.description
          == "big.json: items[17].h: expected a number, found the string \"tall\""
      )
    } else {
      Issue.record("read a bad item")
    }
  }

  @Test func syntaxErrors_giveLineAndColumn() {
    if case .failure(let e) = parse(
      "{\"items\": [\n  {\"height\": 10},\n  {\"height\" 20}\n]}",
      path: "s.json")
    {
      #expect(e.field == "")
      #expect(
        e.description
          == "s.json: invalid JSON at line 3, column 13: expected ':' after the key, found '2'"
      )
    } else {
      Issue.record("parsed broken JSON")
    }
  }

  @Test func keysGivenTwice_orImportWithAPattern_areRefused() {
    for (json, description) in [
      ("{\"columns\": 2, \"columns\": 3}", "t.json: columns: given twice"),
      (
        "{\"items\": [{\"height\": 1, \"height\": 2}]}",
        "t.json: items[0].height: given twice"
      ),
      (
        "{\"items\": {\"import\": \"x.json\", \"count\": 3}}",
        "t.json: items.import: give either import or a pattern {count, heights}, not both"
      ),
    ] {
      if case .failure(let e) = parse(json, path: "t.json") {
        #expect(e.description == description)
      } else {
        Issue.record("\(json) parsed")
      }
    }
  }
}


extension SceneTests {
  // MARK: - Paths

  /// Foundation's NSString path methods trap on one-character paths on this toolchain: a scene
  /// file named `a` must load, and its images resolve beside it.
  @Test func oneCharacterSceneName_LoadsAndResolvesImages() throws {
    let json = #"{"columns": 1, "items": [{"height": 10, "image": "p.png"}]}"#
    let here = try Scene(data: Data(json.utf8), path: "a")
    #expect(here.item(at: 0).image == "p.png")
    let folder = try temporaryFolder()
    try json.write(to: folder.appendingPathComponent("a"), atomically: true, encoding: .utf8)
    let nested = try Scene(contentsOf: folder.path + "/a")
    #expect(nested.item(at: 0).image == folder.path + "/p.png")
    #expect(Scene.resolve("p.png", against: "/a") == "/p.png")
    #expect(Scene.resolve("p.png", against: "b/a") == "b/p.png")
  }
}

/// Layout files whose frames another tool rounded: a hair past the content's edge is clamped,
/// further is still an error.
@Suite struct RoundedFrameTests {
  private func load(_ frame: String, scale: Int = 2) throws -> Scene {
    let json = """
      {"viewport": {"width": 375, "height": 200, "scale": \(scale)}, "contentSize": {"width": 375, "height": 100},
       "frames": [{"x": 0, "y": 0, "width": 187.5, "height": 50}, \(frame)]}
      """
    return try Scene(data: Data(json.utf8), path: "rounded.json")
  }

  @Test func aFrameRoundedPastTheEdge_IsClampedToIt() throws {
    // 187.5 + 187.504 = 375.004: 0.004 pt past the right edge, and 0.3 pt past the bottom.
    let scene = try load(#"{"x": 187.5, "y": 50.3, "width": 187.504, "height": 50}"#)
    let frame = try #require(scene.givenFrames?.frames[1])
    #expect(frame.maxX == 375)
    #expect(frame.maxY == 100)
    #expect(frame.minX == 187.5 && frame.minY == 50.3)
  }

  @Test func moreThanOneDevicePixelPast_IsStillAnError() throws {
    // At scale 2 a device pixel is 0.5 pt: 0.6 pt past is refused, 0.6 pt at scale 1 is not.
    let error = try #require(throws: SceneError.self) {
      try load(#"{"x": 187.5, "y": 50, "width": 188.1, "height": 50}"#)
    }
    #expect(error.field == "frames[1]")
    #expect(error.message.contains("by more than one device pixel (0.5 pt at scale 2)"))
    #expect(throws: Never.self) { try load(#"{"x": 187.5, "y": 50, "width": 188.1, "height": 50}"#, scale: 1) }
  }
}

// MARK: - Long lists

extension SceneTests {
  @Test func aLongListOfItems_readsEveryItemAsGiven() throws {
    // Long enough that the list makes room for the rest after its first 1024 items, in huge
    // pages (over 4 MiB of room), and with the rarer fields here and there among plain items.
    let count = 60_000
    var expected: [Item] = []
    var json = "{\"columns\": 2, \"items\": ["
    for i in 0..<count {
      if i > 0 { json += ",\n" }
      let w = 100 + i % 701
      let h = 100 + i % 1101
      let price = "\(1 + i % 999).\(i % 10)\(i % 7)"
      switch i % 5000 {
      case 17:
        json += "{\"height\": \(i % 300), \"image\": \"p\(i).png\", \"title\": \"T\(i)\", \"span\": 2}"
        expected.append(
          Item(length: .fixed(Double(i % 300)), span: .columns(2), image: "p\(i).png", title: "T\(i)"))
      case 4999:
        json += "{\"w\": \(w), \"h\": \(h), \"identifier\": \"ad\", \"fullSpan\": true, \"price\": null}"
        expected.append(
          Item(length: .aspectRatio(width: Double(w), height: Double(h)), span: .full, identifier: "ad"))
      default:
        json += "{\"w\": \(w), \"h\": \(h), \"price\": \"\(price)\"}"
        expected.append(
          Item(length: .aspectRatio(width: Double(w), height: Double(h)), price: price))
      }
    }
    json += "]}"
    let scene = try parse(json).get()
    #expect(scene.itemCount == count)
    let items = (0..<count).map { scene.sections[0][$0] }
    #expect(items == expected)
    if let i = items.indices.first(where: { items[$0] != expected[$0] }) {
      Issue.record("item \(i) is \(items[i]), not \(expected[i])")
    }
  }
}
