#if canImport(FoundationEssentials)
  internal import FoundationEssentials
#else
  internal import Foundation
#endif
internal import SystemPackage

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Names, makes and sweeps the temporary files and folders that writers keep beside an output.
///
/// Every temporary of `NAME` is `.NAME.waterflow-tmp-PID-XXXXXX` (a folder being replaced is
/// set aside as `.NAME.waterflow-old-PID-XXXXXX`): the pid says whose it is, so a later run can
/// remove what a killed job left, and never what a running job is still writing.
public enum Temporaries {
  /// The kinds of temporaries, as they appear in the name.
  static let kinds = ["waterflow-tmp", "waterflow-old"]

  /// Removes the temporaries of `destination` whose owner process is gone.
  ///
  /// Also removes `.NAME.tmp-PID`, the name videos used before, when that pid is gone. A
  /// temporary whose process still runs (another job writing the same output) is left alone.
  public static func sweep(beside destination: String) {
    let parent = parentDirectory(of: destination)
    let base = FilePath(destination).lastComponent?.string ?? ""
    for name in names(in: parent, startingWith: ".\(base).") ?? [] where ownerIsGone(name, base: base) {
      try? FileManager.default.removeItem(atPath: parent + "/" + name)
    }
  }

  /// The names in `directory` that start with `prefix`, compared as bytes before any `String` is
  /// made: every write sweeps its output's folder, and a folder such as /tmp can hold 10,000
  /// names (FileManager's listing took 8–9 ms there, for each `waterflow diff -o`). Never "."
  /// or ".."; nil, with `errno` set, when the folder cannot be read.
  static func names(in directory: String, startingWith prefix: String = "") -> [String]? {
    guard let stream = opendir(directory) else { return nil }
    defer { closedir(stream) }
    let wanted = Array(prefix.utf8)
    var found: [String] = []
    while let entry = readdir(stream) {
      withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        let name = raw.bindMemory(to: UInt8.self)
        guard let end = name.firstIndex(of: 0), end >= wanted.count,
          name.prefix(wanted.count).elementsEqual(wanted),
          !name[..<end].elementsEqual([0x2E]), !name[..<end].elementsEqual([0x2E, 0x2E])
        else { return }
        found.append(String(decoding: name[..<end], as: UTF8.self))
      }
    }
    return found
  }

  /// True when `name` is a temporary of the output `base` and its owner process is gone.
  static func ownerIsGone(_ name: String, base: String) -> Bool {
    guard let pid = owner(of: name, base: base) else { return false }
    return pid > 0 && kill(pid, 0) != 0 && errno == ESRCH
  }

  /// The pid in a temporary's name, or nil when `name` is not a temporary of `base`.
  static func owner(of name: String, base: String) -> Int32? {
    for kind in kinds {
      let prefix = ".\(base).\(kind)-"
      guard name.hasPrefix(prefix) else { continue }
      // prefix + pid + "-" + six random characters, from mkstemp or mkdtemp.
      let rest = name.dropFirst(prefix.count)
      guard let dash = rest.lastIndex(of: "-") else { return nil }
      return Int32(rest[..<dash])
    }
    let legacy = ".\(base).tmp-"
    if name.hasPrefix(legacy) { return Int32(name.dropFirst(legacy.count)) }
    return nil
  }

  /// The folder that holds `path`: "." for a bare name.
  static func parentDirectory(of path: String) -> String {
    let parent = FilePath(path).removingLastComponent().string
    return parent.isEmpty ? "." : parent
  }

  /// The mkstemp/mkdtemp template for a temporary of `destination`.
  static func template(beside destination: String, kind: String) -> [CChar] {
    let parent = FilePath(destination).removingLastComponent().string
    let base = FilePath(destination).lastComponent?.string ?? ""
    return Array(
      ((parent.isEmpty ? "" : parent + "/") + ".\(base).\(kind)-\(getpid())-XXXXXX")
        .utf8CString)
  }

  /// Creates a temporary file beside `destination`, mode 0644 less the umask; returns its
  /// descriptor and path. The caller registers it with the ledger.
  static func makeFile(beside destination: String) -> (Int32, String)? {
    var template = template(beside: destination, kind: "waterflow-tmp")
    // mkstemp opens with O_EXCL, so concurrent writers never collide.
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return nil }
    fchmod(fd, 0o644 & ~currentUmask)
    return (fd, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
  }

  /// Creates a temporary folder beside `destination`, mode 0777 less the umask.
  static func makeFolder(beside destination: String, kind: String) -> String? {
    var template = template(beside: destination, kind: kind)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil
    else { return nil }
    let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    chmod(path, 0o777 & ~currentUmask)
    return path
  }

  /// The process's umask, read once: umask(2) can only be read by setting it, which is not
  /// safe while other threads create files.
  static let currentUmask: mode_t = {
    let mask = umask(0)
    umask(mask)
    return mask
  }()

  /// The text of the current errno.
  static func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
  }
}
