public import WaterflowView
// Templates read data through WaterflowData's types (ItemData, FieldText, Condition): exported,
// so a file that imports WaterflowCells names them without a second import.
@_exported public import WaterflowData

/// How the cells of one reuse identifier look: a background, corners, padding, an optional
/// border and shadow, and one content element bound to each item's data.
///
/// A template is the user's cell design: the notes of a Xiaohongshu-style feed, a Taobao-style
/// product, a Pinterest pin. Scenes give templates under `cells`, keyed by reuse identifier;
/// items pick one with their `identifier`, as PSCollectionView keys its pools by cell class.
///
/// ```swift
/// let note = CellTemplate(background: .white, cornerRadius: 8) {
///   CellImage("{cover}", aspect: .fields(width: "w", height: "h"))
///   CellStack(.vertical, spacing: 6, padding: EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)) {
///     CellText("{title}", size: 13, weight: .medium, lines: 2)
///     CellStack(.horizontal, spacing: 4) {
///       CellAvatar("{face}", size: 18, name: "{author}")
///       CellText("{author}", size: 11, color: CellText.secondaryColor)
///       CellSpacer()
///       CellIcon("heart", size: 12)
///       CellText("{likes}", size: 11, color: CellText.secondaryColor)
///     }
///   }
/// }
/// ```
public struct CellTemplate: Hashable, Sendable {
  /// The cell's fill; nil leaves the cell's own colour (its random or palette colour).
  public var background: Color?
  /// The radius of the cell's corners, in points.
  public var cornerRadius: Double
  /// Space between the cell's edges and its content.
  public var padding: EdgeInsets
  /// A line round the cell's edge.
  public var border: CellBorder?
  /// A soft shadow under the cell, drawn outside its frame.
  public var shadow: CellShadow?
  /// What the cell shows.
  public var content: CellElement
  /// The locale and reference date `{field|format}` texts are formatted with.
  public var formatting = DataFormatting()

  /// Creates a template from its parts.
  public init(
    background: Color? = nil, cornerRadius: Double = 0, padding: EdgeInsets = EdgeInsets(),
    border: CellBorder? = nil, shadow: CellShadow? = nil, content: CellElement
  ) {
    self.background = background
    self.cornerRadius = cornerRadius
    self.padding = padding
    self.border = border
    self.shadow = shadow
    self.content = content
  }

  /// Creates a template whose content is built by a closure; several elements stack vertically.
  public init(
    background: Color? = nil, cornerRadius: Double = 0, padding: EdgeInsets = EdgeInsets(),
    border: CellBorder? = nil, shadow: CellShadow? = nil,
    @CellContentBuilder content: () -> [CellElement]
  ) {
    let elements = content()
    self.init(
      background: background, cornerRadius: cornerRadius, padding: padding, border: border,
      shadow: shadow,
      content: elements.count == 1 ? elements[0] : .vstack(elements))
  }

  /// Every data field the template reads, with whether an element's `when` (or an enclosing
  /// one) guards the read, and where in the template it is read.
  ///
  /// - Complexity: O(number of elements).
  public var fieldReads: [FieldRead] {
    var reads: [FieldRead] = []
    content.collectReads(into: &reads, path: "content", guards: [])
    return reads
  }
}

extension CellTemplate {
  /// The attributes the template takes from data (an icon's name, a colour), with where each
  /// is and what its text must name.
  ///
  /// - Complexity: O(number of elements).
  public var dataAttributes: [(text: FieldText, path: String, expects: FieldRead.Expectation)] {
    var found: [(text: FieldText, path: String, expects: FieldRead.Expectation)] = []
    func walk(_ e: CellElement, _ path: String) {
      let here = "\(path).\(e.name)"
      for (attribute, text) in e.fromData.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
        found.append((text, here + "." + attribute.rawValue, attribute == .icon ? .icon : .color))
      }
      switch e.kind {
      case .stack(let s):
        // Inside a foreach, a text may read the entry (`{item.color}`): it is checked as drawn.
        guard s.foreach == nil else { return }
        for (i, c) in s.children.enumerated() { walk(c, "\(here)[\(i)]") }
      case .zstack(let z): for (i, c) in z.children.enumerated() { walk(c, "\(here)[\(i)]") }
      default: break
      }
    }
    walk(content, "content")
    return found
  }
}

/// One place a template reads a data field.
public struct FieldRead: Hashable, Sendable {
  /// The field's name, as in the data.
  public var field: String
  /// The element that reads it: `content.vstack[1].text`.
  public var path: String
  /// Whether a `when` on the element or one around it hides the element when a field it
  /// names is missing.
  public var isGuarded: Bool
  /// The fields the guarding `when`s name.
  public var guards: Set<String>
  /// What the value must be: a text, a number, a date, an icon's name or a colour. A value of
  /// the wrong kind is an error naming the item and the field, never a silent default.
  public var expects: Expectation = .text
  /// The format the template shows the field in, if any.
  public var format: DataFormat?

  /// Whether the element reads the field as a number above 0 (an image's `aspect` pair).
  public var isNumber: Bool { expects == .positiveNumber }

  /// What a field's value must be.
  public enum Expectation: Hashable, Sendable {
    /// Any value with a text.
    case text
    /// A finite number above 0: an image's `aspect` pair.
    case positiveNumber
    /// A finite number: a comparison or a number format.
    case number
    /// A date: an ISO 8601 text or a Unix time, for `relative`.
    case date
    /// The name of an icon (``IconShape/names``), chosen through data.
    case icon
    /// A colour `#RRGGBB` or `#RRGGBBAA`, chosen through data.
    case color
  }
}

/// A line round a cell.
public struct CellBorder: Hashable, Sendable {
  /// The line's width, in points.
  public var width: Double
  /// The line's colour.
  public var color: Color

  /// A border of a width and colour.
  public init(width: Double = 1, color: Color) {
    self.width = width
    self.color = color
  }
}

/// A soft shadow under a cell.
public struct CellShadow: Hashable, Sendable {
  /// The shadow's colour, usually translucent black.
  public var color: Color
  /// How far the shadow spreads, in points.
  public var radius: Double
  /// How far it is moved right, in points.
  public var x: Double
  /// How far it is moved down, in points.
  public var y: Double

  /// A shadow of a colour, blur radius and offset.
  public init(
    color: Color = Color(red: 0, green: 0, blue: 0, alpha: 0.18), radius: Double = 4,
    x: Double = 0, y: Double = 1
  ) {
    self.color = color
    self.radius = radius
    self.x = x
    self.y = y
  }
}

/// The weight of a text's font.
public enum FontWeight: String, Hashable, Sendable, CaseIterable {
  case regular, medium, semibold, bold
}

/// Where children sit across a stack: leading, centre or trailing in a vertical stack; top,
/// centre or bottom in a horizontal one.
public enum CellAlignment: Hashable, Sendable {
  /// Leading (vertical stacks) or top (horizontal stacks).
  case start
  /// Centred.
  case center
  /// Trailing (vertical stacks) or bottom (horizontal stacks).
  case end
  /// Horizontal stacks: the first lines of texts and badges on one baseline, other children
  /// on it by their bottoms (SwiftUI's `.firstTextBaseline`), so `¥`, `129` and `.00` in three
  /// sizes read as one price. Vertical stacks: leading.
  case firstBaseline
}

/// How an image fills its box.
public enum ImageFit: String, Hashable, Sendable {
  /// Covers the box, cropping what overflows (UIKit's scaleAspectFill).
  case fill
  /// Fits inside the box whole, leaving bands (UIKit's scaleAspectFit).
  case fit
}

/// The width-to-height ratio of an image element.
public enum CellAspect: Hashable, Sendable {
  /// A fixed ratio of width to height (1.5 is a 3 : 2 landscape image).
  case ratio(Double)
  /// Two data fields holding the image's width and height, as the shop demo's `w` and `h`
  /// (or paths, `cover.width`).
  case fields(width: DataPath, height: DataPath)
}

/// One part of a cell's content: a stack, image, text, avatar, icon, badge, rectangle or
/// spacer, optionally shown only when a data field has a value.
public struct CellElement: Hashable, Sendable {
  /// What the element is.
  public indirect enum Kind: Hashable, Sendable {
    case stack(CellStack)
    case image(CellImage)
    case text(CellText)
    case avatar(CellAvatar)
    case icon(CellIcon)
    case badge(CellBadge)
    case rect(CellRect)
    case spacer(CellSpacer)
    case zstack(CellZStack)
  }

  /// What the element is.
  public var kind: Kind
  /// Shown only when the item's data passes the test: `{tag}`, `{type} == 'video'`.
  public var when: Condition?
  /// Attributes that come from the item's data, overriding the fixed ones: an icon's name, a
  /// colour or a background (`"{tagColor}"`, or chosen by a condition).
  public var fromData: [DataAttribute: FieldText] = [:]
  /// Where the element sits over the first child of a ``CellZStack``; nil: the stack's own
  /// alignment.
  public var placement: OverlayPlacement?

  /// An element of a kind, shown always or only when `when` holds.
  public init(_ kind: Kind, when: Condition? = nil) {
    self.kind = kind
    self.when = when
  }

  /// The element's name in scene files: `vstack`, `text`, `image`, …
  public var name: String {
    switch kind {
    case .stack(let s): s.axis == .vertical ? "vstack" : "hstack"
    case .image: "image"
    case .text: "text"
    case .avatar: "avatar"
    case .icon: "icon"
    case .badge: "badge"
    case .rect: "rect"
    case .spacer: "spacer"
    case .zstack: "zstack"
    }
  }

  func collectReads(into reads: inout [FieldRead], path: String, guards outer: Set<String>) {
    var guards = outer
    let here = "\(path).\(name)"
    if let when {
      guards.formUnion(when.fields.map(\.source))
      for field in when.numberFields {
        reads.append(
          FieldRead(
            field: field.source, path: here + ".when", isGuarded: true, guards: guards,
            expects: .number))
      }
    }
    func add(_ text: FieldText?, _ at: String = "", expects: FieldRead.Expectation = .text) {
      for read in text?.reads ?? [] {
        let expectation: FieldRead.Expectation =
          read.format.map { $0.readsDate ? .date : .number } ?? expects
        reads.append(
          FieldRead(
            field: read.path.source, path: here + at, isGuarded: read.isGuarded || !guards.isEmpty,
            guards: guards, expects: expectation, format: read.format))
      }
    }
    // What an icon or colour from data resolves to is checked per item as a whole text
    // (`CellTemplate.dataAttributes`); here only that its fields are given.
    for (attribute, text) in fromData.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      add(text, "." + attribute.rawValue)
    }
    switch kind {
    case .stack(let stack):
      var inner = guards
      if let each = stack.foreach {
        // An empty or missing list repeats nothing, so the list is read guarded, and the
        // entries' own fields (`{item.name}`) only exist per entry.
        reads.append(FieldRead(field: each.source, path: here + ".foreach", isGuarded: true, guards: guards))
        inner.insert("item")
      }
      for (i, child) in stack.children.enumerated() {
        var childReads: [FieldRead] = []
        child.collectReads(into: &childReads, path: "\(here)[\(i)]", guards: inner)
        if stack.foreach != nil {
          childReads = childReads.filter { DataPath($0.field).root != "item" }
        }
        reads += childReads
      }
      return
    case .zstack(let z):
      for (i, child) in z.children.enumerated() {
        child.collectReads(into: &reads, path: "\(here)[\(i)]", guards: guards)
      }
      return
    case .image(let image):
      add(image.source)
      if case .fields(let w, let h)? = image.aspect {
        for field in [w, h] {
          reads.append(
            FieldRead(
              field: field.source, path: here + ".aspect", isGuarded: !guards.isEmpty, guards: guards,
              expects: .positiveNumber))
        }
      }
    case .text(let text): add(text.text)
    case .avatar(let avatar):
      // A missing picture is the avatar's own case (it shows the name's initial), never an error.
      for field in avatar.source.fields {
        reads.append(FieldRead(field: field, path: here, isGuarded: true, guards: guards))
      }
      add(avatar.name)
    case .badge(let badge): add(badge.text)
    case .icon, .rect, .spacer: break
    }
  }
}

/// An attribute of an element that may come from the item's data.
public enum DataAttribute: String, Hashable, Sendable, CaseIterable {
  /// An icon's name.
  case icon
  /// A text's, icon's, badge's or rectangle's colour.
  case color
  /// A badge's fill.
  case background
}

/// The nine places an overlay can take over the element under it, as SwiftUI's `Alignment`.
public enum OverlayAlignment: String, Hashable, Sendable, CaseIterable {
  case topLeading, top, topTrailing, leading, center, trailing, bottomLeading, bottom,
    bottomTrailing

  /// Where along each axis: 0 leading or top, 0.5 centre, 1 trailing or bottom.
  public var fractions: (x: Double, y: Double) {
    switch self {
    case .topLeading: (0, 0)
    case .top: (0.5, 0)
    case .topTrailing: (1, 0)
    case .leading: (0, 0.5)
    case .center: (0.5, 0.5)
    case .trailing: (1, 0.5)
    case .bottomLeading: (0, 1)
    case .bottom: (0.5, 1)
    case .bottomTrailing: (1, 1)
    }
  }
}

/// Where an overlay sits: an alignment in the element under it, then moved by an offset (in
/// points; +x towards the trailing edge, +y down).
public struct OverlayPlacement: Hashable, Sendable {
  public var alignment: OverlayAlignment
  public var x: Double
  public var y: Double

  public init(_ alignment: OverlayAlignment, x: Double = 0, y: Double = 0) {
    self.alignment = alignment
    self.x = x
    self.y = y
  }
}

/// Elements on top of one another: the first is the base, which gives the stack its size; the
/// others are drawn over it, each at its ``OverlayPlacement`` (a video's play icon in the
/// centre, a duration badge in a corner, a ribbon across the bottom).
///
/// An overlay takes its natural size: icons, avatars, badges and sized images their own, a text
/// one line at its natural width, and anything else the base's width.
public struct CellZStack: Hashable, Sendable {
  public var children: [CellElement]
  /// Where overlays sit when they name no place of their own.
  public var alignment: OverlayAlignment

  public init(children: [CellElement], alignment: OverlayAlignment = .center) {
    self.children = children
    self.alignment = alignment
  }
}

extension CellElement {
  // MARK: - Building elements

  /// A vertical stack: children top to bottom, each as wide as the stack.
  public static func vstack(
    _ children: [CellElement], spacing: Double = 0, padding: EdgeInsets = EdgeInsets(),
    align: CellAlignment = .start
  ) -> CellElement {
    CellElement(
      .stack(
        CellStack(
          axis: .vertical, children: children, spacing: spacing, padding: padding,
          alignment: align)))
  }

  /// A vertical stack of the elements a closure builds.
  public static func vstack(
    spacing: Double = 0, padding: EdgeInsets = EdgeInsets(), align: CellAlignment = .start,
    @CellContentBuilder _ children: () -> [CellElement]
  ) -> CellElement {
    vstack(children(), spacing: spacing, padding: padding, align: align)
  }

  /// A horizontal stack: children leading to trailing, texts and spacers sharing what the
  /// fixed-size children leave.
  public static func hstack(
    _ children: [CellElement], spacing: Double = 0, padding: EdgeInsets = EdgeInsets(),
    align: CellAlignment = .center
  ) -> CellElement {
    CellElement(
      .stack(
        CellStack(
          axis: .horizontal, children: children, spacing: spacing, padding: padding,
          alignment: align)))
  }

  /// A horizontal stack of the elements a closure builds.
  public static func hstack(
    spacing: Double = 0, padding: EdgeInsets = EdgeInsets(), align: CellAlignment = .center,
    @CellContentBuilder _ children: () -> [CellElement]
  ) -> CellElement {
    hstack(children(), spacing: spacing, padding: padding, align: align)
  }

  /// An image from a path (relative to the file that gave the item's data).
  public static func image(
    _ source: FieldText, aspect: CellAspect? = nil, fit: ImageFit = .fill,
    cornerRadius: Double = 0, height: Double? = nil, width: Double? = nil
  ) -> CellElement {
    CellElement(
      .image(
        CellImage(
          source: source, aspect: aspect, fit: fit, cornerRadius: cornerRadius, height: height,
          width: width)))
  }

  /// A text, wrapped to at most `lines` lines (0: no limit), the last ending in "…".
  public static func text(
    _ text: FieldText, size: Double = 14, weight: FontWeight = .regular,
    color: Color = CellText.defaultColor, lines: Int = 1, align: CellTextAlignment = .leading,
    lineHeight: Double? = nil
  ) -> CellElement {
    CellElement(
      .text(
        CellText(
          text: text, size: size, weight: weight, color: color, lines: lines, alignment: align,
          lineHeight: lineHeight)))
  }

  /// A round picture, or the initial of `name` on a colour when the image is missing.
  public static func avatar(_ source: FieldText, size: Double = 20, name: FieldText? = nil)
    -> CellElement
  {
    CellElement(.avatar(CellAvatar(source: source, size: size, name: name)))
  }

  /// A vector icon by name (``IconShape/names``).
  public static func icon(_ name: String, size: Double = 12, color: Color = CellText.secondaryColor)
    -> CellElement
  {
    CellElement(.icon(CellIcon(name: name, size: size, color: color)))
  }

  /// A pill with a short text.
  public static func badge(
    _ text: FieldText, size: Double = 10, color: Color = CellBadge.defaultTextColor,
    background: Color = CellBadge.defaultBackground
  ) -> CellElement {
    CellElement(.badge(CellBadge(text: text, size: size, color: color, background: background)))
  }

  /// A filled rectangle: a divider, a bar or a swatch; without a width it spans its stack.
  public static func rect(
    width: Double? = nil, height: Double = 1, color: Color = CellRect.defaultColor,
    cornerRadius: Double = 0
  ) -> CellElement {
    CellElement(
      .rect(CellRect(width: width, height: height, color: color, cornerRadius: cornerRadius)))
  }

  /// Flexible space: it takes what is left over in its stack.
  public static func spacer(minLength: Double = 0) -> CellElement {
    CellElement(.spacer(CellSpacer(minLength: minLength)))
  }
}

/// A vertical or horizontal stack of elements.
public struct CellStack: Hashable, Sendable {
  /// The direction children follow each other.
  public enum Axis: Hashable, Sendable { case vertical, horizontal }

  public var axis: Axis
  public var children: [CellElement]
  /// The space between neighbouring children, in points.
  public var spacing: Double
  /// The space round the children.
  public var padding: EdgeInsets
  /// Where children sit across the stack.
  public var alignment: CellAlignment
  /// A list in the item's data: the children are drawn once per entry, which they read as
  /// `{item}` (or `{item.name}` for a list of objects). Nil: the children once.
  public var foreach: DataPath?
  /// At most this many entries of ``foreach``.
  public var limit: Int?

  public init(
    axis: Axis, children: [CellElement], spacing: Double = 0,
    padding: EdgeInsets = EdgeInsets(), alignment: CellAlignment = .start,
    foreach: DataPath? = nil, limit: Int? = nil
  ) {
    self.axis = axis
    self.children = children
    self.spacing = spacing
    self.padding = padding
    self.alignment = alignment
    self.foreach = foreach
    self.limit = limit
  }
}

/// An image element.
public struct CellImage: Hashable, Sendable {
  /// The image's path: `"{cover}"`.
  public var source: FieldText
  /// Its width-to-height ratio; nil takes the image file's own.
  public var aspect: CellAspect?
  /// How the picture fills the element's box.
  public var fit: ImageFit
  /// The radius of the image's corners.
  public var cornerRadius: Double
  /// A fixed height, instead of one from the aspect ratio.
  public var height: Double?
  /// A fixed width (in a horizontal stack), instead of sharing what is left.
  public var width: Double?

  public init(
    source: FieldText, aspect: CellAspect? = nil, fit: ImageFit = .fill,
    cornerRadius: Double = 0, height: Double? = nil, width: Double? = nil
  ) {
    self.source = source
    self.aspect = aspect
    self.fit = fit
    self.cornerRadius = cornerRadius
    self.height = height
    self.width = width
  }
}

/// Where a text's lines sit in its box.
public enum CellTextAlignment: String, Hashable, Sendable {
  case leading, center, trailing
}

/// A text element.
public struct CellText: Hashable, Sendable {
  /// The text, with `{field}` placeholders.
  public var text: FieldText
  /// The font size, in points.
  public var size: Double
  /// The font weight.
  public var weight: FontWeight
  /// The text colour.
  public var color: Color
  /// At most this many lines (0 for no limit); the last ends in "…" when text is left over.
  public var lines: Int
  /// Where lines sit in the box.
  public var alignment: CellTextAlignment
  /// From one baseline to the next; 1.2 × `size` when nil.
  public var lineHeight: Double?

  /// Near-black: the colour of texts that name none.
  public static let defaultColor = Color(red: 0.13, green: 0.13, blue: 0.13)
  /// Mid-grey: secondary texts and icons.
  public static let secondaryColor = Color(red: 0.45, green: 0.45, blue: 0.47)

  public init(
    text: FieldText, size: Double = 14, weight: FontWeight = .regular,
    color: Color = CellText.defaultColor, lines: Int = 1,
    alignment: CellTextAlignment = .leading, lineHeight: Double? = nil
  ) {
    self.text = text
    self.size = size
    self.weight = weight
    self.color = color
    self.lines = lines
    self.alignment = alignment
    self.lineHeight = lineHeight
  }
}

/// A round avatar.
public struct CellAvatar: Hashable, Sendable {
  /// The picture's path.
  public var source: FieldText
  /// The circle's diameter, in points.
  public var size: Double
  /// The name whose initial shows when the picture is missing.
  public var name: FieldText?

  public init(source: FieldText, size: Double = 20, name: FieldText? = nil) {
    self.source = source
    self.size = size
    self.name = name
  }
}

/// A vector icon.
public struct CellIcon: Hashable, Sendable {
  /// The icon's name, one of ``IconShape/names``.
  public var name: String
  /// The icon's side, in points.
  public var size: Double
  /// Its colour.
  public var color: Color

  public init(name: String, size: Double = 12, color: Color = CellText.secondaryColor) {
    self.name = name
    self.size = size
    self.color = color
  }
}

/// A pill with a short text.
public struct CellBadge: Hashable, Sendable {
  public var text: FieldText
  /// The text's size, in points.
  public var size: Double
  /// The text's colour.
  public var color: Color
  /// The pill's fill.
  public var background: Color

  /// White text…
  public static let defaultTextColor = Color(red: 1, green: 1, blue: 1)
  /// …on Taobao orange.
  public static let defaultBackground = Color(red: 1, green: 0.31, blue: 0)

  public init(
    text: FieldText, size: Double = 10, color: Color = CellBadge.defaultTextColor,
    background: Color = CellBadge.defaultBackground
  ) {
    self.text = text
    self.size = size
    self.color = color
    self.background = background
  }
}

/// A filled rectangle.
public struct CellRect: Hashable, Sendable {
  /// Its width; nil spans the stack.
  public var width: Double?
  /// Its height, in points.
  public var height: Double
  public var color: Color
  public var cornerRadius: Double

  /// A light grey divider.
  public static let defaultColor = Color(red: 0.9, green: 0.9, blue: 0.9)

  public init(
    width: Double? = nil, height: Double = 1, color: Color = CellRect.defaultColor,
    cornerRadius: Double = 0
  ) {
    self.width = width
    self.height = height
    self.color = color
    self.cornerRadius = cornerRadius
  }
}

/// Flexible space.
public struct CellSpacer: Hashable, Sendable {
  /// The least length it takes along its stack.
  public var minLength: Double

  public init(minLength: Double = 0) { self.minLength = minLength }
}

/// A value that is one element of a cell: each element type, and ``CellElement`` itself.
///
/// Content builders take these, one per line, as SwiftUI takes views:
///
/// ```swift
/// CellStack(.vertical, spacing: 6) {
///   CellImage("{cover}", aspect: .fields(width: "w", height: "h"))
///   CellText("{title}", size: 13, lines: 2)
///   CellBadge("{tag}").when("{tag}")
/// }
/// ```
public protocol CellElementConvertible {
  /// The value as an element.
  var element: CellElement { get }
}

extension CellElementConvertible {
  /// The element, shown only when `condition` holds: `CellBadge("{tag}").when("{tag}")`.
  public func when(_ condition: Condition) -> CellElement {
    var e = element
    e.when = condition
    return e
  }

  /// The element drawn over the base of a ``CellZStack`` at a place, moved by an offset.
  public func placed(_ alignment: OverlayAlignment, x: Double = 0, y: Double = 0) -> CellElement {
    var e = element
    e.placement = OverlayPlacement(alignment, x: x, y: y)
    return e
  }

  /// The element with an attribute from the item's data: `.from(.icon, "{heartIcon}")`.
  public func from(_ attribute: DataAttribute, _ text: FieldText) -> CellElement {
    var e = element
    e.fromData[attribute] = text
    return e
  }
}

extension CellElement: CellElementConvertible {
  public var element: CellElement { self }
}
extension CellStack: CellElementConvertible {
  public var element: CellElement { CellElement(.stack(self)) }
}
extension CellImage: CellElementConvertible {
  public var element: CellElement { CellElement(.image(self)) }
}
extension CellText: CellElementConvertible {
  public var element: CellElement { CellElement(.text(self)) }
}
extension CellAvatar: CellElementConvertible {
  public var element: CellElement { CellElement(.avatar(self)) }
}
extension CellIcon: CellElementConvertible {
  public var element: CellElement { CellElement(.icon(self)) }
}
extension CellBadge: CellElementConvertible {
  public var element: CellElement { CellElement(.badge(self)) }
}
extension CellRect: CellElementConvertible {
  public var element: CellElement { CellElement(.rect(self)) }
}
extension CellSpacer: CellElementConvertible {
  public var element: CellElement { CellElement(.spacer(self)) }
}
extension CellZStack: CellElementConvertible {
  public var element: CellElement { CellElement(.zstack(self)) }
}

extension CellZStack {
  /// Elements over the first one, which a closure builds one per line.
  public init(
    align: OverlayAlignment = .center, @CellContentBuilder _ children: () -> [CellElement]
  ) {
    self.init(children: children(), alignment: align)
  }
}

extension CellStack {
  /// A stack of the elements a closure builds, one per line.
  public init(
    _ axis: Axis, spacing: Double = 0, padding: EdgeInsets = EdgeInsets(),
    align: CellAlignment? = nil, foreach: DataPath? = nil, limit: Int? = nil,
    @CellContentBuilder _ children: () -> [CellElement]
  ) {
    self.init(
      axis: axis, children: children(), spacing: spacing, padding: padding,
      alignment: align ?? (axis == .vertical ? .start : .center), foreach: foreach, limit: limit)
  }
}

extension CellImage {
  /// An image from a path, sized by an aspect ratio (nil: the file's own).
  public init(
    _ source: FieldText, aspect: CellAspect? = nil, fit: ImageFit = .fill,
    cornerRadius: Double = 0
  ) {
    self.init(source: source, aspect: aspect, fit: fit, cornerRadius: cornerRadius)
  }
}

extension CellText {
  /// A text of a size and weight, in at most `lines` lines (0: no limit).
  public init(
    _ text: FieldText, size: Double = 14, weight: FontWeight = .regular,
    color: Color = CellText.defaultColor, lines: Int = 1, align: CellTextAlignment = .leading
  ) {
    self.init(
      text: text, size: size, weight: weight, color: color, lines: lines, alignment: align)
  }
}

extension CellAvatar {
  /// A round picture of a diameter, with `name`'s initial when the picture is missing.
  public init(_ source: FieldText, size: Double = 20, name: FieldText? = nil) {
    self.init(source: source, size: size, name: name)
  }
}

extension CellIcon {
  /// A vector icon by name.
  public init(_ name: String, size: Double = 12, color: Color = CellText.secondaryColor) {
    self.init(name: name, size: size, color: color)
  }
}

extension CellBadge {
  /// A pill with a short text.
  public init(
    _ text: FieldText, size: Double = 10, color: Color = CellBadge.defaultTextColor,
    background: Color = CellBadge.defaultBackground
  ) {
    self.init(text: text, size: size, color: color, background: background)
  }
}

/// Builds a list of cell elements from a closure's statements, one element per line.
@resultBuilder
public enum CellContentBuilder {
  public static func buildExpression(_ element: some CellElementConvertible) -> [CellElement] {
    [element.element]
  }
  public static func buildBlock(_ parts: [CellElement]...) -> [CellElement] { parts.flatMap { $0 } }
  public static func buildOptional(_ part: [CellElement]?) -> [CellElement] { part ?? [] }
  public static func buildEither(first part: [CellElement]) -> [CellElement] { part }
  public static func buildEither(second part: [CellElement]) -> [CellElement] { part }
  public static func buildArray(_ parts: [[CellElement]]) -> [CellElement] { parts.flatMap { $0 } }
}
