import ArgumentParser
import Foundation
import WaterflowCommandLine
import WaterflowGolden
import WaterflowPreview
import WaterflowReview

struct PreviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "preview",
    abstract: "Serve a live preview of a scene, shot file or golden manifest: pinned screens redrawn on every save.",
    discussion: """
      Serves a page on 127.0.0.1 only; the first line printed is \
      `Preview at http://127.0.0.1:PORT/?token=TOKEN`. The page shows pins: screens of the file at \
      an offset, on a device (or the scene's own viewport), in an appearance and a locale. A \
      scene gets four to start with (the top, and one screen down, light and dark); a shot file \
      gets every shot. Pins added or removed on the page are saved beside the file, in \
      FILE.preview.json, so a team can commit them. A golden manifest's pins are its goldens, \
      each beside its recording with `golden check`'s verdict; Accept (or a) records one anew.

      Every file the pins read is watched (the scene, its templates, data, imports, images, \
      string tables, style and shot file): a save redraws the pins it concerns, on every core, \
      and the page swaps their images without reloading, outlined, with a blink of old against \
      new. A save that breaks the file shows the error where the pins are, as this command line \
      prints it, over the last good images; fixing the file clears it. Record (or r) adds the \
      selected pin to the manifest as a golden named from the scene and the pin, and writes it \
      with `golden record`.

      What a designer checks, one key each: f shows every cell's frame and its template's boxes \
      (padding, spacing, elements) with the texts' baselines; t marks the texts cut with "…"; s \
      shows the selected pin's contact strip (its screen scrolled from the top, cells created and \
      reused marked); hovering a cell shows its item's data. Pins are sent at most \
      \(PreviewSession.shownWidth) pixels wide; "full" opens one at its device's size. Ctrl-C \
      stops the preview. Refused when CI is set.
      """)

  @Argument(help: ArgumentHelp("The scene, shot file or golden manifest.", valueName: "file.json"))
  var file: String
  @Option(help: "The port on 127.0.0.1; 0 takes any free one.")
  var port = 0
  @Flag(name: .customLong("no-open"), help: "Do not open a browser (none is opened without a display either).")
  var noOpen = false
  @Option(
    help: ArgumentHelp(
      "Draw pins at most this many pixels per point (default: each device's own). The layout is the same; 1 draws a 3× phone in a ninth of the pixels.",
      valueName: "scale"))
  var scale: Double?
  @Option(help: "The golden manifest a pin is recorded into (the page's Record, or r); created when missing.")
  var manifest = "Golden/manifest.json"

  func validate() throws {
    guard (0...65535).contains(port) else {
      throw ValidationError("The value '\(port)' is invalid for '--port <port>': use 0 to 65535.")
    }
    if let scale, !(0.25...4).contains(scale) {
      throw ValidationError("The value '\(scale)' is invalid for '--scale <scale>': use 0.25 to 4.")
    }
  }

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    if GoldenConfiguration.isCIEnvironment(environment) {
      throw CLIError(
        "Refusing to start the preview: CI is set (CI=\(environment["CI"] ?? "")), and nobody is there to look. Preview on a development machine.")
    }
    let session: PreviewSession
    do { session = try PreviewSession(file: file, scale: scale) } catch { throw CLIError(error.description) }
    // A manifest's preview records into that manifest.
    let manifest = session.isManifest ? file : self.manifest
    let site = PreviewSite(session: session, manifest: manifest) { golden in
      do throws(PreviewError) { try golden.add(to: manifest) } catch { return .failure(error) }
      return Self.record(golden.name, manifest: manifest)
    }
    let server = ReviewServer(site: site)
    do { _ = try server.start(port: port) } catch { throw CLIError("\(error)") }
    emit("Preview at \(site.address)")
    warn(
      session.isManifest
        ? "\(session.pins.count) goldens of \(file), checked on every save; Ctrl-C here to stop."
        : "\(session.pins.count) pins of \(file), saved in \(PreviewPins.path(for: file)) when changed; Ctrl-C here to stop.")
    if !noOpen { openBrowser(site.address) }
    dispatchMain()
  }

  /// Records one golden exactly as `waterflow golden record --manifest M NAME` does: by running
  /// this binary so, and passing on what it says.
  static func record(_ name: String, manifest: String) -> Result<String, PreviewError> {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    if !FileManager.default.isExecutableFile(atPath: process.executableURL!.path) {
      process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    }
    process.arguments = ["golden", "record", "--manifest", manifest, name]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    do { try process.run() } catch { return .failure(PreviewError("Cannot run `golden record`: \(error)")) }
    let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    emit(said)
    return process.terminationStatus == 0 ? .success(said) : .failure(PreviewError(said))
  }
}
