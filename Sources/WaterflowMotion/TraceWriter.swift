import FileTransactions
internal import SystemPackage
import Foundation
import WaterflowScene

/// The per-frame trace: CSV, or JSON records in the format of `waterflow trace --json`.
///
/// Each JSON record is the `waterflow trace --json` record of the frame's layout pass (event,
/// offset, displayed, created, reused, enqueued, poolSize) preceded by `frame` and `time`.
/// CSV has one row per frame: `frame,time,offset,event,displayed,created,reused,enqueued,poolSize`
/// where `displayed` lists the indices (space-separated) and the next three are counts.
final class TraceWriter {
  enum Format { case csv, json }

  private let file: AtomicFile
  private let out: JSONWriter
  private let format: Format
  private var count = 0

  /// The format for a path, or nil unless it ends in .csv or .json.
  static func format(of path: String) -> Format? {
    switch (FilePath(path).extension ?? "").lowercased() {
    case "csv": .csv
    case "json": .json
    default: nil
    }
  }

  init(path: String) throws {
    guard let format = Self.format(of: path) else {
      throw ScrollJobError(
        "The trace '\(path)' has an unknown extension: use .csv or .json.")
    }
    self.format = format
    let file = try AtomicFile(path: path)
    self.file = file
    out = JSONWriter { file.write($0) }
    if format == .csv {
      out.write(
        "frame,time,offset,event,displayed,created,reused,enqueued,poolSize\n")
    } else {
      out.write("[")
    }
  }

  func append(_ frame: SimulatedFrame) {
    let p = frame.pass
    switch format {
    case .csv:
      let event =
        frame.event.map {
          "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\""
        } ?? ""
      let displayed = p.displayed.map { String($0.index) }.joined(
        separator: " ")
      out.write(
        "\(frame.number),\(frame.time.jsonText),\(p.offset.jsonText),\(event),\(displayed),"
          + "\(p.created.count),\(p.reused.count),\(p.enqueued.count),\(p.poolSize)\n"
      )
    case .json:
      out.write(count == 0 ? "\n  " : ",\n  ")
      out.writeTrace(p, event: frame.event, frame: (frame.number, frame.time))
    }
    count += 1
  }

  func commit() throws {
    if format == .json { out.write(count == 0 ? "]\n" : "\n]\n") }
    out.flush()
    try file.commit()
  }
}

/// A problem with a scroll job's outputs.
public struct ScrollJobError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}
