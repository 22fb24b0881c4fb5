package import PNGCodec

/// One picture compared with its golden: the pixels, what the facts say changed, and on another
/// font stack how its text was checked. Golden folders and the snapshot strategy both decide
/// pass or fail with it, so a golden means the same in every test API.
package struct GoldenComparison {
  /// The pixel comparison (outside the texts, on another stack whose texts are checked by content).
  package var diff: DiffResult
  /// What the facts say changed; nil without both sets of facts, or when the pixels are identical.
  package var changes: GoldenChanges?
  /// How a golden from another stack was compared; nil on the recording stack.
  package var crossStack: CrossStackCheck?
  /// The tolerance the pixels were held to.
  package var tolerance: DiffTolerance

  /// Compares `actual` with `expected`.
  ///
  /// - Parameters:
  ///   - recorded: The golden's facts for this frame: nil without any, `.some(nil)` when its
  ///     facts file has no entry for the frame.
  ///   - current: The facts `actual` was drawn from, with image paths as `recorded` has them.
  ///   - stackChanges: What differs from the stack the golden was recorded with; empty for none.
  ///   - otherFonts: Whether the fonts differ by name, not only by build.
  package init(
    expected: RGBAImage, actual: RGBAImage, recorded: GoldenFacts??, current: GoldenFacts?,
    stackChanges: [String], otherFonts: Bool, options: ImageDiff.Options,
    tolerance: DiffTolerance
  ) {
    self.tolerance = tolerance
    // On another font stack, text is checked by its recorded strings and boxes, and its
    // pixels are left out: their anti-aliasing is the stack's, not the picture's.
    if !stackChanges.isEmpty {
      crossStack = CrossStackCheck.plan(
        stackChanges: stackChanges, recorded: recorded, current: current, tolerance: tolerance,
        otherFonts: otherFonts)
    }
    let textTolerance = crossStack?.checksTexts == true ? TextComparison.boxTolerance : nil
    var options = options
    if textTolerance != nil, let current, let recordedTexts = recorded??.texts {
      options.masks += TextBoxMasks.masks(
        recordedTexts + (current.texts ?? []), scale: current.pixelScale)
    }
    diff = ImageDiff.compare(expected, actual, options: options, diffImage: .unlessIdentical)
    // What the facts say changed, when both sets exist. A change of layout, content or reuse
    // fails whatever the pixel tolerance: a ¥129 → ¥139 price is 8 pixels, inside most
    // tolerances, and a tolerance is meant for rasterisation, not for regressions. With the
    // texts' pixels masked, the facts are all that see a price: `identical` is of the whole
    // picture, masks or not, so they are compared whenever anything differs.
    if !diff.identical, let current, let recorded, let recorded {
      changes = GoldenChanges(recorded: recorded, current: current, textTolerance: textTolerance)
    }
  }

  /// How far a text's box may move when texts are checked by content; nil when they are not.
  package var textTolerance: Double? {
    crossStack?.checksTexts == true ? TextComparison.boxTolerance : nil
  }

  /// True when the facts found a change of layout, content or reuse.
  package var factsFail: Bool { changes.map { $0.verdict != .drawing } ?? false }

  /// True when the picture passes: its pixels within the tolerance, and no change in its facts.
  package var passes: Bool { diff.isWithin(tolerance) && !factsFail }
}
