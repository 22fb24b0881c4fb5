package import Cairo
public import PNGCodec
public import WaterflowStyle
public import WaterflowView

/// What to draw and at which resolution.
public struct RenderOptions: Hashable, Sendable {
  /// Device pixels per point for raster output (PDF and SVG are vector and ignore it).
  public var scale: Double
  /// Draws column guides, the viewport and pre-load buffer bounds, frame outlines and each
  /// cell's instance id next to its index; the canvas grows by the buffer on both sides.
  public var debug: Bool
  /// Marks, on each cell, whether this layout pass created it (green) or took it from the reuse
  /// pool (orange): the overlay of scroll animations.
  public var reuseMarks: LayoutPass?
  /// Colours, corners, labels, price bars and titles; `Style.standard` is today's look.
  public var style: Style

  public init(
    scale: Double = 2, debug: Bool = false, reuseMarks: LayoutPass? = nil,
    style: Style = .standard
  ) {
    self.scale = scale
    self.debug = debug
    self.reuseMarks = reuseMarks
    self.style = style
  }
}

/// The output file formats, chosen by extension.
public enum OutputFormat: String, CaseIterable, Sendable {
  case png, pdf, svg

  /// The format for a path's extension, or nil when the extension is not one of png, pdf, svg.
  public init?(path: String) {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else {
      return nil
    }
    self.init(rawValue: path[path.index(after: dot)...].lowercased())
  }
}

/// Draws what a `WaterflowView` displays, the way the phone would show it, with Cairo.
///
/// The renderer is a function of the view (its displayed cells, frames, offset, and the texts
/// of its header, footer and empty views) and the target; it keeps no state but its font and
/// its caches, so the same view always gives the same pixels. Every cache (laid-out texts,
/// decoded, resized and flattened photos) keys on everything that decides what it returns, so
/// what a renderer drew before, and when a budget emptied a cache, never changes a pixel: a
/// golden's bytes depend on its own inputs alone (`GoldenOrderTests` holds every golden of the
/// manifest to that, in any order, on any number of jobs). A renderer is not thread-safe
/// (its image cache is shared): give each thread its own, and hand frames over as
/// ``FrameContent`` values.
///
/// ```swift
/// let renderer = try Renderer()
/// let png = try renderer.render(controller.view, as: .png)
/// ```
public final class Renderer {
  /// The font file drawn with when none is given: DejaVu Sans, from Debian's fonts-dejavu-core.
  public static let defaultFontPath = Font.defaultPath

  /// The fonts of every text, loaded from files: never fontconfig's choice.
  package let fonts: FontStack
  /// The first font of the chain: the one given, or DejaVu Sans.
  package var font: Font { fonts.fonts[0] }
  /// The font file tried first: the one given, or DejaVu Sans.
  public var fontPath: String { font.path }
  /// Every font file of the chain, in the order they are tried for each character.
  public var fontPaths: [String] { fonts.fonts.map(\.path) }
  /// The family names of the chain's fonts, in order.
  public var fontFamilies: [String] { fonts.fonts.map(\.familyName) }

  /// The characters of a text that no font of the chain has (they would draw as boxes), in
  /// order, without repeats.
  ///
  /// - Complexity: O(n × f) for n characters and f fonts.
  public func missingCharacters(in text: String) -> [Unicode.Scalar] {
    fonts.missingCharacters(in: text)
  }
  /// The cells' images.
  public let images: ImageStore
  /// Whether laid-out texts are kept for drawing them again (the default). Turning it off lays
  /// out every text each time it is drawn: the same pixels, only slower, which the tests check.
  public var keepsTextLayouts = true
  /// Whether a template cell's background is left out under the whole pixels an opaque photo
  /// covers (the same pixels either way); tests turn it off to compare.
  package var leavesBackgroundUnderPhotos = true
  /// How many times a cell's background was left out under a photo, for tests.
  package var backgroundsLeftOutUnderPhotos = 0
  /// Texts laid out so far, for drawing them again.
  var textLayouts: [TextLayoutKey: TextLayout] = [:]
  /// Template texts laid out so far, for drawing them again.
  var cellTextLayouts: [CellTextKey: TextLayout] = [:]
  /// The texts the last drawing drew, in drawing order, with their boxes in canvas points.
  public internal(set) var drawnTexts: [DrawnText] = []
  /// The texts of ``drawnTexts`` that did not fit their box: cut with "…" or short of lines
  /// (the live preview marks them).
  public internal(set) var truncatedTexts: [DrawnText] = []
  /// Where content coordinates put the canvas's origin while drawing, and how much they are
  /// shrunk (the overview's): turn a text's box into canvas points for ``drawnTexts``.
  var textOrigin = Point.zero
  var textScale = 1.0

  /// The fonts tried after the given one, for the characters it lacks: DejaVu Sans, then a CJK
  /// font (WenQuanYi Micro Hei, from Debian's fonts-wqy-microhei), then a colour emoji font
  /// (Noto Color Emoji, from fonts-noto-color-emoji). DejaVu Sans Bold comes along as a face of
  /// DejaVu Sans (`FontStack.defaultFacePaths`), for bold text, not as a fallback.
  public static var fallbackFontPaths: [String] { FontStack.defaultPaths }

  /// Creates a renderer whose text tries a font file first (DejaVu Sans by default), then
  /// ``fallbackFontPaths``.
  ///
  /// - Throws: An error naming the file when a font cannot be loaded.
  public init(
    fontPath: String = Renderer.defaultFontPath, images: ImageStore = ImageStore()
  ) throws {
    fonts = try FontStack(paths: [fontPath] + Renderer.fallbackFontPaths)
    self.images = images
  }

  // MARK: - Outputs

  /// The canvas size in points: the viewport, plus the pre-load buffer on both sides in debug mode.
  public func canvasSize(of view: WaterflowView, options: RenderOptions) -> Size
  {
    FrameContent.canvasSize(
      viewport: view.bounds, isHorizontal: view.isHorizontal,
      preloadBuffer: view.preloadBuffer, debug: options.debug)
  }

  /// Renders a captured frame as PNG, PDF or SVG bytes.
  ///
  /// - Throws: When the surface would exceed Cairo's 32767-pixel limit, or Cairo fails.
  public func render(
    _ frame: FrameContent, as format: OutputFormat,
    options: RenderOptions = RenderOptions()
  ) throws -> [UInt8] {
    try output(
      size: frame.canvasSize(debug: options.debug), format: format,
      scale: options.scale
    ) { context in
      draw(frame, in: context, options: options)
    }
  }

  /// Renders a captured frame into a raster surface.
  ///
  /// - Parameter previous: A surface from an earlier frame to draw into when it has the right
  ///   size: a frame sequence then skips allocating (and page-faulting) a new one per frame.
  package func surface(
    of frame: FrameContent, options: RenderOptions = RenderOptions(),
    reusing previous: ImageSurface? = nil
  ) throws -> ImageSurface {
    let size = frame.canvasSize(debug: options.debug)
    let surface: ImageSurface
    if let previous, previous.width == pixels(size.width, options.scale),
      previous.height == pixels(size.height, options.scale)
    {
      // The background is painted over the whole canvas first, so only a partly covered last
      // pixel row or column could blend with the old frame: clearing those two instead of the
      // whole surface saves a 4 MB memset a frame (3 % of a scroll job), same pixels.
      previous.withUnsafeMutablePixels { buffer, stride in
        let base = buffer.baseAddress!
        (base + (previous.height - 1) * stride).initializeMemory(
          as: UInt8.self, repeating: 0, count: stride)
        for y in 0..<previous.height {
          (base + y * stride + 4 * (previous.width - 1)).initializeMemory(
            as: UInt8.self, repeating: 0, count: 4)
        }
      }
      surface = previous
    } else {
      surface = try makeSurface(size: size, scale: options.scale)
    }
    let context = try Context(surface)
    context.scale(x: options.scale, y: options.scale)
    draw(frame, in: context, options: options)
    try context.checkStatus()
    return surface
  }

  /// Renders what the view displays now as PNG, PDF or SVG bytes.
  public func render(
    _ view: WaterflowView, as format: OutputFormat,
    options: RenderOptions = RenderOptions()
  ) throws -> [UInt8] {
    try render(
      FrameContent(view: view), as: format, options: options)
  }

  /// Renders what the view displays now into a raster surface.
  package func surface(
    of view: WaterflowView,
    options: RenderOptions = RenderOptions()
  ) throws -> ImageSurface {
    try surface(of: FrameContent(view: view), options: options)
  }

  /// Renders the view as straight RGBA pixels: what golden tests compare.
  public func image(
    of view: WaterflowView,
    options: RenderOptions = RenderOptions()
  ) throws -> RGBAImage {
    RGBAImage(surface: try surface(of: view, options: options))
  }

  /// Renders a captured frame as straight RGBA pixels.
  public func image(
    of frame: FrameContent,
    options: RenderOptions = RenderOptions()
  ) throws -> RGBAImage {
    RGBAImage(surface: try surface(of: frame, options: options))
  }

  /// Renders the overview: the whole content at a reduced scale, with the viewport marked,
  /// displayed cells in colour and the others greyed.
  public func renderOverview(
    _ view: WaterflowView, as format: OutputFormat,
    options: RenderOptions = RenderOptions()
  ) throws -> [UInt8] {
    let geometry = OverviewGeometry(view: view)
    return try output(
      size: geometry.canvas, format: format, scale: options.scale
    ) { context in
      drawOverview(view, geometry: geometry, in: context)
    }
  }

  private func pixels(_ points: Double, _ scale: Double) -> Int {
    Int((points * scale).rounded(.up))
  }

  private func makeSurface(size: Size, scale: Double) throws -> ImageSurface {
    try ImageSurface(
      width: pixels(size.width, scale), height: pixels(size.height, scale))
  }

  private func output(
    size: Size, format: OutputFormat, scale: Double, draw: (Context) -> Void
  ) throws -> [UInt8] {
    switch format {
    case .png:
      let surface = try makeSurface(size: size, scale: scale)
      let context = try Context(surface)
      context.scale(x: scale, y: scale)
      draw(context)
      try context.checkStatus()
      return surface.pngData()
    case .pdf:
      let document = try PDFDocument(
        width: size.width, height: size.height, title: "Waterflow")
      let context = try Context(document)
      draw(context)
      try context.checkStatus()
      return try document.finish()
    case .svg:
      let document = try SVGDocument(width: size.width, height: size.height)
      let context = try Context(document)
      draw(context)
      try context.checkStatus()
      return try document.finish()
    }
  }
}

extension Renderer {
  /// The standard canvas background as cairo stores it: see ``backgroundPixel(of:)``.
  public static let backgroundPixel: [UInt8] = backgroundPixel(of: .standard)

  /// A style's canvas background as cairo stores it: the B, G, R, A bytes of one pixel
  /// (little-endian), painted over opaque black as the canvas is.
  ///
  /// Cairo rounds colours through 16 bits, so this is not simply 0.95 × 255; anything that pads a
  /// frame with the background (videos of scripts that rotate) must use these bytes to match.
  public static func backgroundPixel(of style: Style) -> [UInt8] {
    guard let surface = try? ImageSurface(width: 1, height: 1),
      let context = try? Context(surface)
    else { return [245, 243, 243, 255] }
    let c = style.background
    context.setSource(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    context.paint()
    return surface.withUnsafePixels { buffer, _ in Array(buffer.prefix(4)) }
  }
}
