/// One flag byte per pixel for `ImageDiff.Options.masks`, built only when there are masks.
struct MaskMap {
  private var flags: [UInt8]
  /// The number of distinct pixels inside at least one mask.
  private(set) var maskedCount = 0

  init(_ rects: [PixelRect], width: Int, height: Int) {
    flags = []
    guard !rects.isEmpty else { return }
    flags = [UInt8](repeating: 0, count: width * height)
    for rect in rects {
      // Clip so that masks partly or wholly outside the image are harmless.
      let x0 = max(0, rect.x)
      let y0 = max(0, rect.y)
      let x1 = min(
        width, rect.x.addingReportingOverflow(max(0, rect.width)).partialValue)
      let y1 = min(
        height, rect.y.addingReportingOverflow(max(0, rect.height)).partialValue
      )
      guard x0 < x1, y0 < y1 else { continue }
      for y in y0..<y1 {
        for x in x0..<x1 where flags[y * width + x] == 0 {
          flags[y * width + x] = 1
          maskedCount += 1
        }
      }
    }
  }

  /// Calls `body` with the flags, or with nil when nothing is masked.
  func withUnsafeFlags<R>(_ body: (UnsafePointer<UInt8>?) -> R) -> R {
    if flags.isEmpty { return body(nil) }
    return flags.withUnsafeBufferPointer { body($0.baseAddress!) }
  }
}
