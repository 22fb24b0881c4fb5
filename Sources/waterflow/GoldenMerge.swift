import ArgumentParser
import Foundation
import WaterflowGolden

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

extension GoldenResultsFolder {
  /// Reads the folders of every shard of one run, checking that they belong together and that
  /// none is missing: the records in manifest order, and the folder each came from.
  ///
  /// - Throws: ``CLIError`` naming the folder's file and what does not fit.
  static func loadAll(_ directories: [String]) throws -> (
    info: GoldenRunInfo, records: [GoldenRecord], home: [Int: String]
  ) {
    var info: GoldenRunInfo?
    var shards: [Int: String] = [:]
    var records: [GoldenRecord] = []
    var home: [Int: String] = [:]  // a record's index → its folder
    var changes: [String] = []
    for directory in directories {
      let (part, found) = try GoldenResultsFolder.load(directory)
      let shard = try GoldenShard(parsing: part.shard)
      if let first = info {
        guard part.selected == first.selected, part.shard.hasSuffix("/\(shard.count)"),
          first.shard.hasSuffix("/\(shard.count)")
        else {
          throw CLIError(
            "\(directory)/run.json: shard: \(part.shard) of \(part.selected) goldens does not belong with \(first.shard) of \(first.selected) (from \(directories[0])).")
        }
      }
      if let other = shards[shard.index] {
        throw CLIError("\(directory)/run.json: shard: \(part.shard) was already given as \(other).")
      }
      shards[shard.index] = directory
      info = info ?? part
      changes += part.fontStackChanges.filter { !changes.contains($0) }
      for record in found {
        if let other = home[record.index] {
          throw CLIError(
            "\(directory)/goldens/\(GoldenResultsFolder.fileName(record.index)): golden '\(record.name)' is also in \(other).")
        }
        home[record.index] = directory
        records.append(record)
      }
    }
    guard var info else { throw CLIError("No results folder given.") }
    let count = try GoldenShard(parsing: info.shard).count
    let missing = (1...count).filter { shards[$0] == nil }
    if !missing.isEmpty {
      throw CLIError(
        "Missing shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")): merge all \(count) results folders, or the report would leave goldens out.")
    }
    guard records.count == info.selected else {
      throw CLIError(
        "The folders hold \(records.count) goldens, but the run selected \(info.selected): a folder is incomplete (written by an interrupted or older run?).")
    }
    info.fontStackChanges = changes
    records.sort { $0.index < $1.index }
    return (info, records, home)
  }
}
