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

/// Points where a job can be told to stop and wait, so that tests interrupt it at a known
/// moment instead of guessing one with sleeps.
///
/// `WATERFLOW_PAUSE_AT` holds a comma-separated list of points: at `commit:NAME` the thread
/// about to commit an output whose last path component is `NAME` stops; at `frame:N` a scroll
/// job stops after handing over its N-th frame; at `written:NAME` the golden worker that has
/// just written golden NAME stops; at `cleanup` the cleanup after a signal stops
/// before it removes anything; at `accept:NAME` the review holds before it writes NAME, until a
/// signal. The thread prints `paused at POINT` on standard error and waits
/// for a signal.
public enum PausePoint {
  // getenv, not ProcessInfo's environment, which copies every variable into a dictionary: a
  // few hundred kilobytes of `waterflow diff`'s memory, for one variable that is never set there.
  private static let requested = Set(
    (getenv("WATERFLOW_PAUSE_AT").map { String(cString: $0) } ?? "")
      .split(separator: ",").map(String.init))

  /// Stops the calling thread for good when `point` is a requested one.
  public static func reached(_ point: @autoclosure () -> String) {
    guard announce(point) else { return }
    while true { pause() }
  }

  /// Whether `point` is requested; if so, says so on standard error.
  private static func announce(_ point: () -> String) -> Bool {
    guard !requested.isEmpty else { return false }
    let point = point()
    guard requested.contains(point) else { return false }
    let line = Array("paused at \(point)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    return true
  }

  /// Holds the calling thread at `point`, when it is a requested one, until ``resume()``: for a
  /// job that a signal lets finish (the review's accept), where ``reached(_:)`` would stop it.
  /// Prints `paused at POINT` on standard error as ``reached(_:)`` does.
  public static func held(_ point: @autoclosure () -> String) {
    guard announce(point) else { return }
    resumption.lock()
    while !resumed { resumption.wait() }
    resumption.unlock()
  }

  /// Lets every thread held by ``held(_:)`` go on.
  public static func resume() {
    resumption.lock()
    resumed = true
    resumption.broadcast()
    resumption.unlock()
  }

  private static let resumption = PosixCondition()
  nonisolated(unsafe) private static var resumed = false

  /// The commit point of `path`.
  static func commit(_ path: String) {
    reached("commit:" + (FilePath(path).lastComponent?.string ?? ""))
  }
}
