internal import Foundation

#if canImport(Glibc)
internal import Glibc
#endif

/// Writes bytes to a file so that readers see either the old file or the whole new one.
///
/// The bytes go to a temporary file in the same directory, which is then renamed over `path`;
/// a crash or a full disk never leaves a half-written PNG or PDF behind.
///
/// ```swift
/// try writeAtomically(surface.pngData(), to: "out/frame-0001.png")
/// ```
///
/// - Parameters:
///   - bytes: The file contents.
///   - path: The destination; its directory must exist.
///   - synchronize: Whether to `fsync` the file before renaming, for durability across power loss.
/// - Throws: A ``GraphicsError`` with code `.fileNotWritable` naming `path` and the reason, for
///   example a directory that does not exist or is not writable.
public func writeAtomically(
  _ bytes: [UInt8], to path: String, synchronize: Bool = false
) throws {
  let directory = (path as NSString).deletingLastPathComponent
  let name = (path as NSString).lastPathComponent
  func failure(_ reason: String) -> GraphicsError {
    GraphicsError(
      .fileNotWritable, path: path, "Cannot write '\(path)': \(reason).")
  }
  func errnoReason() -> String { String(cString: strerror(errno)) }

  var isDirectory: ObjCBool = false
  let directoryPath = directory.isEmpty ? "." : directory
  guard
    FileManager.default.fileExists(
      atPath: directoryPath, isDirectory: &isDirectory)
  else {
    throw failure("the directory '\(directoryPath)' does not exist")
  }
  guard isDirectory.boolValue else {
    throw failure("'\(directoryPath)' is not a directory")
  }
  guard !name.isEmpty, name != ".", name != ".." else {
    throw failure("the path does not name a file")
  }

  // mkstemp makes a unique name and opens it with O_EXCL, so concurrent writers never collide.
  var template =
    ((directory.isEmpty ? "" : directory + "/") + ".\(name).tmp-XXXXXX")
    .utf8CString
  let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
  guard fd >= 0 else {
    throw failure(
      "cannot create a file in '\(directoryPath)' (\(errnoReason()))")
  }
  let temporary = template.withUnsafeBufferPointer {
    String(cString: $0.baseAddress!)
  }
  var succeeded = false
  defer {
    if !succeeded { unlink(temporary) }
  }
  var written = 0
  let writeError: String? = bytes.withUnsafeBytes { buffer in
    while written < buffer.count {
      let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
      if n < 0 {
        if errno == EINTR { continue }
        return errnoReason()
      }
      written += n
    }
    return nil
  }
  if let writeError {
    close(fd)
    throw failure(writeError)
  }
  // mkstemp creates the file with mode 0600; give it the usual 0644 less the umask.
  let mask = umask(0)
  umask(mask)
  fchmod(fd, 0o644 & ~mask)
  if synchronize, fsync(fd) != 0 {
    let reason = errnoReason()
    close(fd)
    throw failure(reason)
  }
  guard close(fd) == 0 else { throw failure(errnoReason()) }
  guard rename(temporary, path) == 0 else { throw failure(errnoReason()) }
  succeeded = true
}
