#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A thread of its own for one piece of work, joined when the result is needed.
///
/// Why not Dispatch: `waterflow diff` uses a second core twice, once to decode the actual image
/// and once for half of the comparison, each a few milliseconds. A work item on a global queue
/// sometimes started 4–5 ms late in a fresh process (strace showed the worker creating another
/// thread before it ran), which lost the overlap; a thread started for the work begins at once.
final class WorkerThread: @unchecked Sendable {
  private var thread = pthread_t()
  private let body: () -> Void
  private var started = false

  /// Starts `body` on a new thread, or runs it at once on this one if no thread can be made.
  ///
  /// `body` may touch memory the caller shares with it until `join()` returns; the caller
  /// promises that nothing else touches that memory meanwhile.
  init(_ body: @escaping () -> Void) {
    self.body = body
    let context = Unmanaged.passRetained(self).toOpaque()
    started =
      pthread_create(
        &thread, nil,
        { context in
          let worker = Unmanaged<WorkerThread>.fromOpaque(context!).takeRetainedValue()
          worker.body()
          return nil
        }, context) == 0
    if !started {
      Unmanaged<WorkerThread>.fromOpaque(context).release()
      body()
    }
  }

  /// Waits for the body to finish.
  func join() {
    if started {
      pthread_join(thread, nil)
      started = false
    }
  }
}
