import Cairo
public import PNGCodec
public import WaterflowRender
public import WaterflowScene

/// The scenes of a shot set, loaded once and localized once per locale, so that every error
/// (a missing file, a missing string) is found before the first image is drawn.
public struct ShotScenes: Sendable {
  /// The scenes by scene name, then locale name.
  var scenes: [String: [String: Scene]] = [:]
  /// The string tables by locale name (none for a locale without one).
  var tables: [String: StringTable] = [:]

  /// Loads every scene and string table the shots need, and localizes each scene.
  ///
  /// - Throws: ``ShotSetError`` naming the scene or string file, the field and, for a missing
  ///   string, the key and the table.
  public init(for shots: [Shot]) throws(ShotSetError) {
    var loaded: [String: Scene] = [:]
    for shot in shots {
      if scenes[shot.scene.name]?[shot.locale.name] != nil { continue }
      if tables[shot.locale.name] == nil, let path = shot.locale.stringsPath {
        do { tables[shot.locale.name] = try StringTable(contentsOf: path, locale: shot.locale.name) } catch {
          throw ShotSetError(error.description)
        }
      }
      let scene: Scene
      if let known = loaded[shot.scene.name] {
        scene = known
      } else {
        do { scene = try Scene(contentsOf: shot.scene.path) } catch { throw ShotSetError(error.description) }
        loaded[shot.scene.name] = scene
      }
      // The base locale of a set without string tables is the scene as written, in its own
      // locale (numbers and dates formatted as `render` formats them).
      if shot.locale.stringsPath == nil && shot.locale.name == "base" {
        scenes[shot.scene.name, default: [:]][shot.locale.name] = scene
        continue
      }
      let table = tables[shot.locale.name] ?? StringTable(locale: shot.locale.name, strings: [:])
      do {
        scenes[shot.scene.name, default: [:]][shot.locale.name] = try scene.localized(with: table)
      } catch { throw ShotSetError(error.description) }
    }
  }

  /// A loaded scene, localized, as the shots of its name and locale draw it; nil when none is.
  ///
  /// - Complexity: O(1).
  public func scene(named name: String, locale: String) -> Scene? { scenes[name]?[locale] }

  /// The caption of a shot in its locale, or nil.
  ///
  /// - Throws: ``ShotSetError`` naming the key and the table when the table lacks it.
  func caption(of shot: Shot, in file: ShotFile) throws(ShotSetError) -> String? {
    guard let text = shot.scene.caption ?? file.caption else { return nil }
    let table = tables[shot.locale.name] ?? StringTable(locale: shot.locale.name, strings: [:])
    switch table.lookUp(text) {
    case .success(let value): return value
    case .failure(let missing):
      let field = shot.scene.caption != nil ? "scenes[\(shot.scene.name)].caption" : "caption"
      throw ShotSetError(
        "\(file.path): \(field): \"@\(missing.key)\" is not in the \(shot.locale.name) strings"
          + (table.path.isEmpty ? "" : " (\(table.path))") + "; add \"\(missing.key)\" there")
    }
  }

  /// The scene of a shot: localized, in its appearance, sized to its device's screen below the
  /// status bar.
  public func scene(of shot: Shot, statusBar: Bool) -> Scene {
    var scene = scenes[shot.scene.name]![shot.locale.name]!.appearing(shot.appearance)
    let top = statusBar ? shot.device.statusBarHeight : 0
    scene.viewport = Size(width: shot.device.size.width, height: shot.device.size.height - top)
    scene.scale = shot.device.scale
    scene.layout.scale = shot.device.scale
    return scene
  }
}

/// Takes shots: draws a scene on a device's screen, framed or not, and encodes it as PNG.
///
/// A camera is not thread-safe (its renderer caches texts and images); parallel jobs use one
/// camera each.
public final class ShotCamera {
  private let file: ShotFile
  private let scenes: ShotScenes
  private let renderer: Renderer
  private let canvases: ShotCanvases?

  /// A camera for a shot file's prepared scenes, drawing text with a font file first.
  ///
  /// - Throws: An error naming the font file when it cannot be loaded.
  public convenience init(
    file: ShotFile, scenes: ShotScenes, fontPath: String = Renderer.defaultFontPath
  ) throws {
    self.init(file: file, scenes: scenes, renderer: try Renderer(fontPath: fontPath))
  }

  /// A camera drawing with a renderer of the caller's (its fonts and caches), on the caller's
  /// thread only.
  ///
  /// - Parameters:
  ///   - file: The shot file.
  ///   - scenes: Its scenes, prepared for the shots to take.
  ///   - renderer: The renderer that draws them (its fonts and caches).
  ///   - canvases: Where shots are drawn: canvases kept from earlier shots of the same size
  ///     (cleared first, so a shot's pixels are the same), or nil for a new one each shot.
  public init(file: ShotFile, scenes: ShotScenes, renderer: Renderer, canvases: ShotCanvases? = nil) {
    self.file = file
    self.scenes = scenes
    self.renderer = renderer
    self.canvases = canvases
  }

  /// The images that could not be loaded, by path, with the reason.
  public var imageFailures: [String: String] { renderer.images.failures }

  /// The shot as PNG bytes: exactly the device's pixel size.
  ///
  /// - Parameters:
  ///   - shot: The shot.
  ///   - compression: How hard the encoder tries (the live preview uses `.frames`).
  /// - Throws: ``ShotSetError`` for a caption key the locale lacks, or when drawing fails.
  public func png(of shot: Shot, compression: PNGCompression = .default) throws(ShotSetError) -> [UInt8] {
    try draw(shot).surface.pngDataOnThisThread(compression: compression)
  }

  /// The shot as straight RGBA pixels.
  public func image(of shot: Shot) throws(ShotSetError) -> RGBAImage {
    RGBAImage(surface: try draw(shot).surface)
  }

  /// The shot's pixels and what they were drawn from: what golden checks compare and explain.
  public func capture(_ shot: Shot) throws(ShotSetError) -> ShotCapture {
    let drawn = try draw(shot)
    let place = placement(of: drawn)
    return ShotCapture(
      image: RGBAImage(surface: drawn.surface), view: drawn.view, pixelOrigin: place.origin,
      pixelScale: drawn.screen.scale, texts: renderer.drawnTexts.map(place.shifted),
      truncated: renderer.truncatedTexts.map(place.shifted))
  }

  /// The shot encoded as PNG straight from the canvas, with where its content lies: what the
  /// live preview shows and marks, without the copy of the pixels a capture makes.
  ///
  /// - Parameters:
  ///   - shot: The shot.
  ///   - compression: How hard the encoder tries.
  ///   - maximumWidth: Encode the image shrunk by a whole factor to at most this many pixels
  ///     wide (nil: as drawn). Where things lie is still given in the drawn image's pixels.
  public func encodedCapture(
    _ shot: Shot, compression: PNGCompression, maximumWidth: Int? = nil
  ) throws(ShotSetError) -> EncodedShot {
    let drawn = try draw(shot)
    let place = placement(of: drawn)
    var encoded = drawn.surface
    if let maximumWidth, drawn.surface.width > maximumWidth {
      // A whole factor keeps every shown pixel an average of the same number of drawn ones.
      let factor = (drawn.surface.width + maximumWidth - 1) / maximumWidth
      do {
        encoded = try drawn.surface.shrunk(by: min(16, factor))
      } catch {
        throw ShotSetError("\(shot.name): cannot shrink the shot: \(error)")
      }
    }
    return EncodedShot(
      png: encoded.pngDataOnThisThread(compression: compression), view: drawn.view,
      pixelOrigin: place.origin, pixelScale: drawn.screen.scale,
      pixelSize: (drawn.surface.width, drawn.surface.height),
      truncated: renderer.truncatedTexts.map(place.shifted), scene: drawn.scene)
  }

  /// Where a drawing's content lies in its image: pixel = (point − origin) × scale, for the
  /// content's points below the status bar; and a drawn text moved from the screen's canvas
  /// into the image's.
  private func placement(of drawn: Drawing) -> (origin: Point, shifted: (DrawnText) -> DrawnText) {
    let p = drawn.screen
    let origin = Point(
      x: drawn.view.contentOffset.x - p.x / p.scale, y: drawn.view.contentOffset.y - drawn.statusBar - p.y / p.scale)
    let shift = (x: p.x / p.scale, y: drawn.statusBar + p.y / p.scale)
    return (
      origin,
      { text in
        DrawnText(
          text: text.text,
          box: Rect(
            x: text.box.minX + shift.x, y: text.box.minY + shift.y, width: text.box.width, height: text.box.height))
      }
    )
  }

  /// A shot drawn: the canvas, the view, where the screen lies on the canvas (its top-left in
  /// pixels and its scale), the status bar's height above the content, and the scene as drawn.
  private struct Drawing {
    var surface: ImageSurface
    var view: WaterflowView
    var screen: (x: Double, y: Double, scale: Double)
    var statusBar: Double
    var scene: Scene
  }

  private func draw(_ shot: Shot) throws(ShotSetError) -> Drawing {
    let caption = try scenes.caption(of: shot, in: file)
    let scene = scenes.scene(of: shot, statusBar: file.showsStatusBar)
    // Templates are measured with the camera's fonts, which draw them (`--font`, a manifest's
    // "font"), not with the default fonts the scene was loaded with.
    do { try scene.measureCells(withFontPaths: renderer.fontPaths) } catch {
      throw ShotSetError("Cannot measure the templates of '\(scene.path)': \(error)")
    }
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    _ = controller.view.scroll(to: shot.scene.offset)
    let content = FrameContent(view: controller.view)
    let device = shot.device
    do {
      let surface = try canvases?.canvas(width: device.pixelWidth, height: device.pixelHeight)
        ?? ImageSurface(width: device.pixelWidth, height: device.pixelHeight)
      let context = try Context(surface)
      let painter = DevicePainter(
        device: device, appearance: shot.appearance, style: scene.style,
        isRightToLeft: scene.layout.direction == .rightToLeft, fonts: renderer.fonts,
        showsStatusBar: file.showsStatusBar)
      let drawScreen = { [renderer] in
        renderer.draw(
          content, in: context, options: RenderOptions(scale: device.scale, style: scene.style))
      }
      if file.isFramed {
        painter.drawFramed(
          caption: caption, background: file.background, in: context, screen: drawScreen)
      } else {
        context.scale(x: device.scale, y: device.scale)
        painter.drawScreen(in: context, framed: false, content: drawScreen)
      }
      try context.checkStatus()
      return Drawing(
        surface: surface, view: controller.view,
        screen: painter.screenPlacement(framed: file.isFramed, hasCaption: !(caption ?? "").isEmpty),
        statusBar: file.showsStatusBar ? device.statusBarHeight : 0, scene: scene)
    } catch {
      throw ShotSetError("\(shot.name): cannot draw the shot: \(error)")
    }
  }
}

/// Canvases kept between shots, one per pixel size up to a budget, for a camera that takes many
/// shots (the live preview redraws the same screens on every save).
///
/// A new canvas is memory the system must find and zero: for a 13″ iPad shot (23 MB) that was a
/// third of the preview's drawing time. A kept canvas is cleared to transparent black, which is
/// what a new one holds, so a shot's pixels never depend on the shot drawn before it. Use one
/// set per thread, as cameras are.
public final class ShotCanvases {
  private var kept: [(width: Int, height: Int, surface: ImageSurface)] = []
  private let budget: Int

  /// Canvases holding at most `budget` bytes of pixels: the least recently used size goes first.
  public init(budget: Int = 96 << 20) {
    self.budget = budget
  }

  /// A canvas of a size, all transparent black.
  func canvas(width: Int, height: Int) throws -> ImageSurface {
    if let index = kept.firstIndex(where: { $0.width == width && $0.height == height }) {
      let found = kept.remove(at: index)
      kept.append(found)
      found.surface.withUnsafeMutablePixels { pixels, _ in
        _ = pixels.initializeMemory(as: UInt8.self, repeating: 0)
      }
      return found.surface
    }
    let surface = try ImageSurface(width: width, height: height)
    kept.append((width, height, surface))
    while kept.reduce(0, { $0 + 4 * $1.width * $1.height }) > budget, kept.count > 1 { kept.removeFirst() }
    return surface
  }
}

/// A shot as PNG bytes, and where its content lies (``ShotCamera/encodedCapture(_:compression:maximumWidth:)``).
public struct EncodedShot {
  /// The PNG file's bytes.
  public var png: [UInt8]
  /// The view, scrolled to the shot's offset: its cells and their frames.
  public var view: WaterflowView
  /// Where content points land in the image: pixel = (point − origin) × scale.
  public var pixelOrigin: Point
  /// Pixels per content point.
  public var pixelScale: Double
  /// The drawn image's size in pixels (the PNG's, unless it was shrunk).
  public var pixelSize: (width: Int, height: Int)
  /// The texts that did not fit their boxes, in image pixels ÷ `pixelScale`.
  public var truncated: [DrawnText]
  /// The scene as drawn on the shot's device: its cells measured with the camera's fonts.
  public var scene: Scene
}

/// A shot's pixels and what they were drawn from.
public struct ShotCapture {
  /// The pixels.
  public var image: RGBAImage
  /// The view, scrolled to the shot's offset: its cells and their frames.
  public var view: WaterflowView
  /// Where content points land in the image: pixel = (point − origin) × scale.
  public var pixelOrigin: Point
  /// Pixels per content point (the device's scale, or smaller inside a frame).
  public var pixelScale: Double
  /// The texts drawn, in image pixels ÷ `pixelScale`.
  public var texts: [DrawnText]
  /// The texts that did not fit their boxes (cut with "…"), in the same units.
  public var truncated: [DrawnText] = []
}
