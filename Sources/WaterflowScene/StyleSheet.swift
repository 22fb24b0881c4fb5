public import WaterflowStyle

/// A `style` object as read: the preset it asks for and the keys it sets, kept apart so that a
/// `--style` file can be laid over a scene's own style whichever of them says `"dark"`.
public struct StyleSheet: Sendable {
  /// `"dark"`: true starts from ``Style/dark``, false from ``Style/standard``; nil leaves it to
  /// the sheet below.
  public var dark: Bool?
  /// The keys given, in order, each as a change to a style.
  var edits: [@Sendable (inout Style) -> Void] = []

  /// A sheet that changes nothing.
  public init() {}

  /// Reads a style file: a JSON object with the keys of a scene's `style`.
  ///
  /// - Throws: ``SceneError`` naming the file and the key at fault.
  public init(contentsOf path: String) throws(SceneError) {
    do {
      self = try JSONDocument(contentsOf: path).read(options: Scene.readingOptions) {
        (r: inout JSONReader) throws(JSONInputError) in try Self.read(&r)
      }
    } catch { throw SceneError(error) }
  }

  /// The style: the preset, then every key in order.
  public var style: Style {
    var style = dark == true ? Style.dark : Style.standard
    for edit in edits { edit(&style) }
    return style
  }

  /// This sheet laid over `base`: its preset if it names one, and its keys after base's.
  public func laid(over base: StyleSheet) -> StyleSheet {
    var sheet = base
    sheet.dark = dark ?? base.dark
    sheet.edits += edits
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
      case .background:
        let c = try readColor(&r)
        sheet.edits.append { $0.background = c }
      case .cornerRadius:
        let radius = try r.number(min: 0, max: 10_000)
        sheet.edits.append { $0.cornerRadius = radius }
      case .indexLabels:
        let shown = try r.bool()
        sheet.edits.append { $0.indexLabels = shown }
      case .cellColors:
        let colors = try readCellColors(&r)
        sheet.edits.append { $0.cellColors = colors }
      case .header: sheet.edits += try readBar(&r, \.header)
      case .footer: sheet.edits += try readBar(&r, \.footer)
      case .section: sheet.edits += try readBar(&r, \.section)
      case .empty: sheet.edits += try readBar(&r, \.empty)
      case .priceBar:
        try r.beginObject()
        while let key = try r.nextKey(priceBarKeys) {
          switch key {
          case .height:
            let v = try r.number(min: 0, max: 10_000)
            sheet.edits.append { $0.priceBar.height = v }
          case .fontSize:
            let v = try r.number(min: 1, max: 1000)
            sheet.edits.append { $0.priceBar.fontSize = v }
          case .color:
            let c = try readColor(&r)
            sheet.edits.append { $0.priceBar.color = c }
          case .textColor:
            let c = try readColor(&r)
            sheet.edits.append { $0.priceBar.textColor = c }
          }
        }
      case .title:
        try r.beginObject()
        while let key = try r.nextKey(titleKeys) {
          switch key {
          case .fontSize:
            let v = try r.number(min: 1, max: 1000)
            sheet.edits.append { $0.title.fontSize = v }
          case .color:
            let c = try readColor(&r)
            sheet.edits.append { $0.title.color = c }
          case .textColor:
            let c = try readColor(&r)
            sheet.edits.append { $0.title.textColor = c }
          }
        }
      }
    }
    return sheet
  }

  /// `{color, textColor}` of a header, footer, section or empty view.
  private static func readBar(
    _ r: inout JSONReader, _ bar: WritableKeyPath<Style, Style.Bar> & Sendable
  ) throws(JSONInputError) -> [@Sendable (inout Style) -> Void] {
    var edits: [@Sendable (inout Style) -> Void] = []
    try r.beginObject()
    while let key = try r.nextKey(barKeys) {
      let c = try readColor(&r)
      switch key {
      case .color: edits.append { $0[keyPath: bar].color = c }
      case .textColor: edits.append { $0[keyPath: bar].textColor = c }
      }
    }
    return edits
  }

  /// `"random"`, or a non-empty list of colours.
  private static func readCellColors(_ r: inout JSONReader) throws(JSONInputError)
    -> Style.CellColors
  {
    if try r.peek() == .string {
      return try r.oneOf(["random": Style.CellColors.random])
    }
    guard try r.peek() == .array else {
      throw r.fail(
        "expected \"random\" or a list of colours like [\"#FF6B6B\", \"#4ECDC4\"], found \(try r.peek().name)"
      )
    }
    var colors: [Color] = []
    try r.beginArray()
    while try r.nextElement() {
      if colors.count == 10_000 { throw r.failInContainer("more than 10000 colours") }
      colors.append(try readColor(&r))
    }
    guard !colors.isEmpty else { throw r.fail("needs at least one colour (or \"random\")") }
    return .palette(colors)
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
