internal import WaterflowInputs
public import WaterflowScene
internal import SystemPackage

/// A shot file: which scenes to take on which devices, in which appearances and locales, and
/// whether to frame them with a caption.
///
/// ```json
/// {
///   "scenes": ["../Feeds/notes.json", {"scene": "products.json", "offset": 400, "caption": "@caption.deals"}],
///   "devices": ["iphone-6.9", "ipad-13"],
///   "appearances": ["light", "dark"],
///   "locales": {"en": "strings/en.json", "zh-Hans": "strings/zh-Hans.json", "ar": "strings/ar.json"},
///   "frame": true, "caption": "@caption", "background": ["#FFE3E3", "#FF8A8A"]
/// }
/// ```
/// Paths are relative to the shot file's folder, as a scene's are to its own.
public struct ShotFile: Sendable {
  /// One scene of the set.
  public struct SceneEntry: Hashable, Sendable {
    /// The scene file, resolved against the shot file's folder.
    public var path: String
    /// Its base name, which names its images: `notes` for `../Feeds/notes.json`.
    public var name: String
    /// The scroll offset the shot is taken at.
    public var offset: Double
    /// The caption above the framed device, overriding the file's.
    public var caption: String?

    /// A scene of a set, named by its file's base name unless `name` says otherwise.
    public init(path: String, name: String? = nil, offset: Double = 0, caption: String? = nil) {
      self.path = path
      self.name = name ?? ShotFile.baseName(of: path)
      self.offset = offset
      self.caption = caption
    }
  }

  /// One locale: its name and its string table file (nil: texts as written).
  public struct Locale: Hashable, Sendable {
    public var name: String
    public var stringsPath: String?

    /// A locale and its string table.
    public init(name: String, stringsPath: String? = nil) {
      self.name = name
      self.stringsPath = stringsPath
    }
  }

  /// What is behind a framed device: one colour, or a gradient from top to bottom.
  public struct Background: Hashable, Sendable {
    /// The colour at the top.
    public var top: StyleSheet.DynamicColor
    /// The colour at the bottom (the top's for a plain background).
    public var bottom: StyleSheet.DynamicColor
  }

  /// The shot file, for messages and relative paths.
  public var path: String
  public var scenes: [SceneEntry]
  public var devices: [Device]
  public var appearances: [Appearance] = [.light]
  /// The locales, in file order; one `base` locale with no table when the file gives none.
  public var locales: [Locale] = [Locale(name: "base", stringsPath: nil)]
  /// Whether shots are framed in their device, with a caption, on a background.
  public var isFramed = false
  /// The caption above a framed device: a text or `"@key"`.
  public var caption: String?
  /// Behind a framed device.
  public var background = Background(
    top: StyleSheet.DynamicColor(
      light: Color(red: 0.93, green: 0.94, blue: 0.97), dark: Color(red: 0.11, green: 0.11, blue: 0.12)),
    bottom: StyleSheet.DynamicColor(
      light: Color(red: 0.85, green: 0.88, blue: 0.94), dark: Color(red: 0.02, green: 0.02, blue: 0.03)))
  /// Whether the screen shows a status bar (9:41, full signal and battery).
  public var showsStatusBar = true

  /// The file's name without folder and extension: golden names start with it.
  public var name: String { Self.baseName(of: path) }

  /// A shot set made in code (the live preview's): unframed, without a status bar unless set.
  public init(
    path: String, scenes: [SceneEntry], devices: [Device], appearances: [Appearance] = [.light],
    locales: [Locale] = [Locale(name: "base")]
  ) {
    self.path = path
    self.scenes = scenes
    self.devices = devices
    self.appearances = appearances
    self.locales = locales
    self.showsStatusBar = false
  }

  // MARK: - Reading

  private enum Key: String, CaseIterable {
    case appearances, background, caption, devices, frame, locales, scenes, statusBar
  }
  private enum SceneKey: String, CaseIterable { case caption, offset, scene }
  private static let keys = JSONKeys<Key>()
  private static let sceneKeys = JSONKeys<SceneKey>()

  /// Reads and checks a shot file.
  ///
  /// - Throws: `SceneError` naming the file and the field at fault.
  public init(contentsOf path: String) throws(SceneError) {
    InputRecorder.note(path)
    do {
      self = try JSONDocument(contentsOf: path).read { (r: inout JSONReader) throws(JSONInputError) in
        try Self(reading: &r, path: path)
      }
    } catch { throw SceneError(file: error.file, field: error.field, message: error.message) }
  }

  private init(reading r: inout JSONReader, path: String) throws(JSONInputError) {
    self.path = path
    scenes = []
    devices = []
    var given = Set<Key>()
    try r.beginObject()
    while let key = try r.nextKey(Self.keys) {
      given.insert(key)
      switch key {
      case .scenes:
        try r.beginArray()
        while try r.nextElement() {
          let entry = try Self.readScene(&r, shotFile: path)
          if let other = scenes.firstIndex(where: { $0.name == entry.name }) {
            throw r.fail(
              "\"\(entry.name)\" is also the name of scenes[\(other)]: shots are named by the scene file's name, so give the files different names")
          }
          scenes.append(entry)
        }
        if scenes.isEmpty { throw r.fail("needs at least one scene file") }
      case .devices:
        try r.beginArray()
        while try r.nextElement() {
          let name = try r.string()
          guard let device = Device.named(name) else {
            throw r.fail("unknown device \"\(name)\" (devices are: \(Device.names.joined(separator: ", ")))")
          }
          if devices.contains(device) { throw r.fail("\"\(name)\" is listed twice") }
          devices.append(device)
        }
        if devices.isEmpty { throw r.fail("needs at least one device, such as \"iphone-6.9\"") }
      case .appearances:
        appearances = []
        try r.beginArray()
        while try r.nextElement() {
          let appearance = try r.oneOf(["light": Appearance.light, "dark": .dark])
          if appearances.contains(appearance) { throw r.fail("\"\(appearance.rawValue)\" is listed twice") }
          appearances.append(appearance)
        }
        if appearances.isEmpty { throw r.fail("needs \"light\", \"dark\" or both") }
      case .locales:
        locales = []
        try r.beginObject()
        while let name = try r.nextName() {
          guard Self.isFolderName(name) else {
            throw r.fail("a locale name becomes a folder: use letters, digits, - and _ (such as \"zh-Hans\")")
          }
          if locales.contains(where: { $0.name == name }) { throw r.fail("given twice") }
          let file = try r.string()
          locales.append(Locale(name: name, stringsPath: Scene.resolve(file, against: path)))
        }
        if locales.isEmpty { throw r.fail("needs at least one locale, such as {\"en\": \"strings/en.json\"}") }
      case .frame: isFramed = try r.bool()
      case .caption: caption = try r.string()
      case .statusBar: showsStatusBar = try r.bool()
      case .background:
        if try r.peek() == .array {
          var colors: [StyleSheet.DynamicColor] = []
          try r.beginArray()
          while try r.nextElement() {
            if colors.count == 2 { throw r.failInContainer("a gradient has two colours, top and bottom") }
            colors.append(try StyleSheet.readDynamicColor(&r))
          }
          guard colors.count == 2 else {
            throw r.fail("a gradient has two colours, top and bottom, such as [\"#FFE3E3\", \"#FF8A8A\"]")
          }
          background = Background(top: colors[0], bottom: colors[1])
        } else {
          let color = try StyleSheet.readDynamicColor(&r)
          background = Background(top: color, bottom: color)
        }
      }
    }
    if !given.contains(.scenes) { throw r.fail(key: "scenes", "missing: list the scene files to take") }
    if !given.contains(.devices) {
      throw r.fail(key: "devices", "missing: list devices such as [\"iphone-6.9\"] (devices are: \(Device.names.joined(separator: ", ")))")
    }
  }

  private static func readScene(_ r: inout JSONReader, shotFile: String) throws(JSONInputError)
    -> SceneEntry
  {
    if try r.peek() == .string {
      let file = try r.string()
      return try entry(file, shotFile: shotFile, r)
    }
    guard try r.peek() == .object else {
      throw r.fail("expected a scene file, or {\"scene\": \"notes.json\", \"offset\": 0}, found \(try r.peek().name)")
    }
    var file: String?
    var offset = 0.0
    var caption: String?
    try r.beginObject()
    while let key = try r.nextKey(sceneKeys) {
      switch key {
      case .scene: file = try r.string()
      case .offset: offset = try r.number(min: 0, max: 10_000_000)
      case .caption: caption = try r.string()
      }
    }
    guard let file else { throw r.fail(key: "scene", "missing: the scene file") }
    var result = try entry(file, shotFile: shotFile, r)
    result.offset = offset
    result.caption = caption
    return result
  }

  private static func entry(_ file: String, shotFile: String, _ r: JSONReader) throws(JSONInputError)
    -> SceneEntry
  {
    let name = baseName(of: file)
    guard !file.isEmpty, isFolderName(name) else {
      throw r.fail("\"\(file)\" cannot name an image: use a scene file named with letters, digits, -, _ and .")
    }
    return SceneEntry(path: Scene.resolve(file, against: shotFile), name: name, offset: 0, caption: nil)
  }

  // MARK: - Paths

  /// Whether a name can be one folder or file name: no separators, no `..`, nothing hidden.
  static func isFolderName(_ name: String) -> Bool {
    !name.isEmpty && name.first != "." && name.utf8.count <= 100
      && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
  }

  /// A path's last component without its extension: `notes` for `../Feeds/notes.json`.
  static func baseName(of path: String) -> String { FilePath(path).stem ?? path }
}
