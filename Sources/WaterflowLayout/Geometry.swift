/// A point in content or viewport coordinates, in points.
public struct Point: Hashable, Sendable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin.
  public static let zero = Point(x: 0, y: 0)
}

/// A width and a height, in points.
public struct Size: Hashable, Sendable {
  public var width: Double
  public var height: Double

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The empty size.
  public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned rectangle with its origin at the top-left corner.
public struct Rect: Hashable, Sendable {
  public var origin: Point
  public var size: Size

  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(
      origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// The empty rectangle at the origin.
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  public var minX: Double { origin.x }
  public var minY: Double { origin.y }
  public var maxX: Double { origin.x + size.width }
  public var maxY: Double { origin.y + size.height }
  public var midX: Double { origin.x + size.width / 2 }
  public var midY: Double { origin.y + size.height / 2 }
  public var width: Double { size.width }
  public var height: Double { size.height }

  /// The rectangle shrunk by `dx` at the left and right and `dy` at the top and bottom, never
  /// to less than zero width or height.
  public func insetBy(dx: Double, dy: Double) -> Rect {
    Rect(
      x: minX + dx, y: minY + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
  }

  /// Whether the point lies inside, counting the top and left edges but not the bottom and right.
  ///
  /// The half-open test means a point on the shared edge of two touching frames hits exactly one.
  public func contains(_ point: Point) -> Bool {
    point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }

  /// Whether the two rectangles share interior area (touching edges do not count).
  public func intersects(_ other: Rect) -> Bool {
    maxX > other.minX && minX < other.maxX && maxY > other.minY
      && minY < other.maxY
  }

  /// The rectangle moved by `dx`, `dy`.
  public func offsetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width, height: height)
  }
}

/// The six spacings the reference control asks its delegate for.
///
/// The corresponding Objective-C type is `HMWaterflowViewMarginType`.
public enum MarginType: String, CaseIterable, Hashable, Sendable {
  case top, bottom, left, right, column, row
}

/// Insets at the four edges plus the gaps between columns and between cells in a column.
///
/// In horizontal flow `left`/`right` are the insets along the scroll axis and `top`/`bottom`
/// across it, so a horizontal layout is the exact transpose of a vertical one with `top`↔`left`
/// and `bottom`↔`right` swapped. `column` is always the gap between lanes and `row` the gap
/// between consecutive items in a lane.
public struct Margins: Hashable, Sendable {
  public var top: Double
  public var bottom: Double
  public var left: Double
  public var right: Double
  public var column: Double
  public var row: Double

  /// Creates margins; every one defaults to the reference control's 10 points.
  public init(
    top: Double = 10, bottom: Double = 10, left: Double = 10,
    right: Double = 10,
    column: Double = 10, row: Double = 10
  ) {
    self.top = top
    self.bottom = bottom
    self.left = left
    self.right = right
    self.column = column
    self.row = row
  }

  /// The margin of one type.
  public subscript(type: MarginType) -> Double {
    get {
      switch type {
      case .top: top
      case .bottom: bottom
      case .left: left
      case .right: right
      case .column: column
      case .row: row
      }
    }
    set {
      switch type {
      case .top: top = newValue
      case .bottom: bottom = newValue
      case .left: left = newValue
      case .right: right = newValue
      case .column: column = newValue
      case .row: row = newValue
      }
    }
  }
}
