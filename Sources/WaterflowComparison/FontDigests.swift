package import Cairo
internal import FileTransactions
internal import Foundation
import Synchronization

/// The digests of font files (`Font.fileHash`), kept in a cache folder so that each file's
/// content is hashed once, not once per process.
///
/// Every `golden` command fingerprints its font stack, and hashing the default stack's 17 MB
/// (the 10 MB emoji font among them) took ~11 % of recording one golden, in every process.
///
/// The rule: a digest is reused for a file whose path and ``FileStamp`` (device, inode, size,
/// modification and status-change times in nanoseconds) equal those it was hashed at; any other
/// file is hashed. Writing the file, replacing it, or setting its time back each change the
/// stamp. A stamp less than ``settleTime`` old is not stored: file times tick coarsely (a few
/// milliseconds on Linux), so a file written again within one tick could keep its stamp with
/// other bytes, the "racily clean" case git guards against the same way; such a file is hashed
/// every time until it settles. A file that changed between being opened and hashed is not
/// stored either. The value of a fingerprint is the same with or without the cache.
///
/// The file is `$XDG_CACHE_HOME/waterflow/font-digests` (else `~/.cache/waterflow/…`), one line
/// per file, written to a temporary and renamed. A folder that cannot be read or written only
/// costs the hashing: nothing fails for it.
package struct FontDigests: Sendable {
  /// The cache folder; nil hashes every file (once per cache value).
  package let directory: String?
  /// How old a file's stamp must be, in seconds, before its digest is stored.
  package let settleTime: Double

  /// Creates a cache over a folder; nil hashes every file (once per cache value).
  package init(directory: String?, settleTime: Double = 2) {
    self.directory = directory
    self.settleTime = settleTime
  }

  /// The cache in the user's cache folder, as the XDG base directory specification places it.
  package static let shared = FontDigests(directory: userCacheDirectory(ProcessInfo.processInfo.environment))

  /// `$XDG_CACHE_HOME/waterflow`, else `$HOME/.cache/waterflow`; nil without either. A relative
  /// `XDG_CACHE_HOME` is ignored, as the specification says.
  package static func userCacheDirectory(_ environment: [String: String]) -> String? {
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/waterflow" }
    if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/waterflow" }
    return nil
  }

  /// The name of the cache file in ``directory``.
  package static let fileName = "font-digests"
  /// The first line of the file; another first line (a later format) is ignored.
  static let header = "waterflow font digests 1"
  /// At most this many lines are kept: a few stacks' worth, newest last.
  static let capacity = 64

  /// Digests this cache has already given, by path and stamp: a process asks again for each
  /// renderer it fingerprints, and `--version` for each font.
  private let known = Memo()

  private final class Memo: Sendable {
    let table = Mutex<[Key: String]>([:])
  }

  struct Key: Hashable {
    var path: String
    var stamp: FileStamp
  }

  /// The `Font.fileHash` of each font, in order: from this process, the cache file, or hashed.
  ///
  /// - Complexity: O(n) in the bytes of the fonts not cached, and in the cache file's lines.
  package func digests(of fonts: [Font]) -> [String] {
    let keys = fonts.map { Key(path: $0.path, stamp: $0.fileStamp) }
    var found = known.table.withLock { known in keys.map { known[$0] } }
    if !found.contains(nil) { return found.map { $0! } }
    var lines = directory.map { readLines(in: $0) } ?? []
    let stored = Dictionary(
      lines.compactMap { line in Self.parse(line).map { ($0.key, $0.digest) } },
      uniquingKeysWith: { _, last in last })
    var added: [String] = []
    let now = Int64(Date().timeIntervalSince1970 * 1e9)
    for (i, font) in fonts.enumerated() where found[i] == nil {
      if let digest = stored[keys[i]] {
        found[i] = digest
        continue
      }
      let digest = font.fileHash
      found[i] = digest
      let stamp = keys[i].stamp
      let settled = now - max(stamp.modified, stamp.changed) >= Int64(settleTime * 1e9)
      if settled, FileStamp(path: font.path) == stamp, !font.path.contains("\n") {
        // A path's older stamps are dropped: that file has changed since.
        lines.removeAll { Self.parse($0)?.key.path == font.path }
        let line = Self.line(keys[i], digest)
        added.append(line)
      }
    }
    known.table.withLock { known in
      for (key, digest) in zip(keys, found) { known[key] = digest }
    }
    if let directory, !added.isEmpty {
      write((lines + added).suffix(Self.capacity), in: directory)
    }
    return found.map { $0! }
  }

  /// The cache file's entries, without the header; none when it is missing or of another format.
  private func readLines(in directory: String) -> [String] {
    guard let data = FileManager.default.contents(atPath: directory + "/" + Self.fileName),
      let text = String(data: data, encoding: .utf8)
    else { return [] }
    let lines = text.split(separator: "\n").map(String.init)
    guard lines.first == Self.header else { return [] }
    return Array(lines.dropFirst())
  }

  /// Replaces the cache file; a failure is ignored (the next process hashes again).
  private func write(_ lines: some Sequence<String>, in directory: String) {
    let text = ([Self.header] + lines).joined(separator: "\n") + "\n"
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
      try writeAtomically(Array(text.utf8), to: directory + "/" + Self.fileName)
    } catch {}
  }

  /// `DIGEST DEVICE INODE SIZE MODIFIED CHANGED PATH`: the path last, as it may hold spaces.
  static func line(_ key: Key, _ digest: String) -> String {
    let s = key.stamp
    return "\(digest) \(s.device) \(s.inode) \(s.size) \(s.modified) \(s.changed) \(key.path)"
  }

  /// The key and digest of a line; nil for a line that is not one.
  static func parse(_ line: String) -> (key: Key, digest: String)? {
    let fields = line.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
    guard fields.count == 7, fields[0].hasPrefix("fnv1a64:"), !fields[6].isEmpty,
      let device = UInt64(fields[1]), let inode = UInt64(fields[2]), let size = Int64(fields[3]),
      let modified = Int64(fields[4]), let changed = Int64(fields[5])
    else { return nil }
    let stamp = FileStamp(
      device: device, inode: inode, size: size, modified: modified, changed: changed)
    return (Key(path: String(fields[6]), stamp: stamp), String(fields[0]))
  }
}
