public import WaterflowGolden
internal import FileTransactions
internal import Foundation
internal import PNGCodec
public import WaterflowRender

/// A failed golden as a review shows it: its cause, its message, the images of its first
/// failing frame, and a digest of its files when it was checked.
///
/// Made by the check while the outcome is in memory, and saved with `--results`, so a review
/// can start from a check that ran elsewhere (a CI shard) or earlier.
public struct GoldenReviewItem: Hashable, Sendable, Codable {
  /// The golden's name in the manifest.
  public var name: String
  /// `failed`, or `missing` for a golden never recorded.
  public var status: String
  /// Why it failed; goldens with the same cause form a group.
  public var cause: GoldenCause
  /// The failure's message, as `golden check` prints it.
  public var message: String
  /// How many frames the golden has (1 unless it is a sequence).
  public var frames: Int
  /// The first failing frame, shown by the review.
  public var frame: Int
  /// The images of that frame, by their key in the artifacts folder: the golden as recorded,
  /// the rendering, and the three-panel diff. Only `actual` exists for a missing golden.
  public var expected: String?
  public var actual: String?
  public var diff: String?
  /// The digest of the golden's files when it was checked (see `GoldenStore.digest(of:)`):
  /// an accept refuses a golden whose files changed since.
  public var digest: String

  /// The item of a failed outcome; nil when it passed.
  ///
  /// - Parameters:
  ///   - outcome: The outcome, with its artifacts written.
  ///   - digest: `GoldenStore.digest(of:)` of the golden, taken after the check.
  ///   - imageKey: The key of an artifact's path, as the report names it.
  public init?(_ outcome: GoldenSequenceOutcome, digest: String, imageKey: (String) -> String) {
    guard let cause = GoldenCause(outcome), let first = outcome.firstFailingFrame else { return nil }
    let frame = outcome.frames[first]
    name = outcome.name
    status = outcome.isMissingOnly ? "missing" : "failed"
    self.cause = cause
    message = outcome.message
    frames = outcome.frames.count
    self.frame = first
    expected = frame.artifacts?.expected.map(imageKey)
    actual = frame.artifacts.map { imageKey($0.actual) }
    diff = frame.artifacts?.diff.map(imageKey)
    self.digest = digest
  }

  /// The image keys this item shows.
  public var images: [String] { [expected, actual, diff].compactMap(\.self) }
}

/// Why the review refused a request; nothing was written.
public struct GoldenReviewError: Error, Sendable, CustomStringConvertible {
  /// What kind of refusal, which the server turns into a status code.
  public enum Kind: Sendable {
    /// The request names goldens that cannot be accepted (unknown, passed, malformed): 400.
    case invalid
    /// A golden's files changed on disk since the check: 409.
    case conflict
    /// Rendering or writing failed, and what was written was put back: 500.
    case failed
  }

  public let kind: Kind
  public let message: String
  public var description: String { message }
}

/// Accepting failed goldens one by one or a cause at a time, and undoing the last accept.
///
/// An accept writes each golden as `waterflow golden record NAME` does: the same
/// `GoldenStore.check(_:renderer:fingerprint:)` in record mode `all`, atomic files and updated
/// facts. It refuses a golden whose files changed since the check (another tool, or an editor,
/// wrote it), so a review never overwrites what it did not see. Accepts run one at a time, so two
/// pages accepting at once never lose a write.
///
/// ```swift
/// let review = GoldenReview(items: items, manifest: manifest, store: store,
///                           renderer: renderer, fingerprint: fingerprint)
/// try review.accept(["shop/top", "shop/scrolled"])
/// try review.undo()  // both goldens are as they were
/// ```
public final class GoldenReview: @unchecked Sendable {
  /// The failures under review, in manifest order.
  public var items: [GoldenReviewItem] { lock.withLock { state.items } }
  /// The names accepted and not undone.
  public var accepted: Set<String> { lock.withLock { state.accepted } }

  /// Whether an accept can be undone.
  public var canUndo: Bool { lock.withLock { !state.undos.isEmpty } }

  /// Waits for an accept or undo in flight to finish, and refuses any later one: what a signal
  /// does before the process exits, so that nothing is half-written.
  ///
  /// - Returns: The names accepted and not undone.
  @discardableResult
  public func close() -> Set<String> {
    lock.withLock {
      state.closed = true
      return state.accepted
    }
  }

  /// The failures grouped by cause, in the order each cause first fails.
  ///
  /// - Complexity: O(n) in the failures.
  public var groups: [(cause: GoldenCause, names: [String])] {
    GoldenCause.groups(items.map { ($0.name, $0.cause) })
  }

  private struct Undo {
    var names: [String]
    /// Each file the accept touched: its bytes before (nil: it did not exist) and after.
    var before: [String: [UInt8]?]
    var after: [String: [UInt8]?]
  }

  private struct State {
    var items: [GoldenReviewItem]
    var accepted: Set<String> = []
    var undos: [Undo] = []
    var closed = false
  }

  private let lock = NSLock()
  private var state: State
  private let entries: [String: GoldenManifest.Entry]
  private let store: GoldenStore
  private let renderer: Renderer
  private let fingerprint: FontStackFingerprint
  /// Called with the names about to be written, after the request was validated: the command
  /// prints progress there.
  private let willWrite: @Sendable ([String]) -> Void
  /// The file of an image key: where the rendering the page showed is.
  private let imageFile: @Sendable (String) -> String?

  /// Creates a review of `items`, which accepts into `store`'s folder.
  ///
  /// - Parameters:
  ///   - items: The failures, from the check.
  ///   - manifest: The manifest the check read; accepts render its entries.
  ///   - store: The golden folder the check compared against; the review records into it.
  ///   - renderer: The renderer accepts draw with (used by one accept at a time).
  ///   - fingerprint: This machine's font stack, noted beside each golden written.
  ///   - imageFile: The file of an item's image key (by default the key itself is a path): an
  ///     accept compares what it renders with the `actual` image the page showed.
  ///   - willWrite: Called once a request is valid, before anything is written.
  public init(
    items: [GoldenReviewItem], manifest: GoldenManifest, store: GoldenStore, renderer: Renderer,
    fingerprint: FontStackFingerprint, imageFile: @escaping @Sendable (String) -> String? = { $0 },
    willWrite: @escaping @Sendable ([String]) -> Void = { _ in }
  ) {
    state = State(items: items)
    entries = Dictionary(manifest.entries.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    var store = store
    store.configuration.recordMode = .all
    store.configuration.clearsArtifacts = false
    self.store = store
    self.renderer = renderer
    self.fingerprint = fingerprint
    self.willWrite = willWrite
    self.imageFile = imageFile
  }

  /// Writes the goldens `names` from a fresh rendering, as `golden record` does.
  ///
  /// Every name is checked before anything is written: all are accepted, or none. A name
  /// already accepted is returned again without being written twice.
  ///
  /// - Returns: The accepted names, in the order given.
  /// - Throws: ``GoldenReviewError``: `.invalid` for an empty list, a name given twice, a name
  ///   not in the manifest or one that did not fail; `.conflict` when a golden's files changed
  ///   since the check; `.failed` when rendering or writing failed (the files written so far are
  ///   put back).
  @discardableResult
  public func accept(_ names: [String]) throws(GoldenReviewError) -> [String] {
    lock.lock()
    defer { lock.unlock() }
    guard !state.closed else { throw GoldenReviewError(kind: .failed, message: "The review is stopping; nothing was written.") }
    guard !names.isEmpty else { throw GoldenReviewError(kind: .invalid, message: "No names given: send {\"names\": [\"NAME\", …]}.") }
    var seen = Set<String>()
    for name in names {
      guard seen.insert(name).inserted else {
        throw GoldenReviewError(kind: .invalid, message: "'\(name)' is given twice.")
      }
      guard GoldenManifest.isValidName(name), entries[name] != nil else {
        throw GoldenReviewError(kind: .invalid, message: "'\(name)' is not a golden of the manifest.")
      }
      guard state.items.contains(where: { $0.name == name }) else {
        throw GoldenReviewError(kind: .invalid, message: "'\(name)' did not fail the check: there is nothing to accept.")
      }
    }
    let fresh = names.filter { !state.accepted.contains($0) }
    let changed = fresh.filter { name in
      store.digest(of: name) != state.items.first { $0.name == name }!.digest
    }
    guard changed.isEmpty else {
      throw GoldenReviewError(
        kind: .conflict,
        message: "\(Self.list(changed)) changed on disk since the check; nothing was written. Run the check again to review the goldens as they are now.")
    }
    guard !fresh.isEmpty else { return names }
    willWrite(fresh)
    for name in fresh { PausePoint.held("accept:" + name) }
    var before = snapshot(fresh)
    // Recording one golden can add frames (a longer sequence) beside the ones read above; they
    // are in `after` with no `before`, so an undo removes them.
    do throws(GoldenError) {
      for name in fresh {
        _ = try store.check(entries[name]!, renderer: renderer, fingerprint: fingerprint)
      }
    } catch {
      let after = snapshot(fresh)
      for path in after.keys where before[path] == nil { before[path] = .some(nil) }
      restore(before)
      throw GoldenReviewError(kind: .failed, message: "Accepting \(Self.list(fresh)) failed, and nothing was changed: \(error)")
    }
    let after = snapshot(fresh)
    for path in after.keys where before[path] == nil { before[path] = .some(nil) }
    // What was written must be what the page showed: a scene edited since the check renders
    // something nobody reviewed, which is put back rather than accepted.
    let unseen = fresh.filter { !rendersAsShown($0) }
    guard unseen.isEmpty else {
      restore(before)
      throw GoldenReviewError(
        kind: .conflict,
        message: "\(Self.list(unseen)) now render\(unseen.count == 1 ? "s" : "") differently from what the review showed (a scene or an input changed since the check); nothing was written. Run the review again to see the goldens as they render now.")
    }
    state.undos.append(Undo(names: fresh, before: before, after: after))
    state.accepted.formUnion(fresh)
    return names
  }

  /// Puts back the goldens of the last accept as they were before it.
  ///
  /// - Returns: The names restored.
  /// - Throws: ``GoldenReviewError``: `.invalid` when there is nothing to undo, `.conflict` when
  ///   the accepted files changed since (they are left alone).
  @discardableResult
  public func undo() throws(GoldenReviewError) -> [String] {
    lock.lock()
    defer { lock.unlock() }
    guard !state.closed else { throw GoldenReviewError(kind: .failed, message: "The review is stopping; nothing was restored.") }
    guard let last = state.undos.last else {
      throw GoldenReviewError(kind: .invalid, message: "Nothing to undo: no golden was accepted in this review.")
    }
    let changed = last.after.keys.filter { Self.read($0) != last.after[$0]! }
    guard changed.isEmpty else {
      throw GoldenReviewError(
        kind: .conflict,
        message: "\(Self.list(changed.sorted())) changed since the accept; nothing was restored.")
    }
    restore(last.before)
    state.undos.removeLast()
    state.accepted.subtract(last.names)
    return last.names
  }

  /// Whether the golden just recorded for `name` has the pixels of the `actual` image the page
  /// showed (its first failing frame); true when there is nothing to compare with.
  private func rendersAsShown(_ name: String) -> Bool {
    guard let item = state.items.first(where: { $0.name == name }), let key = item.actual,
      let shown = imageFile(key), FileManager.default.fileExists(atPath: shown)
    else { return true }
    let golden = store.path(
      for: item.frames > 1 ? GoldenStore.frameName(name, item.frame, count: item.frames) : name)
    guard let written = try? RGBAImage(contentsOfPNGFile: golden),
      let seen = try? RGBAImage(contentsOfPNGFile: shown)
    else { return false }
    return written == seen
  }

  /// The bytes of every file of the goldens `names` and of the fingerprint file.
  private func snapshot(_ names: [String]) -> [String: [UInt8]?] {
    var files: [String: [UInt8]?] = [store.fingerprintPath: Self.read(store.fingerprintPath)]
    for name in names {
      for path in store.files(of: name) { files[path] = Self.read(path) }
    }
    return files
  }

  /// Writes each file back atomically, or removes it when it did not exist.
  private func restore(_ files: [String: [UInt8]?]) {
    for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
      if let bytes {
        if Self.read(path) != bytes { try? writeAtomically(bytes, to: path) }
      } else {
        try? FileManager.default.removeItem(atPath: path)
      }
    }
  }

  private static func read(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
  }

  private static func list(_ names: [String]) -> String {
    names.count == 1 ? "'\(names[0])'" : names.map { "'\($0)'" }.joined(separator: ", ")
  }
}
