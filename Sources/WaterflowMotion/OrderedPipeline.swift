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
        condition.wait()
      }
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
        condition.signal()
        condition.unlock()
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
        condition.broadcast()
        condition.unlock()
      } catch {
        stop(error)
        return
      }
    }
  }
}
