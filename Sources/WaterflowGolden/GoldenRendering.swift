public import PNGCodec
public import WaterflowRender
public import WaterflowScene

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
      precondition(step > 0, "step must be positive")
      var out = [from]
      var y = from
      let direction: Double = to >= from ? 1 : -1
      while (to - y) * direction > 1e-9 {
        y += direction * step
        if (y - to) * direction > 0 { y = to }
        out.append(y)
      }
      return out
    }
  }

  /// Renders every frame: the controller is laid out at 0, then scrolled through the offsets, so
  /// cells are created and recycled as on a phone and a recycled cell keeps its old colour.
  ///
  /// - Parameter renderer: The renderer (its font is part of the fingerprint).
  /// - Returns: The frames, with their offsets.
  /// - Throws: ``GoldenError`` (`.render`) when drawing fails.
  public func frames(with renderer: Renderer) throws(GoldenError)
    -> [GoldenFrame]
  {
    let controller = SceneController(scene: scene)
    _ = controller.view.layoutSubviews()
    var out: [GoldenFrame] = []
    switch position {
    case .offset(let y, let step):
      scroll(controller, to: y, step: step)
      out.append(try frame(at: y, of: controller, with: renderer))
    case .sequence:
      for y in offsets {
        _ = controller.view.scroll(to: y)
        out.append(try frame(at: y, of: controller, with: renderer))
      }
    }
    return out
  }

  private func frame(
    at y: Double, of controller: SceneController, with renderer: Renderer
  ) throws(GoldenError) -> GoldenFrame {
    // The overview draws the whole content, where cell rectangles are not viewport pixels.
    let masks =
      overview
      ? []
      : maskedCells.compactMap {
        PixelRect(cellAt: $0, in: controller.view, options: options)
      }
    return GoldenFrame(
      offset: y, image: try image(of: controller, with: renderer), masks: masks)
  }

  private func scroll(
    _ controller: SceneController, to target: Double, step: Double
  ) {
    guard step > 0 else {
      _ = controller.view.scroll(to: target)
      return
    }
    _ = controller.run(Script(steps: [.scroll(to: target, step: step)]))
  }

  private func image(of controller: SceneController, with renderer: Renderer)
    throws(GoldenError) -> RGBAImage
  {
    do {
      if overview {
        let png = try renderer.renderOverview(
          controller.view, scene: controller.scene, as: .png, options: options)
        return try RGBAImage(pngData: png)
      }
      return try renderer.image(
        of: controller.view, scene: controller.scene, options: options)
    } catch {
      throw GoldenError(.render, "Cannot render '\(scene.path)': \(error)")
    }
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

  /// Creates a frame.
  public init(offset: Double, image: RGBAImage, masks: [PixelRect] = []) {
    self.offset = offset
    self.image = image
    self.masks = masks
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
    let horizontal = (view.layout?.flow ?? .vertical) == .horizontal
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
