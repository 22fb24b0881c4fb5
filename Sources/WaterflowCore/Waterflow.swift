import WaterflowBench
import WaterflowCommandLine
import ArgumentParser
import Cairo
import FileTransactions
import Foundation
import WaterflowJSON
import WaterflowRender
import WaterflowScene

@main
struct Waterflow: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "waterflow",
    abstract:
      "A headless iOS waterfall (瀑布流) control: layout, reuse, rendering and golden images.",
    discussion: """
      Every command reads a scene file (JSON, or a shop plist of {w, h, img, price}); see the README \
      for its keys. Commands print text by default and JSON with --json.
      """,
    subcommands: [
      RenderCommand.self, ScrollCommand.self, DiffCommand.self,
      GoldenCommand.self, LayoutCommand.self, VisibleCommand.self,
      TapCommand.self, TraceCommand.self, ShotsCommand.self, BenchCommand.self, ObjCRewriteCommand.self, PreviewCommand.self,
    ]
  )

  // Not ArgumentParser's `version:`, a fixed string: the font stack is read from the files, and
  // only when asked, so that other commands do not pay for hashing the font.
  @Flag(help: "Print the version and the font stack (libraries and font files), then exit.")
  var version = false

  func run() throws {
    guard version else { throw CleanExit.helpRequest(self) }
    emit(VersionText.text())
  }

  /// ArgumentParser's own main, except that once a signal has interrupted a writing command
  /// (see `installInterruptionCleanup`), the cleanup thread alone prints and exits: an error the
  /// interruption caused (a refused commit, a killed ffmpeg) would only mislead. The `waterflow`
  /// launcher runs the plainest `diff` command line itself and starts this program for the rest.
  static func main() {
    // The commands that draw text get their fonts ready on another core while the arguments
    // are parsed and the scene is loaded; the others never pay for it.
    // An array, not a Set: hashing strings costs a command's start-up more than four compares.
    let drawing = ["render", "scroll", "shots", "golden"]
    if CommandLine.arguments.count > 1, drawing.contains(CommandLine.arguments[1]) {
      FontStack.prepareForProgram()
    }
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let code as ExitCode {
      // What exit(withError:) does for an ExitCode, without the help machinery it first builds
      // for the whole command tree (a sixth of a small `diff` that finds differences).
      Interruption.waitIfInterrupted()
      Foundation.exit(code.rawValue)
    } catch {
      Interruption.waitIfInterrupted()
      exit(withError: error)
    }
    Interruption.waitIfInterrupted()
  }
}
