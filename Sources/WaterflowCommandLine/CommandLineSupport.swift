// The pieces every command of the `waterflow` tool shares: scenes, streamed output, images.
// A module of their own so that the commands can live in modules of their own (the benchmarks in
// WaterflowBench), each small enough to read whole. Errors, output and interruption are
// CommandLineCore's, which `waterflow diff` runs without cairo; it comes with this module.
@_exported import CommandLineCore
import ArgumentParser
import Cairo
import FileTransactions
import Foundation
import WaterflowJSON
import WaterflowRender
import WaterflowScene

package struct SceneArgument: ParsableArguments {
  @Argument(
    help:
      "The scene file (JSON), or shop data (a plist or JSON array of {w, h, img, price})."
  )
  package var scene: String

  @Flag(help: "Print JSON instead of text.")
  package var json = false

  package init() {}

  package func load() throws -> Scene { try Self.load(scene) }
}

/// Streams output to standard output as `body` writes it: memory stays the same whatever the
/// item count.
///
/// - Throws: ``CLIError`` when standard output cannot be written (a full disk).
package func stream(_ body: (JSONWriter) -> Void) throws {
  var failure: Int32 = 0
  do {
    let out = JSONWriter { bytes in
      if failure == 0 { failure = writeAll(STDOUT_FILENO, bytes) }
    }
    body(out)
    out.flush()
  }
  if failure != 0 {
    throw CLIError(
      "Cannot write to standard output: \(String(cString: strerror(failure)).lowercased())."
    )
  }
}

extension SceneArgument {
  package static func load(_ path: String) throws -> Scene {
    do { return try Scene(contentsOf: path) } catch {
      throw CLIError(error.description)
    }
  }
}

extension SceneController {
  /// Scrolls to an offset in steps (so reuse happens on the way, as on a phone), or jumps.
  package func scroll(to target: Double, step: Double) {
    view.layoutSubviews()
    if step > 0 {
      view.scroll(to: target, step: step)
    } else {
      view.scroll(to: target)
    }
  }
}

/// Warns about images that could not be loaded; a corrupt image is an error.
package func reportImages(_ images: ImageStore) throws {
  for line in ImageStore.warnings(for: images.failures.filter { !images.corrupt.contains($0.key) }) {
    warn("warning: " + line)
  }
  if let path = images.corrupt.sorted().first {
    throw CLIError(
      "\(images.failures[path]!) Fix or remove the image; nothing was written.")
  }
}

/// Progress and summaries go to stderr only when someone is watching.
package func warnIfTerminal(_ text: String) {
  if isatty(STDERR_FILENO) == 1 { warn(text) }
}

extension Duration {
  /// The duration in seconds, as a `Double`: what the commands print and the benchmarks report.
  package var inSeconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}

/// Opens a local page (the review, the preview) with the desktop's browser, when there is a
/// desktop to show it; says so on standard error when there is none.
package func openBrowser(_ address: String) {
  let environment = ProcessInfo.processInfo.environment
  guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil,
    let opener = ["/usr/bin/xdg-open", "/usr/bin/open"].first(where: FileManager.default.isExecutableFile)
  else {
    warn("note: no display, so no browser was opened; open the address above.")
    return
  }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: opener)
  process.arguments = [address]
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try? process.run()
}
