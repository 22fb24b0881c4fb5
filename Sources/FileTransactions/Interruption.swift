public import Foundation
internal import Synchronization

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// What a command does when SIGINT, SIGTERM or SIGHUP arrives while it writes.
///
/// After ``install(program:)``, the first such signal stops the child processes (ffmpeg), removes
/// every temporary file and staging folder of the open ``AtomicFile``s, ``StagedFolder``s and
/// ``ChildProcesses``, leaves every output as it was, prints one line naming the outputs that were
/// not written, and exits with 128 + the signal number (130, 143, 129). A second signal exits at
/// once; whatever it leaves, the next run sweeps (see ``Temporaries/sweep(beside:)``).
///
/// ```swift
/// Interruption.install(program: "waterflow")
/// Interruption.promise(["out.mp4"])
/// ```
public enum Interruption {
  /// The signals handled: interrupt (Ctrl-C), terminate and hang-up.
  public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// True once a handled signal has arrived; writers then refuse to start or commit.
  public static var isInterrupted: Bool {
    interruptingSignal.load(ordering: .relaxed) != 0
  }

  /// Installs the handlers and the thread that cleans up; later calls do nothing.
  ///
  /// - Parameter program: The name that starts the line printed on an interruption.
  public static func install(program: String) {
    installation.withLock { installed in
      guard !installed else { return }
      installed = true
      // The handler may touch nothing that could need a lock on first use.
      _ = interruptingSignal.load(ordering: .relaxed)
      _ = Ledger.shared
      _ = Temporaries.currentUmask
      var fds: [Int32] = [0, 0]
      guard pipe(&fds) == 0 else { return }
      wakeFD.store(fds[1], ordering: .relaxed)
      let reader = fds[0]
      let thread = Thread { cleanUpAndExit(reading: reader, program: program) }
      thread.stackSize = 1 << 20
      thread.start()
      // A parent may have started us with these signals blocked (test runners do, and the mask
      // is inherited): unblock them here, so this thread, at least, takes them.
      var mask = sigset_t()
      sigemptyset(&mask)
      for signal in signals { sigaddset(&mask, signal) }
      pthread_sigmask(SIG_UNBLOCK, &mask, nil)
      for signal in signals {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handleSignal
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(signal, &action, nil)
      }
    }
  }

  /// Adds outputs to name as not written if an interruption comes before they are committed.
  ///
  /// Atomic files and staged folders count as written when they commit to exactly this path;
  /// other outputs (a golden made of several files) are settled with ``fulfil(_:)``.
  public static func promise(_ outputs: [String]) {
    Ledger.shared.promise(outputs)
  }

  /// Marks a promised output as written.
  public static func fulfil(_ output: String) {
    Ledger.shared.fulfil(output)
  }

  /// Never returns once interrupted: the cleanup thread is removing temporaries and will exit
  /// the process. A command calls this before it exits by itself, so that an error caused by the
  /// interruption (a refused commit, a killed ffmpeg) is not reported instead.
  public static func waitIfInterrupted() {
    guard isInterrupted, installation.withLock({ $0 }) else { return }
    while true { pause() }
  }

  /// "SIGINT", "SIGTERM", "SIGHUP", or "signal N".
  public static func name(of signal: Int32) -> String {
    switch signal {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    case SIGHUP: "SIGHUP"
    default: "signal \(signal)"
    }
  }

  /// The line printed on an interruption, naming what was not written.
  static func message(program: String, signal: Int32, notWritten: [String]) -> String {
    let what =
      notWritten.isEmpty
      ? "nothing was left half-written"
      : "not written: " + notWritten.joined(separator: ", ")
        + " (anything there before is unchanged)"
    return "\(program): interrupted by \(name(of: signal)); \(what).\n"
  }

  private static let installation = Mutex(false)
  /// The write end of the pipe that wakes the cleanup thread; -1 until installed.
  private static let wakeFD = Atomic<Int32>(-1)

  /// The signal handler: only async-signal-safe calls. The first signal wakes the cleanup
  /// thread; a second one exits at once.
  private static let handleSignal: @convention(c) (Int32) -> Void = { signal in
    let (first, _) = interruptingSignal.compareExchange(
      expected: 0, desired: signal, ordering: .sequentiallyConsistent)
    guard first else { _exit(128 + signal) }
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(wakeFD.load(ordering: .relaxed), &byte, 1)
  }

  private static func cleanUpAndExit(reading fd: Int32, program: String) {
    var byte: UInt8 = 0
    while read(fd, &byte, 1) != 1 {}
    let signal = interruptingSignal.load(ordering: .relaxed)
    PausePoint.reached("cleanup")
    let notWritten = Ledger.shared.cleanUp()
    let line = Array(message(program: program, signal: signal, notWritten: notWritten).utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    _exit(128 + signal)
  }
}

/// Child processes that write an output's temporary file (ffmpeg), stopped on an interruption.
public enum ChildProcesses {
  /// Starts `process` unless interrupted; an interruption then kills it before it removes
  /// temporaries, so it cannot recreate one.
  ///
  /// - Parameters:
  ///   - process: The process to start (ffmpeg writing a video's temporary file).
  ///   - output: The output the process writes, for the error when interrupted.
  public static func start(_ process: Process, writing output: String) throws {
    var startError: (any Error)?
    try Ledger.shared.start(output) { () -> Int32? in
      do { try process.run() } catch {
        startError = error
        return nil
      }
      return process.processIdentifier
    }
    if let startError { throw startError }
  }

  /// Forgets a process once it has exited.
  public static func exited(_ process: Process) {
    Ledger.shared.forget(child: process.processIdentifier)
  }
}
