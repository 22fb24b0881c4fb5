import Foundation
import Testing
import WaterflowTestSupport

/// `waterflow` is a launcher: it runs a plain `diff` itself, without cairo, and starts
/// waterflow-core, beside it, for everything else (Sources/waterflow/Launcher.swift).
@Suite struct LauncherTests {
  static let fixtures = packageRoot + "/Tests/WaterflowGoldenTests/Fixtures/pixelmatch"

  /// The same command line through the launcher and through waterflow-core's ArgumentParser.
  private func bothWays(_ arguments: [String], output: String?) throws -> [(ProgramRun, Data?)] {
    try [waterflowBinary, waterflowCoreBinary].map { binary in
      if let output { try? FileManager.default.removeItem(atPath: output) }
      let run = try runProgram(atPath: binary, arguments, in: packageRoot)
      return (run, output.flatMap { FileManager.default.contents(atPath: $0) })
    }
  }

  @Test func aPlainDiff_SaysAndWritesWhatWaterflowCoreDoes() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let output = dir + "/diff.png"
    let cases: [(arguments: [String], status: Int32)] = [
      (["diff", Self.fixtures + "/1a.png", Self.fixtures + "/1b.png", "-o", output], 1),
      (["diff", Self.fixtures + "/3a.png", Self.fixtures + "/3b.png", "--output=" + output], 1),
      (["diff", Self.fixtures + "/1a.png", Self.fixtures + "/1a.png", "--output", output], 0),
      (["diff", Self.fixtures + "/1a.png", Self.fixtures + "/3a.png"], 1),  // sizes differ
      (["diff", Self.fixtures + "/1a.png", dir + "/missing.png", "-o", output], 2),
    ]
    for (arguments, status) in cases {
      let runs = try bothWays(arguments, output: arguments.contains { $0.contains(output) } ? output : nil)
      let (launcher, launcherImage) = runs[0]
      let (core, coreImage) = runs[1]
      #expect(launcher.status == status, "\(arguments): \(launcher.stderr)")
      #expect(launcher.status == core.status, "\(arguments)")
      #expect(launcher.stdout == core.stdout, "\(arguments)")
      #expect(launcher.stderr == core.stderr, "\(arguments)")
      #expect(launcherImage == coreImage, "\(arguments): the diff images differ")
    }
    #expect(try bothWays(cases[0].arguments, output: output)[0].1 != nil, "no diff image was written")
  }

  @Test func everyOtherCommandLine_RunsInWaterflowCore() throws {
    let scene = packageRoot + "/Assets/Scenes/reference.json"
    for arguments in [
      ["layout", scene, "--json"], ["visible", scene, "--offset", "300"], ["--help"],
      // Any option beyond -o is ArgumentParser's, with its messages and exit codes.
      ["diff", Self.fixtures + "/1a.png", Self.fixtures + "/1b.png", "--json"],
      ["diff", Self.fixtures + "/1a.png", Self.fixtures + "/1b.png", "--diff-color", "255,0"],
      ["diff", Self.fixtures + "/1a.png", Self.fixtures + "/1b.png", "-o", "diff.PDF"],
      ["no-such-command"],
    ] {
      let runs = try bothWays(arguments, output: nil)
      #expect(runs[0].0.status == runs[1].0.status, "\(arguments)")
      #expect(runs[0].0.stdout == runs[1].0.stdout, "\(arguments)")
      #expect(runs[0].0.stderr == runs[1].0.stderr, "\(arguments)")
    }
    let help = try runProgram(atPath: waterflowBinary, ["--help"])
    #expect(help.status == 0 && help.stdout.contains("USAGE: waterflow [--version] <subcommand>"), "\(help.stdout)")
  }

  @Test func alone_TheLauncherStillDiffs_AndNamesWhatIsMissingForTheRest() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let lone = dir + "/waterflow"
    try FileManager.default.copyItem(atPath: waterflowBinary, toPath: lone)
    let diff = try runProgram(atPath: lone, ["diff", Self.fixtures + "/1a.png", Self.fixtures + "/1b.png"])
    #expect(diff.status == 1 && diff.stdout.contains("differ    106 pixels"), "\(diff.stdout)\(diff.stderr)")
    let layout = try runProgram(atPath: lone, ["layout", packageRoot + "/Assets/Scenes/reference.json"])
    #expect(layout.status == 2)
    #expect(
      layout.stderr.contains("cannot run '\(dir)/waterflow-core'")
        && layout.stderr.contains("keep the two programs in one folder"), "\(layout.stderr)")
  }

  @Test func theLauncher_LoadsNoDrawingLibrary() throws {
    // The dynamic loader lists what a binary loads, and exits (as ldd does); a static launcher
    // (`make release`) loads nothing and runs, here a diff of two identical files.
    let pair = [Self.fixtures + "/1a.png", Self.fixtures + "/1a.png"]
    let run = try runProgram(
      atPath: waterflowBinary, ["diff"] + pair, environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
    if run.stdout.contains("OK: identical") {
      #expect(run.status == 0)
    } else {
      #expect(run.stdout.contains("libdeflate"), "the loader listed nothing: \(run.stdout)")
    }
    // Nor swift-corelibs-foundation, whose static initializers alone cost a diff 3.5 MB.
    for library in ["libcairo", "libpango", "libfreetype", "libpng", "libfontconfig", "libFoundation.so"] {
      #expect(!run.stdout.contains(library), "the launcher loads \(library)")
    }
    let core = try runProgram(
      atPath: waterflowCoreBinary, ["--help"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
    #expect(core.stdout.contains("libcairo"), "the check sees no library at all: \(core.stdout)")
  }
}
