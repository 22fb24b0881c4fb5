internal import Foundation
internal import Dispatch
internal import WaterflowShots
internal import WaterflowScene
internal import WaterflowRender
internal import PNGCodec
internal import WaterflowInputs
internal import WaterflowGolden
internal import WaterflowMotion
internal import WaterflowCells
internal import WaterflowView
internal import Synchronization

/// A live preview's state: the file, its pins and their latest images, the error that broke the
/// last save, and a version the page waits on. Redrawing runs on every core, and a save that
/// arrives while a redraw runs cancels the stale work.
///
/// ```swift
/// let session = try PreviewSession(file: "Assets/Feeds/notes.json")
/// session.refresh(changed: nil)          // draw every pin
/// let state = session.state(after: 0, waiting: 0)
/// ```
public final class PreviewSession: Sendable {
  /// What the page shows of one pin.
  public struct PinState: Sendable {
    /// The pin's number, stable while it lives (the page names it by this).
    public var id: Int
    public var pin: PreviewPin
    /// The last good image as the page shows it (at most ``PreviewSession/shownWidth`` pixels
    /// wide), and the one before it (for the blink toggle).
    public var png: [UInt8]?
    public var previousPNG: [UInt8]?
    /// The session version at which the image last changed.
    public var changedAt = 0
    /// The files it was drawn from (the scene's and its own: images).
    public var inputs: Set<String> = []
    /// Images that could not be loaded, and other warnings of its last drawing.
    public var warnings: [String] = []
    /// Why its last drawing failed (a caption key missing in its locale), if it did.
    public var error: String?
    /// How many times it was drawn: a save that does not concern it leaves this alone.
    public var drawings = 0
    /// The cells on screen, where they are in the image, with their data: what the page shows
    /// on hover.
    public var cells: [PreviewCell] = []
    /// Pixels per point it was last drawn at.
    public var scale = 1.0
    /// The size of its drawing in pixels: where cells, boxes and texts are given. `png` is
    /// shrunk to at most ``PreviewSession/shownWidth`` pixels wide.
    public var pixelWidth = 0
    public var pixelHeight = 0
    /// Every cell's template boxes, padding, spacing and baselines, in image pixels: the
    /// debug overlay.
    public var layout: [PreviewBox] = []
    /// The texts that did not fit their boxes (cut with "…"), in image pixels.
    public var truncated: [PreviewText] = []
    /// For a manifest's preview: the golden this pin is, and how its check went.
    public var golden: GoldenCheck?

    /// Takes a new drawing (nil: it failed, and the last good one stays); the one it replaces
    /// is kept for the blink, and `version` marks when it changed.
    mutating func show(_ drawn: [UInt8]?, at version: Int) {
      guard let drawn, drawn != png else { return }
      previousPNG = png
      png = drawn
      changedAt = version
    }
  }

  /// A golden of a previewed manifest, checked as `golden check` checks it.
  public struct GoldenCheck: Sendable {
    /// The golden's name.
    public var name: String
    /// `matched`, `failed` or `missing`.
    public var status: String = ""
    /// What changed, as `golden check` says it (`layout changed: …`); empty when it passes.
    public var verdict: String = ""
    /// The golden as recorded, to show beside the drawing; nil when there is none.
    public var expectedPNG: [UInt8]?
  }

  /// A consistent copy of what the page needs.
  public struct Snapshot: Sendable {
    public var version: Int
    /// The error of the last save (the file, line and field), or nil when it loaded.
    public var error: String?
    public var pins: [PinState]
    /// The choices the page offers for a new pin.
    public var scenes: [String]
    public var devices: [String]
    public var locales: [String]
    /// The last redraw: how many pins, and the milliseconds loading the file and drawing took.
    public var redraw: Redraw?
  }

  /// A duration in milliseconds.
  private func milliseconds(_ d: Duration) -> Double {
    Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1e3
  }

  /// What the last redraw did, for the page's status line.
  public struct Redraw: Sendable, Codable {
    public var pins: Int
    public var loadMilliseconds: Double
    public var drawMilliseconds: Double
  }

  /// The widest image the page is sent of a pin, in pixels: the page shows pins a few hundred
  /// pixels wide, so a phone's 1320-pixel drawing goes shrunk by 3 (the browser decodes a ninth
  /// of the pixels), and the full drawing is made again when asked for (``fullPNG(ofPin:)``).
  public static let shownWidth = 640

  /// The file previewed: a scene or a shot file.
  public let file: String
  private let isShotFile: Bool
  /// Whether the file is a golden manifest: each golden is a pin, beside its recording.
  public let isManifest: Bool
  private let state = Mutex(StateStorage())
  /// Bumped by every refresh, so that a refresh in flight sees that it is stale.
  private let generation = Atomic<Int>(0)
  private let versionChanged = NSCondition()
  /// How many pins render at once.
  private let lanes: Int
  /// The most pixels per point a pin is drawn with; nil for the device's own.
  public let scale: Double?
  /// One renderer per lane, kept between saves (fonts loaded once, photos decoded once); a
  /// save forgets the images it changed. Used by one refresh at a time (`refreshing`).
  private let renderers = Mutex<(fontPath: String, pool: [Renderer])>(("", []))
  /// One set of canvases per lane, kept between saves: a pin is redrawn into the canvas its
  /// screen size had (cleared), not into memory the system must find and zero again.
  private let canvases = Mutex<[ShotCanvases]>([])
  /// Refreshes run one at a time, whatever thread asks (the watcher's queue, a new pin).
  private let refreshing = NSLock()
  /// The shot set the last good load made: what a full-size image or a contact strip is drawn
  /// from between saves.
  private let lastLoad = Mutex<(ShotFile, ShotScenes)?>(nil)

  private struct StateStorage: Sendable {
    var version = 0
    var error: String?
    var pins: [PinState] = []
    var nextID = 0
    var fileInputs: Set<String> = []
    var scenes: [String] = []
    var locales: [String] = ["base"]
    var redraw: Redraw?

    /// Makes the pins those of `wanted`, in its order: a pin already there (by `key`) keeps its
    /// number and images; a new one is made with the next number, and drawn by the refresh.
    mutating func follow<Key: Equatable>(
      _ wanted: [Key], key: (PinState) -> Key?, make: (Key, Int) -> PinState
    ) {
      guard pins.map(key) != wanted.map(Optional.some) else { return }
      var kept = pins
      pins = wanted.map { wanted in
        if let index = kept.firstIndex(where: { key($0) == wanted }) { return kept.remove(at: index) }
        defer { nextID += 1 }
        return make(wanted, nextID)
      }
    }
  }

  /// Opens a preview of a scene or shot file, with its saved pins or the defaults: the top, and
  /// the top after scrolling one screen, light and dark, on the scene's own viewport (for a
  /// shot file, every shot).
  ///
  /// - Parameters:
  ///   - file: The scene, shot file or golden manifest.
  ///   - lanes: How many pins render at once (default: every core).
  ///   - scale: Draw pins at most this many pixels per point (nil: the device's own): the
  ///     layout is the same, and a thumbnail costs a fraction of a full-size shot.
  /// - Throws: ``PreviewError`` when the file cannot be read, or its pins file is wrong.
  public init(file: String, lanes: Int? = nil, scale: Double? = nil) throws(PreviewError) {
    self.file = file
    self.scale = scale
    self.lanes = max(1, lanes ?? ProcessInfo.processInfo.activeProcessorCount)
    guard let data = FileManager.default.contents(atPath: file) else {
      throw PreviewError("Cannot read '\(file)': no such file, or it is not readable.")
    }
    let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    isManifest = object?["goldens"] != nil
    isShotFile = object?["scenes"] != nil
    if isManifest {
      // The manifest's goldens are the pins, in its order.
      let names: [String]
      do { names = try GoldenManifest(contentsOf: file).entries.map(\.name) } catch {
        throw PreviewError(error.description)
      }
      state.withLock { $0.follow(names, key: { $0.golden?.name }, make: PinState.golden(named:id:)) }
      return
    }
    let pins = try PreviewPins.saved(for: file) ?? defaultPins()
    state.withLock { $0.follow(pins, key: { $0.pin }) { PinState(id: $1, pin: $0) } }
  }

  /// The default pins, read from the file (a file that does not load gets them when it does).
  private func defaultPins() -> [PreviewPin] {
    if isShotFile, let shots = try? ShotFile(contentsOf: file) {
      return shots.shots.map {
        PreviewPin(
          scene: $0.scene.name, offset: $0.scene.offset, device: $0.device.name, appearance: $0.appearance,
          locale: $0.locale.name)
      }
    }
    let name = ShotFile.SceneEntry(path: file).name
    let screen = (try? Scene(contentsOf: file)).map { $0.layout.flow == .horizontal ? $0.viewport.width : $0.viewport.height } ?? 600
    return [0, screen].flatMap { offset in
      [Appearance.light, .dark].map { PreviewPin(scene: name, offset: offset, appearance: $0) }
    }
  }

  // MARK: - Pins

  /// The pins, in the page's order.
  public var pins: [PreviewPin] { state.withLock { $0.pins.map(\.pin) } }

  /// Adds a pin, saves the pins beside the file, and draws it.
  ///
  /// - Returns: The new pin's number.
  /// - Throws: ``PreviewError`` when the pins cannot be saved.
  @discardableResult
  public func add(_ pin: PreviewPin) throws(PreviewError) -> Int {
    guard !isManifest else { throw PreviewError("A manifest's pins are its goldens: add a golden to \(file).") }
    let (id, pins) = state.withLock { storage in
      let id = storage.nextID
      storage.nextID += 1
      storage.pins.append(PinState(id: id, pin: pin))
      return (id, storage.pins.map(\.pin))
    }
    try PreviewPins.save(pins, for: file)
    refresh(changed: [], drawing: [id])
    return id
  }

  /// Removes a pin and saves the pins beside the file.
  ///
  /// - Throws: ``PreviewError`` when no pin has that number, or the pins cannot be saved.
  public func remove(_ id: Int) throws(PreviewError) {
    guard !isManifest else { throw PreviewError("A manifest's pins are its goldens: remove the golden from \(file).") }
    let pins = state.withLock { storage -> [PreviewPin]? in
      guard let index = storage.pins.firstIndex(where: { $0.id == id }) else { return nil }
      storage.pins.remove(at: index)
      return storage.pins.map(\.pin)
    }
    guard let pins else { throw PreviewError("No pin \(id): it was removed already.") }
    try PreviewPins.save(pins, for: file)
    publish { _ in }
  }

  /// The golden a pin records as, for a manifest at `manifest`: a manifest's pin is its golden.
  ///
  /// - Throws: ``PreviewError`` when no pin has that number.
  public func golden(ofPin id: Int, manifest: String) throws(PreviewError) -> PreviewGolden {
    guard let pin = state.withLock({ $0.pins.first { $0.id == id } }) else {
      throw PreviewError("No pin \(id): it was removed.")
    }
    // Already in the manifest: adding it changes nothing, recording it writes it anew.
    if let golden = pin.golden { return PreviewGolden(name: golden.name, entry: "") }
    return PreviewGolden(pin: pin.pin, of: file, shotFile: isShotFile, manifest: manifest, scale: pin.scale)
  }

  /// Takes the pins file as it is on disk (edited by hand, or pulled): pins it still has keep
  /// their images; new ones are drawn. A file that does not read leaves the pins as they are.
  private func reloadPins() {
    guard let saved = try? PreviewPins.saved(for: file) else { return }
    state.withLock { storage in
      storage.follow(saved, key: { $0.pin }) { PinState(id: $1, pin: $0) }
    }
  }

  // MARK: - Drawing

  /// Every file the preview depends on: the file, its pins file, and what each pin read.
  public var watchedFiles: Set<String> {
    state.withLock { storage in
      storage.pins.reduce(
        storage.fileInputs.union([file, PreviewPins.path(for: file)].map(FileWatcher.absolute))
      ) { $0.union($1.inputs) }
    }
  }

  /// Loads the file again and redraws the pins whose inputs are among `changed` (nil: every
  /// pin), and any listed in `drawing`. A refresh started later cancels this one: it returns
  /// without publishing anything.
  ///
  /// - Returns: Whether it published; false when a later refresh or ``cancel()`` overtook it.
  @discardableResult
  public func refresh(changed: Set<String>?, drawing extra: Set<Int> = []) -> Bool {
    let mine = generation.add(1, ordering: .acquiringAndReleasing).newValue
    refreshing.lock()
    defer { refreshing.unlock() }
    guard generation.load(ordering: .acquiring) == mine else { return false }
    // Images that changed on disk are read again; with no list, every renderer starts afresh.
    renderers.withLock { renderers in
      guard let changed else { return renderers.pool = [] }
      for renderer in renderers.pool { renderer.images.forget { changed.contains(FileWatcher.absolute($0)) } }
    }
    let clock = ContinuousClock()
    let started = clock.now
    if isManifest { return refreshGoldens(changed: changed, generation: mine, started: started, clock: clock) }
    if let changed, changed.contains(FileWatcher.absolute(PreviewPins.path(for: file))) { reloadPins() }
    let recorder = InputRecorder()
    let loaded: Result<(ShotFile, ShotScenes), PreviewError> = InputRecorder.$current.withValue(recorder) {
      Result { () throws(PreviewError) in try load() }
    }
    let fileInputs = Set((recorder.paths + [file]).map(FileWatcher.absolute))
    switch loaded {
    case .failure(let error):
      // The last good images stay; the page greys them under the error.
      guard generation.load(ordering: .acquiring) == mine else { return false }
      publish { storage in
        storage.error = error.description
        storage.fileInputs = storage.fileInputs.union(fileInputs)
      }
      return true
    case .success(let (shotFile, scenes)):
      lastLoad.withLock { $0 = (shotFile, scenes) }
      // A string table concerns only the pins of its locale, though the load reads them all.
      let tables = Dictionary(
        shotFile.locales.compactMap { locale in locale.stringsPath.map { (locale.name, FileWatcher.absolute($0)) } },
        uniquingKeysWith: { a, _ in a })
      func loadInputs(of pin: PinState) -> Set<String> {
        fileInputs.subtracting(tables.filter { $0.key != pin.pin.locale }.values)
      }
      let chosen = pinsToDraw(changed: changed, extra: extra, loadInputs: loadInputs)
      let loadedAt = clock.now
      let drawn = draw(chosen, file: shotFile, scenes: scenes, generation: mine)
      guard generation.load(ordering: .acquiring) == mine else { return false }
      let redraw = Redraw(
        pins: drawn.count, loadMilliseconds: milliseconds(loadedAt - started),
        drawMilliseconds: milliseconds(clock.now - loadedAt))
      publish { storage in
        storage.redraw = redraw
        storage.error = nil
        storage.fileInputs = fileInputs
        storage.scenes = shotFile.scenes.map(\.name)
        storage.locales = shotFile.locales.map(\.name)
        for result in drawn {
          guard let index = storage.pins.firstIndex(where: { $0.id == result.id }) else { continue }
          storage.pins[index].take(result, loadInputs: loadInputs(of: storage.pins[index]), at: storage.version + 1)
        }
      }
      return true
    }
  }

  /// A manifest's refresh: its goldens whose inputs changed are drawn and checked against their
  /// recordings, as `golden check` does (nothing is recorded).
  private func refreshGoldens(
    changed: Set<String>?, generation mine: Int, started: ContinuousClock.Instant, clock: ContinuousClock
  ) -> Bool {
    let recorder = InputRecorder()
    let loaded = InputRecorder.$current.withValue(recorder) { () -> Result<GoldenManifest, PreviewError> in
      do { return .success(try GoldenManifest(contentsOf: file)) } catch { return .failure(PreviewError("\(error)")) }
    }
    let fileInputs = Set((recorder.paths + [file]).map(FileWatcher.absolute))
    guard case .success(let manifest) = loaded else {
      guard generation.load(ordering: .acquiring) == mine, case .failure(let error) = loaded else { return false }
      publish { storage in
        storage.error = error.description
        storage.fileInputs = storage.fileInputs.union(fileInputs)
      }
      return true
    }
    // The pins follow the manifest's goldens: a golden added since is drawn, one removed goes.
    state.withLock { storage in
      storage.follow(manifest.entries.map(\.name), key: { $0.golden?.name }, make: PinState.golden(named:id:))
    }
    let chosen = pinsToDraw(changed: changed, extra: [], loadInputs: { _ in fileInputs })
    let loadedAt = clock.now
    let results = Mutex<[(Int, Drawn, GoldenCheck)]>([])
    let next = Atomic<Int>(0)
    // Each lane uses its own renderer only: no renderer is shared between threads.
    nonisolated(unsafe) let pool = renderers(min(lanes, chosen.count), fontPath: manifest.fontPath ?? Renderer.defaultFontPath)
    let configuration = try? GoldenConfiguration.fromEnvironment(explicitMode: .never)
    DispatchQueue.concurrentPerform(iterations: configuration == nil ? 0 : pool.count) { lane in
      let renderer = pool[lane]
      guard let configuration else { return }
      let fingerprint = FontStackFingerprint(renderer: renderer)
      let store = GoldenStore(
        directory: manifest.goldenDirectory(for: fingerprint, perStack: manifest.perStack), configuration: configuration)
      while generation.load(ordering: .acquiring) == mine {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < chosen.count else { break }
        let pin = chosen[index]
        var check = pin.golden ?? GoldenCheck(name: pin.pin.scene)
        guard let entry = manifest.entries.first(where: { $0.name == check.name }) else {
          let drawn = Drawn(id: pin.id, png: nil, inputs: [], warnings: [], error: "No golden '\(check.name)' in \(file) any more.")
          results.withLock { $0.append((pin.id, drawn, check)) }
          continue
        }
        let inputs = InputRecorder()
        let outcome = InputRecorder.$current.withValue(inputs) { () -> Result<GoldenSequenceOutcome, GoldenError> in
          do throws(GoldenError) { return .success(try store.check(entry, renderer: renderer, fingerprint: fingerprint)) } catch {
            return .failure(error)
          }
        }
        var drawn = Drawn(id: pin.id, png: nil, inputs: [], warnings: [], error: nil)
        switch outcome {
        case .success(let outcome):
          // A sequence shows its first failing frame, or its first.
          let frame = outcome.frames.first(where: \.isFailure) ?? outcome.frames[0]
          drawn.png = frame.actual.pngData(compression: .frames)
          drawn.pixelSize = (frame.actual.width, frame.actual.height)
          drawn.inputs = Set((inputs.paths + [frame.goldenPath]).map(FileWatcher.absolute))
          check.status = frame.status.rawValue
          check.verdict = frame.isFailure ? frame.changes?.summary ?? frame.message : ""
          // The golden's own file: it was just decoded to compare, so it is there as it is.
          check.expectedPNG = frame.expected == nil ? nil : FileManager.default.contents(atPath: frame.goldenPath).map(Array.init)
        case .failure(let error):
          drawn.error = error.description
          drawn.inputs = Set(inputs.paths.map(FileWatcher.absolute))
        }
        results.withLock { $0.append((pin.id, drawn, check)) }
      }
    }
    guard generation.load(ordering: .acquiring) == mine else { return false }
    let done = results.withLock { $0 }
    let redraw = Redraw(
      pins: done.count, loadMilliseconds: milliseconds(loadedAt - started), drawMilliseconds: milliseconds(clock.now - loadedAt))
    publish { storage in
      storage.redraw = redraw
      storage.error = nil
      storage.fileInputs = fileInputs
      for (id, result, check) in done {
        guard let index = storage.pins.firstIndex(where: { $0.id == id }) else { continue }
        storage.pins[index].take(result, loadInputs: fileInputs, at: storage.version + 1)
        storage.pins[index].golden = check
      }
    }
    return true
  }

  /// `count` renderers drawing with a font file first (fewer if one cannot be made), kept
  /// between refreshes; another font starts a new pool.
  private func renderers(_ count: Int, fontPath: String) -> [Renderer] {
    // Refreshes run one at a time (`refreshing`), so the pool's renderers leave the lock safely.
    nonisolated(unsafe) var chosen: [Renderer] = []
    renderers.withLock { renderers in
      if renderers.fontPath != fontPath { renderers = (fontPath, []) }
      while renderers.pool.count < count, let made = try? Renderer(fontPath: fontPath) { renderers.pool.append(made) }
      chosen = Array(renderers.pool.prefix(count))
    }
    return chosen
  }

  /// The pins a refresh draws: those never drawn or failed, those asked for, and those that read
  /// a changed file (their own inputs, or what loading the file read for them); all when no
  /// list of changes is given.
  private func pinsToDraw(
    changed: Set<String>?, extra: Set<Int>, loadInputs: (PinState) -> Set<String>
  ) -> [PinState] {
    state.withLock { $0.pins }.filter { pin in
      guard let changed else { return true }
      return pin.png == nil || pin.error != nil || extra.contains(pin.id)
        || !changed.isDisjoint(with: pin.inputs) || !changed.isDisjoint(with: loadInputs(pin))
    }
  }

  /// Stops the refresh in flight, if any, before it publishes: a newer save is coming.
  public func cancel() {
    generation.add(1, ordering: .acquiringAndReleasing)
  }

  /// The shot set the pins are drawn from, with every scene and string table loaded.
  private func load() throws(PreviewError) -> (ShotFile, ShotScenes) {
    var shotFile: ShotFile
    if isShotFile {
      do { shotFile = try ShotFile(contentsOf: file) } catch { throw PreviewError(error.description) }
    } else {
      shotFile = ShotFile(path: file, scenes: [ShotFile.SceneEntry(path: file)], devices: [])
    }
    let shots = state.withLock { $0.pins }.compactMap { shot(of: $0.pin, in: shotFile, viewport: nil) }
    do { return (shotFile, try ShotScenes(for: shots.isEmpty ? shotFile.shots : shots)) } catch {
      throw PreviewError(error.description)
    }
  }

  /// The shot a pin stands for, or nil when the file has no such scene or locale.
  private func shot(of pin: PreviewPin, in file: ShotFile, viewport: Scene?) -> Shot? {
    guard var entry = file.scenes.first(where: { $0.name == pin.scene }),
      let locale = file.locales.first(where: { $0.name == pin.locale })
    else { return nil }
    entry.offset = pin.offset
    var device: Device
    if pin.device == PreviewPin.sceneViewport {
      let size = viewport?.viewport ?? Size(width: 375, height: 667)
      device = Device(
        name: PreviewPin.sceneViewport, title: "The scene's viewport", size: size, scale: viewport?.scale ?? 2,
        hasHomeButton: true)  // no home indicator: the scene as it is drawn
    } else if let named = Device.named(pin.device) {
      device = named
    } else {
      return nil
    }
    if let scale { device.scale = min(device.scale, scale) }
    return Shot(locale: locale, appearance: pin.appearance, device: device, scene: entry)
  }

  fileprivate struct Drawn: Sendable {
    var id: Int
    var png: [UInt8]?
    var inputs: Set<String>
    var warnings: [String]
    var error: String?
    var cells: [PreviewCell] = []
    var scale = 1.0
    var truncated: [PreviewText] = []
    var pixelSize = (width: 0, height: 0)
    var layout: [PreviewBox] = []
  }

  /// Draws pins on `lanes` threads, each with its own renderer; stops early when stale.
  private func draw(_ pins: [PinState], file: ShotFile, scenes: ShotScenes, generation mine: Int) -> [Drawn] {
    let results = Mutex<[Drawn]>([])
    let next = Atomic<Int>(0)
    // Each lane uses its own renderer only: no renderer is shared between threads.
    nonisolated(unsafe) let pool = renderers(min(lanes, pins.count), fontPath: Renderer.defaultFontPath)
    // Each lane draws into its own canvases only; refreshes run one at a time (`refreshing`).
    nonisolated(unsafe) let canvasSet = canvases.withLock { sets in
      while sets.count < pool.count { sets.append(ShotCanvases()) }
      return sets
    }
    DispatchQueue.concurrentPerform(iterations: pool.count) { lane in
      let renderer = pool[lane]
      let camera = ShotCamera(file: file, scenes: scenes, renderer: renderer, canvases: canvasSet[lane])
      while generation.load(ordering: .acquiring) == mine {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < pins.count else { break }
        let pin = pins[index]
        let scene = scenes.scene(named: pin.pin.scene, locale: pin.pin.locale)
        guard let shot = shot(of: pin.pin, in: file, viewport: scene) else {
          let error = "The file has no scene '\(pin.pin.scene)', locale '\(pin.pin.locale)' or device '\(pin.pin.device)' for this pin."
          results.withLock { $0.append(Drawn(id: pin.id, png: nil, inputs: [], warnings: [], error: error)) }
          continue
        }
        let recorder = InputRecorder()
        let drawn = InputRecorder.$current.withValue(recorder) { () -> Drawn in
          do throws(ShotSetError) {
            // The frame encoder: a preview's PNGs live for a page load, so speed beats bytes.
            let capture = try camera.encodedCapture(shot, compression: .frames, maximumWidth: Self.shownWidth)
            let warnings = camera.imageFailures.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            return Drawn(
              id: pin.id, png: capture.png, inputs: [], warnings: warnings, error: nil,
              cells: PreviewCell.cells(of: capture, scene: scene), scale: shot.device.scale,
              truncated: capture.truncated.map { PreviewText($0, scale: capture.pixelScale) },
              pixelSize: capture.pixelSize, layout: PreviewBox.boxes(of: capture))
          } catch {
            return Drawn(id: pin.id, png: nil, inputs: [], warnings: [], error: error.description)
          }
        }
        var result = drawn
        result.inputs = Set(recorder.paths.map(FileWatcher.absolute))
        results.withLock { $0.append(result) }
      }
    }
    return results.withLock { $0 }
  }

  // MARK: - On demand

  /// A pin's image at full size: the page is sent pins shrunk, and a click opens this. A
  /// scene's or shot file's pin is drawn again from the last good load (a manifest's is
  /// kept whole); nil when there is no such pin or it cannot be drawn.
  public func fullPNG(ofPin id: Int) -> [UInt8]? {
    guard let pin = state.withLock({ $0.pins.first { $0.id == id } }) else { return nil }
    if isManifest { return pin.png }
    return onLastLoad(pin) { camera, _, shot, _ in try? camera.png(of: shot, compression: .frames) }
  }

  /// How many thumbnails a contact strip has.
  public static let stripThumbnails = 8

  /// A contact strip of a pin's scroll: its screen scrolled from the top to the pin's offset in
  /// steps of 10 points, as a finger scrolls, with ``stripThumbnails`` of the frames drawn and
  /// the cells created (green) and reused (orange) since the thumbnail before marked.
  ///
  /// - Throws: ``PreviewError`` for a pin at the top (it has no scroll), a manifest's golden,
  ///   or a pin that cannot be drawn.
  public func contactStrip(ofPin id: Int) throws(PreviewError) -> [UInt8] {
    guard let pin = state.withLock({ $0.pins.first { $0.id == id } }) else {
      throw PreviewError("No pin \(id): it was removed.")
    }
    guard !isManifest else { throw PreviewError("A golden's pin has no contact strip: preview its scene.") }
    guard pin.pin.offset != 0 else {
      throw PreviewError("This pin is at the top, so it has no scroll to show: pin a screen further down.")
    }
    let made = onLastLoad(pin) { _, renderer, shot, scenes -> Result<[UInt8], PreviewError> in
      let scene = scenes.scene(of: shot, statusBar: false)
      // The output is never written: only the sheet is drawn.
      var job = ScrollJob(
        scene: scene, script: .scroll(from: 0, to: pin.pin.offset, step: 10), output: .folder(""),
        options: RenderOptions(scale: 1, style: scene.style))
      job.markReuse = true
      do {
        return .success(try job.contactSheetPNG(thumbnails: Self.stripThumbnails, renderer: renderer))
      } catch {
        return .failure(PreviewError("\(error)"))
      }
    }
    guard let made else { throw PreviewError("The pin cannot be drawn: the file does not load, or has no such screen.") }
    return try made.get()
  }

  /// `body` with a camera on the last good load and its renderer (the first lane's: fonts loaded,
  /// photos decoded), the pin's shot and the load's scenes, between refreshes (which use the
  /// same renderers).
  private func onLastLoad<T>(_ pin: PinState, _ body: (ShotCamera, Renderer, Shot, ShotScenes) -> T?) -> T? {
    refreshing.lock()
    defer { refreshing.unlock() }
    guard let (file, scenes) = lastLoad.withLock({ $0 }),
      let renderer = renderers(1, fontPath: Renderer.defaultFontPath).first
    else { return nil }
    let scene = scenes.scene(named: pin.pin.scene, locale: pin.pin.locale)
    guard let shot = shot(of: pin.pin, in: file, viewport: scene) else { return nil }
    return body(ShotCamera(file: file, scenes: scenes, renderer: renderer), renderer, shot, scenes)
  }

  // MARK: - Waiting

  /// Changes the state and wakes the pages waiting for a new version.
  private func publish(_ change: (inout StateStorage) -> Void) {
    versionChanged.lock()
    state.withLock { storage in
      change(&storage)
      storage.version += 1
    }
    versionChanged.broadcast()
    versionChanged.unlock()
  }

  /// The state once its version is past `version`, waiting at most `seconds` for that.
  public func state(after version: Int, waiting seconds: Double) -> Snapshot {
    let deadline = Date(timeIntervalSinceNow: seconds)
    versionChanged.lock()
    while state.withLock({ $0.version }) <= version, versionChanged.wait(until: deadline) {}
    versionChanged.unlock()
    return state.withLock { storage in
      Snapshot(
        version: storage.version, error: storage.error, pins: storage.pins, scenes: storage.scenes,
        devices: [PreviewPin.sceneViewport] + Device.all.map(\.name), locales: storage.locales,
        redraw: storage.redraw)
    }
  }
}

/// A cell on a pin's screen: its item, where it is in the image (pixels), and its data.
public struct PreviewCell: Sendable, Encodable, Equatable {
  public var item: Int
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double
  /// The item's data, field by field (`title`, `user.nickname`), as texts.
  public var data: [String: String]

  /// The cells a capture shows, in image pixels.
  static func cells(of capture: EncodedShot, scene: Scene?) -> [PreviewCell] {
    guard let snapshot = capture.view.snapshot else { return [] }
    return capture.view.indicesOnScreen.map { index in
      let frame = snapshot.frame(at: index)
      let scale = capture.pixelScale
      let data = scene.flatMap { index < $0.itemCount ? $0.item(at: index).data?.fields : nil } ?? [:]
      return PreviewCell(
        item: index, x: (frame.minX - capture.pixelOrigin.x) * scale, y: (frame.minY - capture.pixelOrigin.y) * scale,
        width: frame.width * scale, height: frame.height * scale, data: data)
    }
  }
}

/// A text a pin drew, and its box in image pixels.
public struct PreviewText: Sendable, Encodable, Equatable {
  public var text: String
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  init(_ text: DrawnText, scale: Double) {
    self.text = text.text
    x = text.box.minX * scale
    y = text.box.minY * scale
    width = text.box.width * scale
    height = text.box.height * scale
  }
}

extension PreviewSession.PinState {
  /// Takes a drawing's result: its inputs (with what loading the file read for it), warnings,
  /// error, and on success its cells, scale, cut texts and image.
  fileprivate mutating func take(_ result: PreviewSession.Drawn, loadInputs: Set<String>, at version: Int) {
    inputs = result.inputs.union(loadInputs)
    warnings = result.warnings
    error = result.error
    drawings += 1
    if result.png != nil {
      cells = result.cells
      scale = result.scale
      truncated = result.truncated
      (pixelWidth, pixelHeight) = result.pixelSize
      layout = result.layout
    }
    show(result.png, at: version)
  }
}

extension PreviewSession.PinState {
  /// The pin of a manifest's golden, not yet checked.
  fileprivate static func golden(named name: String, id: Int) -> Self {
    var pin = Self(id: id, pin: PreviewPin(scene: name, offset: 0))
    pin.golden = PreviewSession.GoldenCheck(name: name)
    return pin
  }
}

/// A template box of a cell on a pin's screen, in image pixels: what the debug overlay draws.
public struct PreviewBox: Sendable, Encodable, Equatable {
  /// The item whose cell it is.
  public var item: Int
  /// `cell`, `vstack`, `hstack`, `zstack`, `text`, `image`, …
  public var kind: String
  public var depth: Int
  /// The frame: x, y, width, height.
  public var frame: [Double]
  /// Inside the padding (the cell and stacks).
  public var content: [Double]?
  /// A stack's spacing between children.
  public var gaps: [[Double]]
  /// A text's baselines (y), from `frame`'s left to its right.
  public var baselines: [Double]

  /// Every template cell's boxes on a capture's screen, mirrored as a right-to-left cell draws.
  static func boxes(of capture: EncodedShot) -> [PreviewBox] {
    let view = capture.view
    guard let measurer = capture.scene.cellMeasurer else { return [] }
    let mirrored = capture.scene.layout.direction == .rightToLeft
    let scale = capture.pixelScale, origin = capture.pixelOrigin
    func pixels(_ r: Rect) -> [Double] {
      [(r.minX - origin.x) * scale, (r.minY - origin.y) * scale, r.width * scale, r.height * scale]
    }
    return view.indicesOnScreen.flatMap { index -> [PreviewBox] in
      guard let cell = view.cell(at: index) as? TemplateCell, let template = cell.template else { return [] }
      return measurer.engine(data: cell.data, index: index).boxes(of: template, in: cell.frame).map { box in
        let box = mirrored ? box.mirrored(across: cell.frame) : box
        return PreviewBox(
          item: index, kind: box.kind.rawValue, depth: box.depth, frame: pixels(box.frame),
          content: box.content.map(pixels), gaps: box.gaps.map(pixels),
          baselines: box.baselines.map { ($0 - origin.y) * scale })
      }
    }
  }
}
