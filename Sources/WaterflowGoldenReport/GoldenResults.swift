internal import FileTransactions
internal import Foundation
public import WaterflowGolden
internal import SystemPackage
#if canImport(Glibc)
internal import Glibc
#endif

/// One golden's results without its images: everything the text and JSON lines, the JUnit
/// file, the annotations and the report need. A check makes one per golden and drops the
/// images, so memory stays flat; a shard saves them for `golden merge`.
public struct GoldenRecord: Codable, Sendable {
  /// The entry's position in the manifest: merged shards are put back in this order.
  public var index: Int
  public var name: String
  /// `passed`, `failed` or `recorded`, as `--json` prints it.
  public var status: String
  /// `FAIL`, `MISSING`, `RECORDED` or `ok`, the text line's first column.
  public var label: String
  /// The rest of the text line: the one-line summary.
  public var detail: String
  /// The lines printed under a failure (the message without the summary), or empty.
  public var message: String
  /// The `--json` line.
  public var json: String
  public var junit: JUnitReport.Case
  public var report: GoldenReportEntry
  /// Why it failed, shared with the other goldens that failed for the same reason.
  public var cause: GoldenCause?
  /// What `golden review` shows of a failure, and the digest an accept compares (absent from
  /// folders written before the review existed).
  public var review: GoldenReviewItem?

  public var failed: Bool { status == "failed" }
  public var recorded: Bool { status == "recorded" }

  /// The record of an outcome; `imageKey` names an artifact inside the artifacts folder.
  ///
  /// - Parameters:
  ///   - index: The entry's position in the manifest.
  ///   - o: The outcome, with its artifacts written.
  ///   - json: The golden's `--json` line.
  ///   - digest: `GoldenStore.digest(of:)` after the check, for a failure (the review compares it).
  ///   - imageKey: The key of an artifact's path inside the artifacts folder.
  public init(
    index: Int, outcome o: GoldenSequenceOutcome, json: String, digest: String,
    imageKey: (String) -> String
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
    self.json = json
    junit = o.junitCase
    report = GoldenReportEntry(o, imageKey: imageKey)
    cause = GoldenCause(o)
    review = GoldenReviewItem(o, digest: digest, imageKey: imageKey)
  }
}

/// What the summary line and the report's header say about a run as a whole.
public struct GoldenRunInfo: Codable, Sendable {
  /// The results folder's format; a merge refuses others.
  public var format = 1
  public var verb: String
  public var manifest: String
  /// This part, `i/n` (`1/1` for a whole run).
  public var shard: String
  /// How many goldens all the parts together hold.
  public var selected: Int
  public var recordMode: String
  public var isCI: Bool
  public var artifacts: String
  public var fontStack: String
  public var fontStackChanges: [String]

  /// Describes a run.
  public init(
    verb: String, manifest: String, shard: String, selected: Int, recordMode: String, isCI: Bool,
    artifacts: String, fontStack: String, fontStackChanges: [String]
  ) {
    self.verb = verb
    self.manifest = manifest
    self.shard = shard
    self.selected = selected
    self.recordMode = recordMode
    self.isCI = isCI
    self.artifacts = artifacts
    self.fontStack = fontStack
    self.fontStackChanges = fontStackChanges
  }
}

/// A `--results` folder: `run.json`, one `goldens/NNNNN.json` per golden, and the artifacts of
/// its failures under `artifacts/`, by their path inside the artifacts folder. It is staged and
/// put in place at the end, so a folder never mixes two runs.
public struct GoldenResultsFolder: Sendable {
  private let staged: StagedFolder

  private static let kind = StagedFolder.Kind(marker: "run.json") {
    ["run.json", "goldens", "artifacts"].contains($0)
  }

  public init(replacing directory: String) throws {
    do { staged = try StagedFolder(replacing: directory, kind: Self.kind) } catch {
      throw GoldenError(.file, "\(error)")
    }
    for folder in ["goldens", "artifacts"] {
      try FileManager.default.createDirectory(
        atPath: staged.path + "/" + folder, withIntermediateDirectories: true)
    }
  }

  /// Saves a record and links (or copies) its images; safe to call from several threads at once.
  public func save(_ record: GoldenRecord, artifacts: String) throws {
    for key in record.report.images {
      let target = staged.path + "/artifacts/" + key
      try FileManager.default.createDirectory(
        atPath: FilePath(target).removingLastComponent().string, withIntermediateDirectories: true)
      // A run with a thousand failing photo goldens wrote 3.2 GB of copies.
      try linkOrCopy(artifacts + "/" + key, to: target) { bytes, path throws(GoldenError) in
        try Self.write(bytes, to: path)
      }
    }
    try Self.write(Self.encode(record), to: staged.path + "/goldens/" + Self.fileName(record.index))
  }

  public func commit(_ info: GoldenRunInfo) throws {
    try Self.write(Self.encode(info), to: staged.path + "/run.json")
    do { try staged.commit() } catch { throw GoldenError(.file, "\(error)") }
  }

  public func discard() { staged.discard() }

  private static func write(_ bytes: [UInt8], to path: String) throws(GoldenError) {
    // A `FileWriteError` names the path itself ("Cannot write 'PATH': reason.").
    do { try writeAtomically(bytes, to: path) } catch {
      throw GoldenError(.file, error.description)
    }
  }

  public static func fileName(_ index: Int) -> String { String(format: "%05d.json", index) }

  public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value)) + [0x0A]
  }

  /// Reads a results folder.
  ///
  /// - Throws: `GoldenError` naming the file, and the field when one is wrong.
  public static func load(_ directory: String) throws -> (info: GoldenRunInfo, records: [GoldenRecord]) {
    let info: GoldenRunInfo = try decode(directory + "/run.json", hint: "is this a folder written by `golden check --results`?")
    guard info.format == 1 else {
      throw GoldenError(.file, "\(directory)/run.json: format: \(info.format) is not 1; merge with the Waterflow version that wrote it.")
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
      throw GoldenError(.file, "\(path): cannot be read (\(FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")); \(hint)")
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
      throw GoldenError(.file, "\(path): \(text); \(hint)")
    }
  }
}

extension GoldenResultsFolder {
  /// Reads the folders of every shard of one run, checking that they belong together and that
  /// none is missing: the records in manifest order, and the folder each came from.
  ///
  /// - Throws: `GoldenError` naming the folder's file and what does not fit.
  public static func loadAll(_ directories: [String]) throws -> (
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
          throw GoldenError(.configuration, 
            "\(directory)/run.json: shard: \(part.shard) of \(part.selected) goldens does not belong with \(first.shard) of \(first.selected) (from \(directories[0])).")
        }
      }
      if let other = shards[shard.index] {
        throw GoldenError(.configuration, "\(directory)/run.json: shard: \(part.shard) was already given as \(other).")
      }
      shards[shard.index] = directory
      info = info ?? part
      changes += part.fontStackChanges.filter { !changes.contains($0) }
      for record in found {
        if let other = home[record.index] {
          throw GoldenError(.configuration, 
            "\(directory)/goldens/\(GoldenResultsFolder.fileName(record.index)): golden '\(record.name)' is also in \(other).")
        }
        home[record.index] = directory
        records.append(record)
      }
    }
    guard var info else { throw GoldenError(.configuration, "No results folder given.") }
    let count = try GoldenShard(parsing: info.shard).count
    let missing = (1...count).filter { shards[$0] == nil }
    if !missing.isEmpty {
      throw GoldenError(.configuration, 
        "Missing shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")): merge all \(count) results folders, or the report would leave goldens out.")
    }
    guard records.count == info.selected else {
      throw GoldenError(.configuration, 
        "The folders hold \(records.count) goldens, but the run selected \(info.selected): a folder is incomplete (written by an interrupted or older run?).")
    }
    info.fontStackChanges = changes
    records.sort { $0.index < $1.index }
    return (info, records, home)
  }
}

/// Puts the image at `source` at `target`: a hard link where both folders share a file system,
/// else a copy that `write` writes (empty when `source` cannot be read). An artifact is never
/// changed in place (a new one is renamed over it), so the link keeps this run's image.
func linkOrCopy<E: Error>(
  _ source: String, to target: String, write: ([UInt8], String) throws(E) -> Void
) throws(E) {
  if link(source, target) == 0 { return }
  try write(Array(FileManager.default.contents(atPath: source) ?? Data()), target)
}
