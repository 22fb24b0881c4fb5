import WaterflowCommandLine
import ArgumentParser
import Foundation
import WaterflowGolden
import WaterflowGoldenReport

struct GoldenMergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Merge the --results folders of sharded `golden check` runs into one run's outputs.",
    discussion: """
      Prints what one unsharded run prints (the same text or JSON lines, in manifest order), \
      writes one report and one JUnit file, and exits 1 when any golden failed. Every shard \
      1/n … n/n must be given exactly once. GitHub annotations are printed when \
      GITHUB_ACTIONS=true. Exit status: 0 all pass, 1 a golden failed, 2 for unreadable or \
      inconsistent folders.
      """)

  @Argument(help: "The folders `golden check --shard i/n --results DIR` wrote.")
  var directories: [String]
  @Option(help: ArgumentHelp("Write the HTML report.", valueName: "report.html"))
  var report: String?
  @Option(help: ArgumentHelp("Write a JUnit XML report.", valueName: "junit.xml"))
  var junit: String?
  @Flag(help: "Print one JSON object per golden instead of text.")
  var json = false

  func validate() throws {
    if directories.isEmpty { throw ValidationError("Give at least one results folder.") }
  }

  func run() throws {
    try exitingWithTwo {
      installInterruptionCleanup(promising: [report, junit])
      let (info, records, home) = try GoldenResultsFolder.loadAll(directories)
      let output = GoldenOutput(
        json: json, width: records.map(\.name.count).max() ?? 0,
        annotate: GitHubAnnotation.isEnabled(ProcessInfo.processInfo.environment))
      for record in records { output.show(record) }
      try output.finish(
        records, info: info, shardNote: nil, report: report, junit: junit,
        imagePath: { i, key in home[records[i].index].map { $0 + "/artifacts/" + key } })
    }
  }
}
