internal import Foundation
public import WaterflowRender
internal import WaterflowScene

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
/// (cell indices). `unmanaged` lists folders of goldens owned by Swift tests, which prune leaves alone.
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
    /// - Throws: ``GoldenError`` (`.configuration`) naming the scene file when it cannot be loaded.
    public func shot() throws(GoldenError) -> GoldenShot {
      let scene: Scene
      do { scene = try Scene(contentsOf: scenePath) } catch {
        throw GoldenError(
          .configuration, "Golden '\(name)': \(error.description)")
      }
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

  /// The golden folder: the manifest's own folder.
  public var goldenDirectory: String {
    let folder = (path as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }

  /// Reads and validates a manifest.
  ///
  /// - Parameter path: The manifest file.
  /// - Throws: ``GoldenError`` (`.configuration`) naming the file, the entry and the key at fault.
  public init(contentsOf path: String) throws(GoldenError) {
    self.path = path
    guard let data = FileManager.default.contents(atPath: path) else {
      throw GoldenError(
        .configuration,
        "The golden manifest '\(path)' does not exist or is not readable.")
    }
    let root: Any
    do { root = try JSONSerialization.jsonObject(with: data) } catch {
      throw GoldenError(
        .configuration, "The golden manifest '\(path)' is not valid JSON.")
    }
    func fail(_ field: String, _ message: String) -> GoldenError {
      GoldenError(.configuration, "\(path): \(field): \(message)")
    }
    guard let top = root as? [String: Any] else {
      throw fail("top level", "expected an object with \"goldens\"")
    }
    if let unknown = top.keys.sorted().first(where: {
      !["goldens", "unmanaged"].contains($0)
    }) {
      throw fail(unknown, "unknown key (expected goldens, unmanaged)")
    }
    unmanaged = []
    if let list = top["unmanaged"] {
      guard let folders = list as? [String] else {
        throw fail("unmanaged", "expected an array of folder names")
      }
      unmanaged = folders.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    }
    guard let list = top["goldens"] as? [Any] else {
      throw fail("goldens", "missing, or not an array")
    }
    let keys = [
      "name", "scene", "offset", "step", "scale", "debug", "overview",
      "sequence", "threshold",
      "includeAA", "maxDiffPixels", "maxDiffRatio", "masks", "maskCells",
    ]
    var entries: [Entry] = []
    var owners: [String: String] = [:]
    for (i, item) in list.enumerated() {
      let field = "goldens[\(i)]"
      guard let object = item as? [String: Any] else {
        throw fail(field, "expected an object")
      }
      if let unknown = object.keys.sorted().first(where: { !keys.contains($0) })
      {
        throw fail(
          "\(field).\(unknown)",
          "unknown key (expected \(keys.joined(separator: ", ")))")
      }
      func number(
        _ key: String, min: Double = -.greatestFiniteMagnitude,
        max: Double = .greatestFiniteMagnitude
      ) throws(GoldenError) -> Double? {
        guard let value = object[key] else { return nil }
        guard let n = value as? NSNumber, !(value is Bool),
          n.doubleValue.isFinite, n.doubleValue >= min, n.doubleValue <= max
        else {
          throw fail(
            "\(field).\(key)",
            "expected a number from \(GoldenStore.format(min)) to \(GoldenStore.format(max))"
          )
        }
        return n.doubleValue
      }
      func flag(_ key: String) throws(GoldenError) -> Bool {
        guard let value = object[key] else { return false }
        guard let b = value as? Bool else {
          throw fail("\(field).\(key)", "expected true or false")
        }
        return b
      }
      guard let name = object["name"] as? String, Self.isValidName(name) else {
        throw fail(
          "\(field).name",
          "missing, or not a relative name of letters, digits, '-', '_', '.' and '/' such as \"reference/top\""
        )
      }
      guard let scene = object["scene"] as? String, !scene.isEmpty else {
        throw fail(
          "\(field).scene", "missing: the scene file, relative to \(path)")
      }
      let scale = try number("scale", min: 0.25, max: 4) ?? 1
      var position = GoldenShot.Position.offset(
        try number("offset") ?? 0,
        step: try number("step", min: 0, max: 100_000) ?? 0)
      if let sequence = object["sequence"] {
        guard object["offset"] == nil, object["step"] == nil else {
          throw fail(field, "give either offset/step or sequence, not both")
        }
        guard let s = sequence as? [String: Any],
          let from = s["from"] as? NSNumber, let to = s["to"] as? NSNumber,
          let step = s["step"] as? NSNumber, step.doubleValue > 0, s.count == 3
        else {
          throw fail(
            "\(field).sequence",
            "expected {\"from\": Y0, \"to\": Y1, \"step\": S} with S > 0")
        }
        let frames = abs(to.doubleValue - from.doubleValue) / step.doubleValue
        guard frames <= 1000 else {
          throw fail(
            "\(field).sequence", "more than 1000 frames; use a larger step")
        }
        position = .sequence(
          from: from.doubleValue, to: to.doubleValue, step: step.doubleValue)
      }
      var diffOptions = ImageDiff.Options(
        threshold: try number("threshold", min: 0, max: 1) ?? 0.1,
        includeAA: try flag("includeAA"))
      if let masks = object["masks"] {
        guard let rects = masks as? [[NSNumber]],
          rects.allSatisfy({ $0.count == 4 })
        else {
          throw fail(
            "\(field).masks", "expected [[x, y, width, height], …] in pixels")
        }
        diffOptions.masks = rects.map {
          PixelRect(
            x: $0[0].intValue, y: $0[1].intValue, width: $0[2].intValue,
            height: $0[3].intValue)
        }
      }
      var cells: [Int] = []
      if let list = object["maskCells"] {
        guard let indices = list as? [NSNumber],
          indices.allSatisfy({ $0.intValue >= 0 })
        else {
          throw fail("\(field).maskCells", "expected an array of cell indices")
        }
        cells = indices.map(\.intValue)
      }
      let maxPixels =
        try number("maxDiffPixels", min: 0, max: Double(Int32.max)).map {
          Int($0)
        } ?? 0
      let maxRatio = try number("maxDiffRatio", min: 0, max: 1) ?? 1
      let entry = Entry(
        name: name, scenePath: Scene.resolve(scene, against: path),
        position: position,
        options: RenderOptions(scale: scale, debug: try flag("debug")),
        overview: try flag("overview"),
        diffOptions: diffOptions,
        tolerance: DiffTolerance(
          maxMismatchedPixels: maxPixels, maxMismatchedRatio: maxRatio),
        maskedCells: cells)
      for golden in entry.goldenNames {
        if let other = owners[golden] {
          throw fail(
            "\(field).name",
            "'\(name)' needs the golden '\(golden)', which '\(other)' already uses"
          )
        }
        owners[golden] = name
      }
      entries.append(entry)
    }
    self.entries = entries
  }

  static func isValidName(_ name: String) -> Bool {
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
  /// - Throws: ``GoldenError`` (`.configuration`) naming a filter that matches nothing.
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

  /// Golden PNGs that no entry owns, outside the unmanaged folders, sorted: what prune removes.
  public func orphans() -> [String] {
    let owned = Set(entries.flatMap(\.goldenNames).map { $0 + ".png" })
    let root = goldenDirectory
    guard let walker = FileManager.default.enumerator(atPath: root) else {
      return []
    }
    var out: [String] = []
    while let relative = walker.nextObject() as? String {
      guard relative.hasSuffix(".png") else { continue }
      if owned.contains(relative)
        || unmanaged.contains(where: { relative.hasPrefix($0) })
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
  /// - Throws: ``GoldenError`` (`.configuration`) quoting the bad value.
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
