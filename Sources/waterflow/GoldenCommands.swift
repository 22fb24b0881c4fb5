import ArgumentParser

struct DiffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff", abstract: "Compare two PNG images (not yet available).")

  func run() throws { throw CLIError("waterflow diff is not built yet") }
}

struct GoldenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "golden", abstract: "Check, record and prune golden images (not yet available).")

  func run() throws { throw CLIError("waterflow golden is not built yet") }
}
