/// Text as another cairo, pixman or FreeType would draw it: every pixel of each rectangle blended
/// 40% with its right neighbour, a 0.4-pixel shift of the glyphs. Flat areas stay as they were,
/// so only the text's pixels change, as on another font stack.
///
/// - Parameters:
///   - pixels: RGBA pixels, 4 bytes each, row after row.
///   - width: The image's width in pixels.
///   - rects: The text boxes in pixels (x, y, width, height); parts outside the image are skipped.
public func blendTextAsAnotherStackWould(
  _ pixels: inout [UInt8], width: Int, rects: [(x: Int, y: Int, width: Int, height: Int)]
) {
  let height = pixels.count / (4 * max(1, width))
  let original = pixels
  for r in rects {
    // Boxes of cells cut by the viewport's edge reach outside the picture.
    let (x0, x1) = (max(0, r.x), min(width - 1, r.x + r.width))
    let (y0, y1) = (max(0, r.y), min(height, r.y + r.height))
    guard x0 < x1, y0 < y1 else { continue }
    for y in y0..<y1 {
      for x in x0..<x1 {
        for c in 0..<3 {
          let i = (y * width + x) * 4 + c
          let blended = 0.6 * Double(original[i]) + 0.4 * Double(original[i + 4])
          pixels[i] = UInt8(blended.rounded())
        }
      }
    }
  }
}
