internal import Foundation
internal import Dispatch
public import WaterflowReview
internal import Synchronization

/// The live preview's page and API, served by the review's server under the same rules (a
/// token per run, 127.0.0.1 or localhost only):
///
/// - `GET /?token=T`: the page.
/// - `GET /api/state?since=V`: the pins, the error and the version, once the version is past V
///   (waiting up to 20 s: the page's long poll).
/// - `GET /pins/ID.png`, `/pins/ID.previous.png` and `/pins/ID.expected.png`: a pin's image as
///   shown (at most ``PreviewSession/shownWidth`` pixels wide), the one before it, and for a
///   manifest's golden its recording.
/// - `GET /pins/ID.full.png`: the pin drawn at full size; `/pins/ID.strip.png`: its scroll's
///   contact strip; `/pins/ID.layout.json`: its cells' template boxes (``PreviewBox``).
/// - `POST /api/pins` with `{"add": {pin}}` or `{"remove": ID}`: changes the pins, saved beside
///   the file.
/// - `POST /api/record` (or `/api/accept`, the page's word for a manifest's golden) with
///   `{"id": ID}`: adds the pin's golden to the manifest if it is not there, and records it.
///
/// It watches every file the pins read and redraws the pins a save concerns.
public final class PreviewSite: LocalSite {
  /// The session shown.
  public let session: PreviewSession
  private let gate = LocalGate(cookieName: "waterflow-preview", command: "waterflow preview")
  private let watcher: FileWatcher
  /// Saves not yet drawn.
  private let pending = Mutex<Pending>(.nothing)
  private let redraws = DispatchQueue(label: "waterflow.preview.redraw")
  /// How long a long poll waits.
  private let pollSeconds: Double

  /// Records a pin's golden (adds it to the manifest and writes it as `golden record` does) and
  /// says what it did; nil when the preview cannot record.
  private let recorder: (@Sendable (PreviewGolden) -> Result<String, PreviewError>)?
  /// The manifest pins are recorded into.
  private let manifest: String

  /// Serves a session, drawing its pins now and again after every save.
  ///
  /// - Parameters:
  ///   - session: The session: its file and pins.
  ///   - pollSeconds: How long a long poll waits for a new version.
  ///   - manifest: The golden manifest `r` records a pin into.
  ///   - recorder: Adds a pin's golden to the manifest and records it.
  public init(
    session: PreviewSession, pollSeconds: Double = 20, manifest: String = "Golden/manifest.json",
    recorder: (@Sendable (PreviewGolden) -> Result<String, PreviewError>)? = nil
  ) {
    self.session = session
    self.manifest = manifest
    self.recorder = recorder
    self.pollSeconds = pollSeconds
    let changes = Mutex<(@Sendable (Set<String>) -> Void)?>(nil)
    watcher = FileWatcher { paths in changes.withLock { $0 }?(paths) }
    changes.withLock { $0 = { [weak self] paths in self?.saved(paths) } }
    redraw(nil)
  }

  /// The address that opens the page.
  public var address: String { gate.address }

  public func listening(on port: Int) { gate.listening(on: port) }

  /// Files were saved: stop the drawing in flight (it is stale) and draw again.
  private func saved(_ paths: Set<String>) {
    session.cancel()
    redraw(paths)
  }

  private func redraw(_ paths: Set<String>?) {
    pending.withLock { $0.add(paths) }
    redraws.async { [self] in
      let taken = pending.withLock { pending -> Pending in
        defer { pending = .nothing }
        return pending
      }
      let changed: Set<String>?
      switch taken {
      case .nothing: return  // drawn by an earlier turn
      case .files(let paths): changed = paths
      case .everything: changed = nil
      }
      if !session.refresh(changed: changed) {
        // Overtaken by a newer save, whose turn is queued: it draws these too.
        pending.withLock { $0.add(changed) }
      }
      watcher.watch(session.watchedFiles)
    }
  }

  /// The saves waiting to be drawn.
  private enum Pending: Sendable {
    case nothing
    case files(Set<String>)
    case everything

    mutating func add(_ paths: Set<String>?) {
      switch (self, paths) {
      case (.everything, _), (_, nil): self = .everything
      case (.nothing, let paths?): self = .files(paths)
      case (.files(let known), let paths?): self = .files(known.union(paths))
      }
    }
  }

  /// Answers one request.
  public func respond(to request: ReviewRequest) -> ReviewResponse {
    if let refusal = gate.refusal(of: request) { return refusal }
    if LocalGate.isPage(request) { return gate.page(PreviewPage.html(title: session.file)) }
    let method = request.method.uppercased()
    switch (method, request.path) {
    case ("GET", "/api/state"):
      let since = request.query["since"].flatMap(Int.init) ?? -1
      return LocalGate.json(200, State(session.state(after: since, waiting: pollSeconds)))
    case ("POST", "/api/pins"):
      struct Change: Decodable {
        var add: PreviewPin?
        var remove: Int?
      }
      guard let change = try? JSONDecoder().decode(Change.self, from: Data(request.body)),
        (change.add == nil) != (change.remove == nil)
      else {
        return LocalGate.error(
          400,
          "The body must be {\"add\": {\"scene\", \"offset\", \"device\", \"appearance\", \"locale\"}} or {\"remove\": ID}.")
      }
      do {
        if let pin = change.add {
          return LocalGate.json(200, ["added": try session.add(pin)])
        }
        try session.remove(change.remove!)
        return LocalGate.json(200, ["removed": change.remove!])
      } catch {
        return LocalGate.error(400, error.description)
      }
    case ("POST", "/api/record"), ("POST", "/api/accept"):
      // A pin recorded as a new golden, or a manifest's golden written anew from what its pin
      // shows (as the review accepts): the same `golden record`.
      struct Record: Decodable { var id: Int }
      guard let record = try? JSONDecoder().decode(Record.self, from: Data(request.body)) else {
        return LocalGate.error(400, "The body must be {\"id\": PIN}.")
      }
      guard let recorder else { return LocalGate.error(501, "This preview does not record goldens.") }
      let golden: PreviewGolden
      do { golden = try session.golden(ofPin: record.id, manifest: manifest) } catch {
        return LocalGate.error(400, error.description)
      }
      switch recorder(golden) {
      case .success(let said): return LocalGate.json(200, ["name": golden.name, "manifest": manifest, "output": said])
      case .failure(let error): return LocalGate.error(500, error.description)
      }
    case (_, "/api/state"), (_, "/api/pins"), (_, "/api/record"), (_, "/api/accept"):
      return LocalGate.error(405, "\(method) is not allowed on \(request.path).")
    default:
      break
    }
    if method == "GET", request.path.hasPrefix("/pins/") {
      return pinFile(String(request.path.dropFirst("/pins/".count)))
    }
    return LocalGate.error(404, "Nothing at \(request.path).")
  }

  /// A pin's file: `ID.png` (as shown), `ID.previous.png`, `ID.expected.png`, `ID.full.png`,
  /// `ID.strip.png` or `ID.layout.json`.
  private func pinFile(_ name: String) -> ReviewResponse {
    let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
    guard parts.count == 2, let id = Int(parts[0]) else { return LocalGate.error(404, "Nothing at /pins/\(name).") }
    let pin = session.state(after: -1, waiting: 0).pins.first { $0.id == id }
    guard let pin else { return LocalGate.error(404, "No pin \(id).") }
    let image: [UInt8]?
    switch parts[1] {
    case "png": image = pin.png
    case "previous.png": image = pin.previousPNG
    case "expected.png": image = pin.golden?.expectedPNG
    case "full.png": image = session.fullPNG(ofPin: id)
    case "strip.png":
      do { image = try session.contactStrip(ofPin: id) } catch { return LocalGate.error(400, error.description) }
    case "layout.json": return LocalGate.json(200, pin.layout)
    default: return LocalGate.error(404, "Nothing at /pins/\(name).")
    }
    guard let image else { return LocalGate.error(404, "No image for pin \(name).") }
    return LocalGate.png(image)
  }

  /// The state as the page reads it.
  private struct State: Encodable {
    struct Pin: Encodable {
      var id: Int
      var label: String
      var pin: PreviewPin
      var changedAt: Int
      var hasImage: Bool
      var hasPrevious: Bool
      var warnings: [String]
      var error: String?
      var cells: [PreviewCell]
      var golden: Golden?
      var truncated: [PreviewText]
      /// The drawing's size in pixels, in which cells and texts are given (the image sent may
      /// be smaller).
      var width: Int
      var height: Int
    }
    struct Golden: Encodable {
      var name: String
      var status: String
      var verdict: String
      var hasExpected: Bool
    }
    var version: Int
    var error: String?
    var pins: [Pin]
    var scenes: [String]
    var devices: [String]
    var locales: [String]
    var redraw: PreviewSession.Redraw?
    /// Whether the pins are a manifest's goldens (the page then offers no new pins).
    var manifest: Bool

    init(_ snapshot: PreviewSession.Snapshot) {
      manifest = snapshot.pins.contains { $0.golden != nil }
      version = snapshot.version
      error = snapshot.error
      pins = snapshot.pins.map {
        Pin(
          id: $0.id, label: $0.golden?.name ?? $0.pin.label, pin: $0.pin, changedAt: $0.changedAt, hasImage: $0.png != nil,
          hasPrevious: $0.previousPNG != nil, warnings: $0.warnings, error: $0.error, cells: $0.cells,
          golden: $0.golden.map {
            Golden(name: $0.name, status: $0.status, verdict: $0.verdict, hasExpected: $0.expectedPNG != nil)
          }, truncated: $0.truncated, width: $0.pixelWidth, height: $0.pixelHeight)
      }
      scenes = snapshot.scenes
      devices = snapshot.devices
      locales = snapshot.locales
      redraw = snapshot.redraw
    }
  }
}
