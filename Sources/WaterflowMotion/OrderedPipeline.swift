import Foundation

/// Transforms a stream of values on worker threads and hands the results back in order.
///
/// The calling thread produces inputs (the simulation, which must run in order) and consumes
/// results (encoders that must see frames in order); `jobs` threads run the transform in
/// between. At most `window` inputs are in flight, produced but not yet consumed, so memory
/// stays bounded however long the stream is: when the window is full the producer stops and
/// consumes, in order, until a slot frees.
package final class OrderedPipeline<Input: Sendable, Output: Sendable>:
  @unchecked Sendable
{
  // Everything below is guarded by `condition`.
  private let condition = NSCondition()
  private var queue: [(Int, Input)] = []
  private var queueHead = 0
  private var results: [Int: (Input, Output)] = [:]
  private var producing = true
  private var failure: (any Error)?
  private var running = 0
  /// The result the consumer is blocked on, -1 when it is not waiting: only that result wakes it.
  private var awaited = -1

  private let jobs: Int
  private let window: Int

  package init(jobs: Int, window: Int) {
    precondition(jobs >= 1 && window >= 1, "jobs and window must be positive")
    self.jobs = jobs
    self.window = window
  }

  /// Runs the pipeline until `produce` returns and every result is consumed.
  ///
  /// - Parameters:
  ///   - makeWorker: Called once on each worker thread, to make its (non-thread-safe) transform.
  ///   - produce: Calls its argument with each input, in order.
  ///   - consume: Called on this thread with each input and its output, in input order.
  /// - Throws: The first error of the producer, a worker or the consumer; the rest stop soon after.
  package func run(
    makeWorker: @escaping @Sendable () throws -> (Input) throws -> Output,
    produce: ((Input) throws -> Void) throws -> Void,
    consume: @escaping (Input, Output) throws -> Void
  ) throws {
    condition.lock()
    running = jobs
    condition.unlock()
    for _ in 0..<jobs {
      let thread = Thread { [self] in work(makeWorker) }
      thread.stackSize = 4 << 20
      thread.start()
    }
    var produced = 0
    var consumed = 0

    // Consumes the next result in order; waits for it only when `wait` is true.
    func consumeNext(wait: Bool) throws -> Bool {
      condition.lock()
      while results[consumed] == nil && failure == nil && wait {
        awaited = consumed
        condition.wait()
      }
      awaited = -1
      if let error = failure {
        condition.unlock()
        throw error
      }
      guard let (input, output) = results.removeValue(forKey: consumed) else {
        condition.unlock()
        return false
      }
      condition.unlock()
      consumed += 1
      try consume(input, output)
      return true
    }

    do {
      try produce { input in
        while try consumeNext(wait: false) {}
        while produced - consumed >= window { _ = try consumeNext(wait: true) }
        condition.lock()
        if let error = failure {
          condition.unlock()
          throw error
        }
        queue.append((produced, input))
        produced += 1
        condition.unlock()
        // After the unlock: a worker woken while the lock is held would only block on it again,
        // and with a worker per core that switch takes a core from the other worker.
        condition.signal()
      }
      while consumed < produced { _ = try consumeNext(wait: true) }
    } catch {
      stop(error)
      joinWorkers()
      throw error
    }
    stop(nil)
    joinWorkers()
  }

  private func stop(_ error: (any Error)?) {
    condition.lock()
    producing = false
    if failure == nil, let error { failure = error }
    condition.broadcast()
    condition.unlock()
  }

  private func joinWorkers() {
    condition.lock()
    while running > 0 { condition.wait() }
    queue = []
    results = [:]
    condition.unlock()
  }

  private func work(
    _ makeWorker: @Sendable () throws -> (Input) throws -> Output
  ) {
    defer {
      condition.lock()
      running -= 1
      condition.broadcast()
      condition.unlock()
    }
    let transform: (Input) throws -> Output
    do { transform = try makeWorker() } catch {
      stop(error)
      return
    }
    while true {
      condition.lock()
      while queueHead == queue.count && producing && failure == nil {
        condition.wait()
      }
      if failure != nil || queueHead == queue.count {
        condition.unlock()
        return
      }
      let (number, input) = queue[queueHead]
      queueHead += 1
      if queueHead > 64 && queueHead * 2 > queue.count {
        // Drop the consumed prefix now and then, so the queue does not grow with the stream.
        queue.removeFirst(queueHead)
        queueHead = 0
      }
      condition.unlock()
      do {
        let output = try transform(input)
        condition.lock()
        results[number] = (input, output)
        // Results that the consumer cannot take yet (it waits for an earlier one) wake nobody:
        // each wake-up of the consumer's thread preempts a worker on a machine with a core per
        // worker. Broadcast, after the unlock, because workers waiting for input share the
        // condition.
        let wake = number == awaited
        condition.unlock()
        if wake { condition.broadcast() }
      } catch {
        stop(error)
        return
      }
    }
  }
}
