import ArgumentParser
import Foundation
import WaterflowJSON
import WaterflowMotion
import WaterflowScene

struct LayoutCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "layout",
    abstract:
      "Print every frame, the column count and width, and the content size.")

  @OptionGroup var options: SceneArgument

  func run() throws {
    let scene = try options.load()
    let controller = SceneController(scene: scene)
    controller.view.reloadData()
    let snapshot = controller.view.snapshot!
    try stream { out in
      if options.json {
        Self.writeJSON(snapshot, of: scene, to: out)
        out.write("\n")
      } else {
        Self.writeText(snapshot, isLoading: scene.isLoading, to: out)
      }
    }
  }

  /// One line per item, streamed.
  static func writeText(
    _ snapshot: LayoutSnapshot, isLoading: Bool, to out: JSONWriter
  ) {
    let given = snapshot.framesAreGiven
    out.write(
      "\(snapshot.count) items, "
        + (given
          ? "frames as given"
          : "\(snapshot.columnCount) columns of \(short(snapshot.columnWidth)) pt")
        + ", content \(short(snapshot.contentSize.width)) × \(short(snapshot.contentSize.height)) pt\n"
    )
    if let h = snapshot.header { out.write("header  \(describe(h))\n") }
    for (s, section) in snapshot.sections.enumerated()
    where snapshot.sections.count > 1 || section.header != nil {
      out.write(
        "section \(s): items \(section.items.lowerBound)..<\(section.items.upperBound)"
          + (given ? "\n" : ", \(section.columnCount) columns of \(short(section.columnWidth)) pt\n"))
      if let h = section.header { out.write("  header \(describe(h))\n") }
      if let f = section.footer { out.write("  footer \(describe(f))\n") }
    }
    out.write("index  column  frame\n")
    for i in 0..<snapshot.count {
      let span = snapshot.span(at: i)
      let col =
        given
        ? "-" : span > 1 ? "\(snapshot.column(at: i))+\(span)" : "\(snapshot.column(at: i))"
      out.write(
        pad(String(i), 5) + "  " + pad(col, 6) + "  "
          + describe(snapshot.frame(at: i)) + "\n")
    }
    if let f = snapshot.footer { out.write("footer  \(describe(f))\n") }
    if let e = snapshot.emptyView {
      out.write("\(isLoading ? "loading" : "empty") view  \(describe(e))\n")
    }
  }

  /// The layout as a layout file: `{"viewport": …, …, "frames": [` then one frame a line,
  /// streamed, so the frames are never held as text. It carries everything drawing needs
  /// (viewport, seed, texts, prices, images, identifiers), so loading it back as a layout file
  /// draws, traces and answers queries exactly as the scene did.
  static func writeJSON(_ snapshot: LayoutSnapshot, of scene: Scene, to out: JSONWriter) {
    let computed = !snapshot.framesAreGiven
    var pairs: [(String, JSONText)] = [
      (
        "viewport",
        .object([
          ("width", JSONText(scene.viewport.width)), ("height", JSONText(scene.viewport.height)),
          ("scale", JSONText(scene.scale)),
        ])
      ),
      ("seed", JSONText(Int(scene.seed))),
      ("flow", .string(scene.layout.flow.rawValue)),
      ("direction", .string(scene.layout.direction.rawValue)),
    ]
    if scene.layout.origin == .bottom { pairs.append(("origin", .string("bottom"))) }
    if scene.buffer > 0 { pairs.append(("buffer", JSONText(scene.buffer))) }
    if scene.reuseOrder != .leaveFirst {
      pairs.append(("reuseOrder", .string(scene.reuseOrder.rawValue)))
    }
    if let orientation = scene.orientation {
      pairs.append(("orientation", .string(orientation.rawValue)))
    }
    if scene.isLoading { pairs.append(("loading", .bool(true))) }
    // What templates format and name items with, so the file draws and names them as the scene.
    if let formatting = scene.cells.values.first?.formatting {
      if formatting.locale != "en" { pairs.append(("locale", .string(formatting.locale))) }
      if let now = formatting.now { pairs.append(("now", JSONText(now))) }
    }
    if scene.identityField != "id" { pairs.append(("identity", .string(scene.identityField))) }
    if computed {
      pairs.append(("columns", JSONText(snapshot.columnCount)))
      pairs.append(("columnWidth", JSONText(snapshot.columnWidth)))
    }
    pairs.append(("contentSize", size(snapshot.contentSize)))
    // Stamps are not drawn (they stand for views of the app's own), but the frames flow round
    // them: a reader of the file needs them to place those views.
    let stamps = snapshot.sections.flatMap(\.stamps)
    if !stamps.isEmpty {
      pairs.append(("stamps", .array(stamps.map { rect($0, text: nil) })))
    }
    if let h = snapshot.header { pairs.append(("header", rect(h, text: scene.header?.text))) }
    if let f = snapshot.footer { pairs.append(("footer", rect(f, text: scene.footer?.text))) }
    if let e = snapshot.emptyView {
      pairs.append(("emptyView", rect(e, text: (scene.isLoading ? scene.loading : scene.empty).text)))
    }
    if snapshot.sections.count > 1 || snapshot.sections[0].header != nil
      || snapshot.sections[0].footer != nil
    {
      pairs.append(
        (
          "sections",
          .array(
            snapshot.sections.enumerated().map { i, s in
              var p: [(String, JSONText)] = [
                ("first", JSONText(s.items.lowerBound)),
                ("count", JSONText(s.items.count)),
              ]
              if computed {
                p.append(("columns", JSONText(s.columnCount)))
                p.append(("columnWidth", JSONText(s.columnWidth)))
              }
              let texts: (header: Supplement?, footer: Supplement?) =
                i < scene.sectionSupplements.count ? scene.sectionSupplements[i] : (nil, nil)
              if let h = s.header { p.append(("header", rect(h, text: texts.header?.text))) }
              if let f = s.footer { p.append(("footer", rect(f, text: texts.footer?.text))) }
              return .object(p)
            })
        ))
    }
    // The head is small: written as a value without its closing brace.
    out.write("{")
    for (i, (key, value)) in pairs.enumerated() {
      if i > 0 { out.write(", ") }
      out.write(quoting: key)
      out.write(": ")
      value.write(to: out, key: key, depth: 1)
    }
    if !scene.cells.isEmpty {
      out.write(", \"cells\": ")
      Scene.writeCells(scene.cells, to: out)
    }
    out.write(", \"frames\": [")
    var items = scene.sections.lazy.flatMap { list in (0..<list.count).lazy.map { list[$0] } }
      .makeIterator()
    for i in 0..<snapshot.count {
      let f = snapshot.frame(at: i)
      out.write(i == 0 ? "\n  {\"index\": " : ",\n  {\"index\": ")
      out.write(i)
      if computed {
        out.write(", \"column\": ")
        out.write(snapshot.column(at: i))
      }
      out.write(", \"x\": ")
      out.write(f.minX)
      out.write(", \"y\": ")
      out.write(f.minY)
      out.write(", \"width\": ")
      out.write(f.width)
      out.write(", \"height\": ")
      out.write(f.height)
      let span = snapshot.span(at: i)
      if computed && span > 1 {
        out.write(", \"span\": ")
        out.write(span)
      }
      let item = items.next()!
      if let price = item.price {
        out.write(", \"price\": ")
        out.write(quoting: price)
      }
      if let image = item.image {
        // Absolute, so the file works wherever it is saved (a layout file resolves a relative
        // path from its own folder, and stdout has none).
        out.write(", \"image\": ")
        out.write(quoting: Scene.absolutePath(image))
      }
      if item.identifier != Item.defaultIdentifier {
        out.write(", \"identifier\": ")
        out.write(quoting: item.identifier)
      }
      if let data = item.data, !data.isEmpty {
        out.write(", \"data\": ")
        Scene.writeData(data, to: out)
        if !data.folder.isEmpty {
          // Paths in the data are relative to the file that gave it: absolute, as images are.
          out.write(", \"dataFolder\": ")
          out.write(quoting: Scene.absolutePath(data.folder))
        }
      }
      out.write("}")
    }
    out.write(snapshot.count > 0 ? "\n]}" : "]}")
  }

  static func rect(_ r: Rect, text: String? = nil) -> JSONText {
    var pairs: [(String, JSONText)] = [
      ("x", JSONText(r.minX)), ("y", JSONText(r.minY)),
      ("width", JSONText(r.width)), ("height", JSONText(r.height)),
    ]
    if let text { pairs.append(("text", .string(text))) }
    return .object(pairs)
  }

  static func size(_ s: Size) -> JSONText {
    .object([("width", JSONText(s.width)), ("height", JSONText(s.height))])
  }
}

func describe(_ r: Rect) -> String {
  "x \(short(r.minX))  y \(short(r.minY))  \(short(r.width)) × \(short(r.height))"
}

/// A number for people: at most two decimals (JSON output keeps full precision).
func short(_ d: Double) -> String {
  let r = (d * 100).rounded() / 100
  return JSONText.format(r)
}

func pad(_ s: String, _ width: Int) -> String {
  s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
}

struct OffsetOption: ParsableArguments {
  // `.unconditional`: a negative offset (-200, a pull-to-refresh overscroll) is a value, not an
  // option name. The same holds for every numeric option that may be negative.
  @Option(
    parsing: .unconditional,
    help: "The scroll offset along the scroll axis, in points (negative: above the content).")
  var offset: Double = 0

  func validate() throws {
    guard offset.isFinite else {
      throw ValidationError("The offset must be a finite number.")
    }
  }
}

struct VisibleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "visible",
    abstract:
      "Print the indices on screen at an offset (strict test on both edges).")

  @OptionGroup var options: SceneArgument
  @OptionGroup var offset: OffsetOption

  func run() throws {
    let scene = try options.load()
    let controller = SceneController(scene: scene)
    let pass = controller.view.scroll(to: offset.offset)
    let onScreen = controller.view.indicesOnScreen
    warnIfNoCellOnScreen(controller.view)
    if options.json {
      var pairs: [(String, JSONText)] = [
        ("offset", JSONText(offset.offset)),
        ("indices", .array(onScreen.map { JSONText($0) })),
      ]
      if scene.buffer > 0 {
        pairs.append(
          ("displayed", .array(pass.displayed.map { JSONText($0.index) })))
      }
      emit(JSONText.object(pairs).rendered())
    } else {
      var out =
        "offset \(JSONText.format(offset.offset)): \(onScreen.count) on screen: \(ranges(onScreen))"
      if scene.buffer > 0 {
        out +=
          "\ndisplayed with the \(JSONText.format(scene.buffer)) pt buffer: \(ranges(pass.displayed.map(\.index)))"
      }
      emit(out)
    }
  }
}

/// Indices written compactly: `0-5, 7, 9-12`.
func ranges(_ indices: [Int]) -> String {
  guard !indices.isEmpty else { return "none" }
  var parts: [String] = []
  var start = indices[0]
  var last = start
  for i in indices.dropFirst() {
    if i == last + 1 {
      last = i
      continue
    }
    parts.append(start == last ? "\(start)" : "\(start)-\(last)")
    start = i
    last = i
  }
  parts.append(start == last ? "\(start)" : "\(start)-\(last)")
  return parts.joined(separator: ", ")
}

struct TapCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tap",
    abstract:
      "Tap a point of the viewport and print the index of the cell it selects.")

  @OptionGroup var options: SceneArgument
  @OptionGroup var offset: OffsetOption

  @Option(
    name: .customLong("at"),
    help: ArgumentHelp("The point, in viewport coordinates.", valueName: "x,y"))
  var point: String

  func run() throws {
    let parts = point.split(separator: ",").map {
      Double($0.trimmingCharacters(in: .whitespaces))
    }
    guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite,
      y.isFinite
    else {
      throw ValidationError(
        "The value '\(point)' is invalid for '--at <x,y>': expected two numbers such as 120,300."
      )
    }
    let scene = try options.load()
    let controller = SceneController(scene: scene)
    controller.view.scroll(to: offset.offset)
    warnIfNoCellOnScreen(controller.view)
    let content = Point(
      x: x + controller.view.contentOffset.x,
      y: y + controller.view.contentOffset.y)
    let index = controller.view.selectCell(at: content)
    if options.json {
      emit(JSONText.object([("index", JSONText(index))]).rendered())
    } else {
      emit(
        index.map { "cell \($0)" }
          ?? "no cell at \(JSONText.format(x)),\(JSONText.format(y))")
    }
  }
}

struct TraceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trace",
    abstract:
      "Simulate a scroll and print what each layout pass displayed, created, reused and enqueued.",
    discussion: """
      Cell ids are instance numbers (1, 2, 3, … in creation order). The reuse pool is last in, first \
      out per identifier; cells leave in ascending index order, before entering cells are requested \
      (or, with "reuseOrder": "single-pass", as one walk over the indices). --script takes the \
      segments of `waterflow scroll --script` (scroll, pause, fling, loadMore, refresh, rotate, jump).
      """)

  @OptionGroup var options: SceneArgument

  @Option(parsing: .unconditional, help: "The first offset.")
  var from: Double = 0
  @Option(parsing: .unconditional, help: "The last offset (included).")
  var to: Double?
  @Option(parsing: .unconditional, help: "The distance between steps, in points.")
  var step: Double = 50
  @Option(
    help:
      "A script of segments (as in `waterflow scroll --script`), instead of --from/--to."
  )
  var script: String?
  @Flag(
    help:
      "Keep offsets past the content's ends; by default they are clamped to them, as `scroll` does, with a note.")
  var overscroll = false

  func validate() throws {
    guard step > 0, step.isFinite else {
      throw ValidationError("--step must be a positive number.")
    }
    if script == nil && to == nil {
      throw ValidationError(
        "Give --to (and optionally --from and --step), or --script.")
    }
  }

  func run() throws {
    let scene = try options.load()
    let plan: ScrollScript
    if let script {
      do { plan = try ScrollScript(contentsOf: script, from: from) } catch {
        throw CLIError(error.description)
      }
      for note in plan.notes { warn("note: \(note)") }
    } else {
      plan = .scroll(from: from, to: to!, step: step)
    }
    let player = ScriptPlayer(scene: scene, script: plan)
    player.clampsScrolls = !overscroll
    let json = options.json
    try stream { out in
      var count = 0
      if json {
        out.write("[")
      } else {
        out.write("offset   shown  created  reused  enqueued  pool\n")
      }
      for r in player {
        if json {
          out.write(count == 0 ? "\n  " : ",\n  ")
          out.writeTrace(r.pass, event: r.event)
        } else {
          let p = r.pass
          var line =
            pad(JSONText.format(p.offset), 6)
            + pad(String(p.displayed.count), 8)
            + pad(String(p.created.count), 9)
            + pad(String(p.reused.count), 8) + pad(String(p.enqueued.count), 10)
            + pad(String(p.poolSize), 6)
          if let e = r.event { line += "  (\(e))" }
          out.write(line + "\n")
        }
        count += 1
      }
      if json {
        out.write(count == 0 ? "]\n" : "\n]\n")
      } else {
        out.write("\(player.view.createdCellCount) cells created in all\n")
      }
    }
    for note in player.notes { warn("note: \(note)") }
  }
}
