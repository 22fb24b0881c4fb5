public import WaterflowView

/// One box of a laid-out cell, for a debug overlay: an element's frame, and for the cell and its
/// stacks the room their padding and spacing take; for a text, its lines' baselines.
public struct CellBox: Hashable, Sendable {
  /// What the box holds.
  public enum Kind: String, Hashable, Sendable {
    case cell, vstack, hstack, zstack, image, text, avatar, icon, badge, rect, spacer
  }

  public var kind: Kind
  /// The element's frame, in the coordinates of the cell's frame.
  public var frame: Rect
  /// How deep the element is: the cell is 0, its content 1.
  public var depth: Int
  /// Inside the padding (the cell and stacks); nil for other elements.
  public var content: Rect?
  /// The stack's spacing between its shown children.
  public var gaps: [Rect] = []
  /// A text's baselines, one per line, as y coordinates.
  public var baselines: [Double] = []

  public init(kind: Kind, frame: Rect, depth: Int, content: Rect? = nil) {
    self.kind = kind
    self.frame = frame
    self.depth = depth
    self.content = content
  }

  /// The box as in a right-to-left cell, reflected across the cell's vertical centre line as
  /// its pieces are.
  public func mirrored(across cell: Rect) -> CellBox {
    func flip(_ r: Rect) -> Rect { Rect(x: cell.minX + cell.maxX - r.maxX, y: r.minY, width: r.width, height: r.height) }
    var box = self
    box.frame = flip(frame)
    box.content = content.map(flip)
    box.gaps = gaps.map(flip)
    return box
  }
}

extension CellLayoutEngine {
  /// The template's box tree in a frame, parents before their children: the cell with its
  /// padding, each shown element's frame, each stack's padding and spacing, and each text's
  /// baselines. What a debug overlay draws over the cell.
  ///
  /// - Complexity: O(number of elements), as ``pieces(of:in:)``.
  public func boxes(of template: CellTemplate, in frame: Rect) -> [CellBox] {
    final class Boxes { var all: [CellBox] = [] }
    let found = Boxes()
    let p = template.padding
    found.all.append(
      CellBox(
        kind: .cell, frame: frame, depth: 0,
        content: Rect(
          x: frame.minX + p.left, y: frame.minY + p.top, width: max(0, frame.width - p.left - p.right),
          height: max(0, frame.height - p.top - p.bottom))))
    boxObserver = { found.all.append($0) }
    depth = 1
    defer {
      boxObserver = nil
      depth = 0
    }
    _ = pieces(of: template, in: frame)
    return found.all
  }

  /// Tells the box observer of a placed element: stacks tell it themselves, with their gaps.
  func observe(_ element: CellElement, in box: Rect) {
    guard let boxObserver else { return }
    let kind: CellBox.Kind
    switch element.kind {
    case .stack: return
    case .zstack: kind = .zstack
    case .image: kind = .image
    case .avatar: kind = .avatar
    case .icon: kind = .icon
    case .badge: kind = .badge
    case .rect: kind = .rect
    case .spacer: kind = .spacer
    case .text: kind = .text
    }
    var observed = CellBox(kind: kind, frame: box, depth: depth)
    if case .text(let text) = element.kind {
      let shown = resolve(text.text)
      if !shown.isEmpty {
        let size = measureText(shown, text.style, box.width)
        // Lines follow each other at the style's line height, as the text layout spaces them.
        let step = text.style.lineHeight ?? text.style.size * 1.2
        let lines = max(1, Int((min(size.height, box.height) / step).rounded()))
        observed.baselines = (0..<lines).map { box.minY + size.baseline + Double($0) * step }
          .filter { $0 <= box.maxY + 0.5 }
      }
    }
    boxObserver(observed)
  }
}
