/// How a golden recorded on another font stack than this machine's was compared.
///
/// Another cairo, pixman or FreeType anti-aliases text differently: hundreds of pixels change
/// along glyph edges, more than a real regression (a price is 8 to 54 pixels), so no pixel
/// tolerance separates the two. When the golden's facts record the texts drawn, each text is
/// checked by its string and box instead, and every pixel outside the texts exactly (with the
/// golden's own tolerance and masks). Without recorded texts the pixels are compared as they are.
public struct CrossStackCheck: Hashable, Sendable {
  /// What differs between the stacks, one phrase each (`"cairo 1.16.0 → 1.18.4"`).
  public var stackChanges: [String]
  /// How many recorded texts were checked by content; nil when the pixels were compared as
  /// they are.
  public var textBoxes: Int?
  /// Why the pixels were compared as they are; nil when the texts were checked by content.
  public var fallbackReason: String?
  /// The tolerance the pixels outside the texts were held to.
  public var tolerance: DiffTolerance

  /// Creates a description of a cross-stack comparison.
  public init(
    stackChanges: [String], textBoxes: Int?, fallbackReason: String? = nil,
    tolerance: DiffTolerance = .exact
  ) {
    self.stackChanges = stackChanges
    self.textBoxes = textBoxes
    self.fallbackReason = fallbackReason
    self.tolerance = tolerance
  }

  /// True when the texts were checked by content rather than by pixels.
  ///
  /// - Complexity: O(1).
  public var checksTexts: Bool { textBoxes != nil }

  /// The one line: `font stack differs (cairo 1.16.0 → 1.18.4): 41 text boxes checked by
  /// content, pixels elsewhere exact`, or why the pixels were compared as they are.
  ///
  /// - Complexity: O(n) in the stack changes.
  public var summary: String {
    let head = "font stack differs (\(stackChanges.joined(separator: ", ")))"
    guard let textBoxes else {
      return head + ": compared pixel for pixel, as \(fallbackReason ?? "no texts were recorded")"
    }
    let boxes = textBoxes == 1 ? "1 text box" : "\(textBoxes) text boxes"
    let elsewhere =
      tolerance == .exact ? "exact" : "within \(tolerance.phrase)"
    return head + ": \(boxes) checked by content, pixels elsewhere \(elsewhere)"
  }

  /// Decides how to compare a frame whose golden was recorded on another stack: by its texts
  /// when both the recorded and the current facts have them, else by pixels, saying why.
  ///
  /// - Parameters:
  ///   - recorded: nil without a facts file; `.some(nil)` when it has no facts for this frame.
  ///   - otherFonts: Whether the font files differ by name, not only by build: another font is
  ///     a change to the drawing, which its texts' boxes would misreport as moved text.
  static func plan(
    stackChanges: [String], recorded: GoldenFacts??, current: GoldenFacts?,
    tolerance: DiffTolerance, otherFonts: Bool = false
  ) -> CrossStackCheck {
    func pixels(_ why: String) -> CrossStackCheck {
      CrossStackCheck(
        stackChanges: stackChanges, textBoxes: nil, fallbackReason: why, tolerance: tolerance)
    }
    if otherFonts { return pixels("other font files draw the text") }
    guard let current else { return pixels("the image was checked without its facts") }
    guard current.texts != nil else {
      return pixels("its texts were not noted when it was drawn")
    }
    guard let recorded else {
      return pixels(
        "no facts were recorded with this golden (re-record it to check text by content)")
    }
    guard let frame = recorded else {
      return pixels("the facts recorded with this golden have no entry for this frame")
    }
    guard let texts = frame.texts else {
      return pixels(
        "its facts were recorded before texts were (re-record it to check text by content)")
    }
    return CrossStackCheck(stackChanges: stackChanges, textBoxes: texts.count, tolerance: tolerance)
  }
}
