import Foundation
import WaterflowScene

#if canImport(Glibc)
import Glibc
#endif

/// A text file written piece by piece to a temporary file, renamed over its path on ``commit()``.
///
/// Long animations stream their trace and frame list to disk instead of holding them; a reader
/// sees the old file or the whole new one, never half of it.
final class AtomicTextFile {
  let path: String
  private let temporary: String
  private let handle: UnsafeMutablePointer<FILE>
  private var done = false

  init(path: String) throws {
    self.path = path
    let directory = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    var template = Array(
      ((directory.isEmpty ? "" : directory + "/") + ".\(name).tmp-XXXXXX")
        .utf8CString)
    let fd = template.withUnsafeMutableBufferPointer {
      mkstemp($0.baseAddress!)
    }
    guard fd >= 0, let file = fdopen(fd, "w") else {
      throw ScrollJobError(
        "Cannot write '\(path)': \(String(cString: strerror(errno))).")
    }
    temporary = template.withUnsafeBufferPointer {
      String(cString: $0.baseAddress!)
    }
    handle = file
    let mask = umask(0)
    umask(mask)
    fchmod(fd, 0o644 & ~mask)
  }

  func write(_ text: String) {
    fputs(text, handle)
  }

  func write(_ bytes: UnsafeRawBufferPointer) {
    fwrite(bytes.baseAddress, 1, bytes.count, handle)
  }

  func commit() throws {
    done = true
    let failed = ferror(handle) != 0
    guard fclose(handle) == 0, !failed, rename(temporary, path) == 0 else {
      unlink(temporary)
      throw ScrollJobError(
        "Cannot write '\(path)': \(String(cString: strerror(errno))).")
    }
  }

  deinit {
    if !done {
      fclose(handle)
      unlink(temporary)
    }
  }
}

/// The per-frame trace: CSV, or JSON records in the format of `waterflow trace --json`.
///
/// Each JSON record is the `waterflow trace --json` record of the frame's layout pass (event,
/// offset, displayed, created, reused, enqueued, poolSize) preceded by `frame` and `time`.
/// CSV has one row per frame: `frame,time,offset,event,displayed,created,reused,enqueued,poolSize`
/// where `displayed` lists the indices (space-separated) and the next three are counts.
final class TraceWriter {
  enum Format { case csv, json }

  private let file: AtomicTextFile
  private let out: JSONWriter
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
    let file = try AtomicTextFile(path: path)
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
