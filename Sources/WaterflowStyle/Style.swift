public import WaterflowView

/// How a picture looks: the canvas, the cells' corners and colours, their labels, price bars and
/// titles, and the header, footer, section and empty views.
///
/// ``standard`` is the look Waterflow has always had (the goldens are drawn with it); ``dark`` is
/// the `"dark": true` preset. Scenes, layout files and `--style` files set it with a `style`
/// object whose keys the README lists.
public struct Style: Hashable, Sendable {
  /// How a cell gets its colour when it is created.
  public enum CellColors: Hashable, Sendable {
    /// Uniform random r, g, b from the scene's seed: the reference demo's colours.
    case random
    /// The n-th created cell takes the palette's entry n (cyclically), so reuse stays visible.
    case palette([Color])
  }

  /// A header, footer, section or empty view: its fill and its text colour.
  public struct Bar: Hashable, Sendable {
    /// The fill; fully transparent draws none.
    public var color: Color
    /// The colour of its text (and of the loading view's spinner).
    public var textColor: Color

    public init(color: Color, textColor: Color) {
      self.color = color
      self.textColor = textColor
    }
  }

  /// The price bar across the bottom of a cell's image.
  public struct PriceBar: Hashable, Sendable {
    /// Its height in points.
    public var height: Double
    /// Its fill, usually translucent so that the image shows through.
    public var color: Color
    /// The price's colour.
    public var textColor: Color
    /// The price's size in points.
    public var fontSize: Double

    public init(height: Double, color: Color, textColor: Color, fontSize: Double) {
      self.height = height
      self.color = color
      self.textColor = textColor
      self.fontSize = fontSize
    }
  }

  /// The band under an item's image that shows its `title`, in one or two lines.
  public struct Title: Hashable, Sendable {
    /// The band's fill.
    public var color: Color
    /// The title's colour.
    public var textColor: Color
    /// The title's size in points; the band is two lines of it high, plus padding.
    public var fontSize: Double

    public init(color: Color, textColor: Color, fontSize: Double) {
      self.color = color
      self.textColor = textColor
      self.fontSize = fontSize
    }

    /// The band's height: two lines and a padding of 6 pt above and below.
    public var bandHeight: Double { 2 * lineHeight + 12 }
    /// The distance between the title's baselines.
    public var lineHeight: Double { (fontSize * 1.3).rounded() }
  }

  /// The canvas behind everything.
  public var background: Color
  /// The radius of the cells' corners, in points (0: square, the default).
  public var cornerRadius: Double
  /// How created cells get their colours.
  public var cellColors: CellColors
  /// Whether each cell shows its index in a tag at its top-left corner.
  public var indexLabels: Bool
  /// The price bar.
  public var priceBar: PriceBar
  /// The header above everything.
  public var header: Bar
  /// The footer below everything.
  public var footer: Bar
  /// The sections' headers and footers.
  public var section: Bar
  /// The empty and loading views.
  public var empty: Bar
  /// The title band under an item's image.
  public var title: Title
  /// A cell with no colour, and a cell whose image is still loading.
  public var placeholder: Color
  /// The hairline between a header or footer and the content.
  public var separator: Color
  /// The index tag's fill and text.
  public var label: Bar

  /// Today's look, unchanged: what every golden image is drawn with.
  public static let standard = Style(
    background: Color(red: 0.95, green: 0.95, blue: 0.96),
    cornerRadius: 0,
    cellColors: .random,
    indexLabels: true,
    priceBar: PriceBar(
      height: 25, color: Color(red: 0, green: 0, blue: 0, alpha: 0.3),
      textColor: Color(red: 1, green: 1, blue: 1), fontSize: 13),
    header: Bar(
      color: Color(red: 0.98, green: 0.98, blue: 0.99),
      textColor: Color(red: 0.15, green: 0.15, blue: 0.18)),
    footer: Bar(
      color: Color(red: 0.98, green: 0.98, blue: 0.99),
      textColor: Color(red: 0.15, green: 0.15, blue: 0.18)),
    section: Bar(
      color: Color(red: 0.98, green: 0.98, blue: 0.99),
      textColor: Color(red: 0.15, green: 0.15, blue: 0.18)),
    empty: Bar(
      color: Color(red: 0, green: 0, blue: 0, alpha: 0),
      textColor: Color(red: 0.45, green: 0.45, blue: 0.5)),
    title: Title(
      color: Color(red: 1, green: 1, blue: 1),
      textColor: Color(red: 0.15, green: 0.15, blue: 0.18), fontSize: 12),
    placeholder: Color(red: 0.86, green: 0.86, blue: 0.88),
    separator: Color(red: 0.75, green: 0.75, blue: 0.78),
    label: Bar(
      color: Color(red: 1, green: 1, blue: 1, alpha: 0.8),
      textColor: Color(red: 0.1, green: 0.1, blue: 0.12)))

  /// The `"dark": true` preset: iOS's dark system colours (#000 canvas, #1C1C1E bars and cards).
  public static let dark = Style(
    background: Color(hex: 0x000000),
    cornerRadius: 0,
    cellColors: .random,
    indexLabels: true,
    priceBar: PriceBar(
      height: 25, color: Color(red: 0, green: 0, blue: 0, alpha: 0.5),
      textColor: Color(red: 1, green: 1, blue: 1), fontSize: 13),
    header: Bar(color: Color(hex: 0x1C1C1E), textColor: Color(hex: 0xF2F2F7)),
    footer: Bar(color: Color(hex: 0x1C1C1E), textColor: Color(hex: 0xF2F2F7)),
    section: Bar(color: Color(hex: 0x1C1C1E), textColor: Color(hex: 0xF2F2F7)),
    empty: Bar(color: Color(red: 0, green: 0, blue: 0, alpha: 0), textColor: Color(hex: 0x8E8E93)),
    title: Title(color: Color(hex: 0x1C1C1E), textColor: Color(hex: 0xF2F2F7), fontSize: 12),
    placeholder: Color(hex: 0x2C2C2E),
    separator: Color(hex: 0x38383A),
    label: Bar(color: Color(red: 0, green: 0, blue: 0, alpha: 0.6), textColor: Color(hex: 0xF2F2F7)))
}

extension Color {
  /// A colour from 0xRRGGBB, opaque.
  public init(hex: UInt32) {
    self.init(
      red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
      blue: Double(hex & 0xFF) / 255)
  }

  /// A colour written `#RRGGBB` or `#RRGGBBAA` (hex digits in either case), or nil.
  public init?(hexString text: String) {
    let digits = Array(text.utf8)
    guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else {
      return nil
    }
    var bytes: [Double] = []
    var i = 1
    while i < digits.count {
      guard let high = Self.hexValue(digits[i]), let low = Self.hexValue(digits[i + 1]) else {
        return nil
      }
      bytes.append(Double(high * 16 + low) / 255)
      i += 2
    }
    self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 1)
  }

  /// The colour as `#rrggbb`, or `#rrggbbaa` when it is translucent: how files write colours.
  public var hexString: String {
    func byte(_ v: Double) -> String {
      let b = Int((min(1, max(0, v)) * 255).rounded())
      return (b < 16 ? "0" : "") + String(b, radix: 16)
    }
    return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
  }

  private static func hexValue(_ c: UInt8) -> Int? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(c - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(c - UInt8(ascii: "A")) + 10
    default: nil
    }
  }
}

/// Light or dark mode: which of a scene's colours are drawn, as iOS picks a dynamic colour's
/// variant by the trait collection's user interface style.
public enum Appearance: String, Hashable, Sendable, CaseIterable {
  case light, dark
}
