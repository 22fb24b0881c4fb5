import Foundation
import Testing
import WaterflowTestSupport

/// Each writing command, stopped by a signal once it has written part of its output: the exit
/// status is 128 + the signal, one line names what was not written, the previous output is as it
/// was and no temporary is left. `WATERFLOW_PAUSE_AT` holds the job at a known point (a frame
/// handed to the encoder, an output about to be committed), and the test waits for the job to
/// say so, so no sleep decides when the signal lands.
@Suite struct InterruptionTests {}

extension InterruptionTests {
  @Test func render_SIGINT_BeforeCommitting_KeepsThePreviousFile() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let out = dir + "/out.png"
    try previous(out)
    let job = try PausedJob(
      ["render", "Assets/Scenes/reference.json", "-o", out], at: "commit:out.png")
    #expect(try temporaries(in: dir).count == 1, "the new PNG is written, not yet renamed")
    let result = try job.stop(SIGINT)
    #expect(result.status == 130)
    #expect(result.stderr == "waterflow: interrupted by SIGINT; not written: \(out) (anything there before is unchanged).\n")
    try expectOnly(["out.png"], in: dir)
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "previous")
  }

  @Test func render_SecondSIGINT_ExitsAtOnce_AndTheNextRunSweeps() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let out = dir + "/out.png"
    try previous(out)
    let render = ["render", "Assets/Scenes/reference.json", "-o", out]
    let job = try PausedJob(render, at: "commit:out.png", pausingAlsoAt: ["cleanup"])
    // The first SIGINT starts the cleanup, held before it removes anything; the second ends it.
    kill(job.pid, SIGINT)
    try job.wait(for: "cleanup")
    let result = try job.stop(SIGINT)
    #expect(result.status == 130)
    #expect(result.stderr.isEmpty, "no line: the second signal does not wait for the cleanup")
    #expect(try temporaries(in: dir).count == 1)
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "previous")

    let next = try waterflow(render)
    #expect(next.status == 0, "\(next.stderr)")
    try expectOnly(["out.png"], in: dir)
  }

  @Test func scrollFolder_SIGTERM_MidJob_KeepsThePreviousFolder() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let out = dir + "/frames"
    let scroll = ["scroll", "Assets/Scenes/reference.json", "--to", "900", "--jobs", "2", "-o", out]
    let first = try waterflow(scroll + ["--frames", "3"])
    #expect(first.status == 0, "\(first.stderr)")
    let before = try contents(of: out)
    #expect(before.count == 4)
    let job = try PausedJob(
      scroll + ["--frames", "40", "--trace", out + "/trace.csv"], at: "frame:5")
    let staging = try temporaries(in: dir)
    #expect(staging.count == 1)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir + "/" + staging[0])
        .contains("frame-0005.png"), "part of the new output is written")
    let result = try job.stop(SIGTERM)
    #expect(result.status == 143)
    #expect(result.stderr.contains("interrupted by SIGTERM; not written: \(out), \(out)/trace.csv"))
    try expectOnly(["frames"], in: dir)
    #expect(try contents(of: out) == before)
  }

  @Test(arguments: ["mp4", "gif"])
  func scrollVideo_SIGINT_WhileFFmpegEncodes_StopsItAndKeepsThePreviousVideo(ext: String)
    throws
  {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let out = dir + "/a." + ext
    try previous(out)
    let job = try PausedJob(
      ["scroll", "Assets/Scenes/reference.json", "--to", "900", "--frames", "40", "-o", out],
      at: "frame:5")
    let ffmpeg = children(of: job.pid)
    #expect(ffmpeg.count == 1, "ffmpeg is encoding")
    #expect(try temporaries(in: dir).count == 1)
    let result = try job.stop(SIGINT)
    #expect(result.status == 130)
    #expect(result.stderr.hasSuffix("interrupted by SIGINT; not written: \(out) (anything there before is unchanged).\n"))
    for pid in ffmpeg { #expect(isGone(pid), "ffmpeg \(pid) was stopped") }
    try expectOnly(["a." + ext], in: dir)
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "previous")
  }

  @Test func goldenRecord_SIGHUP_KeepsTheGoldenItWasWriting() throws {
    let dir = try goldenFolder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // One job: the second golden is not started while the first is held.
    let job = try PausedJob(
      ["golden", "record", "--manifest", dir + "/manifest.json", "--jobs", "1"],
      at: "commit:top.png")
    let result = try job.stop(SIGHUP)
    #expect(result.status == 129)
    #expect(result.stderr.contains("interrupted by SIGHUP; not written: golden 'top', golden 'scrolled'"))
    try expectOnly(["manifest.json", "reference.json", "scrolled.png", "top.png"], in: dir)
    #expect(try String(contentsOfFile: dir + "/top.png", encoding: .utf8) == "previous")
    #expect(try String(contentsOfFile: dir + "/scrolled.png", encoding: .utf8) == "previous")
  }

  /// On two jobs, a golden written while an earlier one is still being drawn is not named as
  /// "not written", though its line is not printed yet (records are printed in manifest order).
  @Test func goldenRecordOnTwoJobs_SIGINT_NamesOnlyTheGoldenNotWritten() throws {
    let dir = try goldenFolder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try PausedJob(
      ["golden", "record", "--manifest", dir + "/manifest.json", "--jobs", "2"],
      at: "commit:top.png", pausingAlsoAt: ["written:scrolled"])
    try job.wait(for: "written:scrolled")
    let result = try job.stop(SIGINT)
    #expect(result.status == 130)
    #expect(
      result.stderr.hasSuffix(
        "interrupted by SIGINT; not written: golden 'top' (anything there before is unchanged).\n"),
      "\(result.stderr)")
    #expect(try String(contentsOfFile: dir + "/top.png", encoding: .utf8) == "previous")
    let scrolled = try Data(contentsOf: URL(fileURLWithPath: dir + "/scrolled.png"))
    #expect(scrolled.starts(with: [0x89, 0x50, 0x4e, 0x47]), "scrolled.png is the new golden")
    #expect(try temporaries(in: dir).isEmpty)
  }

  @Test func goldenReport_SIGTERM_KeepsThePreviousReport() throws {
    let dir = try goldenFolder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let report = dir + "/report.html"
    try previous(report)
    // Missing goldens: the check writes artifacts, then the report.
    for name in ["top.png", "scrolled.png"] {
      try FileManager.default.removeItem(atPath: dir + "/" + name)
    }
    let job = try PausedJob(
      [
        "golden", "check", "--manifest", dir + "/manifest.json", "--report", report,
        "--artifacts", dir + "/artifacts",
      ], at: "commit:report.html")
    let result = try job.stop(SIGTERM)
    #expect(result.status == 143)
    #expect(result.stderr.hasSuffix("not written: \(report) (anything there before is unchanged).\n"))
    #expect(try String(contentsOfFile: report, encoding: .utf8) == "previous")
    #expect(try temporaries(in: dir).isEmpty)
  }
}

// MARK: - SIGKILL: the next run sweeps

extension InterruptionTests {
  @Test(arguments: ["a.mp4", "frames"])
  func killedScroll_LeavesATemporary_ThatTheNextRunRemoves(output: String) throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let scroll = [
      "scroll", "Assets/Scenes/reference.json", "--to", "900", "--frames", "12", "-o",
      dir + "/" + output,
    ]
    let job = try PausedJob(scroll, at: "frame:3")
    let ffmpeg = children(of: job.pid)
    let killed = try job.stop(SIGKILL)
    #expect(killed.signalled)
    // An orphaned ffmpeg sees the end of its input and exits by itself.
    for pid in ffmpeg { waitUntilGone(pid) }
    let left = try temporaries(in: dir)
    #expect(left.count == 1)
    #expect(left.first?.hasPrefix(".\(output).waterflow-tmp-\(job.pid)-") == true)

    let next = try waterflow(scroll)
    #expect(next.status == 0, "\(next.stderr)")
    try expectOnly([output], in: dir)
  }

  @Test func missingParent_IsRefusedNamingIt_AndNotCreated() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let result = try waterflow([
      "scroll", "Assets/Scenes/reference.json", "--to", "100", "--frames", "2", "-o",
      dir + "/missing/out/",
    ])
    #expect(result.status != 0)
    #expect(result.stderr.contains("the directory '\(dir)/missing' does not exist"))
    try expectOnly([], in: dir)
  }
}

// MARK: - Helpers

/// A `waterflow` run held at a pause point, to be stopped with a signal.
private struct PausedJob {
  let process: Process
  let stderr: FileHandle
  var pid: Int32 { process.processIdentifier }
  /// Everything read from standard error so far: a later `wait(for:)` finds a point that was
  /// announced in the same read as an earlier one.
  private let announced = Box("")

  /// Starts the command and returns once it says it has reached `point`.
  init(_ arguments: [String], at point: String, pausingAlsoAt others: [String] = []) throws {
    process = Process()
    process.executableURL = URL(fileURLWithPath: waterflowBinary)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
    var environment = ProcessInfo.processInfo.environment
    environment["WATERFLOW_PAUSE_AT"] = ([point] + others).joined(separator: ",")
    environment["CI"] = nil
    environment["WATERFLOW_RECORD"] = nil
    process.environment = environment
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    stderr = err.fileHandleForReading
    try process.run()
    try wait(for: point)
  }

  /// Returns once the job says it holds at `point`: the marker, instead of a sleep.
  func wait(for point: String) throws {
    var seen = announced.value
    defer { announced.value = seen }
    while !seen.contains("paused at \(point)\n") {
      let data = stderr.availableData
      if data.isEmpty {
        process.waitUntilExit()
        Issue.record("the job ended before reaching \(point): \(seen)")
        throw CancellationError()
      }
      seen += String(decoding: data, as: UTF8.self)
    }
  }

  /// Sends `signal` and waits for the job to end.
  func stop(_ signal: Int32) throws -> (status: Int32, signalled: Bool, stderr: String) {
    kill(pid, signal)
    let rest = stderr.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, process.terminationReason == .uncaughtSignal,
      String(decoding: rest, as: UTF8.self)
    )
  }
}

private var waterflowBinary: String {
  [".build/debug/waterflow", ".build/release/waterflow"].map { packageRoot + "/" + $0 }
    .first { FileManager.default.isExecutableFile(atPath: $0) } ?? ""
}

/// A value that a non-mutating method of a struct may change.
private final class Box<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// A previous output: a file that no run of these tests writes.
private func previous(_ path: String) throws {
  try Data("previous".utf8).write(to: URL(fileURLWithPath: path))
}

/// A golden folder with two goldens, recorded with stand-in bytes so any recording shows.
private func goldenFolder() throws -> String {
  let dir = try temporaryDirectory()
  try FileManager.default.copyItem(
    atPath: packageRoot + "/Assets/Scenes/reference.json", toPath: dir + "/reference.json")
  try Data(
    """
    {"goldens": [
      {"name": "top", "scene": "reference.json"},
      {"name": "scrolled", "scene": "reference.json", "offset": 300}
    ]}
    """.utf8
  ).write(to: URL(fileURLWithPath: dir + "/manifest.json"))
  try previous(dir + "/top.png")
  try previous(dir + "/scrolled.png")
  return dir
}

/// The names in `dir` that are writers' temporaries.
private func temporaries(in dir: String) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: dir).filter {
    $0.contains(".waterflow-tmp-") || $0.contains(".waterflow-old-")
  }.sorted()
}

private func expectOnly(
  _ names: [String], in dir: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  #expect(
    try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == names.sorted(),
    sourceLocation: sourceLocation)
}

private func contents(of dir: String) throws -> [String: Data] {
  var files: [String: Data] = [:]
  for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
    files[name] = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))
  }
  return files
}

/// The child processes of `pid`, from /proc.
private func children(of pid: Int32) -> [Int32] {
  let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
  return tasks.flatMap { task in
    ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
      .split(separator: " ").compactMap { Int32($0) }
  }
}

/// True when `pid` has exited: gone, or a zombie not yet reaped.
private func isGone(_ pid: Int32) -> Bool {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return true }
  let state = stat[stat.index(after: close)...].dropFirst().first
  return state == "Z" || state == "X"
}

/// Waits for a process that is ending by itself (an orphaned ffmpeg finishing its file).
private func waitUntilGone(_ pid: Int32) {
  // Its parent is dead, so nothing to wait(2) on: watch /proc until it is gone.
  while !isGone(pid) { sched_yield() }
}
