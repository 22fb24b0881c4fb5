#if canImport(FoundationEssentials)
  internal import FoundationEssentials
#else
  internal import Foundation
#endif
internal import Synchronization

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The signal that interrupted this process, 0 until one arrives; set by the signal handler.
let interruptingSignal = Atomic<Int32>(0)

/// Every temporary and child process of this process's open transactions, and the outputs a
/// command promised, so that an interruption can remove the one, stop the other and name the
/// last.
///
/// Creating a temporary and committing one happen while holding `gate` shared, and the cleanup
/// takes `gate` exclusively and never gives it back: once it runs, no writer can add a file it
/// would miss, nor rename a temporary over an output it is about to report as not written.
/// Writers share the gate so that the workers of a scroll create and rename their frames at the
/// same time: under one exclusive lock they queued behind each other's `open(O_CREAT)`, which
/// the file system can make slow. `lock` guards the books, briefly.
final class Ledger: @unchecked Sendable {
  static let shared = Ledger()

  private let gate: UnsafeMutablePointer<pthread_rwlock_t> = {
    let gate = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    gate.initialize(to: pthread_rwlock_t())
    pthread_rwlock_init(gate, nil)
    return gate
  }()
  private let lock = PosixCondition()
  private var nextToken = 0
  private var temporaries: [Int: (path: String, isFolder: Bool)] = [:]
  private var children: Set<Int32> = []
  private var promised: [String] = []

  /// Runs `create` under the lock and registers the temporary it made, unless interrupted.
  func create(
    _ destination: String, isFolder: Bool,
    _ create: () throws(FileWriteError) -> String
  ) throws(FileWriteError) -> Int {
    pthread_rwlock_rdlock(gate)
    defer { pthread_rwlock_unlock(gate) }
    try refuseIfInterrupted(destination)
    let path = try create()
    lock.lock()
    defer { lock.unlock() }
    nextToken += 1
    temporaries[nextToken] = (path, isFolder)
    return nextToken
  }

  /// Runs `commit` (the renames that publish a temporary) under the lock, unless interrupted;
  /// the temporary is forgotten and `destination` counts as written when it succeeds.
  func commit(
    _ token: Int, destination: String, alsoWriting others: [String] = [],
    _ commit: () throws(FileWriteError) -> Void
  ) throws(FileWriteError) {
    pthread_rwlock_rdlock(gate)
    defer { pthread_rwlock_unlock(gate) }
    try refuseIfInterrupted(destination)
    try commit()
    lock.lock()
    defer { lock.unlock() }
    temporaries[token] = nil
    promised.removeAll { $0 == destination || others.contains($0) }
  }

  /// Forgets a temporary that its owner removes itself.
  func forget(_ token: Int) {
    lock.lock()
    temporaries[token] = nil
    lock.unlock()
  }

  /// Starts a child process under the lock and registers it, unless interrupted.
  func start(_ destination: String, _ start: () -> Int32?) throws(FileWriteError) {
    pthread_rwlock_rdlock(gate)
    defer { pthread_rwlock_unlock(gate) }
    try refuseIfInterrupted(destination)
    // Only a real child: kill(-1, …) would reach every process we may signal.
    if let pid = start(), pid > 0 {
      lock.lock()
      children.insert(pid)
      lock.unlock()
    }
  }

  /// Forgets a child process that has exited.
  func forget(child pid: Int32) {
    lock.lock()
    children.remove(pid)
    lock.unlock()
  }

  /// Adds outputs that an interruption should report as not written until they are committed.
  func promise(_ outputs: [String]) {
    lock.lock()
    promised += outputs.filter { !promised.contains($0) }
    lock.unlock()
  }

  /// Marks a promised output as written (or no longer coming).
  func fulfil(_ output: String) {
    lock.lock()
    promised.removeAll { $0 == output }
    lock.unlock()
  }

  private func refuseIfInterrupted(_ destination: String) throws(FileWriteError) {
    let signal = interruptingSignal.load(ordering: .relaxed)
    if signal != 0 {
      throw FileWriteError(
        path: destination,
        "Not writing '\(destination)': interrupted by \(Interruption.name(of: signal)).")
    }
  }

  /// Stops the children, removes the temporaries and returns the outputs not written.
  ///
  /// Keeps the gate and the lock: the process is about to exit, and no transaction may start or
  /// finish.
  func cleanUp() -> [String] {
    pthread_rwlock_wrlock(gate)
    lock.lock()
    for pid in children { kill(pid, SIGKILL) }
    // A child could still create its output file until it is really gone, so wait for that
    // before removing anything; SIGKILL cannot be caught, so this ends quickly.
    for pid in children { waitUntilGone(pid) }
    // Folders last: files inside a staging folder are then already gone.
    for (path, isFolder) in temporaries.values.sorted(by: { !$0.isFolder && $1.isFolder }) {
      if isFolder {
        try? FileManager.default.removeItem(atPath: path)
      } else {
        unlink(path)
      }
    }
    return promised
  }

  /// Waits, at most two seconds, until `pid` has exited (it is gone or a zombie).
  private func waitUntilGone(_ pid: Int32) {
    for _ in 0..<2000 {
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return }
      // The state follows the command name: "pid (comm) S ...".
      let state = stat[stat.index(after: close)...].dropFirst().first
      if state == "Z" || state == "X" { return }
      usleep(1000)
    }
  }
}
