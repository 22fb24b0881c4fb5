import WaterflowCommandLine
import ArgumentParser
import Cairo
import PNGCodec
import FileTransactions
import Foundation
import WaterflowGolden
import WaterflowJSON
import WaterflowRender
import WaterflowScene

package struct BenchCommand: ParsableCommand {
  package init() {}

  /// The reference demo's layout, which every figure measures: three columns, 10-point margins,
  /// 5-point gaps.
  static let referenceLayout = WaterflowLayout(
    sections: [
      Section(margins: Margins(top: 10, bottom: 10, left: 10, right: 10, column: 5, row: 5))
    ])
  /// The reference demo's item heights, repeated.
  static let referenceHeights: [Double] = [90, 110, 80]

  /// A 375×667-point scene of the reference layout, seeded, without items.
  static func referenceScene(scale: Double) -> Scene {
    var scene = Scene()
    scene.scale = scale
    scene.seed = 1
    scene.layout = referenceLayout
    return scene
  }

  package static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract:
      "Measure the engine (and renderer): medians of several runs, ratios from the same run.",
    discussion:
      "Build with `swift build -c release` first; debug builds are 10–50× slower."
  )

  @Option(help: "The number of cells.")
  var cells = 1_000_000
  @Option(
    help:
      "How many times each measurement is repeated (the median is reported).")
  var runs = 7
  @Option(help: "The number of self-sized template items laid out (with distinct titles).")
  var templateItems = 100_000
  @Flag(help: "Only measure template cells: self-sizing layout and one screen of them.")
  var templatesOnly = false
  @Flag(help: "Only measure where a scroll frame's time goes: layout, text, images, raster, encode (the notes feed at scale 2).")
  var phasesOnly = false
  @Flag(help: "Only measure a 60-frame scroll written on one thread and on two, inside this process.")
  var scrollOnly = false
  @Flag(help: "Only measure where `diff`'s time goes on two 750×1334 frames: decode, compare, image, encode.")
  var diffOnly = false
  @Option(
    help: ArgumentHelp(
      "Only measure taking this shot file's set, on one job and on every core (default set: Assets/Shots/shots.json, 24 shots).",
      valueName: "shots.json"))
  var shots: String?
  @Option(
    help: ArgumentHelp(
      "Only measure encoding this manifest's golden PNGs (as they are on disk) with each candidate compression: bytes and time.",
      valueName: "manifest.json"))
  var goldenEncodings: String?
  @Option(
    help: ArgumentHelp(
      "Only measure the frame encoder on this PNG file's pixels: time and bytes (repeatable).",
      valueName: "frame.png"))
  var encode: [String] = []
  @Flag(help: "Only measure the frame encoder on the reference frame and a notes-feed frame.")
  var encodeOnly = false
  @Option(
    help: ArgumentHelp(
      "Write the frames the encoder figures use (flat.png, photo.png) to this folder, and stop.",
      valueName: "folder"))
  var writeBenchFrames: String?
  @Option(
    help: ArgumentHelp(
      "Only measure loading a feed of this many megabytes of nested JSON lines (the notes card): the peak memory of a `waterflow visible` against the file.",
      valueName: "megabytes"))
  var feedMemory: Int?
  @Flag(help: "Only measure an app's UICollectionViewLayout through the UIKit module: prepare() and 60 drawn scroll frames of 10,000 items, against the same frames from a CustomWaterflowLayout.")
  var uikitOnly = false
  @Flag(help: "Print JSON instead of text.")
  var json = false
  @Option(
    help: ArgumentHelp(
      "Only measure loading this scene file and streaming its layout as JSON (bench-json.sh times Python's json.load on the same file).",
      valueName: "scene.json"))
  var scene: String?

  package func validate() throws {
    guard cells >= 1000, cells <= Scene.maximumItemCount else {
      throw ValidationError(
        "--cells must be between 1000 and \(Scene.maximumItemCount).")
    }
    guard runs >= 1, runs <= 1000 else {
      throw ValidationError("--runs must be between 1 and 1000.")
    }
    if let feedMemory, !(1...2000).contains(feedMemory) {
      throw ValidationError("--feed-memory must be between 1 and 2000 megabytes.")
    }
  }

  package func run() throws {
    if let scene {
      try report(inputFigures(loading: scene))
      return
    }
    if uikitOnly {
      try report(MainActor.assumeIsolated { try uikitFigures() })
      return
    }
    if let feedMemory {
      try report(feedMemoryFigures(megabytes: feedMemory))
      return
    }
    if templatesOnly {
      try report(templateFigures())
      return
    }
    if phasesOnly {
      try report(phaseFigures())
      return
    }
    if scrollOnly {
      try report(scrollFigures())
      return
    }
    if let writeBenchFrames {
      try self.writeBenchFrames(to: writeBenchFrames)
      return
    }
    if encodeOnly {
      try report(frameEncodingFigures())
      return
    }
    if !encode.isEmpty {
      try report(encodingFigures(encode))
      return
    }
    if diffOnly {
      try report(diffFigures())
      return
    }
    if let goldenEncodings {
      try report(goldenEncodingFigures(goldenEncodings))
      return
    }
    if let shots {
      try report(shotFigures(shots))
      return
    }
    var results: [(String, Double)] = [("cells", Double(cells))]
    let viewport = Size(width: 375, height: 667)
    let heights = Self.referenceHeights
    let reference = Self.referenceLayout
    let plain: (Int) -> ItemMetrics = { .height(heights[$0 % 3]) }

    var snapshot = reference.snapshot(
      viewport: viewport, itemCounts: [cells], metrics: plain)
    results.append(
      (
        "layout_ms",
        median(runs) { _ in
          _ = reference.snapshot(
            viewport: viewport, itemCounts: [cells], metrics: plain)
        } * 1e3
      ))

    // Queries at offsets spread over the content, the same offsets for both methods.
    var rng = SeededGenerator(seed: 7)
    let maxOffset = snapshot.contentSize.height - viewport.height
    let offsets = (0..<101).map { _ in
      Double(rng.next() % UInt64(max(1, maxOffset)))
    }
    var sink = 0
    // Each run times every offset in a batch, so the clock's own cost does not count.
    let query =
      median(runs) { _ in
        for o in offsets {
          sink &+= snapshot.indices(from: o, to: o + viewport.height).count
        }
      } / Double(offsets.count)
    let scan =
      median(runs) { _ in
        for o in offsets.prefix(11) {
          sink &+=
            snapshot.indicesByFullScan(from: o, to: o + viewport.height).count
        }
      } / 11
    results.append(("visible_query_us", query * 1e6))
    results.append(("full_scan_us", scan * 1e6))
    results.append(("query_speedup", scan / query))

    // Mixed items: 10% span two columns, 1% span all of them.
    let mixed: (Int) -> ItemMetrics = { i in
      let h = heights[i % 3]
      if i % 100 == 50 { return ItemMetrics(length: .fixed(h), span: .full) }
      if i % 10 == 3 {
        return ItemMetrics(length: .fixed(h), span: .columns(2))
      }
      return .height(h)
    }
    results.append(
      (
        "layout_mixed_ms",
        median(runs) { _ in
          _ = reference.snapshot(
            viewport: viewport, itemCounts: [cells], metrics: mixed)
        } * 1e3
      ))
    var growing = reference.snapshot(
      viewport: viewport, itemCounts: [cells], metrics: mixed)
    results.append(
      (
        "append_1000_us",
        median(runs) { _ in growing.append(count: 1000, metrics: mixed) } * 1e6
      ))
    let mixedScan =
      median(runs) { _ in
        for o in offsets.prefix(11) {
          sink &+=
            growing.indicesByFullScan(from: o, to: o + viewport.height).count
        }
      } / 11
    let mixedQuery =
      median(runs) { _ in
        for o in offsets {
          sink &+= growing.indices(from: o, to: o + viewport.height).count
        }
      } / Double(offsets.count)
    results.append(("mixed_query_speedup", mixedScan / mixedQuery))

    // Frames made by hand (a layout file or a custom layout): not a shortest-column layout, so
    // the interval index answers. Two jittered columns, a full-width banner every 10 items, one
    // frame in 50 drawn over its neighbours, and one in 100 out of order.
    var handRng = SeededGenerator(seed: 11)
    var handFrames: [Rect] = []
    handFrames.reserveCapacity(cells)
    var bottoms = [10.0, 10.0]
    for i in 0..<cells {
      let jitter = Double(handRng.next() % 60)
      if i % 10 == 0 {
        let top = bottoms.max()!
        handFrames.append(Rect(x: 10, y: top, width: 355, height: 100))
        bottoms = [top + 108, top + 108]
      } else if i % 50 == 7, let last = handFrames.last {
        handFrames.append(Rect(x: 60, y: last.minY + 20, width: 200, height: 300))
      } else if i % 100 == 33 {
        handFrames.append(Rect(x: 100, y: Double(handRng.next() % 1000), width: 50, height: 50))
      } else {
        let c = bottoms[0] <= bottoms[1] ? 0 : 1
        handFrames.append(Rect(x: c == 0 ? 10 : 191, y: bottoms[c], width: 174, height: 80 + jitter))
        bottoms[c] += 88 + jitter
      }
    }
    let given = LayoutFrames(
      frames: handFrames, contentSize: Size(width: 375, height: bottoms.max()! + 10))
    let handSnapshot = LayoutSnapshot(given, viewport: viewport)
    results.append(
      ("given_index_ms", median(max(1, runs / 2)) { _ in _ = LayoutSnapshot(given, viewport: viewport) } * 1e3))
    let handMax = handSnapshot.contentSize.height - viewport.height
    let handOffsets = offsets.map { $0 / max(1, maxOffset) * handMax }
    let givenQuery =
      median(runs) { _ in
        for o in handOffsets {
          sink &+= handSnapshot.indices(from: o, to: o + viewport.height).count
        }
      } / Double(handOffsets.count)
    let givenScan =
      median(runs) { _ in
        for o in handOffsets.prefix(11) {
          sink &+= handSnapshot.indicesByFullScan(from: o, to: o + viewport.height).count
        }
      } / 11
    results.append(("given_query_us", givenQuery * 1e6))
    results.append(("given_query_speedup", givenScan / givenQuery))

    // A scroll step through the control: only cells that enter or leave are touched.
    var scene = Scene()
    scene.layout = reference
    scene.sections = [ItemList(count: cells, heights: heights)]
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    var y = 0.0
    results.append(
      (
        "scroll_step_us",
        median(201) { _ in
          y += 37
          controller.view.scroll(to: y)
        } * 1e6
      ))
    results.append(("cells_created", Double(controller.view.createdCellCount)))
    snapshot = reference.snapshot(
      viewport: viewport, itemCounts: [1], metrics: plain)
    if sink == 42 { warn("") }  // keeps the optimiser from dropping the queries
    results += try inputFigures()
    results += try renderFigures()
    results += try frameEncodingFigures()
    results += try phaseFigures()
    results += try diffFigures()
    results += try scrollFigures()
    results += try templateFigures()
    report(results)
  }

  func report(_ results: [(String, Double)]) {
    if json {
      emit(JSONText.object(results.map { ($0.0, JSONText($0.1)) }).rendered())
    } else {
      emit(
        results.map { "\($0.0): \(String(format: "%.3f", $0.1))" }.joined(
          separator: "\n"))
    }
  }
}

extension BenchCommand {
  /// Loading a scene of `cells` listed items (`{"w", "h", "price"}`, about 41 bytes each, like
  /// those `bench-json.sh` generates for Python), and streaming `layout --json` of its layout.
  func inputFigures() throws -> [(String, Double)] {
    var rng = SeededGenerator(seed: 14)
    var text: [UInt8] = []
    text.reserveCapacity(cells * 42 + 100)
    text += Array(
      "{\"viewport\": {\"width\": 375, \"height\": 667, \"scale\": 2}, \"columns\": 2, \"items\": [\n"
        .utf8)
    for i in 0..<cells {
      let w = 100 + rng.next() % 701
      let h = 100 + rng.next() % 1101
      let price = "\(1 + rng.next() % 999).\(rng.next() % 10)\(rng.next() % 10)"
      text += Array(
        "\(i > 0 ? ",\n" : ""){\"w\": \(w), \"h\": \(h), \"price\": \"\(price)\"}"
          .utf8)
    }
    text += Array("\n]}\n".utf8)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waterflow-bench-scene-\(getpid())"
    ).path
    try FileManager.default.createDirectory(
      atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/scene.json"
    try writeAtomically(text, to: path)
    return try inputFigures(loading: path)
  }

  /// Loading the scene at `path`, and streaming `layout --json` of its layout.
  func inputFigures(loading path: String) throws -> [(String, Double)] {
    var scene = try SceneArgument.load(path)
    let megabytes = Double(try JSONDocument(contentsOf: path).text.count) / 1e6
    let parse = median(runs) { _ in scene = try! Scene(contentsOf: path) }
    var results: [(String, Double)] = [
      ("scene_mb", megabytes), ("scene_load_ms", parse * 1e3),
      ("scene_load_mb_s", megabytes / parse),
    ]
    let controller = SceneController(scene: scene)
    controller.view.reloadData()
    let snapshot = controller.view.snapshot!
    var written = 0
    let output = median(runs) { _ in
      written = 0
      let out = JSONWriter { written += $0.count }
      LayoutJSON.write(snapshot, of: scene, to: out)
      out.flush()
    }
    results.append(("layout_json_mb", Double(written) / 1e6))
    results.append(("layout_json_mb_s", Double(written) / 1e6 / output))
    return results
  }

  /// One 1500×2668 frame of the reference demo (375×667 points at scale 4): drawing in Swift and
  /// in C, our PNG encoder against cairo's, and a golden comparison of two such PNGs.
  func renderFigures() throws -> [(String, Double)] {
    var scene = Self.referenceScene(scale: 4)
    scene.sections = [ItemList(count: 100, heights: Self.referenceHeights)]
    let controller = SceneController(scene: scene)
    controller.scroll(to: 600, step: 50)
    let renderer = try Renderer()
    let options = RenderOptions(scale: 4)
    let surface = try renderer.surface(
      of: controller.view, options: options)
    var results: [(String, Double)] = [
      ("frame_width", Double(surface.width)),
      ("frame_height", Double(surface.height)),
    ]
    results.append(
      (
        "draw_ms",
        median(runs) { _ in
          let context = try! Context(surface)
          context.scale(x: 4, y: 4)
          renderer.draw(
            controller.view, in: context, options: options)
        } * 1e3
      ))
    let cells = controller.view.displayed
    let baseline = DrawingBaseline(
      frames: cells.map {
        (
          $0.cell.frame.minX, $0.cell.frame.minY, $0.cell.frame.width,
          $0.cell.frame.height
        )
      },
      colors: cells.map {
        (
          $0.cell.backgroundColor!.red, $0.cell.backgroundColor!.green,
          $0.cell.backgroundColor!.blue
        )
      },
      labels: cells.map { String($0.index) })
    let direct = try ImageSurface(width: surface.width, height: surface.height)
    results.append(
      (
        "draw_c_ms",
        median(runs) { _ in
          baseline.draw(
            into: direct, font: renderer.font, scale: 4, offset: 600,
            viewportWidth: 375, viewportHeight: 667)
        } * 1e3
      ))
    results.append(
      (
        "draw_ratio",
        results[results.count - 2].1 / results[results.count - 1].1
      ))
    var png: [UInt8] = []
    var cairoPNG: [UInt8] = []
    results.append(
      ("png_encode_ms", median(runs) { _ in png = surface.pngData() } * 1e3))
    results.append(
      (
        "cairo_png_ms",
        median(runs) { _ in cairoPNG = try! surface.cairoPNGData() } * 1e3
      ))
    results.append(
      (
        "png_speedup",
        results[results.count - 1].1 / results[results.count - 2].1
      ))
    results.append(("png_bytes", Double(png.count)))
    results.append(("cairo_png_bytes", Double(cairoPNG.count)))
    // The run encoder `waterflow scroll` uses for frames, on one core, against cairo's writer.
    var framePNG: [UInt8] = []
    results.append(
      (
        "png_frames_ms",
        median(runs) { _ in
          framePNG = surface.pngDataOnThisThread(compression: .frames)
        } * 1e3
      ))
    results.append(
      (
        "png_frames_speedup",
        results[results.count - 5].1 / results[results.count - 1].1
      ))
    results.append(("png_frames_bytes", Double(framePNG.count)))

    // A golden comparison: two frames 4 points apart, written to disk, decoded and diffed.
    controller.view.scroll(to: 604)
    let shifted = try renderer.surface(
      of: controller.view, options: options
    ).pngData()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waterflow-bench-\(getpid())"
    ).path
    try FileManager.default.createDirectory(
      atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try writeAtomically(png, to: dir + "/a.png")
    try writeAtomically(shifted, to: dir + "/b.png")
    var mismatched = 0
    results.append(
      (
        "compare_ms",
        median(runs) { _ in
          mismatched =
            (try? ImageDiff.compareFiles(
              dir + "/a.png", dir + "/b.png", diffImage: .always))?.mismatched
            ?? -1
        } * 1e3
      ))
    results.append(("compare_mismatched", Double(mismatched)))
    return results
  }
}

/// The median wall time, in seconds, of `count` calls of `body` (passed the call number).
func median(_ count: Int, _ body: (Int) -> Void) -> Double {
  let clock = ContinuousClock()
  var times: [Double] = []
  times.reserveCapacity(count)
  for i in 0..<count {
    times.append(clock.measure { body(i) }.inSeconds)
  }
  times.sort()
  return times[times.count / 2]
}
