import WaterflowCommandLine
import ArgumentParser
internal import SystemPackage
import FileTransactions
import Foundation
import WaterflowGolden
import WaterflowGoldenReport

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
      // A flaky golden has nothing to accept: recording it would keep one of its renderings.
      guard cause.verdict != "flaky" else {
        write("    draw each alone to narrow it down: waterflow golden check NAME --jobs 1" + option)
        continue
      }
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
      let skipped = records.count { $0.detail == GoldenOutcome.unchangedPhrase }
      if skipped > 0 { summary += " (\(skipped) of the passed unchanged, not drawn)" }
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
