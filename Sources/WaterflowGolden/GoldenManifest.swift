internal import Foundation
internal import SystemPackage
internal import WaterflowJSON
public import WaterflowRender
internal import WaterflowScene
public import WaterflowShots
public import WaterflowStyle

/// The list of goldens that `waterflow golden check|record|prune` works through.
///
/// `Golden/manifest.json`; scene paths are relative to the manifest's folder:
/// ```json
/// {
///   "unmanaged": ["SnapshotTesting/"],
///   "goldens": [
///     {"name": "reference/top", "scene": "../Assets/Scenes/reference.json"},
///     {"name": "reference/scrolled", "scene": "../Assets/Scenes/reference.json", "offset": 600, "step": 50},
///     {"name": "reference/reuse", "scene": "../Assets/Scenes/reference.json",
///      "sequence": {"from": 0, "to": 400, "step": 100}}
///   ]
/// }
/// ```
/// Entry keys: `name`, `scene` (required); `offset`, `step`, `scale` (default 1), `debug`,
/// `overview`, `sequence` {from, to, step}; and for the comparison `threshold`, `includeAA`,
/// `maxDiffPixels`, `maxDiffRatio`, `masks` ([[x, y, w, h], …] in pixels) and `maskCells`
/// (cell indices); `appearance` ("light", "dark") draws the scene in that appearance, and
/// `device` (`iphone-6.9`: its screen and scale) takes it as an unframed shot. Instead of `scene`, `shots` names a shot file (see
/// `waterflow shots`): the entry then owns one golden per shot,
/// `NAME/LOCALE/APPEARANCE/DEVICE/SCENE`, and takes only the comparison keys; with `shot`
/// (`LOCALE/APPEARANCE/DEVICE/SCENE`) it owns that one shot, optionally at another `offset`. `unmanaged` lists folders of goldens owned by Swift tests, which prune leaves alone.
/// `"perStack": true` keeps the goldens in one folder per font stack, `stacks/<stack>/` (see
/// `FontStackFingerprint.folderName`), each compared pixel for pixel on its own stack.
public struct GoldenManifest: Sendable {
  /// One golden or sequence of goldens.
  public struct Entry: Sendable {
    /// The golden's name: its path below the golden folder, without `.png`.
    public var name: String
    /// The scene file, resolved against the manifest's folder.
    public var scenePath: String
    /// Where and how to render.
    public var position: GoldenShot.Position
    /// Scale and debug overlay.
    public var options: RenderOptions
    /// Draws the overview instead of the viewport.
    public var overview: Bool
    /// Pixelmatch options and pixel masks for this golden.
    public var diffOptions: ImageDiff.Options
    /// The tolerance for this golden.
    public var tolerance: DiffTolerance
    /// Cells masked by index.
    public var maskedCells: [Int]
    /// The shot of a shot set this golden is, for an entry that names a shot file.
    public var screenshot: (file: ShotFile, shot: Shot)? = nil
    /// The appearance the scene is drawn in (`"appearance"`); nil for the scene's own.
    public var appearance: Appearance? = nil

    /// True for a sequence of frames.
    public var isSequence: Bool {
      if case .sequence = position { return true }
      return false
    }

    /// The golden names this entry owns: its name, or one per frame for a sequence.
    public var goldenNames: [String] {
      guard case .sequence(let from, let to, let step) = position else {
        return [name]
      }
      let count = GoldenShot(
        scene: Scene(), position: .sequence(from: from, to: to, step: step),
        options: options
      ).offsets.count
      return (0..<count).map { GoldenStore.frameName(name, $0, count: count) }
    }

    /// The shot, with the scene loaded.
    ///
    /// - Throws: `GoldenError` (`.configuration`) naming the scene file when it cannot be loaded.
    public func shot() throws(GoldenError) -> GoldenShot {
      if let screenshot {
        var shot = GoldenShot(
          scene: Scene(path: scenePath), position: position, options: options,
          maskedCells: maskedCells)
        shot.screenshot = screenshot
        return shot
      }
      var scene: Scene
      do { scene = try Scene(contentsOf: scenePath) } catch {
        throw GoldenError(
          .configuration, "Golden '\(name)': \(error.description)")
      }
      if let appearance { scene = scene.appearing(appearance) }
      return GoldenShot(
        scene: scene, position: position, options: options, overview: overview,
        maskedCells: maskedCells)
    }
  }

  /// The manifest file.
  public let path: String
  /// The goldens, in file order.
  public var entries: [Entry]
  /// Folders (relative to the golden folder) whose PNGs prune never reports.
  public var unmanaged: [String]
  /// The font every golden of the manifest is drawn with (`"font"`, relative to the manifest);
  /// nil for DejaVu Sans. A `--font` on the command line wins.
  public var fontPath: String?
  /// True when goldens live in one folder per font stack (`"perStack": true`), as Playwright
  /// keeps one per platform, instead of one folder checked on every stack by text content.
  public var perStack = false

  /// The golden folder: the manifest's own folder.
  public var goldenDirectory: String {
    let folder = FilePath(path).removingLastComponent().string
    return folder.isEmpty ? "." : folder
  }

  /// The folder that holds the goldens of `stack`: the golden folder, or with `perStack` its
  /// `stacks/<stack>/` folder.
  public func goldenDirectory(for stack: FontStackFingerprint, perStack: Bool) -> String {
    perStack ? GoldenStore.stackDirectory(in: goldenDirectory, for: stack) : goldenDirectory
  }

  /// Reads and validates a manifest.
  ///
  /// - Parameter path: The manifest file.
  /// - Throws: `GoldenError` (`.configuration`) naming the file, the entry and the key at fault.
  public init(contentsOf path: String) throws(GoldenError) {
    self.path = path
    let document: JSONDocument
    do { document = try JSONDocument(contentsOf: path) } catch {
      throw GoldenError(
        .configuration,
        "The golden manifest '\(path)' does not exist or is not readable.")
    }
    do throws(JSONInputError) {
      (entries, unmanaged, fontPath, perStack) = try document.read {
        (r: inout JSONReader) throws(JSONInputError) in
        try Self.read(&r, path: path)
      }
    } catch {
      throw GoldenError(.configuration, error.description)
    }
  }

  private enum Key: String, CaseIterable { case font, goldens, perStack, unmanaged }
  private enum EntryKey: String, CaseIterable {
    case name, scene, offset, step, scale, debug, overview, sequence, threshold
    case includeAA, maxDiffPixels, maxDiffRatio, masks, maskCells, shots
    case appearance, device, shot
  }
  private enum SequenceKey: String, CaseIterable { case from, to, step }
  private static let keys = JSONKeys<Key>()
  private static let entryKeys = JSONKeys<EntryKey>()
  private static let sequenceKeys = JSONKeys<SequenceKey>()

  private static func read(_ r: inout JSONReader, path: String)
    throws(JSONInputError)
    -> ([Entry], [String], String?, Bool)
  {
    guard try r.peek() == .object else {
      throw r.fail("expected an object with \"goldens\"")
    }
    var entries: [Entry]?
    var unmanaged: [String] = []
    var font: String?
    var perStack = false
    try r.beginObject()
    while let key = try r.nextKey(keys) {
      switch key {
      case .font: font = Scene.resolve(try r.string(), against: path)
      case .perStack: perStack = try r.bool()
      case .unmanaged:
        try r.beginArray()
        while try r.nextElement() {
          let folder = try r.string()
          unmanaged.append(folder.hasSuffix("/") ? folder : folder + "/")
        }
      case .goldens:
        var list: [Entry] = []
        var owners: [String: String] = [:]
        try r.beginArray()
        while try r.nextElement() {
          for entry in try readEntries(&r, path: path) {
          for golden in entry.goldenNames {
            if let other = owners[golden] {
              throw r.fail(
                key: "name",
                "'\(entry.name)' needs the golden '\(golden)', which '\(other)' already uses"
              )
            }
            owners[golden] = entry.name
          }
          list.append(entry)
          }
        }
        entries = list
      }
    }
    guard let entries else { throw r.fail(key: "goldens", "missing") }
    return (entries, unmanaged, font, perStack)
  }

  /// One entry of `goldens`: one golden or sequence, or for a shot file one golden per shot,
  /// named `NAME/LOCALE/APPEARANCE/DEVICE/SCENE` (NAME defaults to the shot file's name).
  private static func readEntries(_ r: inout JSONReader, path: String)
    throws(JSONInputError)
    -> [Entry]
  {
    let nameRule =
      "missing, or not a relative name of letters, digits, '-', '_', '.' and '/' such as \"reference/top\""
    var name: String?
    var scene: String?
    var offset: Double?
    var step: Double?
    var sequence: (from: Double, to: Double, step: Double)?
    var options = RenderOptions(scale: 1, debug: false)
    var overview = false
    var diffOptions = ImageDiff.Options(threshold: 0.1, includeAA: false)
    var tolerance = DiffTolerance(maxMismatchedPixels: 0, maxMismatchedRatio: 1)
    // A ratio given alone is the only limit; the exact default applies when neither is given.
    var ratioAlone = false
    var pixelsGiven = false
    var cells: [Int] = []
    var shots: String?
    var appearance: Appearance?
    var device: Device?
    var shotName: String?
    var given: [EntryKey] = []
    try r.beginObject()
    while let key = try r.nextKey(entryKeys) {
      given.append(key)
      switch key {
      case .shots:
        guard try r.peek() == .string, case let text = try r.string(), !text.isEmpty else {
          throw r.fail("expected the shot file, relative to \(path)")
        }
        shots = text
      case .name:
        guard try r.peek() == .string, case let text = try r.string(),
          isValidName(text)
        else {
          throw r.fail(nameRule)
        }
        if matches(text, GoldenStore.stacksFolder) {
          throw r.fail(
            "'\(text)' lies under '\(GoldenStore.stacksFolder)/', where goldens kept per font stack live; choose another name"
          )
        }
        name = text
      case .scene:
        guard try r.peek() == .string, case let text = try r.string(),
          !text.isEmpty
        else {
          throw r.fail("expected the scene file, relative to \(path)")
        }
        scene = text
      case .offset: offset = try r.number()
      case .step: step = try r.number(min: 0, max: 100_000)
      case .scale: options.scale = try r.number(min: 0.25, max: 4)
      case .debug: options.debug = try r.bool()
      case .overview: overview = try r.bool()
      case .sequence:
        var from: Double?
        var to: Double?
        var by: Double?
        try r.beginObject()
        while let key = try r.nextKey(sequenceKeys) {
          switch key {
          case .from: from = try r.number()
          case .to: to = try r.number()
          case .step: by = try r.number(min: 0, exclusiveMin: true)
          }
        }
        guard let from, let to, let by else {
          throw r.fail(
            "expected {\"from\": Y0, \"to\": Y1, \"step\": S} with S > 0")
        }
        guard abs(to - from) / by <= 1000 else {
          throw r.fail("more than 1000 frames; use a larger step")
        }
        sequence = (from, to, by)
      case .threshold: diffOptions.threshold = try r.number(min: 0, max: 1)
      case .includeAA: diffOptions.includeAA = try r.bool()
      case .maxDiffPixels:
        tolerance.maxMismatchedPixels = try r.integer(
          min: 0, max: Int(Int32.max))
        pixelsGiven = true
      case .maxDiffRatio:
        tolerance.maxMismatchedRatio = try r.number(min: 0, max: 1)
        ratioAlone = true
      case .masks:
        try r.beginArray()
        while try r.nextElement() {
          var numbers: [Int] = []
          try r.beginArray()
          while try r.nextElement() {
            numbers.append(
              numbers.count < 2
                ? try r.integer(min: Int(Int32.min), max: Int(Int32.max))
                : try r.integer(min: 0, max: Int(Int32.max)))
          }
          guard numbers.count == 4 else {
            throw r.fail("expected [x, y, width, height] in pixels")
          }
          diffOptions.masks.append(
            PixelRect(
              x: numbers[0], y: numbers[1], width: numbers[2],
              height: numbers[3]))
        }
      case .appearance:
        guard try r.peek() == .string, let value = Appearance(rawValue: try r.string()) else {
          throw r.fail("expected \"light\" or \"dark\"")
        }
        appearance = value
      case .device:
        guard try r.peek() == .string, let value = Device.named(try r.string()) else {
          throw r.fail("expected a device: \(Device.all.map(\.name).joined(separator: ", "))")
        }
        device = value
      case .shot:
        guard try r.peek() == .string, case let text = try r.string(), !text.isEmpty else {
          throw r.fail("expected a shot of the shot file, LOCALE/APPEARANCE/DEVICE/SCENE")
        }
        shotName = text
      case .maskCells:
        try r.beginArray()
        while try r.nextElement() {
          cells.append(try r.integer(min: 0, max: Scene.maximumItemCount))
        }
      }
    }
    if ratioAlone && !pixelsGiven { tolerance.maxMismatchedPixels = .max }
    if let shots {
      // A shot file says where, how large and in which look; the entry only how to compare,
      // and for one shot of it (`shot`, as the live preview pins it) at which offset.
      let allowed: Set<EntryKey> = shotName == nil ? [] : [.offset]
      for key in [EntryKey.scene, .offset, .step, .sequence, .scale, .debug, .overview, .appearance, .device]
      where given.contains(key) && !allowed.contains(key) {
        throw r.fail(key: key.rawValue, "a shot file's entry takes no \(key.rawValue): its shot file gives the scenes, devices and offsets")
      }
      let file: ShotFile
      do { file = try ShotFile(contentsOf: Scene.resolve(shots, against: path)) } catch {
        throw r.fail(key: "shots", error.description)
      }
      if let shotName {
        guard var shot = file.shots.first(where: { $0.name == shotName }) else {
          throw r.fail(
            key: "shot", "'\(shotName)' is not a shot of \(shots); its shots are: \(file.shots.map(\.name).joined(separator: ", "))")
        }
        guard let name else { throw r.fail(key: "name", nameRule) }
        if let offset { shot.scene.offset = offset }
        var entry = Entry(
          name: name, scenePath: shot.scene.path, position: .offset(shot.scene.offset, step: 0),
          options: RenderOptions(scale: shot.device.scale, debug: false), overview: false,
          diffOptions: diffOptions, tolerance: tolerance, maskedCells: cells)
        entry.screenshot = (file, shot)
        return [entry]
      }
      let base = name ?? file.name
      guard isValidName(base) else { throw r.fail(key: "name", nameRule) }
      return file.shots.map { shot in
        var entry = Entry(
          name: base + "/" + shot.name, scenePath: shot.scene.path,
          position: .offset(shot.scene.offset, step: 0),
          options: RenderOptions(scale: shot.device.scale, debug: false), overview: false,
          diffOptions: diffOptions, tolerance: tolerance, maskedCells: cells)
        entry.screenshot = (file, shot)
        return entry
      }
    }
    if shotName != nil { throw r.fail(key: "shot", "a shot is chosen from a shot file: give \"shots\" too") }
    guard let name else { throw r.fail(key: "name", nameRule) }
    guard let scene else {
      throw r.fail(key: "scene", "missing: the scene file, relative to \(path)")
    }
    var position = GoldenShot.Position.offset(offset ?? 0, step: step ?? 0)
    if let sequence {
      guard offset == nil, step == nil else {
        throw r.fail("give either offset/step or sequence, not both")
      }
      position = .sequence(
        from: sequence.from, to: sequence.to, step: sequence.step)
    }
    var entry = Entry(
      name: name, scenePath: Scene.resolve(scene, against: path),
      position: position,
      options: options, overview: overview, diffOptions: diffOptions,
      tolerance: tolerance,
      maskedCells: cells)
    // In its appearance, the scene is drawn as any other; on a device it is taken as a shot of
    // a one-shot set, as the live preview's pins are, unframed and without a status bar.
    entry.appearance = appearance
    if let device {
      guard case .offset(let y, _) = position, step == nil, !overview, !options.debug else {
        throw r.fail(
          key: "device", "a golden on a device is one screen: no step, sequence, overview or debug")
      }
      let file = ShotFile(
        path: path, scenes: [ShotFile.SceneEntry(path: entry.scenePath, offset: y)], devices: [device],
        appearances: [appearance ?? .light])
      entry.screenshot = (file, file.shots[0])
      entry.options = RenderOptions(scale: device.scale, debug: false)
    }
    return [entry]
  }

  package static func isValidName(_ name: String) -> Bool {
    guard !name.isEmpty, !name.hasPrefix("/"), !name.hasSuffix("/") else {
      return false
    }
    let allowed = Set(
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./")
    guard name.allSatisfy(allowed.contains) else { return false }
    return !name.split(separator: "/").contains { $0 == ".." || $0 == "." }
  }

  // MARK: - Selection

  /// The entries whose name equals one of `names` or lies in a folder given as `folder/` or
  /// `folder`; all entries when `names` is empty.
  ///
  /// - Throws: `GoldenError` (`.configuration`) naming a filter that matches nothing.
  public func entries(matching names: [String]) throws(GoldenError) -> [Entry] {
    guard !names.isEmpty else { return entries }
    for filter in names
    where !entries.contains(where: { Self.matches($0.name, filter) }) {
      throw GoldenError(
        .configuration,
        "No golden in \(path) is named '\(filter)' or lies under it; the names are: \(entries.map(\.name).joined(separator: ", "))."
      )
    }
    return entries.filter { e in names.contains { Self.matches(e.name, $0) } }
  }

  static func matches(_ name: String, _ filter: String) -> Bool {
    let folder = filter.hasSuffix("/") ? filter : filter + "/"
    return name == filter || name.hasPrefix(folder)
  }

  // MARK: - Orphans

  /// Golden PNGs, and facts and inputs files, that no entry owns, outside the unmanaged
  /// folders, sorted: what prune removes.
  /// A per-stack folder's goldens (`stacks/<stack>/NAME.png`) are owned as `NAME.png` is.
  public func orphans() -> [String] {
    // A golden's PNGs, and the facts and inputs kept beside it (one file each for a sequence).
    let owned = Set(
      entries.flatMap(\.goldenNames).map { $0 + ".png" }
        + entries.flatMap { [$0.name + ".facts.json", $0.name + ".inputs.json"] })
    let root = goldenDirectory
    guard let walker = FileManager.default.enumerator(atPath: root) else {
      return []
    }
    var out: [String] = []
    let stacks = GoldenStore.stacksFolder + "/"
    while let relative = walker.nextObject() as? String {
      guard relative.hasSuffix(".png") || relative.hasSuffix(".facts.json") || relative.hasSuffix(".inputs.json")
      else { continue }
      var name = Substring(relative)
      if name.hasPrefix(stacks) {
        name = name.dropFirst(stacks.count)
        name = name.firstIndex(of: "/").map { name[name.index(after: $0)...] } ?? ""
      }
      if owned.contains(String(name))
        || unmanaged.contains(where: { name.hasPrefix($0) })
      {
        continue
      }
      out.append(relative)
    }
    return out.sorted()
  }
}

/// One part of a deterministic split of the goldens, like Playwright's `--shard=2/3`.
public struct GoldenShard: Hashable, Sendable, CustomStringConvertible {
  /// The part, from 1.
  public var index: Int
  /// The number of parts.
  public var count: Int

  /// Reads "i/n" with 1 ≤ i ≤ n.
  ///
  /// - Throws: `GoldenError` (`.configuration`) quoting the bad value.
  public init(parsing text: String) throws(GoldenError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]),
      n >= 1, i >= 1, i <= n
    else {
      throw GoldenError(
        .configuration,
        "The value '\(text)' is invalid for '--shard <i/n>': use two whole numbers with 1 ≤ i ≤ n, such as 2/3."
      )
    }
    index = i
    count = n
  }

  /// "2/3".
  public var description: String { "\(index)/\(count)" }

  /// This shard's part of `items`: contiguous, in order, sizes differing by at most one, and the
  /// parts of 1/n … n/n together are exactly `items`.
  public func select<T>(_ items: [T]) -> [T] {
    let lower = items.count * (index - 1) / count
    let upper = items.count * index / count
    return Array(items[lower..<upper])
  }
}
