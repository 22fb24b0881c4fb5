import WaterflowCommandLine
import ArgumentParser
import FileTransactions
import Foundation
import WaterflowRender
import WaterflowScene

struct RenderOptionGroup: ParsableArguments {
  @Option(
    help:
      "Device pixels per point for PNG output: 1, 2, 3 or 4 (default: the scene's viewport.scale)."
  )
  var scale: Double?

  @Flag(
    help:
      "Overlay column guides, viewport and buffer bounds, frame outlines and cell instance ids."
  )
  var debug = false

  @Option(
    help: "A TrueType/OpenType font file tried first for each character; DejaVu Sans, then WenQuanYi Micro Hei, draw what it lacks."
  )
  var font: String?

  @Option(
    help: ArgumentHelp(
      "A style file (JSON: the keys of a scene's \"style\"), laid over the scene's own style.",
      valueName: "file"))
  var style: String?

  /// The font file to draw with: `--font`, or DejaVu Sans. Optional above so that the help shows
  /// the font's name once, not also its path as a second default.
  var fontPath: String { font ?? Renderer.defaultFontPath }

  func validate() throws {
    if let scale, ![1, 2, 3, 4].contains(scale) {
      throw ValidationError(
        "The value '\(JSONText.format(scale))' is invalid for '--scale <scale>': use 1, 2, 3 or 4."
      )
    }
  }

  func renderer() throws -> Renderer {
    do { return try Renderer(fontPath: fontPath) } catch {
      throw CLIError("\(error)")
    }
  }

  /// The renderer, after a warning for each scene text with a character no font of its chain
  /// has (it would draw as a box).
  func renderer(for scene: Scene) throws -> Renderer {
    let renderer = try renderer()
    // Template cells are measured with the fonts they are drawn with (`--font` changes both).
    if font != nil {
      do { try scene.measureCells(withFontPaths: renderer.fontPaths) } catch {
        throw CLIError("\(error)")
      }
    }
    for (place, text) in scene.texts() {
      let missing = renderer.missingCharacters(in: text)
      guard !missing.isEmpty else { continue }
      let characters = missing.prefix(5).map { scalar in
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex) '\(scalar)'"
      }
      let families = renderer.fontFamilies.joined(separator: ", ")
      warn(
        "warning: \(place) \(JSONText.string(text).rendered()) has \(missing.count == 1 ? "a character" : "characters") "
          + "no font draws: \(characters.joined(separator: ", "))\(missing.count > 5 ? ", …" : ""); "
          + (missing.count == 1 ? "it shows as a box" : "they show as boxes") + ". The fonts are \(families); give one that has it with --font.")
    }
    return renderer
  }

  func options(for scene: Scene) -> RenderOptions {
    RenderOptions(scale: scale ?? scene.scale, debug: debug, style: scene.style)
  }

  /// The scene with `--style` laid over its own style, if given.
  func styled(_ scene: Scene) throws -> Scene {
    guard let style else { return scene }
    var scene = scene
    do { scene.apply(try StyleSheet(contentsOf: style)) } catch { throw CLIError(error.description) }
    return scene
  }
}

struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract:
      "Render what the control shows at an offset, as PNG, PDF or SVG (chosen by -o's extension).",
    discussion: """
      Cells keep the random colour they were given when created, so cells recycled on the way to \
      the offset show an old colour at a new index. With --overview, the whole content is drawn \
      at a reduced scale instead, showing the viewport, displayed cells and greyed ones.
      """)

  @Argument(help: "The scene file.")
  var scene: String

  @OptionGroup var offset: OffsetOption

  @Option(
    name: .shortAndLong,
    help: ArgumentHelp("The output file: .png, .pdf or .svg.", valueName: "out")
  )
  var output: String

  @Flag(
    help:
      "Draw the whole content at a reduced scale: the picture that explains reuse."
  )
  var overview = false

  @Option(
    parsing: .unconditional,
    help:
      "Scroll to the offset in steps of this many points first, as a user would (0: jump)."
  )
  var step: Double = 0

  @OptionGroup var render: RenderOptionGroup

  func validate() throws {
    guard OutputFormat(path: output) != nil else {
      throw ValidationError(
        "The output '\(output)' has an unknown extension: use .png, .pdf or .svg."
      )
    }
    guard step >= 0, step.isFinite else {
      throw ValidationError("--step must be 0 or a positive number.")
    }
  }

  func run() throws {
    installInterruptionCleanup(promising: [output])
    let scene = try render.styled(try SceneArgument.load(scene))
    let renderer = try render.renderer(for: scene)
    let controller = SceneController(scene: scene)
    controller.scroll(to: offset.offset, step: step)
    warnIfNoCellOnScreen(controller.view)
    let format = OutputFormat(path: output)!
    let options = render.options(for: scene)
    let bytes: [UInt8]
    do {
      bytes =
        overview
        ? try renderer.renderOverview(
          controller.view, as: format, options: options)
        : try renderer.render(
          controller.view, as: format, options: options)
    } catch {
      throw CLIError("\(error)")
    }
    try reportImages(renderer.images)
    try write(bytes, to: output)
    if !overview, format == .png {
      let size = renderer.canvasSize(of: controller.view, options: options)
      warnIfTerminal(
        "wrote \(output) (\(Int(size.width * options.scale))×\(Int(size.height * options.scale)) px, \(bytes.count) bytes)"
      )
    }
  }
}

/// Warns when the view's offset shows none of its cells (a picture of empty background, most
/// likely an offset past the content), naming the content's extent and the offsets that do.
func warnIfNoCellOnScreen(_ view: WaterflowView) {
  guard view.indicesOnScreen.isEmpty, let showing = view.offsetsShowingCells else { return }
  let axis = view.isHorizontal ? "wide" : "tall"
  let extent = view.isHorizontal ? view.contentSize.width : view.contentSize.height
  warn(
    "warning: no cell is on screen at offset \(view.offset.jsonText): the content is "
      + "\(extent.jsonText) pt \(axis), and cells show at offsets above "
      + "\(showing.lowerBound.jsonText) and below \(showing.upperBound.jsonText)"
  )
}
