// The command line's pieces that need no drawing: output, errors, atomic writes and
// interruption, JSON text, and the whole of a plain `waterflow diff` (DiffRequest.swift). Apart
// from WaterflowCommandLine so that the `waterflow` launcher runs that diff without loading cairo
// (Sources/waterflow says why).
internal import FileTransactions

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Makes SIGINT, SIGTERM and SIGHUP stop ffmpeg, remove temporaries and name the `outputs` not
/// written, exiting 130, 143 or 129; every command that writes files calls it first.
package func installInterruptionCleanup(promising outputs: [String?]) {
  Interruption.install(program: "waterflow")
  Interruption.promise(outputs.compactMap { $0 })
}

/// A failure the user can fix, printed after "Error:" (by ArgumentParser, or by the launcher's
/// plain diff) with a non-zero exit.
package struct CLIError: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}

/// Writes text to standard output in one piece.
package func emit(_ text: String) {
  var line = text.hasSuffix("\n") ? text : text + "\n"
  line.withUTF8 { _ = writeAll(STDOUT_FILENO, UnsafeRawBufferPointer($0)) }
}

/// Writes a line to standard error.
package func warn(_ text: String) {
  var line = text + "\n"
  line.withUTF8 { _ = writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
}

/// Writes all of `bytes` to `fd`, again after a partial write or EINTR; 0, or the errno of the
/// failure.
///
/// With write(2), not FileHandle: the `waterflow` launcher links this module and must not link
/// swift-corelibs-foundation (FileTransactions' PosixCondition says why).
package func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
  var rest = bytes
  while !rest.isEmpty {
    let n = systemWrite(fd, rest.baseAddress, rest.count)
    if n >= 0 {
      rest = UnsafeRawBufferPointer(rebasing: rest[n...])
    } else if errno != EINTR {
      return errno
    }
  }
  return 0
}

// write(2), which this module's write(_:to:) hides.
#if canImport(Glibc)
  private let systemWrite = Glibc.write
#elseif canImport(Musl)
  private let systemWrite = Musl.write
#elseif canImport(Darwin)
  private let systemWrite = Darwin.write
#endif

/// Writes a file atomically, turning failures into one clear message.
package func write(_ bytes: [UInt8], to path: String) throws {
  do { try writeAtomically(bytes, to: path) } catch {
    throw CLIError("\(error)")
  }
}
