/// One step of an icon's outline, in a 24 × 24 box with y growing downwards.
public enum IconSegment: Hashable, Sendable {
  case move(x: Double, y: Double)
  case line(x: Double, y: Double)
  /// A cubic Bézier curve to (x, y), pulled towards the two control points.
  case curve(x1: Double, y1: Double, x2: Double, y2: Double, x: Double, y: Double)
  case close
}

/// How a part of an icon is painted.
public enum IconPaint: Hashable, Sendable {
  /// Filled by the non-zero winding rule.
  case fill
  /// Filled with holes by the even-odd rule.
  case fillEvenOdd
  /// Stroked with round caps and joins, `width` in box units.
  case stroke(width: Double)
}

/// One painted part of an icon.
public struct IconPart: Hashable, Sendable {
  public var segments: [IconSegment]
  public var paint: IconPaint

  public init(_ segments: [IconSegment], paint: IconPaint) {
    self.segments = segments
    self.paint = paint
  }
}

/// A named icon: parts painted in order, in one colour, in a 24 × 24 box.
///
/// The icons are paths written for this project, in the manner of SF Symbols' and Material's
/// outline sets (2-unit strokes, round ends): drawn as vector paths rather than from an icon
/// font, they scale cleanly, stay vector in PDF and SVG, and need no font file.
public struct IconShape: Hashable, Sendable {
  public var name: String
  public var parts: [IconPart]

  /// The shape named `name`, or nil.
  public init?(named name: String) {
    guard let parts = Self.library[name] else { return nil }
    self.name = name
    self.parts = parts
  }

  /// Every icon name, sorted (error messages list them).
  public static let names: [String] = library.keys.sorted()

  // MARK: - The shapes

  private static let stroke = IconPaint.stroke(width: 2)

  private static let heartOutline: [IconSegment] = [
    .move(x: 12, y: 20.5),
    .curve(x1: 12, y1: 20.5, x2: 3, y2: 14.8, x: 3, y: 9),
    .curve(x1: 3, y1: 6.2, x2: 5.1, y2: 4, x: 7.7, y: 4),
    .curve(x1: 9.6, y1: 4, x2: 11.2, y2: 5.1, x: 12, y: 6.7),
    .curve(x1: 12.8, y1: 5.1, x2: 14.4, y2: 4, x: 16.3, y: 4),
    .curve(x1: 18.9, y1: 4, x2: 21, y2: 6.2, x: 21, y: 9),
    .curve(x1: 21, y1: 14.8, x2: 12, y2: 20.5, x: 12, y: 20.5),
    .close,
  ]

  private static let starOutline: [IconSegment] = {
    // Five points on a circle of 9.5 round (12, 12.6), the inner corners on one of 4.1.
    var segments: [IconSegment] = []
    for k in 0..<10 {
      let radius = k % 2 == 0 ? 9.5 : 4.1
      let angle = -Double.pi / 2 + Double(k) * Double.pi / 5
      let x = round2(12 + radius * cosine(angle))
      let y = round2(12.6 + radius * sine(angle))
      segments.append(k == 0 ? .move(x: x, y: y) : .line(x: x, y: y))
    }
    return segments + [.close]
  }()

  private static let bookmarkOutline: [IconSegment] = [
    .move(x: 6.5, y: 3.5), .line(x: 17.5, y: 3.5), .line(x: 17.5, y: 20.5),
    .line(x: 12, y: 16.5), .line(x: 6.5, y: 20.5), .close,
  ]

  private static let library: [String: [IconPart]] = [
    "heart": [IconPart(heartOutline, paint: stroke)],
    "heart.fill": [IconPart(heartOutline, paint: .fill)],
    "star": [IconPart(starOutline, paint: .stroke(width: 1.8))],
    "star.fill": [IconPart(starOutline, paint: .fill)],
    "eye": [
      IconPart(
        [
          .move(x: 2, y: 12),
          .curve(x1: 4.5, y1: 7, x2: 8, y2: 5, x: 12, y: 5),
          .curve(x1: 16, y1: 5, x2: 19.5, y2: 7, x: 22, y: 12),
          .curve(x1: 19.5, y1: 17, x2: 16, y2: 19, x: 12, y: 19),
          .curve(x1: 8, y1: 19, x2: 4.5, y2: 17, x: 2, y: 12),
          .close,
        ], paint: stroke),
      IconPart(circle(x: 12, y: 12, radius: 3), paint: .fill),
    ],
    "comment": [
      IconPart(
        [
          .move(x: 5.5, y: 4), .line(x: 18.5, y: 4),
          .curve(x1: 19.33, y1: 4, x2: 20, y2: 4.67, x: 20, y: 5.5),
          .line(x: 20, y: 15),
          .curve(x1: 20, y1: 15.83, x2: 19.33, y2: 16.5, x: 18.5, y: 16.5),
          .line(x: 10.5, y: 16.5), .line(x: 6.5, y: 20), .line(x: 6.5, y: 16.5),
          .line(x: 5.5, y: 16.5),
          .curve(x1: 4.67, y1: 16.5, x2: 4, y2: 15.83, x: 4, y: 15),
          .line(x: 4, y: 5.5),
          .curve(x1: 4, y1: 4.67, x2: 4.67, y2: 4, x: 5.5, y: 4),
          .close,
        ], paint: stroke)
    ],
    "play": [
      IconPart(circle(x: 12, y: 12, radius: 9.5), paint: .stroke(width: 1.8)),
      IconPart([.move(x: 10, y: 8), .line(x: 16.5, y: 12), .line(x: 10, y: 16), .close], paint: .fill),
    ],
    "cart": [
      IconPart(
        [
          .move(x: 2.5, y: 4), .line(x: 5, y: 4), .line(x: 7.5, y: 15), .line(x: 18, y: 15),
          .line(x: 20.5, y: 7.5), .line(x: 6, y: 7.5),
        ], paint: stroke),
      IconPart(circle(x: 9, y: 19.2, radius: 1.6), paint: .fill),
      IconPart(circle(x: 16.5, y: 19.2, radius: 1.6), paint: .fill),
    ],
    "bookmark": [IconPart(bookmarkOutline, paint: stroke)],
    "bookmark.fill": [IconPart(bookmarkOutline, paint: .fill)],
    "share": [
      IconPart([.move(x: 12, y: 3.5), .line(x: 12, y: 14.5)], paint: stroke),
      IconPart([.move(x: 8, y: 7.5), .line(x: 12, y: 3.5), .line(x: 16, y: 7.5)], paint: stroke),
      IconPart(
        [
          .move(x: 8, y: 10.5), .line(x: 5.5, y: 10.5), .line(x: 5.5, y: 20.5),
          .line(x: 18.5, y: 20.5), .line(x: 18.5, y: 10.5), .line(x: 16, y: 10.5),
        ], paint: stroke),
    ],
    "plus": [
      IconPart([.move(x: 12, y: 5), .line(x: 12, y: 19)], paint: stroke),
      IconPart([.move(x: 5, y: 12), .line(x: 19, y: 12)], paint: stroke),
    ],
    "checkmark": [
      IconPart([.move(x: 5, y: 12.5), .line(x: 10, y: 17.5), .line(x: 19, y: 7)], paint: stroke)
    ],
    "location": [
      IconPart(
        [
          .move(x: 12, y: 21.5),
          .curve(x1: 12, y1: 21.5, x2: 5, y2: 14.5, x: 5, y: 9.5),
          .curve(x1: 5, y1: 5.6, x2: 8.1, y2: 2.5, x: 12, y: 2.5),
          .curve(x1: 15.9, y1: 2.5, x2: 19, y2: 5.6, x: 19, y: 9.5),
          .curve(x1: 19, y1: 14.5, x2: 12, y2: 21.5, x: 12, y: 21.5),
          .close,
        ], paint: stroke),
      IconPart(circle(x: 12, y: 9.5, radius: 2.5), paint: stroke),
    ],
    "flame": [
      IconPart(
        [
          .move(x: 12, y: 22),
          .curve(x1: 7.6, y1: 22, x2: 5, y2: 19, x: 5, y: 15.5),
          .curve(x1: 5, y1: 11.5, x2: 8, y2: 9.5, x: 9, y: 6),
          .curve(x1: 10.5, y1: 8, x2: 11, y2: 9.5, x: 11, y: 11),
          .curve(x1: 12.5, y1: 9.5, x2: 13.5, y2: 6, x: 12.5, y: 2),
          .curve(x1: 16.5, y1: 4.5, x2: 19, y2: 9, x: 19, y: 14.5),
          .curve(x1: 19, y1: 19, x2: 16.4, y2: 22, x: 12, y: 22),
          .close,
        ], paint: .fill)
    ],
    "person": [
      IconPart(circle(x: 12, y: 8, radius: 4), paint: stroke),
      IconPart(
        [
          .move(x: 4.5, y: 21),
          .curve(x1: 4.5, y1: 16.8, x2: 7.9, y2: 14, x: 12, y: 14),
          .curve(x1: 16.1, y1: 14, x2: 19.5, y2: 16.8, x: 19.5, y: 21),
        ], paint: stroke),
    ],
  ]

  /// A circle as four Bézier quarters (the control points at 0.5523 of the radius).
  private static func circle(x: Double, y: Double, radius r: Double) -> [IconSegment] {
    let k = round2(0.5523 * r)
    return [
      .move(x: x + r, y: y),
      .curve(x1: x + r, y1: y + k, x2: x + k, y2: y + r, x: x, y: y + r),
      .curve(x1: x - k, y1: y + r, x2: x - r, y2: y + k, x: x - r, y: y),
      .curve(x1: x - r, y1: y - k, x2: x - k, y2: y - r, x: x, y: y - r),
      .curve(x1: x + k, y1: y - r, x2: x + r, y2: y - k, x: x + r, y: y),
      .close,
    ]
  }
}

/// To two decimals, so that computed points are the same on every machine and in every file.
private func round2(_ v: Double) -> Double { (v * 100).rounded() / 100 }

// The standard library has no trigonometry; the star needs ten fixed angles, so a short Taylor
// series (exact to far below the two decimals kept) saves linking libm for five points.
private func sine(_ x: Double) -> Double {
  var angle = x.truncatingRemainder(dividingBy: 2 * Double.pi)
  if angle > Double.pi { angle -= 2 * Double.pi }
  if angle < -Double.pi { angle += 2 * Double.pi }
  var term = angle
  var sum = angle
  for n in 1..<12 {
    term *= -angle * angle / Double((2 * n) * (2 * n + 1))
    sum += term
  }
  return sum
}

private func cosine(_ x: Double) -> Double { sine(x + Double.pi / 2) }
