import WaterflowView

/// The fixed colours and sizes of the drawing, in one place so every output agrees.
enum Palette {
  static let background = Color(red: 0.95, green: 0.95, blue: 0.96)
  static let bar = Color(red: 0.98, green: 0.98, blue: 0.99)
  static let barText = Color(red: 0.15, green: 0.15, blue: 0.18)
  static let secondaryText = Color(red: 0.45, green: 0.45, blue: 0.5)
  static let placeholder = Color(red: 0.86, green: 0.86, blue: 0.88)
  static let recycled = Color(red: 0.78, green: 0.78, blue: 0.8)
  static let notYetShown = Color(red: 0.88, green: 0.88, blue: 0.9)
  static let viewport = Color(red: 0.9, green: 0.1, blue: 0.15)
  static let buffer = Color(red: 0.1, green: 0.45, blue: 0.95)
  static let guide = Color(red: 0.1, green: 0.45, blue: 0.95, alpha: 0.55)

  /// The price bar: 25 pt high, black at 30 % opacity, as in the shop demo.
  static let priceBarHeight = 25.0
  static let priceBarAlpha = 0.3
  static let priceFontSize = 13.0
  static let labelFontSize = 12.0
  static let titleFontSize = 15.0
}
