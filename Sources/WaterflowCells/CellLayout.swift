public import WaterflowView
import WaterflowStyle

/// How a text element is laid out: everything but the text and the width.
public struct CellTextStyle: Hashable, Sendable {
  public var size: Double
  public var weight: FontWeight
  /// At most this many lines; 0 for no limit.
  public var lines: Int
  public var lineHeight: Double?
  public var alignment: CellTextAlignment

  public init(
    size: Double, weight: FontWeight = .regular, lines: Int = 1, lineHeight: Double? = nil,
    alignment: CellTextAlignment = .leading
  ) {
    self.size = size
    self.weight = weight
    self.lines = lines
    self.lineHeight = lineHeight
    self.alignment = alignment
  }
}

/// The size a laid-out text takes, and where its first line sits.
public struct TextSize: Hashable, Sendable {
  public var width: Double
  public var height: Double
  /// From the top to the first line's baseline.
  public var baseline: Double

  /// A text's size; `baseline` left out is the bottom.
  public init(width: Double, height: Double, baseline: Double? = nil) {
    self.width = width
    self.height = height
    self.baseline = baseline ?? height
  }
}

/// One thing a laid-out cell draws, at its place in the cell.
public enum CellPiece: Hashable, Sendable {
  /// An image (nil path: its field was empty) filling a box.
  case image(path: String?, frame: Rect, fit: ImageFit, cornerRadius: Double)
  /// A text in its box, its first line at the top.
  case text(String, style: CellTextStyle, color: Color, frame: Rect)
  /// A round picture, or `initial` on a colour when the picture is missing.
  case avatar(path: String?, initial: String, frame: Rect)
  /// A vector icon filling a square box.
  case icon(name: String, color: Color, frame: Rect)
  /// A pill with a text.
  case badge(String, style: CellTextStyle, color: Color, background: Color, frame: Rect)
  /// A filled rectangle.
  case rect(color: Color, cornerRadius: Double, frame: Rect)
}

extension CellPiece {
  /// The piece placed as in a right-to-left cell: its box reflected across the cell's
  /// vertical centre line (pictures and icons move, but are not flipped).
  package func mirrored(across cell: Rect) -> CellPiece {
    func flip(_ r: Rect) -> Rect {
      Rect(x: cell.minX + cell.maxX - r.maxX, y: r.minY, width: r.width, height: r.height)
    }
    switch self {
    case .image(let path, let frame, let fit, let radius):
      return .image(path: path, frame: flip(frame), fit: fit, cornerRadius: radius)
    case .text(let text, let style, let color, let frame):
      return .text(text, style: style, color: color, frame: flip(frame))
    case .avatar(let path, let initial, let frame):
      return .avatar(path: path, initial: initial, frame: flip(frame))
    case .icon(let name, let color, let frame):
      return .icon(name: name, color: color, frame: flip(frame))
    case .badge(let text, let style, let color, let background, let frame):
      return .badge(text, style: style, color: color, background: background, frame: flip(frame))
    case .rect(let color, let radius, let frame):
      return .rect(color: color, cornerRadius: radius, frame: flip(frame))
    }
  }
}

/// Lays out a template for one item: the one routine that both measures a cell's height (for
/// the layout) and places what it draws (for the renderer), so a measured line is exactly the
/// drawn one.
///
/// The rules, close to SwiftUI's stacks: a vertical stack gives each child its width and adds
/// their heights and spacing; spare height goes to its spacers, and a shortfall is taken from
/// its images. A horizontal stack gives icons, avatars, badges and sized images their own
/// width, texts their natural width (shrunk in turn when the row is too narrow) and what is left
/// to spacers and the other images. An element whose `when` has no value takes no room.
///
/// An engine lays out one item, on one thread at a time: it is a class so that the stacks it
/// walks share it rather than copy it, and a `foreach` entry is set on it while its children are
/// laid out.
public final class CellLayoutEngine {
  /// The item's data.
  public var data: ItemData
  /// The item's index, for `{index}`.
  public var index: Int
  /// The locale and reference date of `{field|format}` texts: the template's.
  public var formatting = DataFormatting()
  /// The size of a text laid out in a style at a width (nil: one unwrapped line).
  var measureText: (String, CellTextStyle, Double?) -> TextSize
  /// An image file's width-to-height ratio, or nil when it cannot be read.
  var imageAspect: (String) -> Double?
  /// Told of every text element placed, with its box: how ``textLines(of:in:)`` counts lines.
  var textObserver: ((FieldText, CellTextStyle, Rect) -> Void)?
  /// Told of every element placed, with its box: how ``boxes(of:in:)`` finds them.
  var boxObserver: ((CellBox) -> Void)?
  /// How deep the element being placed is, for ``boxObserver``.
  var depth = 0

  /// A layout of one item's cell, measuring texts and images with the closures given.
  public init(
    data: ItemData, index: Int,
    measureText: @escaping (String, CellTextStyle, Double?) -> TextSize,
    imageAspect: @escaping (String) -> Double?
  ) {
    self.data = data
    self.index = index
    self.measureText = measureText
    self.imageAspect = imageAspect
  }

  // MARK: - Whole cells

  /// The height of the template's cell at a width: its padding plus its content's height.
  ///
  /// - Complexity: O(number of elements), each text measured once.
  public func height(of template: CellTemplate, width: Double) -> Double {
    formatting = template.formatting
    let inner = max(0, width - template.padding.left - template.padding.right)
    return template.padding.top + height(of: template.content, width: inner)
      + template.padding.bottom
  }

  /// What the template's cell draws in a frame, in drawing order.
  public func pieces(of template: CellTemplate, in frame: Rect) -> [CellPiece] {
    formatting = template.formatting
    var pieces: [CellPiece] = []
    let p = template.padding
    let inner = Rect(
      x: frame.minX + p.left, y: frame.minY + p.top,
      width: max(0, frame.width - p.left - p.right),
      height: max(0, frame.height - p.top - p.bottom))
    place(template.content, in: inner, into: &pieces)
    return pieces
  }

  /// The lines each wrapping text of the cell takes (a text allowed more than one line), keyed
  /// by the field it shows first (`title`), or by its text when it shows none: what a golden's
  /// facts keep, so a verdict can say "its title now wraps to 1 line, was 2".
  ///
  /// - Complexity: O(number of elements), as ``pieces(of:in:)``.
  public func textLines(of template: CellTemplate, in frame: Rect) -> [String: Int] {
    final class Lines { var byKey: [String: Int] = [:] }
    let found = Lines()
    textObserver = { text, style, box in
      guard style.lines != 1 else { return }
      let lineHeight = style.lineHeight ?? style.size * 1.2
      let key = text.reads.first?.path.source ?? text.source
      // The first of a key keeps it: a foreach repeats its texts.
      if found.byKey[key] == nil {
        found.byKey[key] = max(0, Int((box.height / lineHeight).rounded()))
      }
    }
    defer { textObserver = nil }
    _ = pieces(of: template, in: frame)
    return found.byKey
  }

  // MARK: - Elements

  /// A stack's child, and the `foreach` entry it reads as `{item}`, if any.
  struct Child {
    var element: CellElement
    var item: DataValue?
  }

  /// A stack's children: once, or once per entry of its `foreach` list (up to its limit).
  func children(of stack: CellStack) -> [Child] {
    guard let list = stack.foreach else { return stack.children.map { Child(element: $0) } }
    guard case .array(let entries)? = data[list] else { return [] }
    var out: [Child] = []
    for entry in entries.prefix(stack.limit ?? entries.count) {
      for child in stack.children { out.append(Child(element: child, item: entry)) }
    }
    return out
  }

  /// `body` with the child's `foreach` entry as the data's `item` (the engine as it is for a
  /// child of no `foreach`).
  @inline(__always)
  func reading<T>(_ child: Child, _ body: () -> T) -> T {
    guard let item = child.item else { return body() }
    let outer = data.item
    data.item = item
    defer { data.item = outer }
    return body()
  }

  /// Whether an element shows for this item.
  func isShown(_ element: CellElement) -> Bool {
    if let when = element.when, !when.evaluate(data) { return false }
    switch element.kind {
    // A stack whose children are all hidden takes no room (nor its neighbours' spacing).
    case .stack(let stack):
      // Without a foreach, asked of the children as they are: no list made per question.
      guard stack.foreach != nil else { return stack.children.contains(where: isShown) }
      return children(of: stack).contains { c in reading(c) { isShown(c.element) } }
    case .zstack(let z): return z.children.first.map(isShown) ?? false
    default: return true
    }
  }

  func resolve(_ text: FieldText) -> String {
    text.resolve(in: data, index: index, formatting: formatting) ?? ""
  }

  func resolvePath(_ text: FieldText) -> String? {
    let path = resolve(text)
    return path.isEmpty ? nil : data.resolvePath(path)
  }

  /// A colour from the item's data when the element takes it from there and it reads as one;
  /// else the element's own. (Bad colours in data are refused when the scene loads.)
  func color(_ attribute: DataAttribute, of element: CellElement, else fixed: Color) -> Color {
    guard let text = element.fromData[attribute] else { return fixed }
    return Color(hexString: resolve(text)) ?? fixed
  }

  /// The element's height at a width; 0 when it is hidden.
  func height(of element: CellElement, width: Double) -> Double {
    guard isShown(element) else { return 0 }
    switch element.kind {
    case .stack(let stack):
      return stackHeight(stack, width: width)
    case .zstack(let z):
      return height(of: z.children[0], width: width)
    case .image(let image):
      return imageHeight(image, width: width)
    case .text(let text):
      return measureText(resolve(text.text), text.style, max(0, width)).height
    case .avatar(let avatar): return avatar.size
    case .icon(let icon): return icon.size
    case .badge(let badge): return badgeSize(badge).height
    case .rect(let rect): return rect.height
    case .spacer(let spacer): return spacer.minLength
    }
  }

  /// The width an element takes in a horizontal stack, or nil when it takes what is left.
  func fixedWidth(of element: CellElement) -> Double? {
    switch element.kind {
    case .avatar(let avatar): avatar.size
    case .icon(let icon): icon.size
    case .badge(let badge): badgeSize(badge).width
    case .rect(let rect): rect.width
    case .image(let image):
      image.width ?? image.height.map { $0 * aspect(of: image) }
    case .zstack(let z): fixedWidth(of: z.children[0])
    case .stack, .text, .spacer: nil
    }
  }

  private func stackHeight(_ stack: CellStack, width: Double) -> Double {
    let inner = max(0, width - stack.padding.left - stack.padding.right)
    let content: Double
    switch stack.axis {
    case .vertical:
      // The shown children counted, then their heights added to the gaps in order, as over a
      // filtered list, but without making one for every item of a feed.
      let all = children(of: stack)
      var shown = 0
      for c in all where reading(c, { isShown(c.element) }) { shown += 1 }
      var total = Double(max(0, shown - 1)) * stack.spacing
      for c in all {
        reading(c) {
          guard isShown(c.element) else { return }
          let w = fixedWidth(of: c.element).map { min($0, inner) } ?? inner
          total = total + height(of: c.element, width: w)
        }
      }
      content = total
    case .horizontal:
      let shown = children(of: stack).filter { c in reading(c) { isShown(c.element) } }
      let widths = rowWidths(shown, spacing: stack.spacing, width: inner)
      if stack.alignment == .firstBaseline {
        let rows = baselineRows(shown, widths: widths)
        content = rows.children.reduce(0) { max($0, rows.baseline - $1.baseline + $1.height) }
      } else {
        content = zip(shown, widths).reduce(0) { tallest, pair in
          max(tallest, reading(pair.0) { height(of: pair.0.element, width: pair.1) })
        }
      }
    }
    return stack.padding.top + content + stack.padding.bottom
  }

  /// The widths of a row's children: fixed ones as they are, texts at their natural width
  /// (shrunk, narrowest kept whole first, when they do not fit), the rest shared equally.
  func rowWidths(_ children: [Child], spacing: Double, width: Double) -> [Double] {
    var widths = [Double](repeating: 0, count: children.count)
    var left = width - Double(max(0, children.count - 1)) * spacing
    var texts: [(index: Int, natural: Double)] = []
    var flexible: [Int] = []
    for (i, child) in children.enumerated() {
      if let fixed = reading(child, { fixedWidth(of: child.element) }) {
        widths[i] = fixed
        left -= fixed
      } else if case .text(let text) = child.element.kind {
        texts.append((i, reading(child) { measureText(resolve(text.text), text.style, nil).width }))
      } else {
        // Rows in a row, columns, overlays and spacers share what the others leave.
        flexible.append(i)
      }
    }
    left = max(0, left)
    // Spacers get their minimum first.
    for i in flexible {
      if case .spacer(let spacer) = children[i].element.kind {
        widths[i] = min(spacer.minLength, left)
        left -= widths[i]
      }
    }
    // Texts share what is left, the narrowest first, none more than its natural width.
    var remaining = texts.sorted { $0.natural < $1.natural }
    while !remaining.isEmpty {
      let share = left / Double(remaining.count)
      let text = remaining.removeFirst()
      let given = min(text.natural, share)
      widths[text.index] = given
      left -= given
    }
    if !flexible.isEmpty, left > 0 {
      let share = left / Double(flexible.count)
      for i in flexible { widths[i] += share }
    }
    return widths
  }

  private func aspect(of image: CellImage) -> Double {
    let ratio: Double?
    switch image.aspect {
    case .ratio(let r)?: ratio = r
    case .fields(let w, let h)?:
      ratio = data[w]?.number.flatMap { w in data[h]?.number.map { w / $0 } }
    case nil:
      ratio = resolvePath(image.source).flatMap(imageAspect)
    }
    // A zero or missing size shows the image square rather than dividing by zero.
    guard let ratio, ratio.isFinite, ratio > 0 else { return 1 }
    return ratio
  }

  private func imageHeight(_ image: CellImage, width: Double) -> Double {
    if let height = image.height { return height }
    return width / aspect(of: image)
  }

  func badgeSize(_ badge: CellBadge) -> TextSize {
    let text = measureText(resolve(badge.text), badge.style, nil)
    return TextSize(
      width: text.width + 2 * CellBadge.horizontalPadding,
      height: text.height + 2 * CellBadge.verticalPadding,
      baseline: text.baseline + CellBadge.verticalPadding)
  }

  /// A first-baseline row's children: each one's height and first baseline (a text's or a
  /// badge's first line; the bottom of anything else), and the row's baseline, the lowest.
  func baselineRows(_ children: [Child], widths: [Double])
    -> (children: [(height: Double, baseline: Double)], baseline: Double)
  {
    var rows: [(height: Double, baseline: Double)] = []
    var lowest = 0.0
    for (child, width) in zip(children, widths) {
      let row: (height: Double, baseline: Double) = reading(child) {
        switch child.element.kind {
        case .text(let text):
          let size = measureText(resolve(text.text), text.style, max(0, width))
          return (size.height, size.baseline)
        case .badge(let badge):
          let size = badgeSize(badge)
          return (size.height, size.baseline)
        case .spacer:
          return (0, 0)
        default:
          let h = height(of: child.element, width: width)
          return (h, h)
        }
      }
      rows.append(row)
      lowest = max(lowest, row.baseline)
    }
    return (rows, lowest)
  }

  // MARK: - Placing

  func place(_ element: CellElement, in box: Rect, into pieces: inout [CellPiece]) {
    guard isShown(element), box.width >= 0 else { return }
    if boxObserver != nil { observe(element, in: box) }
    switch element.kind {
    case .stack(let stack):
      placeStack(stack, in: box, into: &pieces)
    case .zstack(let z):
      depth += 1
      defer { depth -= 1 }
      placeOverlays(z, in: box, into: &pieces)
    case .image(let image):
      pieces.append(
        .image(
          path: resolvePath(image.source), frame: box, fit: image.fit,
          cornerRadius: image.cornerRadius))
    case .text(let text):
      textObserver?(text.text, text.style, box)
      pieces.append(
        .text(
          resolve(text.text), style: text.style, color: color(.color, of: element, else: text.color),
          frame: box))
    case .avatar(let avatar):
      let name = avatar.name.map(resolve) ?? ""
      pieces.append(
        .avatar(
          path: resolvePath(avatar.source),
          initial: name.first.map { String($0).uppercased() } ?? "", frame: box))
    case .icon(let icon):
      let name = element.fromData[.icon].map(resolve) ?? icon.name
      pieces.append(
        .icon(name: name, color: color(.color, of: element, else: icon.color), frame: box))
    case .badge(let badge):
      pieces.append(
        .badge(
          resolve(badge.text), style: badge.style,
          color: color(.color, of: element, else: badge.color),
          background: color(.background, of: element, else: badge.background), frame: box))
    case .rect(let rect):
      pieces.append(
        .rect(
          color: color(.color, of: element, else: rect.color), cornerRadius: rect.cornerRadius,
          frame: box))
    case .spacer:
      break
    }
  }

  /// The base in the box, then each shown overlay at its natural size and its place.
  private func placeOverlays(_ z: CellZStack, in box: Rect, into pieces: inout [CellPiece]) {
    place(z.children[0], in: box, into: &pieces)
    for overlay in z.children.dropFirst() where isShown(overlay) {
      var width = fixedWidth(of: overlay) ?? box.width
      if case .text(let text) = overlay.kind {
        width = min(box.width, measureText(resolve(text.text), text.style, nil).width)
      }
      let height = height(of: overlay, width: width)
      let placement = overlay.placement ?? OverlayPlacement(z.alignment)
      let (fx, fy) = placement.alignment.fractions
      place(
        overlay,
        in: Rect(
          x: box.minX + (box.width - width) * fx + placement.x,
          y: box.minY + (box.height - height) * fy + placement.y, width: width, height: height),
        into: &pieces)
    }
  }

  private func placeStack(_ stack: CellStack, in box: Rect, into pieces: inout [CellPiece]) {
    let p = stack.padding
    let inner = Rect(
      x: box.minX + p.left, y: box.minY + p.top, width: max(0, box.width - p.left - p.right),
      height: max(0, box.height - p.top - p.bottom))
    let shown = children(of: stack).filter { c in reading(c) { isShown(c.element) } }
    guard !shown.isEmpty else { return }
    // Every child's box first, then each is placed: a box observer sees the stack before them.
    var placed: [(Child, Rect)] = []
    placed.reserveCapacity(shown.count)
    switch stack.axis {
    case .vertical:
      let widths = shown.map { c in
        reading(c) { fixedWidth(of: c.element) }.map { min($0, inner.width) } ?? inner.width
      }
      var heights = zip(shown, widths).map { c, w in reading(c) { height(of: c.element, width: w) } }
      let gaps = Double(shown.count - 1) * stack.spacing
      let extra = inner.height - gaps - heights.reduce(0, +)
      let spacers = shown.indices.filter {
        if case .spacer = shown[$0].element.kind { true } else { false }
      }
      if extra > 0, !spacers.isEmpty {
        for i in spacers { heights[i] += extra / Double(spacers.count) }
      } else if extra < 0 {
        // Too little room (an item with a fixed height): images give way, so texts stay whole.
        let images = shown.indices.filter {
          if case .image = shown[$0].element.kind { true } else { false }
        }
        let total = images.reduce(0) { $0 + heights[$1] }
        if total > 0 {
          let cut = min(-extra, total)
          for i in images { heights[i] -= cut * heights[i] / total }
        }
      }
      var y = inner.minY
      for (i, child) in shown.enumerated() {
        let x: Double
        switch stack.alignment {
        case .start, .firstBaseline: x = inner.minX
        case .center: x = inner.minX + (inner.width - widths[i]) / 2
        case .end: x = inner.maxX - widths[i]
        }
        placed.append((child, Rect(x: x, y: y, width: widths[i], height: heights[i])))
        y += heights[i] + stack.spacing
      }
    case .horizontal where stack.alignment == .firstBaseline:
      let widths = rowWidths(shown, spacing: stack.spacing, width: inner.width)
      let rows = baselineRows(shown, widths: widths)
      var x = inner.minX
      for (i, child) in shown.enumerated() {
        let row = rows.children[i]
        placed.append(
          (child, Rect(x: x, y: inner.minY + rows.baseline - row.baseline, width: widths[i], height: row.height)))
        x += widths[i] + stack.spacing
      }
    case .horizontal:
      let widths = rowWidths(shown, spacing: stack.spacing, width: inner.width)
      var x = inner.minX
      for (i, child) in shown.enumerated() {
        let fills: Bool
        switch child.element.kind {
        case .stack, .spacer: fills = true
        default: fills = false
        }
        let h =
          fills
          ? inner.height
          : min(inner.height, reading(child) { height(of: child.element, width: widths[i]) })
        let y: Double
        switch stack.alignment {
        case .start, .firstBaseline: y = inner.minY
        case .center: y = inner.minY + (inner.height - h) / 2
        case .end: y = inner.maxY - h
        }
        placed.append((child, Rect(x: x, y: y, width: widths[i], height: h)))
        x += widths[i] + stack.spacing
      }
    }
    if let boxObserver {
      var box = CellBox(kind: stack.axis == .vertical ? .vstack : .hstack, frame: box, depth: depth, content: inner)
      if stack.spacing > 0 {
        box.gaps = placed.dropLast().map { _, child in
          stack.axis == .vertical
            ? Rect(x: inner.minX, y: child.maxY, width: inner.width, height: stack.spacing)
            : Rect(x: child.maxX, y: inner.minY, width: stack.spacing, height: inner.height)
        }
      }
      boxObserver(box)
    }
    depth += 1
    defer { depth -= 1 }
    for (child, frame) in placed {
      reading(child) { place(child.element, in: frame, into: &pieces) }
    }
  }
}

extension CellText {
  /// The layout style of the text.
  public var style: CellTextStyle {
    CellTextStyle(
      size: size, weight: weight, lines: lines, lineHeight: lineHeight, alignment: alignment)
  }
}

extension CellBadge {
  /// Space between the pill's edge and its text.
  static let horizontalPadding = 5.0
  static let verticalPadding = 1.5

  /// The layout style of the badge's text: one line, centred.
  public var style: CellTextStyle { CellTextStyle(size: size, weight: .medium, alignment: .center) }
}
