import FileTransactions
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
  private let format: Format
  private var count = 0

  /// The format for a path, or nil unless it ends in .csv or .json.
  static func format(of path: String) -> Format? {
    switch (path as NSString).pathExtension.lowercased() {
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
    file = try AtomicFile(path: path)
    if format == .csv {
      file.write(
        "frame,time,offset,event,displayed,created,reused,enqueued,poolSize\n")
    } else {
      file.write("[")
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
      file.write(
        "\(frame.number),\(JSONNumber.format(frame.time)),\(JSONNumber.format(p.offset)),\(event),\(displayed),"
          + "\(p.created.count),\(p.reused.count),\(p.enqueued.count),\(p.poolSize)\n"
      )
    case .json:
      file.write(count == 0 ? "\n  " : ",\n  ")
      file.write(Self.json(frame))
    }
    count += 1
  }

  func commit() throws {
    if format == .json { file.write(count == 0 ? "]\n" : "\n]\n") }
    try file.commit()
  }

  /// One record: `{"frame": …, "time": …, "event": …, "offset": …, "displayed": […], …}`.
  static func json(_ frame: SimulatedFrame) -> String {
    func cells(_ list: [DisplayedCell]) -> String {
      "["
        + list.map { "{\"index\": \($0.index), \"cell\": \($0.cell)}" }.joined(
          separator: ",") + "]"
    }
    let p = frame.pass
    var out =
      "{\"frame\": \(frame.number), \"time\": \(JSONNumber.format(frame.time)), "
    if let e = frame.event { out += "\"event\": \"\(e)\", " }
    out +=
      "\"offset\": \(JSONNumber.format(p.offset)), \"displayed\": \(cells(p.displayed)), \"created\": \(cells(p.created)), "
    out +=
      "\"reused\": \(cells(p.reused)), \"enqueued\": \(cells(p.enqueued)), \"poolSize\": \(p.poolSize)}"
    return out
  }
}

/// A problem with a scroll job's outputs.
public struct ScrollJobError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}
