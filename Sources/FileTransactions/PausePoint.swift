internal import Foundation
internal import SystemPackage

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Points where a job can be told to stop and wait, so that tests interrupt it at a known
/// moment instead of guessing one with sleeps.
///
/// `WATERFLOW_PAUSE_AT` holds a comma-separated list of points: at `commit:NAME` the thread
/// about to commit an output whose last path component is `NAME` stops; at `frame:N` a scroll
/// job stops after handing over its N-th frame; at `cleanup` the cleanup after a signal stops
/// before it removes anything. The thread prints `paused at POINT` on standard error and waits
/// for a signal.
public enum PausePoint {
  private static let requested = Set(
    (ProcessInfo.processInfo.environment["WATERFLOW_PAUSE_AT"] ?? "")
      .split(separator: ",").map(String.init))

  /// Stops the calling thread for good when `point` is a requested one.
  public static func reached(_ point: @autoclosure () -> String) {
    guard !requested.isEmpty else { return }
    let point = point()
    guard requested.contains(point) else { return }
    let line = Array("paused at \(point)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    while true { pause() }
  }

  /// The commit point of `path`.
  static func commit(_ path: String) {
    reached("commit:" + (FilePath(path).lastComponent?.string ?? ""))
  }
}
