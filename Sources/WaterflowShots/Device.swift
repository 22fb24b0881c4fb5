public import WaterflowView

/// A device a screenshot is taken on: its screen in points and pixels, and the shape of its
/// frame (corners, camera cutout, home button), from a built-in table of store sizes.
///
/// The pixel sizes are the App Store's and Google Play's screenshot sizes: an unframed shot is
/// exactly `pixelWidth` × `pixelHeight`, and so is a framed one (the frame is drawn inside).
public struct Device: Hashable, Sendable {
  /// What sits at the top of the screen.
  public enum Cutout: Hashable, Sendable {
    /// A Dynamic Island: a pill below the top edge.
    case island
    /// A notch from the top edge.
    case notch
    /// A round front camera in the screen (Android).
    case punchHole
    /// None: the camera is in the bezel.
    case none
  }

  /// The name shot files use: `iphone-6.9`.
  public var name: String
  /// What it is, for the contact sheet: `iPhone 6.9″ (iPhone 16 Pro Max)`.
  public var title: String
  /// The portrait screen, in points.
  public var size: Size
  /// Device pixels per point.
  public var scale: Double
  /// The radius of the screen's corners, in points (0 for square screens).
  public var screenCornerRadius: Double
  /// The camera cutout.
  public var cutout: Cutout
  /// Whether the device has a home button below the screen (and wide bezels).
  public var hasHomeButton: Bool
  /// The status bar's height in points: the top of the screen the app leaves to it.
  public var statusBarHeight: Double

  /// A device: its name, title, portrait screen in points and scale, and its frame's shape.
  public init(
    name: String, title: String, size: Size, scale: Double, screenCornerRadius: Double = 0,
    cutout: Cutout = .none, hasHomeButton: Bool = false, statusBarHeight: Double = 0
  ) {
    self.name = name
    self.title = title
    self.size = size
    self.scale = scale
    self.screenCornerRadius = screenCornerRadius
    self.cutout = cutout
    self.hasHomeButton = hasHomeButton
    self.statusBarHeight = statusBarHeight
  }

  /// The screenshot's width in pixels.
  public var pixelWidth: Int { Int((size.width * scale).rounded()) }
  /// The screenshot's height in pixels.
  public var pixelHeight: Int { Int((size.height * scale).rounded()) }
  /// Whether the device draws a home indicator (a bar at the bottom) instead of a button.
  public var hasHomeIndicator: Bool { !hasHomeButton }
  /// Whether it is a tablet: wider bezels, a longer home indicator, no side buttons drawn.
  public var isTablet: Bool { size.width > 700 }
  /// Whether the status bar and navigation follow Android's look.
  public var isAndroid: Bool { name.hasPrefix("android") }

  /// Every device, phones first, by store slot.
  ///
  /// Sizes are the App Store Connect screenshot slots (6.9″ 1320×2868, 6.5″ 1242×2688,
  /// 6.1″ 1170×2532, 5.5″ 1242×2208, 4.7″ 750×1334, iPad 13″ 2064×2752, 12.9″ 2048×2732) and
  /// Google Play's recommended portrait phone screenshot (1080×1920, 9:16: Play refuses a side
  /// more than twice the other).
  public static let all: [Device] = [
    Device(
      name: "iphone-6.9", title: "iPhone 6.9″ (16 Pro Max)", size: Size(width: 440, height: 956),
      scale: 3, screenCornerRadius: 62, cutout: .island, hasHomeButton: false,
      statusBarHeight: 62),
    Device(
      name: "iphone-6.5", title: "iPhone 6.5″ (11 Pro Max)", size: Size(width: 414, height: 896),
      scale: 3, screenCornerRadius: 39, cutout: .notch, hasHomeButton: false,
      statusBarHeight: 44),
    Device(
      name: "iphone-6.1", title: "iPhone 6.1″ (14)", size: Size(width: 390, height: 844),
      scale: 3, screenCornerRadius: 47, cutout: .notch, hasHomeButton: false,
      statusBarHeight: 47),
    Device(
      name: "iphone-5.5", title: "iPhone 5.5″ (8 Plus)", size: Size(width: 414, height: 736),
      scale: 3, screenCornerRadius: 0, cutout: .none, hasHomeButton: true, statusBarHeight: 20),
    Device(
      name: "iphone-4.7", title: "iPhone 4.7″ (SE)", size: Size(width: 375, height: 667),
      scale: 2, screenCornerRadius: 0, cutout: .none, hasHomeButton: true, statusBarHeight: 20),
    Device(
      name: "ipad-13", title: "iPad 13″ (Pro M4)", size: Size(width: 1032, height: 1376),
      scale: 2, screenCornerRadius: 30, cutout: .none, hasHomeButton: false,
      statusBarHeight: 24),
    Device(
      name: "ipad-12.9", title: "iPad 12.9″ (Pro)", size: Size(width: 1024, height: 1366),
      scale: 2, screenCornerRadius: 18, cutout: .none, hasHomeButton: false,
      statusBarHeight: 24),
    Device(
      name: "android-phone", title: "Android phone (1080×1920)",
      size: Size(width: 360, height: 640), scale: 3, screenCornerRadius: 20, cutout: .punchHole,
      hasHomeButton: false, statusBarHeight: 24),
  ]

  /// The device of a name, or nil.
  ///
  /// - Complexity: O(number of devices).
  public static func named(_ name: String) -> Device? { all.first { $0.name == name } }

  /// The names, as messages list them.
  public static var names: [String] { all.map(\.name) }
}
