public import WaterflowView
public import WaterflowRender

/// The pixels that text may colour: what a golden recorded on another font stack leaves out of
/// its exact pixel comparison, since anti-aliasing there is the stack's, not the picture's.
public enum TextBoxMasks {
  /// Device pixels added around each text box.
  ///
  /// Measured on every scene in `Assets/Scenes` (styled, debug, headers, titles) at scales 1, 2
  /// and 3, Debian 12's cairo 1.16.0, pixman 0.42.2, FreeType 2.12.1 against Debian 13's cairo
  /// 1.18.4, pixman 0.44.0, FreeType 2.13.3: the pixels that differ outside the boxes rounded
  /// outwards are the edge pixels of glyphs that overhang their ink box by a fraction of a
  /// pixel, all within 1 pixel; this keeps 1 more for a margin.
  public static let growth = 2

  /// Masks for every text box of both lists, in pixels at `scale`.
  ///
  /// - Complexity: O(n) in the boxes.
  public static func masks(
    _ boxes: [DrawnText], scale: Double, growth: Int = TextBoxMasks.growth
  ) -> [PixelRect] {
    boxes.map { PixelRect(textBox: $0.box, scale: scale, growth: growth) }
  }
}

extension PixelRect {
  /// The pixels a text box in canvas points covers at `scale`, rounded outwards and grown by
  /// `growth` pixels on every side for the anti-aliased fringe.
  public init(textBox box: Rect, scale: Double, growth: Int = TextBoxMasks.growth) {
    // Clamped, so that a damaged facts file cannot trap the conversion.
    func pixel(_ v: Double, _ rule: FloatingPointRoundingRule) -> Int {
      let p = (v * scale).rounded(rule)
      return p.isNaN ? 0 : Int(min(1e9, max(-1e9, p)))
    }
    let x0 = pixel(box.minX, .down) - growth
    let y0 = pixel(box.minY, .down) - growth
    let x1 = pixel(box.maxX, .up) + growth
    let y1 = pixel(box.maxY, .up) + growth
    self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
