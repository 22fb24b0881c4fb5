public import PNGCodec

/// The three-panel picture of a failure: expected | actual | diff, as resvg's test suite writes it.
public enum DiffPanels {
  /// The gap between panels, in pixels, filled with mid grey.
  package static let gap = 4

  /// Places the images side by side on a grey background, top-aligned.
  ///
  /// - Parameters:
  ///   - expected: The golden.
  ///   - actual: The rendered image.
  ///   - diff: The pixelmatch diff image, or nil (sizes differ): then the panel is left grey.
  /// - Returns: One image as wide as the three panels and as tall as the tallest.
  public static func compose(
    expected: RGBAImage, actual: RGBAImage, diff: RGBAImage?
  ) -> RGBAImage {
    let panels: [RGBAImage?] = [expected, actual, diff]
    let widths = [expected.width, actual.width, diff?.width ?? expected.width]
    let width = widths.reduce(0, +) + 2 * gap
    let height = max(expected.height, actual.height)
    var out = RGBAImage(
      width: width, height: height, filledWith: (128, 128, 128, 255))
    var x0 = 0
    for (panel, w) in zip(panels, widths) {
      if let panel {
        for y in 0..<panel.height {
          let src = y * panel.width * 4
          let dst = (y * width + x0) * 4
          out.pixels.replaceSubrange(
            dst..<dst + panel.width * 4,
            with: panel.pixels[src..<src + panel.width * 4])
        }
      }
      x0 += w + gap
    }
    return out
  }
}
