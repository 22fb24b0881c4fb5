import ArgumentParser
internal import SystemPackage
import FileTransactions
import Foundation
import WaterflowGolden

/// One golden's results without its images: everything the text and JSON lines, the JUnit
/// file, the annotations and the report need. A check makes one per golden and drops the
/// images, so memory stays flat; a shard saves them for `golden merge`.
struct GoldenRecord: Codable, Sendable {
  /// The entry's position in the manifest: merged shards are put back in this order.
  var index: Int
  var name: String
  /// `passed`, `failed` or `recorded`, as `--json` prints it.
  var status: String
  /// `FAIL`, `MISSING`, `RECORDED` or `ok`, the text line's first column.
  var label: String
  /// The rest of the text line: the one-line summary.
  var detail: String
  /// The lines printed under a failure (the message without the summary), or empty.
  var message: String
  /// The `--json` line.
  var json: String
  var junit: JUnitReport.Case
  var report: GoldenReportEntry
  /// Why it failed, shared with the other goldens that failed for the same reason.
  var cause: GoldenCause?
  /// What `golden review` shows of a failure, and the digest an accept compares (absent from
  /// folders written before the review existed).
  var review: GoldenReviewItem?

  var failed: Bool { status == "failed" }
  var recorded: Bool { status == "recorded" }

  /// The record of an outcome; `imageKey` names an artifact inside the artifacts folder.
  init(
    index: Int, outcome o: GoldenSequenceOutcome, digest: String, imageKey: (String) -> String
  ) {
    self.index = index
    name = o.name
    status = o.statusWord
    if o.isFailure {
      label = o.isMissingOnly ? "MISSING" : "FAIL"
    } else {
      label = o.frames.contains(where: \.didRecord) ? "RECORDED" : "ok"
    }
    detail = o.summary
    message = o.isFailure ? o.details : ""
    json = GoldenRunOptions.json(o).rendered()
    junit = o.junitCase
    report = GoldenReportEntry(o, imageKey: imageKey)
    cause = GoldenCause(o)
    review = GoldenReviewItem(o, digest: digest, imageKey: imageKey)
  }
}

/// What the summary line and the report's header say about a run as a whole.
struct GoldenRunInfo: Codable, Sendable {
  /// The results folder's format; a merge refuses others.
  var format = 1
  var verb: String
  var manifest: String
  /// This part, `i/n` (`1/1` for a whole run).
  var shard: String
  /// How many goldens all the parts together hold.
  var selected: Int
  var recordMode: String
  var isCI: Bool
  var artifacts: String
  var fontStack: String
  var fontStackChanges: [String]
}

/// Prints records as they come and writes the run's files at the end: one code path for
/// `golden check` and `golden merge`, so a merge prints what an unsharded run prints.
struct GoldenOutput {
  var json: Bool
  /// The width of the name column: the longest name of the whole run.
  var width: Int
  /// Print GitHub annotations for failures (GITHUB_ACTIONS=true).
  var annotate: Bool
  /// Print on standard error: a review's standard output starts with its address.
  var toStandardError = false

  private func write(_ text: String) {
    if toStandardError { warn(text.hasSuffix("\n") ? String(text.dropLast()) : text) } else { emit(text) }
  }

  /// Prints one golden: its text lines or JSON line, and its annotation.
  func show(_ r: GoldenRecord) {
    if json {
      write(r.json)
    } else {
      let label = r.label.padding(toLength: 8, withPad: " ", startingAt: 0)
      let name = r.name.padding(toLength: max(width, r.name.count), withPad: " ", startingAt: 0)
      write("\(label)  \(name)  \(r.detail)")
      // A review shows each failure's message on its page; its terminal keeps one line each.
      if r.failed && !toStandardError {
        write(
          r.message.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "    " + $0 }.joined(separator: "\n"))
      }
    }
    if annotate, r.failed, let failure = r.junit.failure {
      let line = GitHubAnnotation(file: r.junit.file, title: r.name, message: failure.message).line
      // With --json, standard output is for JSON lines; GitHub reads commands on both streams.
      if json { warn(line) } else { write(line) }
    }
  }

  /// Prints the failures grouped by cause, each group with the command that accepts it: one
  /// intended change that failed five goldens is one command, and a cause of its own stands out.
  func showCauses(_ records: [GoldenRecord], manifest: String) {
    let groups = GoldenCause.groups(records.compactMap { r in r.cause.map { (r.name, $0) } })
    // Only when some cause is shared: a list of causes each of one golden repeats the lines above.
    let failures = records.count(where: \.failed)
    guard groups.count < failures else { return }
    // The manifest is named only when it is not the one the command finds by itself.
    let option = manifest == "Golden/manifest.json" ? "" : " --manifest \(manifest)"
    write("Failures by cause:")
    for (cause, names) in groups {
      let count = names.count == 1 ? "1 golden" : "\(names.count) goldens"
      write("  \(cause.verdict): \(cause.summary) (\(count))")
      let verb = cause.verdict == "missing" ? "record" : "accept"
      write("    \(verb) with: waterflow golden record " + names.joined(separator: " ") + option)
    }
  }

  /// Prints the summary line and writes the JUnit file and the report.
  ///
  /// - Parameters:
  ///   - records: Every golden, in manifest order.
  ///   - imagePath: Where an image key of a record is on disk.
  func finish(
    _ records: [GoldenRecord], info: GoldenRunInfo, shardNote: String?, report: String?,
    junit: String?, imagePath: (Int, String) -> String?
  ) throws {
    let failed = records.count { $0.failed }
    let recorded = records.count { $0.recorded }
    if !json && failed > 1 { showCauses(records, manifest: info.manifest) }
    if !json {
      var summary = "\(records.count) golden\(records.count == 1 ? "" : "s")"
      if let shardNote { summary += " (\(shardNote))" }
      summary += ": \(records.count - failed - recorded) passed, \(failed) failed"
      if recorded > 0 { summary += ", \(recorded) recorded" }
      summary += " (record mode \(info.recordMode)\(info.isCI ? ", CI" : ""))."
      if failed > 0 { summary += " Artifacts in \(info.artifacts)." }
      write(summary)
    }
    if let junit {
      try JUnitReport(name: "waterflow golden \(info.verb)", cases: records.map(\.junit))
        .write(to: junit)
      if !json { write("junit: \(junit)") }
    }
    if let report {
      // Keys are unique within a record; the record's position tells which folder holds it.
      var owner: [String: Int] = [:]
      for (i, r) in records.enumerated() { for key in r.report.images { owner[key] = i } }
      var page = GoldenReport(
        title: "waterflow golden \(info.verb)", entries: records.map(\.report),
        fontStack: info.fontStack, fontStackChanges: info.fontStackChanges)
      page.recordCommand =
        "waterflow golden record" + (info.manifest == "Golden/manifest.json" ? "" : " --manifest \(info.manifest)")
      let folder = try page.write(to: report) { key in owner[key].flatMap { imagePath($0, key) } }
      if !json { write("report: \(report)" + (folder.map { " (images in \($0))" } ?? "")) }
    }
    if failed > 0 { throw ExitCode(1) }
  }
}

/// A `--results` folder: `run.json`, one `goldens/NNNNN.json` per golden, and the artifacts of
/// its failures under `artifacts/`, by their path inside the artifacts folder. It is staged and
/// put in place at the end, so a folder never mixes two runs.
struct GoldenResultsFolder {
  let staged: StagedFolder

  static let kind = StagedFolder.Kind(marker: "run.json") {
    ["run.json", "goldens", "artifacts"].contains($0)
  }

  init(replacing directory: String) throws {
    do { staged = try StagedFolder(replacing: directory, kind: Self.kind) } catch {
      throw CLIError("\(error)")
    }
    for folder in ["goldens", "artifacts"] {
      try FileManager.default.createDirectory(
        atPath: staged.path + "/" + folder, withIntermediateDirectories: true)
    }
  }

  /// Saves a record and copies its images; safe to call from several threads at once.
  func save(_ record: GoldenRecord, artifacts: String) throws {
    for key in record.report.images {
      let target = staged.path + "/artifacts/" + key
      try FileManager.default.createDirectory(
        atPath: FilePath(target).removingLastComponent().string, withIntermediateDirectories: true)
      let bytes = FileManager.default.contents(atPath: artifacts + "/" + key) ?? Data()
      try write(Array(bytes), to: target)
    }
    try write(Self.encode(record), to: staged.path + "/goldens/" + Self.fileName(record.index))
  }

  func commit(_ info: GoldenRunInfo) throws {
    try write(Self.encode(info), to: staged.path + "/run.json")
    do { try staged.commit() } catch { throw CLIError("\(error)") }
  }

  func discard() { staged.discard() }

  static func fileName(_ index: Int) -> String { String(format: "%05d.json", index) }

  static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value)) + [0x0A]
  }

  /// Reads a results folder.
  ///
  /// - Throws: ``CLIError`` naming the file, and the field when one is wrong.
  static func load(_ directory: String) throws -> (info: GoldenRunInfo, records: [GoldenRecord]) {
    let info: GoldenRunInfo = try decode(directory + "/run.json", hint: "is this a folder written by `golden check --results`?")
    guard info.format == 1 else {
      throw CLIError("\(directory)/run.json: format: \(info.format) is not 1; merge with the Waterflow version that wrote it.")
    }
    let folder = directory + "/goldens"
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
      .filter { $0.hasSuffix(".json") }.sorted()
    var records: [GoldenRecord] = []
    for file in files {
      records.append(try decode(folder + "/" + file, hint: "write the folder again with `golden check --results`."))
    }
    return (info, records)
  }

  private static func decode<T: Decodable>(_ path: String, hint: String) throws -> T {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CLIError("\(path): cannot be read (\(FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")); \(hint)")
    }
    do { return try JSONDecoder().decode(T.self, from: data) } catch let error as DecodingError {
      func field(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
      }
      let text: String
      switch error {
      case .keyNotFound(let key, let context):
        text = "\(field(context.codingPath + [key])): missing"
      case .typeMismatch(_, let context), .valueNotFound(_, let context):
        text = "\(field(context.codingPath)): \(context.debugDescription)"
      case .dataCorrupted(let context):
        text = context.codingPath.isEmpty ? "not valid JSON" : "\(field(context.codingPath)): \(context.debugDescription)"
      @unknown default: text = "\(error)"
      }
      throw CLIError("\(path): \(text); \(hint)")
    }
  }
}
