import Foundation
import Testing
import WaterflowMotion
import WaterflowRender
import WaterflowScene
import WaterflowTestSupport

/// GIF delays are hundredths of a second: above 50 fps the file is written at 50 fps, so that it
/// plays for the time asked for.
@Suite struct GIFTimingTests {
  /// ffprobe's duration of a file and its frame rate.
  private func probe(_ path: String) throws -> (duration: Double, rate: String) {
    let run = try ExternalProgram.ffprobe.run([
      "-v", "error", "-show_entries", "format=duration:stream=r_frame_rate", "-of",
      "default=noprint_wrappers=1", path,
    ])
    var duration = -1.0
    var rate = ""
    for line in run.stdout.split(separator: "\n") {
      if line.hasPrefix("duration=") { duration = Double(line.dropFirst(9)) ?? -1 }
      if line.hasPrefix("r_frame_rate=") { rate = String(line.dropFirst(13)) }
    }
    return (duration, rate)
  }

  @Test(arguments: [60.0, 30.0])
  func gif_playsForTheRequestedTimeWithinAFrame(fps: Double) throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-gif")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // 2 s: 2 × fps + 1 frames, both ends included, as `scroll --duration 2` makes.
    let frames = Int(2 * fps) + 1
    let scene = try Scene(contentsOf: packageRoot + "/Assets/Scenes/reference.json")
    var job = ScrollJob(
      scene: scene, script: .scroll(from: 0, to: 1200, frames: frames, fps: fps),
      output: .video(dir + "/a.gif", .gif), options: RenderOptions(scale: 0.5))
    job.jobs = 2
    _ = try job.run()
    let (duration, rate) = try probe(dir + "/a.gif")
    let played = min(fps, VideoFormat.maximumGIFRate)
    #expect(abs(duration - Double(frames) / fps) <= 1 / played + 1e-9, "\(duration) s")
    #expect(abs(duration - 2) <= 1 / played + 1e-9, "\(duration) s")
    #expect(rate == (fps > 50 ? "50/1" : "\(Int(fps))/1"))
  }
}
