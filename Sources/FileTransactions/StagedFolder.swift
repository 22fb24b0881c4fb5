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

/// A fresh folder beside an output folder, renamed over it once everything is written.
///
/// The staging folder, `.NAME.waterflow-tmp-PID-XXXXXX`, is a sibling so that the final rename
/// never crosses file systems; an interruption removes it (see ``Interruption``), and a later run
/// sweeps it when its process was killed. The output folder's parent must exist: only the last
/// component is ever created, so a mistyped path fails instead of making folders at the root.
///
/// ```swift
/// let staged = try StagedFolder(replacing: "out", kind: .frames)
/// try staged.write(png, named: "frame-0001.png")
/// try staged.commit()
/// ```
public struct StagedFolder: Sendable {
  /// Which files make up an output folder of one kind, so that one is replaced only by another.
  public struct Kind: Sendable {
    /// The file an earlier output always holds, such as `frames.json`.
    public var marker: String
    /// True for the names an output of this kind consists of.
    public var owns: @Sendable (String) -> Bool

    /// Creates a kind from its marker file and its own file names.
    public init(marker: String, owns: @escaping @Sendable (String) -> Bool) {
      self.marker = marker
      self.owns = owns
    }
  }

  /// The output folder as the caller named it, for messages.
  public let name: String
  /// The output folder with symbolic links resolved: a linked folder is replaced, not the link.
  public let destination: String
  /// The staging folder, where the new output is written.
  public let path: String
  private let kind: Kind
  private let token: Int

  /// Checks that `directory` may be replaced and creates the staging folder beside it.
  ///
  /// `directory` may be replaced when it does not exist, is empty, or holds an earlier output
  /// of `kind` (its marker file, or nothing but files it owns).
  ///
  /// - Throws: ``FileWriteError`` naming `directory`: its parent does not exist, it is a file or a
  ///   folder of other files, or the staging folder cannot be made.
  public init(replacing directory: String, kind: Kind) throws(FileWriteError) {
    name = directory
    self.kind = kind
    let destination = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
    self.destination = destination
    try Self.checkReplaceable(destination, name: directory, kind: kind)
    let parent = FilePath(destination).removingLastComponent().string
    guard Self.isFolder(parent) == true else {
      throw FileWriteError(
        path: directory,
        "Cannot write the folder '\(directory)': the directory '\(parent)' does not exist "
          + "(only the last folder of the path is created).")
    }
    Temporaries.sweep(beside: destination)
    var made = ""
    token = try Ledger.shared.create(destination, isFolder: true) { () throws(FileWriteError) in
      guard let folder = Temporaries.makeFolder(beside: destination, kind: "waterflow-tmp")
      else {
        throw FileWriteError(
          path: directory,
          "Cannot create a folder in '\(parent)': \(Temporaries.errnoText()).")
      }
      made = folder
      return folder
    }
    path = made
  }

  /// Where a file meant for the output folder goes while staging; other paths are unchanged.
  public func stagedPath(for file: String) -> String {
    let absolute = URL(fileURLWithPath: file).standardizedFileURL.path
    let resolvedParent = URL(
      fileURLWithPath: FilePath(absolute).removingLastComponent().string
    ).resolvingSymlinksInPath().path
    guard resolvedParent == destination else { return file }
    return path + "/" + (FilePath(absolute).lastComponent?.string ?? "")
  }

  /// Writes a file into the staging folder, under its final name.
  ///
  /// The folder is the transaction: until ``commit(alsoWriting:)`` nobody reads it, and an
  /// interruption or a failure removes it whole. So a file in it needs no temporary of its own,
  /// nor the rename, mode change and ledger entry that ``AtomicFile`` makes for one: a scroll
  /// writes its frames this way, from several threads at once.
  ///
  /// - Throws: ``FileWriteError`` naming the file's path in the output folder: a name already
  ///   written, a full disk.
  public func write(_ bytes: [UInt8], named file: String) throws(FileWriteError) {
    let shown = name + "/" + file
    let fd = open(path + "/" + file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard fd >= 0 else { throw .cannotWrite(shown, Temporaries.errnoText()) }
    var failure: String?
    bytes.withUnsafeBytes { buffer in
      var written = 0
      while written < buffer.count {
        let count = writeBytes(fd, buffer.baseAddress! + written, buffer.count - written)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else {
          failure = Temporaries.errnoText()
          return
        }
        written += count
      }
    }
    if close(fd) != 0, failure == nil { failure = Temporaries.errnoText() }
    if let failure { throw .cannotWrite(shown, failure) }
  }

  /// Puts the staging folder in place of the output folder and removes the old one.
  ///
  /// Files of the old folder that are not the kind's own, and that this run did not write,
  /// move into the new one: replacing an output never deletes a user's notes.
  ///
  /// - Parameter others: Paths given to ``stagedPath(for:)`` that this commit writes too, for
  ///   ``Interruption/promise(_:)``.
  /// - Throws: ``FileWriteError`` naming the folder; the old folder is then left as it was.
  public func commit(alsoWriting others: [String] = []) throws(FileWriteError) {
    PausePoint.commit(name)
    try Ledger.shared.commit(token, destination: name, alsoWriting: others) {
      () throws(FileWriteError) in
      try swap()
    }
  }

  private func swap() throws(FileWriteError) {
    // Checked again: the folder may have gained other files while the output was written.
    try Self.checkReplaceable(destination, name: name, kind: kind)
    // rename(2) replaces a missing or empty folder in one step.
    if rename(path, destination) == 0 { return }
    guard errno == ENOTEMPTY || errno == EEXIST else { throw failure(errno) }
    let carried = try carryOverOtherFiles()
    // Two renames, as Swift's Glibc module does not declare renameat2 (RENAME_EXCHANGE): for a
    // moment the folder is missing, but it never holds a mix of two runs.
    guard let aside = Temporaries.makeFolder(beside: destination, kind: "waterflow-old") else {
      let code = errno
      putBack(carried)
      throw failure(code)
    }
    guard rename(destination, aside) == 0 else {
      let code = errno
      rmdir(aside)
      putBack(carried)
      throw failure(code)
    }
    guard rename(path, destination) == 0 else {
      let code = errno
      rename(aside, destination)
      putBack(carried)
      throw failure(code)
    }
    try? FileManager.default.removeItem(atPath: aside)
  }

  /// Removes the staging folder and everything in it.
  public func discard() {
    try? FileManager.default.removeItem(atPath: path)
    Ledger.shared.forget(token)
  }

  /// Moves the output folder's other files into the staging folder; returns their names.
  private func carryOverOtherFiles() throws(FileWriteError) -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []
    let staged = Set((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
    var carried: [String] = []
    for entry in entries.sorted() where !kind.owns(entry) && !staged.contains(entry) {
      guard rename(destination + "/" + entry, path + "/" + entry) == 0 else {
        let code = errno
        putBack(carried)
        throw failure(code)
      }
      carried.append(entry)
    }
    return carried
  }

  /// Returns carried files to the output folder after a failed swap.
  private func putBack(_ carried: [String]) {
    for entry in carried {
      rename(path + "/" + entry, destination + "/" + entry)
    }
  }

  private func failure(_ code: Int32) -> FileWriteError {
    FileWriteError(
      path: name, "Cannot replace the folder '\(name)': \(Temporaries.errnoText(code)).")
  }

  /// Whether `path` is a folder (symbolic links followed), nil when nothing is there.
  private static func isFolder(_ path: String) -> Bool? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT == S_IFDIR
  }

  private static func checkReplaceable(_ destination: String, name: String, kind: Kind)
    throws(FileWriteError)
  {
    guard let isFolder = Self.isFolder(destination) else { return }
    guard isFolder else {
      throw FileWriteError(
        path: name, "Cannot write the folder '\(name)': it exists and is not a folder.")
    }
    // With readdir, whose errno the message names: FileManager's error has no text that
    // FoundationEssentials can print.
    guard let entries = Temporaries.names(in: destination) else {
      throw FileWriteError(
        path: name, "Cannot read the folder '\(name)': \(Temporaries.errnoText(errno)).")
    }
    // An earlier output has the marker; one cut short by an older version holds only its own
    // files. Other files in an earlier output are kept (see `commit`).
    let others = entries.filter { !kind.owns($0) }
    if let other = others.sorted().first, !entries.contains(kind.marker) {
      throw FileWriteError(
        path: name,
        "The folder '\(name)' holds files Waterflow did not write (such as '\(other)'), and an "
          + "output folder is replaced as a whole: give a new or empty folder, or an earlier output.")
    }
  }
}

/// write(2), which ``StagedFolder/write(_:named:)`` hides inside the type.
private func writeBytes(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, bytes, count)
}
