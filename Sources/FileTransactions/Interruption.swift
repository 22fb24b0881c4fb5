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
      startCleanupThread(reading: reader, program: program)
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

  /// Starts the thread that waits for a signal, then cleans up and exits: pthreads, not
  /// Foundation's Thread (see PosixCondition for why).
  private static func startCleanupThread(reading fd: Int32, program: String) {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, 1 << 20)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var thread = pthread_t()
    let context = Unmanaged.passRetained(CleanupThread(fd: fd, program: program)).toOpaque()
    let created = pthread_create(&thread, &attributes, runCleanupThread, context)
    if created != 0 { Unmanaged<CleanupThread>.fromOpaque(context).release() }
  }

  fileprivate static func cleanUpAndExit(reading fd: Int32, program: String) {
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

/// What the cleanup thread reads from.
private final class CleanupThread {
  let fd: Int32
  let program: String
  init(fd: Int32, program: String) {
    self.fd = fd
    self.program = program
  }
}

/// The cleanup thread's body, for pthread_create.
private func runCleanupThread(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  let work = Unmanaged<CleanupThread>.fromOpaque(context!).takeRetainedValue()
  Interruption.cleanUpAndExit(reading: work.fd, program: work.program)
  return nil
}

/// Child processes that write an output's temporary file (ffmpeg), stopped on an interruption.
///
/// By process id, not Foundation's `Process`: see PosixCondition for why this module does without
/// swift-corelibs-foundation. WaterflowMotion's VideoEncoder starts its `Process` through here.
public enum ChildProcesses {
  /// Runs `start` (which starts a process and returns its id) unless interrupted; an
  /// interruption then kills that process before it removes temporaries, so it cannot recreate
  /// one.
  ///
  /// - Parameters:
  ///   - output: The output the process writes, for the error when interrupted.
  ///   - start: Starts the process (ffmpeg writing a video's temporary file); returns its id.
  /// - Throws: What `start` throws, or ``FileWriteError`` when interrupted before it ran.
  public static func start(writing output: String, _ start: () throws -> Int32) throws {
    var startError: (any Error)?
    try Ledger.shared.start(output) { () -> Int32? in
      do { return try start() } catch {
        startError = error
        return nil
      }
    }
    if let startError { throw startError }
  }

  /// Forgets a process once it has exited.
  public static func exited(processIdentifier: Int32) {
    Ledger.shared.forget(child: processIdentifier)
  }
}
