// UIKit's collection-view types for platforms without UIKit, so that an iOS app's layout code
// compiles here unchanged: `import UIKit` resolves to this module where the system has none.
// Geometry is Foundation's (CGFloat, CGRect, CGSize, CGPoint, IndexPath), re-exported as UIKit
// re-exports it; this file adds what UIKit adds to it.
@_exported import Foundation

/// Insets for each edge of a rectangle, as UIKit gives them: top, left, bottom, right.
public struct UIEdgeInsets: Hashable, Sendable {
  public var top: CGFloat
  public var left: CGFloat
  public var bottom: CGFloat
  public var right: CGFloat

  public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  public init() { self.init(top: 0, left: 0, bottom: 0, right: 0) }

  /// No insets.
  public static let zero = UIEdgeInsets()
}

/// Insets by leading and trailing edge rather than left and right: they flip in right-to-left
/// layouts.
public struct NSDirectionalEdgeInsets: Hashable, Sendable {
  public var top: CGFloat
  public var leading: CGFloat
  public var bottom: CGFloat
  public var trailing: CGFloat

  public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
    self.top = top
    self.leading = leading
    self.bottom = bottom
    self.trailing = trailing
  }

  public init() { self.init(top: 0, leading: 0, bottom: 0, trailing: 0) }

  /// No insets.
  public static let zero = NSDirectionalEdgeInsets()
}

extension CGRect {
  /// The rectangle with each edge moved inwards by its inset (outwards for a negative one).
  public func inset(by insets: UIEdgeInsets) -> CGRect {
    CGRect(
      x: origin.x + insets.left, y: origin.y + insets.top,
      width: size.width - insets.left - insets.right,
      height: size.height - insets.top - insets.bottom)
  }
}

#if !canImport(Darwin)
  // UIKit's (and AppKit's) additions to IndexPath: a section and an item (or row) in it.
  extension IndexPath {
    /// The index path of an item in a section.
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    /// The index path of a row in a section, as a table view names it.
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }

    /// The section: the path's first index.
    public var section: Int {
      get { self[0] }
      set { self[0] = newValue }
    }
    /// The item in the section: the path's second index.
    public var item: Int {
      get { self[1] }
      set { self[1] = newValue }
    }
    /// The item, as a table view names it.
    public var row: Int {
      get { self[1] }
      set { self[1] = newValue }
    }
  }

  extension NSIndexPath {
    /// The index path of an item in a section.
    public convenience init(item: Int, section: Int) {
      self.init(indexes: [section, item], length: 2)
    }
    /// The index path of a row in a section.
    public convenience init(row: Int, section: Int) {
      self.init(indexes: [section, row], length: 2)
    }
    /// The section: the path's first index.
    public var section: Int { index(atPosition: 0) }
    /// The item in the section.
    public var item: Int { index(atPosition: 1) }
    /// The item, as a table view names it.
    public var row: Int { index(atPosition: 1) }
  }
#endif

/// The screen, whose scale a test sets to draw for a device: 2 or 3.
@MainActor
public final class UIScreen {
  /// The screen the app runs on. Its scale is 3 until a test sets it.
  public static let main = UIScreen()

  /// Device pixels per point.
  public var scale: CGFloat = 3
  /// The screen's size in points (an iPhone 15's until set).
  public var bounds = CGRect(x: 0, y: 0, width: 393, height: 852)

  public init() {}
}

/// The direction a layout runs in.
public enum UIUserInterfaceLayoutDirection: Int, Sendable {
  case leftToRight, rightToLeft
}

/// Light or dark.
public enum UIUserInterfaceStyle: Int, Sendable {
  case unspecified, light, dark
}

/// The traits a view lays out for: its scale, direction and appearance.
public final class UITraitCollection {
  /// Device pixels per point.
  public let displayScale: CGFloat
  /// The direction of the interface.
  public let layoutDirection: UIUserInterfaceLayoutDirection
  /// Light or dark.
  public let userInterfaceStyle: UIUserInterfaceStyle

  /// Traits for a scale, a direction and an appearance; the scale defaults to the main screen's.
  @MainActor
  public init(
    displayScale: CGFloat = UIScreen.main.scale,
    layoutDirection: UIUserInterfaceLayoutDirection = .leftToRight,
    userInterfaceStyle: UIUserInterfaceStyle = .light
  ) {
    self.displayScale = displayScale
    self.layoutDirection = layoutDirection
    self.userInterfaceStyle = userInterfaceStyle
  }
}

/// A colour in sRGB.
public final class UIColor: Hashable {
  public let red: CGFloat
  public let green: CGFloat
  public let blue: CGFloat
  public let alpha: CGFloat

  public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  public convenience init(white: CGFloat, alpha: CGFloat) {
    self.init(red: white, green: white, blue: white, alpha: alpha)
  }

  public static func == (a: UIColor, b: UIColor) -> Bool {
    a.red == b.red && a.green == b.green && a.blue == b.blue && a.alpha == b.alpha
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(red)
    hasher.combine(green)
    hasher.combine(blue)
    hasher.combine(alpha)
  }

  public class var black: UIColor { UIColor(white: 0, alpha: 1) }
  public class var white: UIColor { UIColor(white: 1, alpha: 1) }
  public class var clear: UIColor { UIColor(white: 0, alpha: 0) }
  public class var gray: UIColor { UIColor(white: 0.5, alpha: 1) }
  public class var lightGray: UIColor { UIColor(white: 2 / 3, alpha: 1) }
  public class var red: UIColor { UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
  public class var green: UIColor { UIColor(red: 0, green: 1, blue: 0, alpha: 1) }
  public class var blue: UIColor { UIColor(red: 0, green: 0, blue: 1, alpha: 1) }
  public class var systemBackground: UIColor { .white }
  public class var secondarySystemBackground: UIColor {
    UIColor(red: 242 / 255, green: 242 / 255, blue: 247 / 255, alpha: 1)
  }
  public class var label: UIColor { .black }
  public class var secondaryLabel: UIColor {
    UIColor(red: 60 / 255, green: 60 / 255, blue: 67 / 255, alpha: 0.6)
  }
}
