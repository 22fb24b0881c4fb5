import Foundation
import PNGCodec
import Testing
import WaterflowPreview
import WaterflowReview
import WaterflowTestSupport

/// A copy of the notes feed (scene, data, photos) in a folder of its own, to edit.
private func notesCopy() throws -> String {
  let dir = try makeTemporaryDirectory(prefix: "waterflow-preview")
  try FileManager.default.copyItem(atPath: packageRoot + "/Assets/Feeds", toPath: dir + "/Feeds")
  // At scale 1, so that the tests draw a ninth of the pixels.
  let file = dir + "/Feeds/notes.json"
  let scene = try String(contentsOfFile: file, encoding: .utf8)
  try write(scene.replacingOccurrences(of: #""height": 812, "scale": 3"#, with: #""height": 812, "scale": 1"#), to: file)
  return file
}

private func write(_ text: String, to path: String) throws {
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

@Suite struct PreviewSessionTests {
  @Test func aSceneStartsWithTheTopAndOneScreenDownInLightAndDark() throws {
    let file = try notesCopy()
    let session = try PreviewSession(file: file, lanes: 2)
    #expect(
      session.pins.map(\.label) == [
        "notes · 0 pt · scene · light · base", "notes · 0 pt · scene · dark · base",
        "notes · 812 pt · scene · light · base", "notes · 812 pt · scene · dark · base",
      ])
    #expect(session.refresh(changed: nil))
    let state = session.state(after: 0, waiting: 0)
    #expect(state.error == nil)
    let images = try state.pins.map { try RGBAImage(pngData: try #require($0.png)) }
    // The scene's own viewport (375 × 812) at its scale.
    #expect(images.allSatisfy { $0.width == 375 && $0.height == 812 })
    #expect(images[0].pixels != images[1].pixels, "dark differs from light")
    #expect(images[0].pixels != images[2].pixels, "one screen down differs from the top")
    // What the page shows on hover: each cell on screen, in image pixels, with its item's data.
    let first = try #require(state.pins[0].cells.first { $0.item == 0 })
    #expect(first.data["title"] == "海边日落🌅 this view is unreal")
    #expect(first.x > 0 && first.y > 0 && first.x + first.width < 375 / 2 && first.height > 100)
    #expect(!state.pins[2].cells.contains { $0.item == 0 }, "item 0 is not on the screen below")
  }

  @Test func aSaveRedrawsOnlyThePinsThatReadTheSavedFile() throws {
    let file = try notesCopy()
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
    let session = try PreviewSession(file: file, lanes: 2)
    session.refresh(changed: nil)
    let before = session.state(after: 0, waiting: 0)
    let top = try #require(before.pins.first)
    // The first note's photo is on the top screens only.
    let photo = folder + "/Photos/p01.jpg"
    #expect(top.inputs.contains(photo))
    #expect(!before.pins[2].inputs.contains(photo))
    try FileManager.default.removeItem(atPath: photo)
    try FileManager.default.copyItem(atPath: folder + "/Photos/p12.jpg", toPath: photo)
    session.refresh(changed: [photo])
    let after = session.state(after: 0, waiting: 0)
    #expect(after.pins.map(\.drawings) == [2, 2, 1, 1])
    #expect(after.pins[0].png != top.png && after.pins[0].previousPNG == top.png)
    #expect(after.pins[2].png == before.pins[2].png)
    // A template edit concerns every pin.
    let scene = try String(contentsOfFile: file, encoding: .utf8)
    try write(scene.replacingOccurrences(of: "\"size\": 13, \"weight\": \"medium\"", with: "\"size\": 16, \"weight\": \"medium\""), to: file)
    session.refresh(changed: [file])
    #expect(session.state(after: 0, waiting: 0).pins.map(\.drawings) == [3, 3, 2, 2])
  }

  @Test func aTitleTooLongForItsLinesIsMarked() throws {
    let file = try notesCopy()
    let data = URL(fileURLWithPath: file).deletingLastPathComponent().path + "/notes.jsonl"
    let rows = try String(contentsOfFile: data, encoding: .utf8)
    let long = "海边日落🌅 this view is unreal, and the light on the water went on for an hour after the sun had set"
    try write(rows.replacingOccurrences(of: "海边日落🌅 this view is unreal", with: long), to: data)
    let session = try PreviewSession(file: file, lanes: 1)
    session.refresh(changed: nil)
    let top = session.state(after: 0, waiting: 0).pins[0]
    let cut = try #require(top.truncated.first { $0.text == long })
    let cell = try #require(top.cells.first { $0.item == 0 })
    #expect(cut.x >= cell.x && cut.x + cut.width <= cell.x + cell.width + 1, "inside its cell")
    #expect(!top.truncated.contains { $0.text.hasPrefix("草莓") }, "a title that fits is not marked")
  }

  @Test func aBrokenSaveShowsItsErrorOverTheLastGoodImagesUntilFixed() throws {
    let file = try notesCopy()
    let good = try String(contentsOfFile: file, encoding: .utf8)
    let session = try PreviewSession(file: file, lanes: 2)
    session.refresh(changed: nil)
    let drawn = session.state(after: 0, waiting: 0)
    try write(good.replacingOccurrences(of: "\"columns\": 2", with: "\"columns\": \"two\""), to: file)
    session.refresh(changed: [file])
    let broken = session.state(after: drawn.version, waiting: 0)
    let error = try #require(broken.error)
    #expect(error.hasPrefix(file + ": "), "\(error)")
    #expect(error.contains("columns"), "\(error)")
    #expect(broken.pins.map(\.png) == drawn.pins.map(\.png), "the last good images stay")
    try write(good, to: file)
    session.refresh(changed: [file])
    #expect(session.state(after: broken.version, waiting: 0).error == nil)
  }

  @Test func pinsAddedOnThePageAreSavedBesideTheFile() throws {
    let file = try notesCopy()
    let session = try PreviewSession(file: file, lanes: 1)
    session.refresh(changed: nil)
    let id = try session.add(PreviewPin(scene: "notes", offset: 300, device: "iphone-4.7", appearance: .dark))
    let added = try #require(session.state(after: 0, waiting: 0).pins.first { $0.id == id })
    // Drawn at the device's pixel size, sent at half of it (the page shows pins small).
    #expect(added.pixelWidth == 750 && added.pixelHeight == 1334, "the device's pixel size")
    let image = try RGBAImage(pngData: try #require(added.png))
    #expect(image.width == 375 && image.height == 667)
    let full = try RGBAImage(pngData: try #require(session.fullPNG(ofPin: id)))
    #expect(full.width == 750 && full.height == 1334)
    try session.remove(0)
    let saved = try #require(try PreviewPins.saved(for: file))
    #expect(saved.count == 4 && saved.last?.device == "iphone-4.7" && saved.last?.offset == 300)
    // A new session starts from the saved pins.
    #expect(try PreviewSession(file: file).pins == saved)
    #expect(throws: PreviewError.self) { try session.remove(99) }
  }

  @Test func aPinsFileEditedOnDiskIsTakenAtTheNextSave() throws {
    let file = try notesCopy()
    let session = try PreviewSession(file: file, lanes: 2)
    session.refresh(changed: nil)
    let before = session.state(after: 0, waiting: 0).pins
    var pins = session.pins
    pins.remove(at: 1)
    pins.append(PreviewPin(scene: "notes", offset: 100, device: "iphone-4.7"))
    try PreviewPins.save(pins, for: file)
    session.refresh(changed: [PreviewPins.path(for: file)])
    let after = session.state(after: 0, waiting: 0).pins
    #expect(after.map(\.pin) == pins)
    #expect(after.map(\.drawings) == [1, 1, 1, 1], "kept pins are not drawn again; the new one is drawn")
    #expect(after[0].png == before[0].png && after[3].png != nil)
  }

  @Test func aWrongPinsFileIsNamedWithItsField() throws {
    let file = try notesCopy()
    try write(#"{"pins": [{"scene": "notes", "offset": "top"}]}"#, to: PreviewPins.path(for: file))
    let error = try #require(throws: PreviewError.self) { try PreviewSession(file: file) }
    #expect(error.description.hasPrefix(PreviewPins.path(for: file) + ": pins[0].offset"), "\(error)")
  }

  @Test func aLongPollWaitsForTheNextVersion() throws {
    let file = try notesCopy()
    let session = try PreviewSession(file: file, lanes: 2)
    let waited = DispatchSemaphore(value: 0)
    let seen = Mutex<Int>(0)
    Thread {
      let state = session.state(after: 0, waiting: 60)
      seen.withLock { $0 = state.version }
      waited.signal()
    }.start()
    session.refresh(changed: nil)
    #expect(waited.wait(timeout: .now() + 60) == .success)
    #expect(seen.withLock { $0 } == 1)
  }

  @Test func aPinIsSentAsTheBlockAverageOfItsFullDrawing() throws {
    let file = try notesCopy()
    try PreviewPins.save([PreviewPin(scene: "notes", offset: 120, device: "iphone-6.9", appearance: .light)], for: file)
    let session = try PreviewSession(file: file, lanes: 1)
    session.refresh(changed: nil)
    let pin = try #require(session.state(after: 0, waiting: 0).pins.first)
    let shown = try RGBAImage(pngData: try #require(pin.png))
    let full = try RGBAImage(pngData: try #require(session.fullPNG(ofPin: pin.id)))
    // 1320 pixels wide: shrunk by 3 to at most 640; cells are given in the full drawing's pixels.
    #expect(full.width == 1320 && full.height == 2868 && pin.pixelWidth == 1320 && pin.pixelHeight == 2868)
    #expect(shown.width == 440 && shown.height == 956)
    #expect(pin.cells.allSatisfy { $0.x + $0.width <= 1320.5 })
    // Each shown pixel is the rounded mean of its 3 × 3 block (the drawing is opaque).
    var expected = [UInt8](repeating: 0, count: shown.pixels.count)
    for y in 0..<shown.height {
      for x in 0..<shown.width {
        for c in 0..<4 {
          var sum = 0
          for dy in 0..<3 { for dx in 0..<3 { sum += Int(full.pixels[((y * 3 + dy) * full.width + x * 3 + dx) * 4 + c]) } }
          expected[(y * shown.width + x) * 4 + c] = UInt8((sum + 4) / 9)
        }
      }
    }
    // Compared as a whole, then named by its first difference: Testing's diff of two
    // 1.7-million-element arrays would take minutes.
    let firstDifference = shown.pixels.indices.first { shown.pixels[$0] != expected[$0] }
    #expect(firstDifference == nil, "byte \(firstDifference ?? 0): pixel \((firstDifference ?? 0) / 4)")
  }

  @Test func theOverlayGivesEachCellsTemplateBoxesInImagePixels() throws {
    let file = try notesCopy()
    let session = try PreviewSession(file: file, lanes: 1)
    session.refresh(changed: nil)
    let top = session.state(after: 0, waiting: 0).pins[0]
    let cell = try #require(top.cells.first { $0.item == 0 })
    let boxes = top.layout.filter { $0.item == 0 }
    let whole = try #require(boxes.first)
    // The cell first, at the frame the hover shows, its content inside the template's padding.
    #expect(whole.kind == "cell" && whole.depth == 0)
    #expect(whole.frame == [cell.x, cell.y, cell.width, cell.height])
    let content = try #require(whole.content)
    #expect(content[0] >= whole.frame[0] && content[2] <= whole.frame[2])
    // The note's stacks, its cover, texts with baselines inside them, and the stacks' spacing.
    #expect(Set(boxes.map(\.kind)).isSuperset(of: ["vstack", "hstack", "image", "text"]))
    let title = try #require(boxes.first { $0.kind == "text" && $0.baselines.count == 2 }, "the two-line title")
    #expect(title.baselines.allSatisfy { $0 > title.frame[1] && $0 <= title.frame[1] + title.frame[3] })
    #expect(boxes.contains { !$0.gaps.isEmpty })
    #expect(boxes.allSatisfy { $0.frame[0] >= cell.x - 0.5 && $0.frame[0] + $0.frame[2] <= cell.x + cell.width + 0.5 })
  }

  @Test func aScrollPinsContactStripMarksNewAndReusedCells() throws {
    let file = try notesCopy()
    let session = try PreviewSession(file: file, lanes: 1)
    session.refresh(changed: nil)
    let pins = session.state(after: 0, waiting: 0).pins
    #expect(throws: PreviewError.self, "the top has no scroll") { try session.contactStrip(ofPin: pins[0].id) }
    let strip = try RGBAImage(pngData: try session.contactStrip(ofPin: pins[2].id))
    // One row of eight thumbnails of the 375 × 812 screen, 150 points wide (325 high) with
    // 8-point gaps and an 18-point label, at 2 pixels a point.
    #expect(strip.width == 2 * (8 + 8 * 158) && strip.height == 2 * (8 + 325 + 18 + 8))
    func count(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
      stride(from: 0, to: strip.pixels.count, by: 4).count {
        abs(Int(strip.pixels[$0]) - Int(r)) < 8 && abs(Int(strip.pixels[$0 + 1]) - Int(g)) < 8
          && abs(Int(strip.pixels[$0 + 2]) - Int(b)) < 8
      }
    }
    #expect(count(26, 191, 77) > 500, "cells created are outlined green")
    #expect(count(255, 140, 0) > 500, "cells taken from the pool are outlined orange")
  }
}

import Synchronization

@Suite struct FileWatcherTests {
  @Test func aSaveByRenameIsReportedWithTheFilesPath() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-watch")
    let path = dir + "/scene.json"
    try write("{}", to: path)
    let reported = Mutex<Set<String>>([])
    let arrived = DispatchSemaphore(value: 0)
    let watcher = FileWatcher { paths in
      reported.withLock { $0.formUnion(paths) }
      arrived.signal()
    }
    watcher.watch([path])
    // Saved as editors save: a new file renamed over the old one. The watcher may take a moment
    // to add the folder, so the save is repeated until it is seen.
    var seen = false
    for attempt in 0..<50 where !seen {
      try write("{\"attempt\": \(attempt)}", to: dir + "/.scene.json.tmp")
      _ = rename(dir + "/.scene.json.tmp", path)
      seen = arrived.wait(timeout: .now() + 0.5) == .success
    }
    #expect(seen)
    #expect(reported.withLock { $0 } == [path])
  }
}

@Suite struct PreviewWatchingTests {
  /// A shot file of the notes in English and Arabic on one device: two pins.
  private func shots() throws -> (file: String, folder: String) {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-preview-shots")
    try FileManager.default.copyItem(atPath: packageRoot + "/Assets/Shots", toPath: dir + "/Shots")
    try FileManager.default.copyItem(atPath: packageRoot + "/Assets/Feeds", toPath: dir + "/Feeds")
    let file = dir + "/Shots/pins.json"
    try write(
      #"{"scenes": ["notes.json"], "devices": ["iphone-4.7"], "locales": {"en": "strings/en.json", "ar": "strings/ar.json"}}"#,
      to: file)
    return (file, dir + "/Shots")
  }

  @Test func aStringTableRedrawsOnlyItsLocalesPinsAndADataFileEveryPin() throws {
    let (file, folder) = try shots()
    let session = try PreviewSession(file: file, lanes: 2, scale: 1)
    #expect(session.pins.map(\.label) == ["notes · 0 pt · iphone-4.7 · light · en", "notes · 0 pt · iphone-4.7 · light · ar"])
    session.refresh(changed: nil)
    let before = session.state(after: 0, waiting: 0).pins
    let arabic = folder + "/strings/ar.json"
    let table = try String(contentsOfFile: arabic, encoding: .utf8)
    try write(table.replacingOccurrences(of: "\"note.1\": \"", with: "\"note.1\": \"★ "), to: arabic)
    session.refresh(changed: [arabic])
    let after = session.state(after: 0, waiting: 0).pins
    #expect(after.map(\.drawings) == [1, 2])
    #expect(after[0].png == before[0].png && after[1].png != before[1].png)
    // Every pin shows the data file's rows.
    let data = folder + "/notes.jsonl"
    let rows = try String(contentsOfFile: data, encoding: .utf8)
    try write(rows.replacingOccurrences(of: "\"likes\": \"23k\"", with: "\"likes\": \"24k\""), to: data)
    session.refresh(changed: [data])
    #expect(session.state(after: 0, waiting: 0).pins.map(\.drawings) == [2, 3])
  }

  @Test func thePreviewRefusesWhatTheReviewRefuses() throws {
    let (file, _) = try shots()
    let site = PreviewSite(session: try PreviewSession(file: file, lanes: 1, scale: 1), pollSeconds: 0)
    site.listening(on: 4321)
    let token = String(site.address.split(separator: "=").last!)
    let host = ["host": "127.0.0.1:4321"]
    func status(_ method: String, _ path: String, _ headers: [String: String], query: [String: String] = [:]) -> Int {
      site.respond(to: ReviewRequest(method: method, path: path, query: query, headers: headers)).status
    }
    #expect(status("GET", "/", host) == 403, "no token")
    #expect(status("GET", "/", host, query: ["token": token]) == 200)
    #expect(status("GET", "/", ["host": "evil.example:4321"], query: ["token": token]) == 403, "another Host")
    #expect(status("GET", "/api/state", host) == 403, "no token for the API")
    let wrong = (token.first == "0" ? "1" : "0") + token.dropFirst()
    #expect(status("GET", "/api/state", host.merging(["x-waterflow-token": wrong]) { a, _ in a }) == 403)
    #expect(status("GET", "/api/state", host.merging(["x-waterflow-token": token]) { a, _ in a }) == 200)
    #expect(status("POST", "/", host.merging(["x-waterflow-token": token]) { a, _ in a }) == 405)
    #expect(status("GET", "/api/pins", host.merging(["x-waterflow-token": token]) { a, _ in a }) == 405)
    #expect(status("GET", "/../Shots/pins.json", host.merging(["x-waterflow-token": token]) { a, _ in a }) == 404)
  }
}
