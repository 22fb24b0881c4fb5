internal import Cairo
internal import FileTransactions
internal import Foundation
internal import Synchronization
internal import WaterflowComparison

/// The parts of a data file, each with a digest, so that a changed input can be named down to
/// its field: `items[3].data.title` in a scene, `line 6 likes` in JSON lines, `line 6` in CSV.
///
/// A golden's inputs file keeps one digest per file (small enough to commit). The parts of each
/// file content are kept in the user's cache folder, by the file's digest, when the inputs are
/// written; a later check that finds the file changed compares the parts of both contents. On a
/// machine that never saw the old content (a fresh CI runner) the file alone is named.
enum GoldenInputParts {
  /// The most parts kept of one file, the shallowest first: a feed of ten thousand rows keeps
  /// its rows and leaves its fields to the file's name.
  static let budget = 4096
  /// Files larger than this are named whole.
  static let largestFile = 4 << 20

  /// The folder of the cached parts; nil without a cache folder.
  static let directory: String? = FontDigests.userCacheDirectory(ProcessInfo.processInfo.environment)
    .map { $0 + "/input-parts" }

  /// The digests already known to be cached, so a run writes each content's parts once.
  private static let cached = Mutex<Set<String>>([])

  /// Keeps the parts of a file's content under its digest, unless they are kept already.
  static func keep(_ path: String, digest: String) {
    guard let directory, digest != FileDigests.missing, isPartitioned(path),
      cached.withLock({ $0.insert(digest).inserted })
    else { return }
    let file = directory + "/" + digest.replacingOccurrences(of: ":", with: "-")
    guard !FileManager.default.fileExists(atPath: file), let parts = parts(of: path) else { return }
    let text = parts.sorted { $0.key < $1.key }.map { $0.value + " " + $0.key }.joined(separator: "\n")
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    // A cache: a failure to write it only costs the finer message later.
    try? writeAtomically(Array(text.utf8), to: file)
  }

  /// The parts of a content kept under its digest; nil when none were kept.
  static func kept(digest: String) -> [String: String]? {
    guard let directory,
      let text = try? String(
        contentsOfFile: directory + "/" + digest.replacingOccurrences(of: ":", with: "-"), encoding: .utf8)
    else { return nil }
    var parts: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let space = line.firstIndex(of: " ") else { continue }
      parts[String(line[line.index(after: space)...])] = String(line[..<space])
    }
    return parts
  }

  /// The deepest parts that differ between two contents of a file, at most `limit` of them,
  /// with how many more there are; nil when the old parts are unknown.
  static func changes(in path: String, from old: String, to new: String, limit: Int = 3)
    -> (parts: [String], more: Int)?
  {
    guard isPartitioned(path), let before = kept(digest: old), let now = parts(of: path) else {
      return nil
    }
    var changed = Set(before.keys.filter { now[$0] != before[$0] })
    changed.formUnion(now.keys.filter { before[$0] == nil })
    // A container changes with its child: name the child.
    let deepest = changed.filter { part in
      !changed.contains { $0 != part && ($0.hasPrefix(part + ".") || $0.hasPrefix(part + "[") || $0.hasPrefix(part + " ")) }
    }.sorted { a, b in a.count != b.count ? a.count < b.count : a < b }
    return (Array(deepest.prefix(limit)), max(0, deepest.count - limit))
  }

  static func isPartitioned(_ path: String) -> Bool {
    let lower = path.lowercased()
    return lower.hasSuffix(".json") || lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson")
      || lower.hasSuffix(".csv")
  }

  /// Each part's digest, by its path in the file; nil when the file cannot be read or parsed.
  static func parts(of path: String) -> [String: String]? {
    guard let data = FileManager.default.contents(atPath: path), data.count <= largestFile else {
      return nil
    }
    let lower = path.lowercased()
    var out: [String: String] = [:]
    if lower.hasSuffix(".json") {
      guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      else { return nil }
      walk([("", value)], into: &out)
      return out
    }
    // Rows: a line each, and for JSON lines each row's fields.
    var rows: [(String, Any)] = []
    for (i, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
      let number = "line \(i + 1)"
      out[number] = fnv1a64Hex(line)
      if !lower.hasSuffix(".csv"), let row = try? JSONSerialization.jsonObject(with: Data(line)) {
        rows.append((number, row))
      }
    }
    var fields: [String: String] = [:]
    walk(rows, into: &fields)
    for (key, value) in fields where out.count < budget && out[key] == nil { out[key] = value }
    return out
  }

  /// The digests of the values' nodes, breadth first, within the budget; a container's digest
  /// is its whole content's. A row's fields follow its line number after a space
  /// (`line 6 likes`), every other step after a dot or in brackets (`items[3].data.title`).
  private static func walk(_ roots: [(String, Any)], into out: inout [String: String]) {
    var queue = roots.map { (path: $0.0, value: $0.1, isRow: !$0.0.isEmpty) }[...]
    while let (path, value, isRow) = queue.popFirst(), out.count < budget {
      if let object = value as? [String: Any] {
        let separator = path.isEmpty ? "" : (isRow ? " " : ".")
        for key in object.keys.sorted() {
          queue.append((path + separator + key, object[key]!, false))
        }
      } else if let array = value as? [Any] {
        for (k, element) in array.enumerated() { queue.append(("\(path)[\(k)]", element, false)) }
      }
      if !path.isEmpty { out[path] = fnv1a64Hex(canonical(value).utf8) }
    }
  }

  /// A value as text that is equal exactly when the values are (keys sorted).
  private static func canonical(_ value: Any) -> String {
    if let object = value as? [String: Any] {
      return "{" + object.keys.sorted().map { "\($0.debugDescription):\(canonical(object[$0]!))" }.joined(separator: ",") + "}"
    }
    if let array = value as? [Any] { return "[" + array.map(canonical).joined(separator: ",") + "]" }
    if let string = value as? String { return string.debugDescription }
    if value is NSNull { return "null" }
    return "\(value)"
  }
}
