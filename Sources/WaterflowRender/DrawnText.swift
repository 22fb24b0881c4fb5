public import WaterflowView

/// A piece of text the renderer drew, and where: what golden checks compare instead of the
/// text's anti-aliased pixels when the font stack differs from the one a golden was recorded on.
public struct DrawnText: Hashable, Sendable {
  /// The text as given (before any "…" tail was added to fit it).
  public var text: String
  /// The box it was laid out in, in canvas points (origin at the canvas's top-left): the area
  /// its glyphs may cover, rotated text included.
  public var box: Rect

  public init(text: String, box: Rect) {
    self.text = text
    self.box = box
  }
}
