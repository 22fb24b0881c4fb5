#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A mutex with a condition, on pthreads: what NSLock and NSCondition did here.
///
/// Why not Foundation's: this module is linked into the `waterflow` launcher, which must not link
/// swift-corelibs-foundation (its static initializers alone add 3.5 MB to every `waterflow diff`);
/// FoundationEssentials has neither lock.
final class PosixCondition: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    return mutex
  }()
  private let condition: UnsafeMutablePointer<pthread_cond_t> = {
    let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
    return condition
  }()

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }
  /// Waits for ``broadcast()``; call with the lock held.
  func wait() { pthread_cond_wait(condition, mutex) }
  /// Wakes every thread in ``wait()``.
  func broadcast() { pthread_cond_broadcast(condition) }
}
