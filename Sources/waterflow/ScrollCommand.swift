import ArgumentParser

struct ScrollCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scroll", abstract: "Render a simulated scroll as frames (not yet available).")

  func run() throws { throw CLIError("waterflow scroll is not built yet") }
}
