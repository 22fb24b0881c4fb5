import Synchronization

/// Notes the files a piece of work reads: a golden's scene, its data, templates' images and
/// string tables, whichever module reads them.
///
/// A golden's inputs are the files its drawing reads, so the golden runner starts a recorder,
/// draws, and hashes what was noted. Readers note a file where it is asked for, before any
/// cache answers, so that the list does not depend on what an earlier golden already loaded.
///
/// ```swift
/// let recorder = InputRecorder()
/// let scene = try InputRecorder.$current.withValue(recorder) { try Scene(contentsOf: path) }
/// print(recorder.paths)  // the scene file and every file it imports
/// ```
///
/// The recorder is a task-local value: work on the same thread (or in child tasks) notes into
/// it; work handed to other threads must carry it there (`CellMeasurer` does).
public final class InputRecorder: Sendable {
  private let noted = Mutex<Set<String>>([])

  /// A recorder with nothing noted.
  public init() {}

  /// The recorder that reads note into, if any.
  @TaskLocal public static var current: InputRecorder?

  /// Notes that the current work reads a file (a path as the reader opened it).
  public static func note(_ path: String) {
    current?.note(path)
  }

  /// Notes a file read.
  public func note(_ path: String) {
    _ = noted.withLock { $0.insert(path) }
  }

  /// The files noted, sorted.
  ///
  /// - Complexity: O(n log n) in the files noted.
  public var paths: [String] { noted.withLock { $0.sorted() } }
}
