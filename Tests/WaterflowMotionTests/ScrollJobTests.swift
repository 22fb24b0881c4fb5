import Cairo
import PNGCodec
import FileTransactions
import Foundation
import Testing
import WaterflowTestSupport
import WaterflowRender
import WaterflowScene

@testable import WaterflowMotion

@Suite struct ScrollJobTests {}

// MARK: - Trace

extension ScrollJobTests {
  @Test func traceJSON_AgreesWithWaterflowTrace_ForTheSameOffsets() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // 21 linear frames from 0 to 1000 are the offsets of `trace --step 50`.
    let scroll = try runCLI([
      "scroll", referencePath, "-o", "\(dir)/a.pdf", "--to", "1000", "--frames",
      "21", "--curve", "linear",
      "--trace", "\(dir)/t.json", "--jobs", "2",
    ])
    #expect(scroll.status == 0, "\(scroll.stderr)")
    let trace = try runCLI([
      "trace", referencePath, "--from", "0", "--to", "1000", "--step", "50",
      "--json",
    ])
    #expect(trace.status == 0)
    let expected =
      try JSONSerialization.jsonObject(with: Data(trace.stdout.utf8))
      as! [[String: Any]]
    var ours =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: "\(dir)/t.json")))
      as! [[String: Any]]
    #expect(ours.map { $0["frame"] as! Int } == Array(1...21))
    for i in ours.indices {
      ours[i]["frame"] = nil
      ours[i]["time"] = nil
    }
    #expect(ours.count == expected.count)
    #expect(
      NSArray(array: ours).isEqual(to: expected),
      "scroll --trace differs from waterflow trace --json")
    // Reuse happened on the way, so the comparison covered reused and enqueued cells too.
    #expect(ours.contains { !($0["reused"] as! [Any]).isEmpty })
  }
}

// MARK: - Reuse shows in the pixels

extension ScrollJobTests {
  @Test func recycledCell_KeepsItsCreationColour_AtANewIndex() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let scene = referenceScene()
    let script = ScrollScript.scroll(
      from: 0, to: 600, frames: 7, curve: .linear)
    var job = ScrollJob(
      scene: scene, script: script, output: .folder(dir),
      options: RenderOptions(scale: 1))
    job.jobs = 2
    let summary = try job.run()
    #expect(summary.frames == 7)
    let listing = try String(
      contentsOfFile: "\(dir)/frames.json", encoding: .utf8)
    #expect(
      listing.contains(
        "\"file\": \"frame-0007.png\", \"time\": 0.2, \"offset\": 600"))

    // Find where each cell was created, then a later frame that shows it reused elsewhere.
    var createdAt: [Int: Int] = [:]
    var checked = 0
    for frame in ScrollSimulation(scene: scene, script: script) {
      for c in frame.pass.created { createdAt[c.cell] = c.index }
      for r in frame.pass.reused {
        let cell = frame.content.cells.first { $0.index == r.index }!
        #expect(createdAt[r.cell] != nil && createdAt[r.cell] != r.index)
        let centre = Point(
          x: cell.frame.midX - frame.content.contentOffset.x,
          y: cell.frame.midY - frame.content.contentOffset.y)
        guard centre.y > 0 && centre.y < 667 else { continue }
        let image = RGBAImage(
          surface: try ImageSurface(
            contentsOfPNGFile: "\(dir)/"
              + ScrollJob.frameName(frame.number, total: 7)))
        let p = (Int(centre.y) * image.width + Int(centre.x)) * 4
        let colour = SceneController.colour(ofCell: r.cell, seed: scene.seed)
        for (channel, value) in [colour.red, colour.green, colour.blue]
          .enumerated()
        {
          #expect(
            abs(Int(image.pixels[p + channel]) - Int((value * 255).rounded()))
              <= 1, "cell #\(r.cell) at index \(r.index), frame \(frame.number)"
          )
        }
        checked += 1
      }
    }
    #expect(checked > 0, "the sequence showed no reused cell on screen")
  }
}

// MARK: - Folder output

/// A scene of 60 plain cells, except cell 30 (about 1000 points down), which shows `photo.png`.
private func photoScene(in dir: String) throws -> Scene {
  let items = (0..<60).map {
    $0 == 30 ? #"{"height": 100, "image": "photo.png"}"# : #"{"height": 100}"#
  }
  let json = """
    {"viewport": {"width": 375, "height": 667, "scale": 1}, "columns": 3, "seed": 1,
     "items": [\(items.joined(separator: ", "))]}
    """
  try Data(json.utf8).write(to: URL(fileURLWithPath: "\(dir)/scene.json"))
  return try Scene(data: Data(json.utf8), path: "\(dir)/scene.json")
}

/// Every file in a folder, by name.
private func contents(of dir: String) throws -> [String: Data] {
  var files: [String: Data] = [:]
  for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
    files[name] = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)"))
  }
  return files
}

extension ScrollJobTests {
  @Test func folderOutput_JobThatFailsMidway_LeavesThePreviousOutputUntouched()
    throws
  {
    let parent = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let out = "\(parent)/frames"
    try FileManager.default.copyItem(
      atPath: packageRoot + "/Assets/Images/goods-1.png",
      toPath: "\(parent)/photo.png")
    var first = ScrollJob(
      scene: try photoScene(in: parent),
      script: .scroll(from: 0, to: 2000, frames: 12), output: .folder(out))
    first.markReuse = true
    first.jobs = 1
    #expect(try first.run().imageFailures.isEmpty)
    let previous = try contents(of: out)
    #expect(previous.count == 13)

    // Cell 30 first shows in frame 3, so frames 1 and 2 are drawn before the job fails.
    try Data("not a PNG".utf8).write(
      to: URL(fileURLWithPath: "\(parent)/photo.png"))
    var second = ScrollJob(
      scene: try photoScene(in: parent),
      script: .scroll(from: 0, to: 2000, frames: 9), output: .folder(out))
    second.jobs = 1
    let error = #expect(throws: ScrollJobError.self) { try second.run() }
    #expect(error?.description.contains("photo.png") == true)

    #expect(try contents(of: out) == previous)
    // No staging folder is left beside the output.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: parent).sorted() == [
        "frames", "photo.png", "scene.json",
      ])
  }

  @Test func folderOutput_RerunWithFewerFrames_HoldsExactlyTheNewFrames() throws
  {
    let parent = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let out = "\(parent)/frames"
    func run(frames: Int) throws {
      var job = ScrollJob(
        scene: referenceScene(),
        script: .scroll(from: 0, to: 600, frames: frames), output: .folder(out))
      job.jobs = 2
      // A trace inside the output folder belongs to the run, like the frames.
      job.trace = "\(out)/trace.csv"
      #expect(try job.run().frames == frames)
    }
    try run(frames: 12)
    try run(frames: 5)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        == (1...5).map { ScrollJob.frameName($0, total: 5) } + [
          "frames.json", "trace.csv",
        ])
    let listing = try String(
      contentsOfFile: "\(out)/frames.json", encoding: .utf8)
    #expect(
      listing.contains("frame-0005.png") && !listing.contains("frame-0006"))
    let trace = try String(contentsOfFile: "\(out)/trace.csv", encoding: .utf8)
    #expect(trace.split(separator: "\n").count == 1 + 5)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: parent) == ["frames"])
  }

  @Test func folderOutput_Rerun_KeepsFilesWaterflowDidNotWrite() throws {
    let parent = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let out = "\(parent)/frames"
    func run(frames: Int, trace: Bool) throws {
      var job = ScrollJob(
        scene: referenceScene(),
        script: .scroll(from: 0, to: 600, frames: frames), output: .folder(out))
      job.jobs = 1
      if trace { job.trace = "\(out)/trace.csv" }
      _ = try job.run()
    }
    try run(frames: 4, trace: true)
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: "\(out)/notes.txt"))
    // The rerun writes no trace: the earlier one and the notes stay, the frames are replaced.
    try run(frames: 2, trace: false)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [
        "frame-0001.png", "frame-0002.png", "frames.json", "notes.txt",
        "trace.csv",
      ])
    #expect(
      try String(contentsOfFile: "\(out)/notes.txt", encoding: .utf8)
        == "keep me")
    #expect(
      try String(contentsOfFile: "\(out)/trace.csv", encoding: .utf8)
        .split(separator: "\n").count == 1 + 4)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: parent) == ["frames"])
  }

  @Test func folderOutput_RemovesStagingFoldersOfKilledJobs_Only() throws {
    let parent = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    // pid 2147483646 is far above Linux's pid_max, so no process has it: a killed job's leftover.
    // Our own pid stands for a job still running, and another output's leftover is not ours.
    let abandoned = "\(parent)/.frames.waterflow-tmp-2147483646-AbC123"
    let running = "\(parent)/.frames.waterflow-tmp-\(getpid())-XyZ789"
    let otherOutput = "\(parent)/.other.waterflow-tmp-2147483646-QwE456"
    for folder in [abandoned, running, otherOutput] {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: false)
      try Data("png".utf8).write(
        to: URL(fileURLWithPath: folder + "/frame-0001.png"))
    }
    let job = ScrollJob(
      scene: referenceScene(), script: .scroll(from: 0, to: 100, frames: 2),
      output: .folder("\(parent)/frames"))
    _ = try job.run()
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: parent).sorted() == [
        ".frames.waterflow-tmp-\(getpid())-XyZ789",
        ".other.waterflow-tmp-2147483646-QwE456", "frames",
      ])
  }

  @Test func folderOutput_FolderOfOtherFiles_IsRefusedAndKept() throws {
    let parent = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let out = "\(parent)/holiday"
    try FileManager.default.createDirectory(
      atPath: out, withIntermediateDirectories: false)
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: "\(out)/notes.txt"))
    try Data("png".utf8).write(
      to: URL(fileURLWithPath: "\(out)/frame-0001.png"))
    let before = try contents(of: out)
    let job = ScrollJob(
      scene: referenceScene(), script: .scroll(from: 0, to: 300, frames: 3),
      output: .folder(out))
    let error = #expect(throws: FileWriteError.self) { try job.run() }
    #expect(error?.description.contains("'\(out)'") == true)
    #expect(error?.description.contains("notes.txt") == true)
    #expect(try contents(of: out) == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: parent) == ["holiday"]
    )
  }
}

// MARK: - Videos

extension ScrollJobTests {
  @Test(arguments: ["gif", "apng", "mp4", "webm"])
  func video_HasTheFrameCountAndSize(ext: String) throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let out = "\(dir)/scroll.\(ext)"
    // --duration 0.3 at 30 fps: 9 intervals, 10 frames.
    let run = try runCLI([
      "scroll", referencePath, "-o", out, "--to", "900", "--duration", "0.3",
      "--fps", "30", "--mark-reuse", "--jobs", "2",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let probe = try ExternalProgram.ffprobe.run(
      [
        "-v", "error", "-count_frames", "-select_streams", "v:0",
        "-show_entries", "stream=width,height,nb_read_frames",
        "-of", "csv=p=0", out,
      ])
    #expect(
      probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        == "750,1334,10")
    // No temporary file is left next to the output.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir) == [
        "scroll.\(ext)"
      ])
  }

  @Test func videoPadding_IsTheBackgroundCairoDraws() throws {
    // A script that rotates makes frames smaller than the video; the padding around them must be
    // the very bytes of the drawn background, or the video shows a seam.
    let frame = ScrollSimulation(
      scene: referenceScene(), script: .scroll(from: 0, to: 0, frames: 1)
    ).next()!
    let surface = try Renderer().surface(
      of: frame.content, options: RenderOptions(scale: 1))
    let drawn = surface.withUnsafePixels { buffer, _ in Array(buffer.prefix(4))
    }
    #expect(
      drawn == Renderer.backgroundPixel, "the top-left corner is background")
    let padded = ScrollJob.bgra(
      surface, width: surface.width + 4, height: surface.height + 4)
    #expect(Array(padded.prefix(4)) == drawn)
    #expect(Array(padded.suffix(4)) == drawn)
  }

  @Test func videoWithoutFFmpeg_NamesTheDebianPackage_WhilePNGStillWorks()
    throws
  {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let env = ["PATH": "/nonexistent"]
    let video = try runCLI(
      [
        "scroll", referencePath, "-o", "\(dir)/a.mp4", "--to", "100",
        "--frames", "2",
      ], environment: env)
    #expect(video.status != 0)
    #expect(video.stderr.contains("Debian package 'ffmpeg'"))
    let folder = try runCLI(
      [
        "scroll", referencePath, "-o", "\(dir)/frames", "--to", "100",
        "--frames", "2", "--scale", "1",
      ], environment: env)
    #expect(folder.status == 0, "\(folder.stderr)")
    #expect(
      FileManager.default.fileExists(atPath: "\(dir)/frames/frame-0002.png"))
  }

  @Test func gifMemory_DoesNotGrowWithTheFrameCount() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func peak(_ frames: Int) throws -> Int {
      // /usr/bin/time waits for waterflow, whose usage includes ffmpeg's (waited for by waterflow).
      let run = try ExternalProgram.gnuTime.run(
        [
          "-f", "maxrss=%M", waterflowBinary, "scroll", referencePath, "-o",
          "\(dir)/m\(frames).gif", "--to", "3000",
          "--frames", String(frames), "--scale", "1", "--jobs", "2",
        ])
      #expect(run.status == 0, "\(run.stderr)")
      let line = run.stderr.split(separator: "\n").last {
        $0.hasPrefix("maxrss=")
      }!
      return Int(line.dropFirst(7))!
    }
    let short = try peak(30)
    let long = try peak(300)
    // Buffering every frame would add 270 × 375 × 667 × 4 bytes ≈ 270 MB.
    #expect(
      long - short < 40_000,
      "max RSS \(short) KB for 30 frames, \(long) KB for 300")
  }
}

// MARK: - Bounce

extension ScrollJobTests {
  @Test func bounceFlag_OvershootsTheTopAndSettlesOnIt() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let run = try runCLI([
      "scroll", referencePath, "-o", "\(dir)/frames", "--from", "500",
      "--curve",
      "decelerate", "--velocity=-3000", "--bounce", "--scale", "1",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let listing =
      try JSONSerialization.jsonObject(
        with: Data(
          contentsOf: URL(fileURLWithPath: "\(dir)/frames/frames.json")))
      as! [String: Any]
    let offsets = (listing["frames"] as! [[String: Any]]).map {
      ($0["offset"] as! NSNumber).doubleValue
    }
    #expect(offsets.min()! < -1)
    #expect(offsets.last == 0)
  }

  @Test func bounceFlag_WithoutDeceleration_IsRejected() throws {
    let run = try runCLI([
      "scroll", referencePath, "-o", "/nonexistent/frames", "--to", "300",
      "--frames", "3", "--bounce",
    ])
    #expect(run.status != 0)
    #expect(run.stderr.contains("--bounce is for --curve decelerate."))
  }
}

// MARK: - Helpers

let referencePath = packageRoot + "/Assets/Scenes/reference.json"

func temporaryDirectory() throws -> String {
  try makeTemporaryDirectory(prefix: "waterflow-motion")
}

func runCLI(_ arguments: [String], environment: [String: String]? = nil) throws
  -> ProgramRun
{
  try runProgram(atPath: waterflowBinary, arguments, environment: environment)
}
