internal import WaterflowInputs
public import WaterflowJSON
public import WaterflowStyle

/// A `style` object as read: the preset it asks for and the keys it sets, kept apart so that a
/// `--style` file can be laid over a scene's own style whichever of them says `"dark"`.
public struct StyleSheet: Sendable {
  /// `"dark"`: true starts from `Style.dark`, false from `Style.standard`; nil leaves it to
  /// the sheet below.
  public var dark: Bool?
  /// The keys given, in order, each as a change to a style.
  var edits: [@Sendable (inout Style) -> Void] = []
  /// The same keys for dark mode: the dark variants of `{"light", "dark"}` colours, the keys
  /// that are not colours, and no plain colour (it was chosen for the light look).
  var darkEdits: [@Sendable (inout Style) -> Void] = []

  /// A sheet that changes nothing.
  public init() {}

  /// Reads a style file: a JSON object with the keys of a scene's `style`.
  ///
  /// - Throws: ``SceneError`` naming the file and the key at fault.
  public init(contentsOf path: String) throws(SceneError) {
    InputRecorder.note(path)
    do {
      self = try JSONDocument(contentsOf: path).read(options: Scene.readingOptions) {
        (r: inout JSONReader) throws(JSONInputError) in try Self.read(&r)
      }
    } catch { throw SceneError(error) }
  }

  /// The style: the preset, then every key in order.
  public var style: Style { style(for: .light) }

  /// The style in an appearance.
  ///
  /// Light is the style as written. Dark is the scene's own dark style when it has one: all of
  /// it when it says `"dark": true`, otherwise the dark preset with the dark variants of its
  /// `{"light", "dark"}` colours and its keys that are not colours (a plain colour was chosen
  /// for light, so the preset's stands).
  public func style(for appearance: Appearance) -> Style {
    if appearance == .light || dark == true {
      var style = dark == true ? Style.dark : Style.standard
      for edit in edits { edit(&style) }
      return style
    }
    var style = Style.dark
    for edit in darkEdits { edit(&style) }
    return style
  }

  /// This sheet laid over `base`: its preset if it names one, and its keys after base's.
  public func laid(over base: StyleSheet) -> StyleSheet {
    var sheet = base
    sheet.dark = dark ?? base.dark
    sheet.edits += edits
    sheet.darkEdits += darkEdits
    return sheet
  }

  // MARK: - Reading

  // Listed alphabetically: messages about an unknown key list them in this order.
  private enum Key: String, CaseIterable {
    case background, cellColors, cornerRadius, dark, empty, footer, header, indexLabels, priceBar
    case section, title
  }
  private enum BarKey: String, CaseIterable { case color, textColor }
  private enum PriceBarKey: String, CaseIterable { case color, fontSize, height, textColor }
  private enum TitleKey: String, CaseIterable { case color, fontSize, textColor }

  private static let keys = JSONKeys<Key>()
  private static let barKeys = JSONKeys<BarKey>()
  private static let priceBarKeys = JSONKeys<PriceBarKey>()
  private static let titleKeys = JSONKeys<TitleKey>()

  /// Reads a `style` object at the cursor.
  static func read(_ r: inout JSONReader) throws(JSONInputError) -> StyleSheet {
    var sheet = StyleSheet()
    try r.beginObject()
    while let key = try r.nextKey(keys) {
      switch key {
      case .dark: sheet.dark = try r.bool()
      case .background: sheet.setColor(try readDynamicColor(&r)) { $0.background = $1 }
      case .cornerRadius:
        let radius = try r.number(min: 0, max: 10_000)
        sheet.set { $0.cornerRadius = radius }
      case .indexLabels:
        let shown = try r.bool()
        sheet.set { $0.indexLabels = shown }
      case .cellColors:
        let (light, dark) = try readCellColors(&r)
        sheet.edits.append { $0.cellColors = light }
        if let dark { sheet.darkEdits.append { $0.cellColors = dark } }
      case .header: try sheet.readBar(&r, \.header)
      case .footer: try sheet.readBar(&r, \.footer)
      case .section: try sheet.readBar(&r, \.section)
      case .empty: try sheet.readBar(&r, \.empty)
      case .priceBar:
        try r.beginObject()
        while let key = try r.nextKey(priceBarKeys) {
          switch key {
          case .height:
            let v = try r.number(min: 0, max: 10_000)
            sheet.set { $0.priceBar.height = v }
          case .fontSize:
            let v = try r.number(min: 1, max: 1000)
            sheet.set { $0.priceBar.fontSize = v }
          case .color: sheet.setColor(try readDynamicColor(&r)) { $0.priceBar.color = $1 }
          case .textColor: sheet.setColor(try readDynamicColor(&r)) { $0.priceBar.textColor = $1 }
          }
        }
      case .title:
        try r.beginObject()
        while let key = try r.nextKey(titleKeys) {
          switch key {
          case .fontSize:
            let v = try r.number(min: 1, max: 1000)
            sheet.set { $0.title.fontSize = v }
          case .color: sheet.setColor(try readDynamicColor(&r)) { $0.title.color = $1 }
          case .textColor: sheet.setColor(try readDynamicColor(&r)) { $0.title.textColor = $1 }
          }
        }
      }
    }
    return sheet
  }

  /// A key that is not a colour: the same in both appearances.
  private mutating func set(_ edit: @escaping @Sendable (inout Style) -> Void) {
    edits.append(edit)
    darkEdits.append(edit)
  }

  /// A colour key: its light variant for light, and its dark one, if given, for dark.
  private mutating func setColor(
    _ color: DynamicColor, _ apply: @escaping @Sendable (inout Style, Color) -> Void
  ) {
    let light = color.light
    edits.append { apply(&$0, light) }
    if let dark = color.dark { darkEdits.append { apply(&$0, dark) } }
  }

  /// `{color, textColor}` of a header, footer, section or empty view.
  private mutating func readBar(
    _ r: inout JSONReader, _ bar: WritableKeyPath<Style, Style.Bar> & Sendable
  ) throws(JSONInputError) {
    try r.beginObject()
    while let key = try r.nextKey(Self.barKeys) {
      let c = try Self.readDynamicColor(&r)
      switch key {
      case .color: setColor(c) { $0[keyPath: bar].color = $1 }
      case .textColor: setColor(c) { $0[keyPath: bar].textColor = $1 }
      }
    }
  }

  /// `"random"`, or a non-empty list of colours; the second palette is the dark one, when any
  /// entry has a dark variant.
  private static func readCellColors(_ r: inout JSONReader) throws(JSONInputError)
    -> (Style.CellColors, Style.CellColors?)
  {
    if try r.peek() == .string {
      return (try r.oneOf(["random": Style.CellColors.random]), nil)
    }
    guard try r.peek() == .array else {
      throw r.fail(
        "expected \"random\" or a list of colours like [\"#FF6B6B\", \"#4ECDC4\"], found \(try r.peek().name)"
      )
    }
    var colors: [DynamicColor] = []
    try r.beginArray()
    while try r.nextElement() {
      if colors.count == 10_000 { throw r.failInContainer("more than 10000 colours") }
      colors.append(try readDynamicColor(&r))
    }
    guard !colors.isEmpty else { throw r.fail("needs at least one colour (or \"random\")") }
    let dark = colors.contains { $0.dark != nil } ? colors.map { $0.dark ?? $0.light } : nil
    return (.palette(colors.map(\.light)), dark.map { .palette($0) })
  }

  /// A colour and, if it names one, its dark-mode variant.
  public struct DynamicColor: Hashable, Sendable {
    /// The colour in light mode (and in dark mode when there is no dark variant).
    public var light: Color
    /// The colour in dark mode, if given.
    public var dark: Color?

    /// A colour with an optional dark variant.
    public init(light: Color, dark: Color? = nil) {
      self.light = light
      self.dark = dark
    }

    /// The colour in an appearance.
    public func resolved(for appearance: Appearance) -> Color {
      appearance == .dark ? dark ?? light : light
    }
  }

  private enum AppearanceKey: String, CaseIterable { case dark, light }
  private static let appearanceKeys = JSONKeys<AppearanceKey>()

  /// A colour `#RRGGBB`, or `{"light": "#…", "dark": "#…"}`: one for each appearance, like an
  /// iOS dynamic colour.
  public static func readDynamicColor(_ r: inout JSONReader) throws(JSONInputError) -> DynamicColor {
    guard try r.peek() == .object else { return DynamicColor(light: try readColor(&r)) }
    var light: Color?
    var dark: Color?
    try r.beginObject()
    while let key = try r.nextKey(appearanceKeys) {
      switch key {
      case .light: light = try readColor(&r)
      case .dark: dark = try readColor(&r)
      }
    }
    guard let light else {
      throw r.fail(key: "light", "missing: a colour with a dark variant needs its light one too")
    }
    return DynamicColor(light: light, dark: dark)
  }

  /// The colour for an appearance: the dark variant in dark mode when there is one.
  static func readColor(_ r: inout JSONReader, for appearance: Appearance)
    throws(JSONInputError) -> Color
  {
    try readDynamicColor(&r).resolved(for: appearance)
  }

  /// A colour `#RRGGBB` or `#RRGGBBAA`.
  static func readColor(_ r: inout JSONReader) throws(JSONInputError) -> Color {
    let text = try r.string()
    guard let color = Color(hexString: text) else {
      throw r.fail("expected a colour #RRGGBB or #RRGGBBAA, found \"\(text)\"")
    }
    return color
  }
}
