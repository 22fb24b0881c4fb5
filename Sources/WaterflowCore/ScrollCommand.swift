import WaterflowCommandLine
import ArgumentParser
import Foundation
import WaterflowMotion
import WaterflowRender
import WaterflowScene

struct ScrollCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scroll",
    abstract:
      "Render a simulated scroll as frames: a PNG folder, a PDF, or a GIF, APNG, MP4 or WebM (by -o).",
    discussion: """
      The simulation runs in order, one layout pass per frame, exactly as `waterflow trace` runs \
      them; frames are drawn and encoded on --jobs threads. Timing is --duration and --fps, or \
      --frames (both ends are frames). --curve decelerate flings from --from with --velocity and \
      --rate until the speed drops below half a point per frame, clamped at the content's ends; \
      with --bounce it overshoots an end it reaches (at most a quarter of the viewport) and \
      springs back to rest on it, as UIScrollView does. --script plays a JSON list of segments instead (scroll, pause, fling, loadMore, refresh, \
      rotate, jump); see the README. Videos need ffmpeg (Debian package 'ffmpeg').
      """)

  enum Curve: String, ExpressibleByArgument, CaseIterable {
    case linear
    case easeInOut = "ease-in-out"
    case decelerate
  }

  @Argument(help: "The scene file.")
  var scene: String

  @Option(
    name: .shortAndLong,
    help: ArgumentHelp(
      "A folder (frame-0001.png… and frames.json; a name with a dot needs a trailing /), or a .pdf, .gif, .apng, .mp4 or .webm file.",
      valueName: "out"))
  var output: String

  @Option(parsing: .unconditional, help: "The first offset.")
  var from: Double = 0
  @Option(parsing: .unconditional, help: "The last offset (not with --curve decelerate).")
  var to: Double?
  @Option(help: "The scroll's length in seconds (with --fps).")
  var duration: Double?
  @Option(help: "Frames per second.")
  var fps: Double = 30
  @Option(
    help: "The number of frames, both ends included (instead of --duration).")
  var frames: Int?
  @Option(help: "linear, ease-in-out or decelerate.")
  var curve: Curve = .easeInOut
  @Option(
    parsing: .unconditional,
    help:
      "The initial velocity in points per second, for --curve decelerate (negative scrolls up)."
  )
  var velocity: Double?
  @Option(
    help:
      "The deceleration rate: normal (0.998 per ms), fast (0.99), or a number between 0 and 1."
  )
  var rate: String = "normal"
  @Flag(
    help:
      "With --curve decelerate: overshoot a content end the fling reaches and spring back, like UIScrollView's bounces."
  )
  var bounce = false
  @Flag(
    help:
      "Play --to and script scrolls past the content's ends as given (by default they stop there, with a warning)."
  )
  var overscroll = false
  @Option(help: "A JSON script of segments, instead of --to/--curve.")
  var script: String?

  @OptionGroup var render: RenderOptionGroup

  @Flag(
    help:
      "Mark cells created (green, \"new\") and taken from the reuse pool (orange, \"reused\") in each frame."
  )
  var markReuse = false
  @Option(
    help: "Threads that draw and encode frames (default: the number of cores).")
  var jobs: Int?
  @Option(
    help: ArgumentHelp(
      "Also write a grid of numbered thumbnails.", valueName: "sheet.png"))
  var contactSheet: String?
  @Option(
    help: ArgumentHelp(
      "Also write each frame's offset, displayed indices, created, reused, enqueued and pool size.",
      valueName: "trace.csv|trace.json"))
  var trace: String?
  @Option(
    help: ArgumentHelp(
      "Also write a chart of created, reused, pooled and on-screen cells over time.",
      valueName: "plot.png"))
  var plot: String?

  func validate() throws {
    do { _ = try ScrollOutput(validating: output) } catch {
      throw ValidationError(error.description)
    }
    guard fps > 0, fps <= 240 else {
      throw ValidationError(
        "The value '\(JSONText.format(fps))' is invalid for '--fps <fps>': use 1 to 240."
      )
    }
    if let jobs, !(1...256).contains(jobs) {
      throw ValidationError(
        "The value '\(jobs)' is invalid for '--jobs <jobs>': use 1 to 256.")
    }
    guard from.isFinite, to?.isFinite ?? true else {
      throw ValidationError("--from and --to must be finite numbers.")
    }
    if let trace,
      !(trace.lowercased().hasSuffix(".csv")
        || trace.lowercased().hasSuffix(".json"))
    {
      throw ValidationError(
        "The trace '\(trace)' has an unknown extension: use .csv or .json.")
    }
    for (name, path) in [("--contact-sheet", contactSheet), ("--plot", plot)] {
      if let path, !path.lowercased().hasSuffix(".png") {
        throw ValidationError(
          "\(name) writes a PNG: give a path ending in .png, not '\(path)'.")
      }
    }
    if DecelerationRate(name: rate) == nil {
      throw ValidationError(
        "The value '\(rate)' is invalid for '--rate <rate>': use normal, fast, or a number between 0 and 1."
      )
    }
    if script != nil {
      if to != nil || velocity != nil || duration != nil || frames != nil {
        throw ValidationError(
          "--script sets the segments: leave out --to, --velocity, --duration and --frames."
        )
      }
      if bounce {
        throw ValidationError(
          "--script sets the segments: leave out --bounce and give a fling \"bounce\": true."
        )
      }
      return
    }
    if curve == .decelerate {
      guard let velocity, velocity.isFinite else {
        throw ValidationError(
          "--curve decelerate needs --velocity (points per second).")
      }
      if to != nil || duration != nil || frames != nil {
        throw ValidationError(
          "--curve decelerate ends where the fling comes to rest: leave out --to, --duration and --frames."
        )
      }
    } else {
      guard to != nil else {
        throw ValidationError(
          "Give --to (and --duration or --frames), --curve decelerate with --velocity, or --script."
        )
      }
      if velocity != nil {
        throw ValidationError("--velocity is for --curve decelerate.")
      }
      if bounce {
        throw ValidationError("--bounce is for --curve decelerate.")
      }
      switch (duration, frames) {
      case (nil, nil):
        throw ValidationError(
          "Give the timing: --duration (seconds, with --fps) or --frames.")
      case (_?, _?):
        throw ValidationError("Give --duration or --frames, not both.")
      case (let d?, nil):
        guard d > 0, d * fps <= Double(ScrollScript.maximumFrames) else {
          throw ValidationError(
            "The value '\(JSONText.format(d))' is invalid for '--duration <duration>': use a positive number of seconds."
          )
        }
      case (nil, let n?):
        guard n >= 1, n <= ScrollScript.maximumFrames else {
          throw ValidationError(
            "The value '\(n)' is invalid for '--frames <frames>': use 1 to \(ScrollScript.maximumFrames)."
          )
        }
      }
    }
  }

  func plan() throws -> ScrollScript {
    if let script {
      do {
        return try ScrollScript(contentsOf: script, fps: fps, from: from)
      } catch { throw CLIError(error.description) }
    }
    switch curve {
    case .decelerate:
      return .fling(
        from: from, velocity: velocity!, rate: DecelerationRate(name: rate)!,
        bounces: bounce, fps: fps)
    case .linear, .easeInOut:
      let count = frames ?? Int((duration! * fps).rounded()) + 1
      return .scroll(
        from: from, to: to!, frames: count, fps: fps,
        curve: curve == .linear ? .linear : .easeInOut)
    }
  }

  func run() throws {
    installInterruptionCleanup(promising: [output, trace, contactSheet, plot])
    let scene = try render.styled(try SceneArgument.load(scene))
    let output = ScrollOutput(path: self.output)
    do { try output.checkTools() } catch { throw CLIError(error.description) }
    let script = try plan()
    if case .video(_, .gif) = output, script.fps > VideoFormat.maximumGIFRate {
      warn(
        "warning: a GIF plays at most \(JSONText.format(VideoFormat.maximumGIFRate)) fps (its delays are "
          + "hundredths of a second): writing \(JSONText.format(VideoFormat.maximumGIFRate)) fps, not "
          + "\(JSONText.format(script.fps)), so frames are dropped and the duration is kept; "
          + "APNG, MP4 and WebM play any rate")
    }
    // The job makes a renderer per worker; this one only checks the texts' characters first.
    _ = try render.renderer(for: scene)
    var job = ScrollJob(
      scene: scene, script: script, output: output,
      options: render.options(for: scene))
    job.markReuse = markReuse
    job.overscroll = overscroll
    job.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
    job.fontPath = render.fontPath
    job.contactSheet = contactSheet
    job.trace = trace
    job.plot = plot
    let bar = ProgressBar()
    if bar.isVisible { job.progress = { bar.update($0) } }
    let summary: ScrollSummary
    do { summary = try job.run() } catch { throw CLIError("\(error)") }
    bar.finish()
    for note in summary.notes { warn("note: \(note)") }
    for line in ImageStore.warnings(for: summary.imageFailures) { warn("warning: " + line) }
    let fpsRate = Double(summary.frames) / max(summary.seconds, 1e-9)
    warnIfTerminal(
      "wrote \(self.output): \(summary.frames) frames, \(summary.width)×\(summary.height) px, "
        + "\(String(format: "%.1f", summary.seconds)) s (\(String(format: "%.1f", fpsRate)) frames/s)"
    )
  }
}
