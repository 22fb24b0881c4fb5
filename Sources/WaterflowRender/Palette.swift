import WaterflowView

import WaterflowStyle

/// The colours and sizes of the drawing that no style changes (the debug overlay and the
/// overview's explanation), in one place so every output agrees; the rest is ``Style``.
enum Palette {
  static let background = Style.standard.background
  static let placeholder = Style.standard.placeholder
  static let recycled = Color(red: 0.78, green: 0.78, blue: 0.8)
  static let notYetShown = Color(red: 0.88, green: 0.88, blue: 0.9)
  static let viewport = Color(red: 0.9, green: 0.1, blue: 0.15)
  static let buffer = Color(red: 0.1, green: 0.45, blue: 0.95)
  static let guide = Color(red: 0.1, green: 0.45, blue: 0.95, alpha: 0.55)

  static let labelFontSize = 12.0
  static let titleFontSize = 15.0
}
