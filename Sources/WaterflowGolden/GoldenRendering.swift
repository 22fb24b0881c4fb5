public import PNGCodec
public import WaterflowRender
public import WaterflowScene
public import WaterflowShots

/// What a golden shows: a scene at an offset (reached by jumping or in steps), or every frame of a
/// scroll, drawn with given render options.
public struct GoldenShot: Sendable {
  /// Where the frames are.
  public enum Position: Hashable, Sendable {
    /// One frame at `offset`, reached in steps of `step` points (0: one jump).
    case offset(Double, step: Double)
    /// One frame per offset `from`, `from + step`, … up to and including `to`, in order.
    case sequence(from: Double, to: Double, step: Double)
  }

  /// The scene.
  public var scene: Scene
  /// The offset or offsets.
  public var position: Position
  /// Scale and debug overlay.
  public var options: RenderOptions
  /// Draws the whole-content overview instead of the viewport.
  public var overview: Bool
  /// Cells whose pixels are not compared, by index; masked in every frame where they show.
  public var maskedCells: [Int]
  /// The shot of a shot set to take instead of drawing `scene` (a manifest entry that names a
  /// shot file): localized, in its appearance, on its device, framed if the file says so.
  public var screenshot: (file: ShotFile, shot: Shot)? = nil

  /// Creates a shot.
  public init(
    scene: Scene, position: Position, options: RenderOptions,
    overview: Bool = false,
    maskedCells: [Int] = []
  ) {
    self.scene = scene
    self.position = position
    self.options = options
    self.overview = overview
    self.maskedCells = maskedCells
  }

  /// The offsets of the frames, in order: one for `.offset`, from…to for `.sequence`.
  public var offsets: [Double] {
    switch position {
    case .offset(let y, _): return [y]
    case .sequence(let from, let to, let step):
      return [from] + WaterflowView.offsets(from: from, to: to, step: step)
    }
  }

  /// Renders every frame: the controller is laid out at 0, then scrolled through the offsets, so
  /// cells are created and recycled as on a phone and a recycled cell keeps its old colour.
  ///
  /// - Parameter renderer: The renderer (its font is part of the fingerprint).
  /// - Returns: The frames, with their offsets.
  /// - Throws: `GoldenError` (`.render`) when drawing fails.
  public func frames(with renderer: Renderer) throws(GoldenError)
    -> [GoldenFrame]
  {
    if let screenshot { return [try Self.frame(of: screenshot.shot, in: screenshot.file, with: renderer, maskedCells: maskedCells)] }
    // Self-sized templates are measured with the fonts they are drawn with, as `render --font`
    // measures them: a manifest's "font" (or `golden --font`) changes heights as well as glyphs.
    do { try scene.measureCells(withFontPaths: renderer.fontPaths) } catch {
      throw GoldenError(.render, "Cannot measure the templates of '\(scene.path)': \(error)")
    }
    let controller = SceneController(scene: scene)
    // A scene's goldens are drawn in its own style, as `waterflow render` draws it, unless the
    // caller chose another.
    var options = options
    if options.style == .standard { options.style = scene.style }
    return try Self.frames(
      of: controller.view, named: scene.path, position: position, options: options,
      overview: overview, maskedCells: maskedCells, with: renderer)
  }

  /// Renders the frames of any view (one driven by your own data source or layout): it is laid
  /// out, then scrolled through the position's offsets from where it is.
  ///
  /// - Parameters:
  ///   - view: The view, with its data source (and layout) set.
  ///   - name: The view's name in error messages.
  ///   - position: The offset or offsets to render.
  ///   - options: Scale and debug overlay.
  ///   - overview: Draw the whole-content overview instead.
  ///   - maskedCells: Cells, by index, whose pixels each frame's masks leave out.
  ///   - renderer: The renderer to draw with.
  /// - Returns: The frames, in order.
  /// - Throws: `GoldenError` when the view cannot be laid out or rendered.
  public static func frames(
    of view: WaterflowView, named name: String, position: Position, options: RenderOptions,
    overview: Bool = false, maskedCells: [Int] = [], with renderer: Renderer
  ) throws(GoldenError) -> [GoldenFrame] {
    func frame(at y: Double) throws(GoldenError) -> GoldenFrame {
      // The overview draws the whole content, where cell rectangles are not viewport pixels.
      let masks =
        overview
        ? [] : maskedCells.compactMap { PixelRect(cellAt: $0, in: view, options: options) }
      let image: RGBAImage
      do {
        if overview {
          image = try RGBAImage(
            pngData: try renderer.renderOverview(view, as: .png, options: options))
        } else {
          image = try renderer.image(of: view, options: options)
        }
      } catch {
        throw GoldenError(.render, "Cannot render '\(name)': \(error)")
      }
      var facts = GoldenFacts(view: view)
      if !overview {
        // The debug overlay widens the canvas by the pre-load band before the viewport.
        let band = options.debug ? view.preloadBuffer : 0
        facts.pixelOrigin = Point(
          x: view.contentOffset.x - (view.isHorizontal ? band : 0),
          y: view.contentOffset.y - (view.isHorizontal ? 0 : band))
      }
      // The overview's texts too: the renderer notes them in canvas points, shrunk as drawn.
      facts.pixelScale = options.scale
      facts.texts = renderer.drawnTexts
      return GoldenFrame(offset: y, image: image, masks: masks, facts: facts)
    }
    _ = view.layoutSubviews()
    switch position {
    case .offset(let y, let step):
      if step > 0 { view.scroll(to: y, step: step) } else { view.scroll(to: y) }
      return [try frame(at: y)]
    case .sequence(let from, let to, let step):
      var out: [GoldenFrame] = []
      for y in [from] + WaterflowView.offsets(from: from, to: to, step: step) {
        view.scroll(to: y)
        out.append(try frame(at: y))
      }
      return out
    }
  }
}

extension GoldenShot {
  /// A shot of a shot set as a golden frame: its pixels, and facts placed where its screen
  /// lands in them (inside the frame, below the status bar).
  static func frame(
    of shot: Shot, in file: ShotFile, with renderer: Renderer, maskedCells: [Int]
  ) throws(GoldenError) -> GoldenFrame {
    let capture: ShotCapture
    do throws(ShotSetError) {
      // The check's renderer: its fonts are the fingerprint's, and its caches serve every shot.
      let camera = ShotCamera(file: file, scenes: try ShotScenes(for: [shot]), renderer: renderer)
      capture = try camera.capture(shot)
    } catch { throw GoldenError(.render, "Cannot take '\(shot.name)' of \(file.path): \(error)") }
    var facts = GoldenFacts(view: capture.view)
    facts.pixelOrigin = capture.pixelOrigin
    facts.pixelScale = capture.pixelScale
    facts.texts = capture.texts
    let masks = maskedCells.compactMap { index -> PixelRect? in
      guard let snapshot = capture.view.snapshot, index >= 0, index < snapshot.count else { return nil }
      let f = snapshot.frame(at: index)
      let s = capture.pixelScale
      let x0 = Int(((f.minX - capture.pixelOrigin.x) * s).rounded(.down))
      let y0 = Int(((f.minY - capture.pixelOrigin.y) * s).rounded(.down))
      let x1 = Int(((f.maxX - capture.pixelOrigin.x) * s).rounded(.up))
      let y1 = Int(((f.maxY - capture.pixelOrigin.y) * s).rounded(.up))
      return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    return GoldenFrame(offset: shot.scene.offset, image: capture.image, masks: masks, facts: facts)
  }
}

/// One rendered frame of a ``GoldenShot``.
public struct GoldenFrame: Sendable {
  /// The scroll offset.
  public var offset: Double
  /// The pixels.
  public var image: RGBAImage
  /// The masked cells' rectangles in this frame.
  public var masks: [PixelRect]
  /// What the frame was drawn from, recorded beside the golden to explain failures.
  public var facts: GoldenFacts?

  /// Creates a frame.
  public init(
    offset: Double, image: RGBAImage, masks: [PixelRect] = [], facts: GoldenFacts? = nil
  ) {
    self.offset = offset
    self.image = image
    self.masks = masks
    self.facts = facts
  }
}

extension PixelRect {
  /// The pixels a cell covers in a frame rendered from `view` with `options`, rounded outwards:
  /// the mask for a cell whose content is allowed to change (a clock, a live price).
  ///
  /// - Parameters:
  ///   - index: The cell's index in the layout.
  ///   - view: The view, scrolled to the frame's offset and laid out.
  ///   - options: The render options of the frame (scale, debug band).
  /// - Returns: The rectangle, or nil when the view has no layout or no such cell.
  public init?(
    cellAt index: Int, in view: WaterflowView, options: RenderOptions
  ) {
    guard let snapshot = view.snapshot, index >= 0, index < snapshot.count
    else { return nil }
    let frame = snapshot.frame(at: index)
    let band = options.debug ? view.preloadBuffer : 0
    let horizontal = view.isHorizontal
    let x = frame.minX - view.contentOffset.x + (horizontal ? band : 0)
    let y = frame.minY - view.contentOffset.y + (horizontal ? 0 : band)
    let s = options.scale
    let x0 = Int((x * s).rounded(.down))
    let y0 = Int((y * s).rounded(.down))
    let x1 = Int(((x + frame.width) * s).rounded(.up))
    let y1 = Int(((y + frame.height) * s).rounded(.up))
    self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
