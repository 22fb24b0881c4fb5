import WaterflowCommandLine
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
        LayoutJSON.write(snapshot, of: scene, to: out)
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
