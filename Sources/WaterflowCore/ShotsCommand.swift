import WaterflowCommandLine
import ArgumentParser
import Foundation
import Synchronization
import WaterflowMotion
import WaterflowRender
import WaterflowShots

struct ShotsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "shots",
    abstract: "Take screenshot sets: every locale, appearance and device, framed and captioned.",
    discussion: """
      A shot file (JSON) lists scenes, devices, appearances (light, dark) and locales (a name to a \
      string table); "@key" texts in the scenes, their data and the caption are looked up in each \
      locale's table, and right-to-left locales (ar, he, fa, ur) mirror the layout. Images go to \
      DIR/LOCALE/APPEARANCE/DEVICE/SCENE.png, with a contact sheet DIR/index.html. The folder is \
      replaced only when every image is written. Devices: \(Device.names.joined(separator: ", ")).
      """,
    subcommands: [TakeShotsCommand.self, MergeShotsCommand.self],
    defaultSubcommand: TakeShotsCommand.self)
}

struct TakeShotsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "take", abstract: "Take the shots of a shot file (the default).")

  @Argument(help: "The shot file (JSON).")
  var shotFile: String

  @Option(name: .shortAndLong, help: ArgumentHelp("The output folder.", valueName: "dir"))
  var output: String

  @Option(help: "Shots drawn at once (default: the number of cores).")
  var jobs: Int?

  @Option(
    help: ArgumentHelp(
      "Take only the shots that match, such as locale=ar,device=ipad-13 (keys: locale, appearance, device, scene; a key given twice matches either).",
      valueName: "key=value,…"))
  var only: String?

  @Option(help: ArgumentHelp("Take one slice i/n of the set, for a CI matrix; `shots merge` joins the slices.", valueName: "i/n"))
  var shard: String?

  @Option(help: "A TrueType/OpenType font file tried first for each character.")
  var font: String?

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more.") }
    if let shard { do { _ = try ShotShard(parsing: shard) } catch { throw ValidationError(error.description) } }
  }

  func run() throws {
    installInterruptionCleanup(promising: [output])
    let file: ShotFile
    do { file = try ShotFile(contentsOf: shotFile) } catch { throw CLIError(error.description) }
    var shots = file.shots
    if let only {
      let filter: ShotFilter
      do { filter = try ShotFilter(parsing: only, for: file) } catch { throw CLIError(error.description) }
      shots = shots.filter(filter.accepts)
    }
    let total = shots.count
    var part: ShotShard?
    if let shard {
      do { part = try ShotShard(parsing: shard) } catch { throw CLIError(error.description) }
    }
    if let part { shots = part.select(shots) }
    guard !shots.isEmpty else {
      throw CLIError("No shots to take: \(only != nil ? "--only matches none" : "the slice \(shard ?? "") is empty").")
    }
    let bar = ProgressBar()
    let lock = Mutex(())
    let start = ContinuousClock.now
    let run: ShotRun
    do {
      run = try ShotRun.take(
        shots, of: file, to: output, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
        shard: part, total: total, fontPath: font ?? Renderer.defaultFontPath
      ) { done, count in
        let seconds = (ContinuousClock.now - start).inSeconds
        lock.withLock { _ in
          bar.update(ScrollProgress(done: done, total: count, elapsed: seconds, unit: "shots"))
        }
      }
    } catch {
      bar.finish()
      throw CLIError("\(error)")
    }
    bar.finish()
    for line in ImageStore.warnings(for: run.imageFailures) { warn("warning: " + line) }
    let seconds = (ContinuousClock.now - start).inSeconds
    let folder = output.hasSuffix("/") ? String(output.dropLast()) : output
    warn(
      "wrote \(run.entries.count) shots to \(folder)/ in \(String(format: "%.1f", seconds)) s; contact sheet \(folder)/index.html")
  }
}

struct MergeShotsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Join the folders that `shots --shard` slices wrote into one set and contact sheet.")

  @Argument(help: "The slices' folders.")
  var slices: [String]

  @Option(name: .shortAndLong, help: ArgumentHelp("The output folder.", valueName: "dir"))
  var output: String

  func run() throws {
    installInterruptionCleanup(promising: [output])
    let run: ShotRun
    do { run = try ShotRun.merge(slices, to: output) } catch { throw CLIError(error.description) }
    if run.entries.count < run.total {
      warn("warning: the slices hold \(run.entries.count) of the set's \(run.total) shots; merge every slice for the whole set")
    }
    warn("wrote \(run.entries.count) shots to \(output)/; contact sheet \(output)/index.html")
  }
}
