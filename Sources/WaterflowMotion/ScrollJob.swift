internal import Cairo
internal import SystemPackage
internal import PNGCodec
import FileTransactions
import Foundation
import WaterflowRender
import WaterflowScene

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an animation goes, chosen by the output path.
public enum ScrollOutput: Hashable, Sendable {
  /// A folder of `frame-0001.png`… and `frames.json`, replaced as a whole when the job succeeds.
  case folder(String)
  /// One PDF page per frame.
  case pdf(String)
  /// A video encoded by ffmpeg.
  case video(String, VideoFormat)

  /// `.pdf` → PDF, `.gif`/`.apng`/`.mp4`/`.webm` → video, anything else → a folder.
  public init(path: String) {
    let ext = (FilePath(path).extension ?? "").lowercased()
    if ext == "pdf" {
      self = .pdf(path)
    } else if let format = VideoFormat(rawValue: ext) {
      self = .video(path, format)
    } else {
      self = .folder(path)
    }
  }

  /// The output for a path a user typed, refusing what is probably a mistake.
  ///
  /// A path with an extension that is no format (`anim.mov`) would otherwise quietly become a
  /// folder of that name: it is refused unless it ends in `/` or is an existing folder.
  ///
  /// - Throws: ``ScrollJobError`` naming the path and the formats.
  public init(validating path: String) throws(ScrollJobError) {
    self.init(path: path)
    let ext = FilePath(path).extension ?? ""
    var isDirectory: ObjCBool = false
    if !ext.isEmpty, case .folder = self, !path.hasSuffix("/"),
      !(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        && isDirectory.boolValue)
    {
      throw ScrollJobError(
        "'\(path)' ends in .\(ext), which is not an output format: use .pdf, .gif, .apng, .mp4 or .webm, or a folder (end the path with / to make a folder of that name)."
      )
    }
  }

  /// Checks that the tools this output needs are installed: ffmpeg, for a video.
  ///
  /// - Throws: ``VideoEncoderError`` naming the Debian package, and the outputs that need none.
  public func checkTools() throws(VideoEncoderError) {
    if case .video(let path, _) = self, VideoEncoder.locate() == nil {
      throw VideoEncoder.missing(for: path)
    }
  }

  public var path: String {
    switch self {
    case .folder(let p), .pdf(let p), .video(let p, _): p
    }
  }
}

/// How far a job has got, reported after each frame is written.
public struct ScrollProgress: Sendable {
  /// Frames written.
  public var done: Int
  /// Frames in the job.
  public var total: Int
  /// Seconds since the job started.
  public var elapsed: Double
  /// What is counted: `frames`, or `shots` for a screenshot set.
  public var unit: String

  /// Creates a progress report.
  public init(done: Int, total: Int, elapsed: Double, unit: String = "frames") {
    self.done = done
    self.total = total
    self.elapsed = elapsed
    self.unit = unit
  }

  /// Frames per second so far.
  public var rate: Double { Double(done) / max(elapsed, 1e-9) }

  /// `[#####     ] 12/40 frames  30.1 fps  ETA 0.9 s`: a bar `width` characters wide.
  public func line(width: Int = 30) -> String {
    let filled = total > 0 ? width * done / total : width
    let eta = rate > 0 ? Double(total - done) / rate : 0
    return "[" + String(repeating: "#", count: filled)
      + String(repeating: " ", count: width - filled) + "] "
      + "\(done)/\(total) \(unit)  \(String(format: "%.1f", rate)) \(unit == "frames" ? "fps" : unit + "/s")  ETA \(String(format: "%.1f", eta)) s"
  }
}

/// A one-line progress bar on standard error, redrawn at most ten times a second, shown only
/// when standard error is a terminal.
///
/// ```swift
/// let bar = ProgressBar()
/// if bar.isVisible { job.progress = { bar.update($0) } }
/// let summary = try job.run()
/// bar.finish()
/// ```
public final class ProgressBar: @unchecked Sendable {
  /// Whether standard error is a terminal; nothing is drawn otherwise.
  public let isVisible = isatty(STDERR_FILENO) == 1
  private var lastDraw = -1.0

  /// Creates a bar; it draws nothing until the first update.
  public init() {}

  /// Redraws the bar; called from the job's calling thread after each frame.
  public func update(_ progress: ScrollProgress) {
    guard isVisible, progress.done == progress.total || progress.elapsed - lastDraw >= 0.1
    else { return }
    lastDraw = progress.elapsed
    FileHandle.standardError.write(Data(("\r" + progress.line() + " ").utf8))
  }

  /// Ends the bar's line, if one was drawn.
  public func finish() {
    if isVisible && lastDraw >= 0 {
      FileHandle.standardError.write(Data("\n".utf8))
    }
  }
}

/// What a finished job made.
public struct ScrollSummary: Sendable {
  public var frames: Int
  /// The frame size in pixels (the largest frame, for scripts that rotate).
  public var width: Int
  public var height: Int
  public var seconds: Double
  /// Segments that did nothing, and why.
  public var notes: [String]
  /// Images that could not be loaded, by path: the cells show a loading placeholder.
  public var imageFailures: [String: String]
}

/// Renders a scroll animation: simulates it in order, draws and encodes frames on `jobs`
/// threads, and writes the output, trace, contact sheet and plot.
///
/// Memory is bounded whatever the frame count: frames are simulated one at a time, at most
/// `2 × jobs` are in flight between simulation and output, and the trace and frame list stream
/// to disk. Every file is written atomically, and a folder output is written into a sibling
/// folder that replaces the old one only when every frame is in it.
///
/// ```swift
/// var job = ScrollJob(scene: scene, script: .scroll(from: 0, to: 2000, frames: 60), output: ScrollOutput(path: "out.mp4"))
/// job.jobs = 4
/// let summary = try job.run()
/// ```
/// What a scroll animation plays.
public enum ScrollSource: Sendable {
  /// A scene or a layout file.
  case scene(Scene)
  /// A view of your own, made fresh for each pass, with an object to keep alive while it plays.
  case view(@Sendable () -> (view: WaterflowView, owner: AnyObject?))
  /// A view Waterflow does not own (a collection view's adapter), made fresh for each pass.
  case frames(@MainActor @Sendable () -> (source: any ScrollFrameSource, owner: AnyObject?))
}

public struct ScrollJob: Sendable {
  /// What the animation plays: a scene (or layout file), or a view of your own.
  public var source: ScrollSource
  public var script: ScrollScript
  public var output: ScrollOutput
  /// Scale and debug overlay; `reuseMarks` is set per frame when ``markReuse`` is on.
  public var options: RenderOptions
  /// Marks newly created (green) and reused (orange) cells in each frame.
  public var markReuse = false
  /// Plays scrolls past the content's ends as given (overscroll); by default they stop there.
  public var overscroll = false
  /// Worker threads for drawing and encoding.
  public var jobs = ProcessInfo.processInfo.activeProcessorCount
  public var fontPath = Renderer.defaultFontPath
  public var contactSheet: String?
  /// A `.csv` or `.json` path for the per-frame trace.
  public var trace: String?
  public var plot: String?
  /// Called on the calling thread after each frame is written.
  public var progress: (@Sendable (ScrollProgress) -> Void)?

  public init(
    scene: Scene, script: ScrollScript, output: ScrollOutput,
    options: RenderOptions? = nil
  ) {
    source = .scene(scene)
    self.script = script
    self.output = output
    self.options = options ?? RenderOptions(scale: scene.scale, style: scene.style)
  }

  /// An animation of a view of your own: your data source, your delegate, your layout.
  ///
  /// ```swift
  /// let job = ScrollJob(
  ///   view: { let source = FeedSource(); let view = FeedView(source); return (view, source) },
  ///   script: .scroll(from: 0, to: 1200, frames: 60), output: ScrollOutput(path: "feed.gif"))
  /// ```
  ///
  /// - Parameters:
  ///   - makeView: Makes the view, fresh and at offset 0, with an object to keep alive
  ///     while it plays (its data source: the view holds it weakly). A job plays the script twice,
  ///     once to count frames and size the canvas and once to draw, so the view must come out the
  ///     same each time: seeded colours, no clock.
  ///   - script: The scrolls, pauses, flings and events to play.
  ///   - output: Where the frames go, and in which format.
  ///   - options: How each frame is drawn.
  public init(
    view makeView: @escaping @Sendable () -> (view: WaterflowView, owner: AnyObject?),
    script: ScrollScript, output: ScrollOutput, options: RenderOptions = RenderOptions(scale: 2)
  ) {
    source = .view(makeView)
    self.script = script
    self.output = output
    self.options = options
  }

  /// An animation of a frame source: a collection view running your own layout, through
  /// `CollectionViewScrollSource`. Made fresh for each of the job's two passes, on the main
  /// actor: run a job of one from the main actor (a `@MainActor` test), as UIKit code runs.
  public init(
    frames makeSource: @escaping @MainActor @Sendable () -> (source: any ScrollFrameSource, owner: AnyObject?),
    script: ScrollScript, output: ScrollOutput, options: RenderOptions = RenderOptions(scale: 2)
  ) {
    source = .frames(makeSource)
    self.script = script
    self.output = output
    self.options = options
  }

  /// A fresh simulation of the script: one per pass over the frames.
  func simulation() -> ScrollSimulation {
    switch source {
    case .scene(let scene):
      return ScrollSimulation(scene: scene, script: script, overscroll: overscroll)
    case .view(let makeView):
      let (view, owner) = makeView()
      return ScrollSimulation(view: view, owner: owner, script: script, overscroll: overscroll)
    case .frames(let makeSource):
      // A frame source is a main-actor object (a collection view, as on iOS), so a job that
      // plays one runs on the main actor, and traps elsewhere as UIKit would.
      let made = MainActor.assumeIsolated {
        let (source, owner) = makeSource()
        return MainActorSource(source: source, owner: owner)
      }
      return ScrollSimulation(source: made.source, owner: made.owner, script: script, overscroll: overscroll)
    }
  }

  /// A dry run, without drawing: the frame count (for progress and the contact sheet), the
  /// largest canvas (a video keeps one size when a script rotates) and the frames that show an
  /// event. It costs a layout pass a frame.
  func survey() -> (frames: Int, canvas: Size, eventFrames: Set<Int>) {
    var total = 0
    var canvas = Size(width: 0, height: 0)
    var eventFrames = Set<Int>()
    for frame in simulation() {
      total += 1
      if frame.event != nil { eventFrames.insert(frame.number) }
      let size = frame.content.canvasSize(debug: options.debug)
      canvas = Size(width: max(canvas.width, size.width), height: max(canvas.height, size.height))
    }
    return (total, canvas, eventFrames)
  }

  /// The zero-padded file name of a frame in a folder output.
  public static func frameName(_ number: Int, total: Int) -> String {
    let digits = max(4, String(total).count)
    let n = String(number)
    return "frame-" + String(repeating: "0", count: max(0, digits - n.count))
      + n + ".png"
  }

  /// Runs the job.
  ///
  /// A folder output replaces an existing folder only if it is empty or looks like an earlier
  /// output (it holds `frames.json`, or nothing but `frame-*.png`); when the job fails, the
  /// earlier output is left as it was. A trace, contact sheet or plot inside the folder is
  /// written with the frames; other files in an earlier output are kept.
  ///
  /// - Throws: `FileWriteError` for outputs that cannot be written (a directory that does not
  ///   exist, a folder of other files, an interruption), ``VideoEncoderError`` when ffmpeg is
  ///   missing or fails, ``ScrollJobError`` for a corrupt image, or a renderer error.
  public func run() throws -> ScrollSummary {
    let clock = ContinuousClock()
    let started = clock.now
    func elapsed() -> Double {
      let d = clock.now - started
      return Double(d.components.seconds) + Double(d.components.attoseconds)
        * 1e-18
    }

    let (total, canvas, eventFrames) = survey()
    let frameCount = total
    let pixelWidth = Int((canvas.width * options.scale).rounded(.up))
    let pixelHeight = Int((canvas.height * options.scale).rounded(.up))

    // A renderer on this thread only for what is drawn here (a PDF, a contact sheet, a plot): a
    // folder or a video never waits for one before its workers start drawing.
    var madeRenderer: Renderer?
    // Every renderer of the job decodes each photo once for all of them.
    let decodes = SharedImageDecodes()
    func mainRenderer() throws -> Renderer {
      if let madeRenderer { return madeRenderer }
      do {
        madeRenderer = try Renderer(fontPath: self.fontPath, images: ImageStore(sharing: decodes))
      } catch {
        throw ScrollJobError("\(error)")
      }
      return madeRenderer!
    }
    let images = ImageReport()

    // A folder is staged first, so that a failure leaves the previous output untouched.
    var staged: StagedFolder?
    if case .folder(let directory) = output {
      staged = try StagedFolder(replacing: directory, kind: .frames)
    }
    defer { staged?.discard() }
    let trace = self.trace.map { staged?.stagedPath(for: $0) ?? $0 }
    let contactSheet = self.contactSheet.map {
      staged?.stagedPath(for: $0) ?? $0
    }
    let plot = self.plot.map { staged?.stagedPath(for: $0) ?? $0 }

    var traceWriter = try trace.map { try TraceWriter(path: $0) }
    let sheet = try contactSheet.map { _ in
      try ContactSheet(
        frameCount: total, canvas: canvas, renderer: try mainRenderer(), eventFrames: eventFrames)
    }
    var activity = plot == nil ? nil : ActivityPlot()

    // Output-specific parts: the worker's transform and the in-order consumer.
    let fontPath = self.fontPath
    let baseOptions = options
    let markReuse = self.markReuse
    @Sendable func renderOptions(_ frame: SimulatedFrame) -> RenderOptions {
      var o = baseOptions
      o.reuseMarks = markReuse ? frame.marks : nil
      return o
    }
    let makeRenderer: @Sendable () throws -> Renderer = {
      do { return try Renderer(fontPath: fontPath, images: ImageStore(sharing: decodes)) } catch {
        throw ScrollJobError("\(error)")
      }
    }

    var finishOutput: () throws -> Void = {}
    var consumeOutput: (SimulatedFrame, [UInt8]) throws -> Void = { _, _ in }
    let makeWorker: @Sendable () throws -> (SimulatedFrame) throws -> [UInt8]
    /// A worker that draws every frame into one surface of its own, then hands it to `output`.
    @Sendable func drawingWorker(
      _ output:
        @escaping @Sendable (SimulatedFrame, ImageSurface) throws -> [UInt8]
    ) -> @Sendable () throws -> (SimulatedFrame) throws -> [UInt8] {
      {
        let renderer = try makeRenderer()
        var canvas: ImageSurface?
        return { frame in
          let surface = try renderer.surface(
            of: frame.content, options: renderOptions(frame), reusing: canvas)
          canvas = surface
          try images.collect(renderer.images)
          return try output(frame, surface)
        }
      }
    }

    switch output {
    case .folder:
      let folder = staged!
      let frames = try AtomicFile(path: folder.path + "/frames.json", sweeping: false)
      frames.write(
        "{\"fps\": \(JSONNumber.format(script.fps)), \"scale\": \(JSONNumber.format(options.scale)), \"frames\": ["
      )
      makeWorker = drawingWorker { frame, surface in
        // Frames already run one per core, so each is encoded on its own thread only.
        try folder.write(
          surface.pngDataOnThisThread(compression: .frames),
          named: ScrollJob.frameName(frame.number, total: frameCount))
        return []
      }
      consumeOutput = { frame, _ in
        frames.write(frame.number == 1 ? "\n  " : ",\n  ")
        var line =
          "{\"frame\": \(frame.number), \"file\": \"\(ScrollJob.frameName(frame.number, total: total))\", "
        line +=
          "\"time\": \(JSONNumber.format(frame.time)), \"offset\": \(JSONNumber.format(frame.offset))"
        if let e = frame.event { line += ", \"event\": \"\(e)\"" }
        frames.write(line + "}")
      }
      finishOutput = {
        frames.write("\n]}\n")
        try frames.commit()
      }

    case .pdf(let path):
      let first = simulation().next()!.content
        .canvasSize(debug: options.debug)
      // Written to the file as cairo produces it: held in memory, a long scroll's PDF grew the
      // process by its own size (49 to 57 MB over 480 frames).
      let file = try AtomicFile(path: path)
      let document = try PDFDocument(
        width: first.width, height: first.height, title: "Waterflow scroll",
        streamingTo: { file.write($0) })
      let context = try Context(document)
      let mainRenderer = try mainRenderer()
      // PDF pages are drawn in order on one document, so the workers only pass frames through.
      makeWorker = { { _ in [] } }
      consumeOutput = { frame, _ in
        let size = frame.content.canvasSize(debug: baseOptions.debug)
        document.setPageSize(width: size.width, height: size.height)
        mainRenderer.draw(
          frame.content, in: context, options: renderOptions(frame))
        document.showPage()
        try images.collect(mainRenderer.images)
      }
      finishOutput = {
        try context.checkStatus()
        _ = try document.finish()
        try file.commit()
      }

    case .video(let path, let format):
      // Frames smaller than the video (a rotation) are padded with the style's canvas.
      let backgroundPixel = Renderer.backgroundPixel(of: options.style)
      let encoder = try VideoEncoder(
        output: path, format: format, width: pixelWidth, height: pixelHeight,
        fps: script.fps, background: backgroundPixel)
      makeWorker = drawingWorker { _, surface in
        Self.bgra(surface, width: pixelWidth, height: pixelHeight, fill: backgroundPixel)
      }
      consumeOutput = { _, pixels in try encoder.write(pixels) }
      finishOutput = { try encoder.finish() }
    }

    let frames = simulation()
    let pipeline = OrderedPipeline<SimulatedFrame, [UInt8]>(
      jobs: max(1, jobs), window: 2 * max(1, jobs))
    var done = 0
    try pipeline.run(
      makeWorker: makeWorker,
      produce: { emit in
        var marks = ReuseMarks()
        for var frame in frames {
          if markReuse { frame.marks = marks.marks(for: frame) }
          try emit(frame)
        }
      },
      consume: { frame, bytes in
        try consumeOutput(frame, bytes)
        traceWriter?.append(frame)
        sheet?.add(frame, options: renderOptions(frame))
        activity?.add(frame)
        done += 1
        progress?(ScrollProgress(done: done, total: total, elapsed: elapsed()))
        PausePoint.reached("frame:\(done)")
      })
    try finishOutput()
    try traceWriter?.commit()
    traceWriter = nil
    if let sheet, let path = contactSheet {
      try writeAtomically(try sheet.pngData(), to: path)
      try images.collect(try mainRenderer().images)
    }
    if let path = plot, let chart = activity {
      let title =
        "Cell reuse over \(total) frames at \(JSONNumber.format(script.fps)) fps"
      try writeAtomically(
        try chart.pngData(fonts: try mainRenderer().fonts, title: title), to: path)
      activity = nil
    }
    // Last, so that any failure before leaves the previous output in place.
    try staged?.commit(
      alsoWriting: [self.trace, self.contactSheet, self.plot].compactMap { $0 })
    staged = nil
    return ScrollSummary(
      frames: total, width: pixelWidth, height: pixelHeight, seconds: elapsed(),
      notes: script.notes + frames.notes,
      imageFailures: images.failures)
  }

  /// The surface's pixels in cairo's byte order (BGRA on little-endian machines), centred on a
  /// `width` × `height` background when the frame is smaller than the video.
  static func bgra(
    _ surface: ImageSurface, width: Int, height: Int,
    fill: [UInt8] = Renderer.backgroundPixel
  ) -> [UInt8] {
    let dx = (width - surface.width) / 2
    let dy = (height - surface.height) / 2
    let same = surface.width == width && surface.height == height
    return [UInt8](unsafeUninitializedCapacity: width * height * 4) {
      out, count in
      if !same {
        for i in 0..<(width * height) {
          out[4 * i] = fill[0]
          out[4 * i + 1] = fill[1]
          out[4 * i + 2] = fill[2]
          out[4 * i + 3] = fill[3]
        }
      }
      surface.withUnsafePixels { buffer, stride in
        let rowBytes = min(surface.width, width) * 4
        for y in 0..<min(surface.height, height) {
          let source = buffer.baseAddress! + y * stride
          let target =
            UnsafeMutableRawPointer(out.baseAddress!)
            + ((y + max(0, dy)) * width + max(0, dx)) * 4
          target.copyMemory(from: source, byteCount: rowBytes)
        }
      }
      count = width * height * 4
    }
  }
}

/// Images the workers' renderers could not load, gathered from every thread.
private final class ImageReport: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var failures: [String: String] = [:]

  /// Records new failures, each naming the lowest item any thread saw, so that the warnings do
  /// not depend on which thread drew which frame; a corrupt image (not a PNG) is an error.
  func collect(_ store: ImageStore) throws {
    let found = store.failures
    guard !found.isEmpty else { return }
    lock.lock()
    failures.merge(found, uniquingKeysWith: ImageStore.earlierFailure)
    lock.unlock()
    if let path = store.corrupt.sorted().first {
      throw ScrollJobError("\(found[path]!) Fix or remove the image.")
    }
  }
}

extension StagedFolder.Kind {
  /// A folder output of `waterflow scroll`: `frames.json` and `frame-*.png`.
  static let frames = StagedFolder.Kind(marker: "frames.json") {
    $0 == "frames.json" || ($0.hasPrefix("frame-") && $0.hasSuffix(".png"))
  }
}

/// A frame source made on the main actor, carried out of `MainActor.assumeIsolated` to the
/// simulation, which plays it on the same thread.
private struct MainActorSource: @unchecked Sendable {
  let source: any ScrollFrameSource
  let owner: AnyObject?
}
