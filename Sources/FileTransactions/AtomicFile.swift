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

/// A file written to a temporary sibling and renamed over its path on ``commit(synchronize:)``,
/// so that readers see either the old file or the whole new one.
///
/// The temporary is `.NAME.waterflow-tmp-PID-XXXXXX` (see ``Temporaries``); it is removed when
/// the file is discarded, deinitialised uncommitted, or the process is interrupted (see
/// ``Interruption``). Long outputs (a trace, a frame list) stream through one; whole files go
/// through ``writeAtomically(_:to:synchronize:sweeping:)``.
///
/// ```swift
/// let file = try AtomicFile(path: "trace.csv")
/// file.write("frame,time\n")
/// try file.commit()
/// ```
public final class AtomicFile {
  /// The destination.
  public let path: String
  /// The temporary file, for a child process (ffmpeg) that writes the file itself; commit
  /// after it has exited.
  public var temporaryPath: String { temporary }
  private let temporary: String
  private let token: Int
  private let handle: UnsafeMutablePointer<FILE>
  private var isOpen = true

  /// Creates the temporary file beside `path`.
  ///
  /// - Parameters:
  ///   - path: The destination; its directory must exist.
  ///   - sweeping: Whether to first remove temporaries of `path` left by killed processes; a
  ///     writer that knows there are none (a fresh staging folder) skips the directory listing.
  /// - Throws: ``FileWriteError`` naming `path`: a directory that does not exist or is not
  ///   writable, or an interruption.
  public init(path: String, sweeping: Bool = true) throws(FileWriteError) {
    self.path = path
    let directory = Temporaries.parentDirectory(of: path)
    let name = FilePath(path).lastComponent?.string ?? ""
    // stat rather than FileManager, whose first use costs a command that writes one file ~1 ms.
    var status = stat()
    guard stat(directory, &status) == 0 else {
      throw .cannotWrite(path, "the directory '\(directory)' does not exist")
    }
    guard status.st_mode & S_IFMT == S_IFDIR else {
      throw .cannotWrite(path, "'\(directory)' is not a directory")
    }
    guard !name.isEmpty, name != ".", name != "..", !path.hasSuffix("/") else {
      throw .cannotWrite(path, "the path does not name a file")
    }
    if sweeping { Temporaries.sweep(beside: path) }
    var made: (Int32, String, UnsafeMutablePointer<FILE>)?
    token = try Ledger.shared.create(path, isFolder: false) { () throws(FileWriteError) in
      guard let (fd, temporary) = Temporaries.makeFile(beside: path) else {
        throw .cannotWrite(
          path, "cannot create a file in '\(directory)' (\(Temporaries.errnoText()))")
      }
      guard let file = fdopen(fd, "w") else {
        let reason = Temporaries.errnoText()
        close(fd)
        unlink(temporary)
        throw .cannotWrite(path, reason)
      }
      made = (fd, temporary, file)
      return temporary
    }
    (_, temporary, handle) = made!
  }

  /// Appends bytes; a failure shows at ``commit(synchronize:)``.
  public func write(_ bytes: UnsafeRawBufferPointer) {
    guard isOpen, bytes.count > 0 else { return }
    _ = fwrite(bytes.baseAddress!, 1, bytes.count, handle)
  }

  /// Appends bytes; a failure shows at ``commit(synchronize:)``.
  public func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { write($0) }
  }

  /// Appends text as UTF-8; a failure shows at ``commit(synchronize:)``.
  public func write(_ text: String) {
    guard isOpen else { return }
    fputs(text, handle)
  }

  /// Closes the temporary and renames it over ``path``.
  ///
  /// - Parameter synchronize: Whether to `fsync` first, for durability across power loss.
  /// - Throws: ``FileWriteError`` naming ``path`` (a full disk, say, or an interruption); the
  ///   temporary is removed and the old file left as it was.
  public func commit(synchronize: Bool = false) throws(FileWriteError) {
    precondition(isOpen, "AtomicFile committed or discarded twice")
    PausePoint.commit(path)
    isOpen = false
    var failure: String?
    if fflush(handle) != 0 || ferror(handle) != 0 {
      failure = Temporaries.errnoText()
    } else if synchronize, fsync(fileno(handle)) != 0 {
      failure = Temporaries.errnoText()
    }
    if fclose(handle) != 0, failure == nil { failure = Temporaries.errnoText() }
    do throws(FileWriteError) {
      if let failure { throw FileWriteError.cannotWrite(path, failure) }
      try Ledger.shared.commit(token, destination: path) { () throws(FileWriteError) in
        guard rename(temporary, path) == 0 else {
          throw .cannotWrite(path, Temporaries.errnoText())
        }
      }
    } catch {
      unlink(temporary)
      Ledger.shared.forget(token)
      throw error
    }
  }

  /// Removes the temporary; the old file stays as it was.
  public func discard() {
    guard isOpen else { return }
    isOpen = false
    fclose(handle)
    unlink(temporary)
    Ledger.shared.forget(token)
  }

  deinit { discard() }
}

/// Writes bytes to a file so that readers see either the old file or the whole new one.
///
/// The bytes go to an ``AtomicFile``, which is renamed over `path`; a crash, a full disk or an
/// interruption never leaves a half-written PNG or PDF behind.
///
/// ```swift
/// try writeAtomically(png, to: "out/frame-0001.png")
/// ```
///
/// - Parameters:
///   - bytes: The file contents.
///   - path: The destination; its directory must exist.
///   - synchronize: Whether to `fsync` the file before renaming, for durability across power loss.
///   - sweeping: Whether to first remove temporaries of `path` left by killed processes.
/// - Throws: ``FileWriteError`` naming `path` and the reason, for example a directory that does
///   not exist or is not writable.
public func writeAtomically(
  _ bytes: [UInt8], to path: String, synchronize: Bool = false, sweeping: Bool = true
) throws(FileWriteError) {
  let file = try AtomicFile(path: path, sweeping: sweeping)
  file.write(bytes)
  try file.commit(synchronize: synchronize)
}
