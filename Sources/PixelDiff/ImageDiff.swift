public import PNGCodec

/// A pixel-level image comparison that reproduces pixelmatch 7.2.0, plus masks, tolerances and a
/// fast path for identical images.
///
/// Counts and diff images match pixelmatch 7.2.0 (mapbox/pixelmatch, YIQ colour distance,
/// Vyšniauskas anti-aliasing detection, checkerboard compositing of semi-transparent pixels) byte
/// for byte. Images of different sizes never match; the result says so instead of trapping.
///
/// ```swift
/// let expected = try RGBAImage(contentsOfPNGFile: "1a.png")
/// let actual = try RGBAImage(contentsOfPNGFile: "1b.png")
/// let result = ImageDiff.compare(expected, actual, options: .init(threshold: 0.1))
/// print(result, result.isWithin(.pixels(100)))
/// ```
/// ```
/// 106 of 131072 pixels differ (0.081%); 61 anti-aliased pixels ignored false
/// ```
public enum ImageDiff {
  /// Compares two images the way pixelmatch 7.2.0 does, skipping masked pixels.
  ///
  /// The pass is O(width × height). When the two buffers are bitwise identical the comparison
  /// stops after one `memcmp`, and a diff image is made only if `diffImage` is `.always`.
  ///
  /// - Parameters:
  ///   - expected: The reference image (pixelmatch's `img1`); its faded luma is the diff image's
  ///     background.
  ///   - actual: The image under test (pixelmatch's `img2`).
  ///   - options: Threshold, colours and masks; the defaults are pixelmatch's.
  ///   - diffImage: Whether to draw the diff image (pixelmatch's `output`).
  /// - Returns: The counts, the verdict inputs and, if requested, the diff image.
  /// - Complexity: O(*n*) for *n* pixels; O(1) extra memory unless a diff image or masks are used.
  public static func compare(
    _ expected: RGBAImage, _ actual: RGBAImage, options: Options = .init(),
    diffImage: DiffImagePolicy = .always
  ) -> DiffResult {
    let expectedSize = PixelSize(width: expected.width, height: expected.height)
    let actualSize = PixelSize(width: actual.width, height: actual.height)
    guard expectedSize == actualSize else {
      return DiffResult(sizesDifferExpected: expectedSize, actual: actualSize)
    }
    let total = expected.width * expected.height
    let identical = expected == actual
    let maskMap = MaskMap(
      options.masks, width: expected.width, height: expected.height)
    let compared = total - maskMap.maskedCount

    if identical {
      var image: RGBAImage? = nil
      if diffImage == .always {
        image = identicalDiffImage(expected, options: options, mask: maskMap)
      }
      return DiffResult(
        mismatched: 0, antialiased: 0, total: compared, identical: true,
        size: expectedSize,
        diffImage: image)
    }

    let wantsImage = diffImage != .never
    // Every byte is drawn, so the buffer is not cleared first.
    var output =
      wantsImage
      ? [UInt8](unsafeUninitializedCapacity: total * 4) { _, initialized in
        initialized = total * 4
      } : []
    let counts = expected.pixels.withUnsafeBytes { a in
      actual.pixels.withUnsafeBytes { b in
        output.withUnsafeMutableBytes { out in
          maskMap.withUnsafeFlags { mask in
            Pixelmatch(
              a: a.baseAddress!, b: b.baseAddress!, width: expected.width,
              height: expected.height, options: options
            ).run(output: wantsImage ? .buffer(out.baseAddress!) : .none, mask: mask)
          }
        }
      }
    }
    return DiffResult(
      mismatched: counts.mismatched, antialiased: counts.antialiased,
      total: compared,
      identical: false, size: expectedSize,
      diffImage: wantsImage
        ? RGBAImage(width: expected.width, height: expected.height, pixels: output) : nil)
  }

  /// Compares like `compare(_:_:options:diffImage:)`, drawing the diff image over `expected`'s
  /// own pixels instead of a third buffer of the same size.
  ///
  /// - Complexity: O(*n*) for *n* pixels; O(width) extra memory unless masks are used.
  static func compare(
    consuming expected: consuming RGBAImage, _ actual: RGBAImage, options: Options,
    diffImage: DiffImagePolicy
  ) -> DiffResult {
    let size = PixelSize(width: expected.width, height: expected.height)
    guard diffImage != .never, !expected.pixels.isEmpty,
      size == PixelSize(width: actual.width, height: actual.height)
    else {
      return compare(expected, actual, options: options, diffImage: diffImage)
    }
    if expected == actual {
      return compare(expected, actual, options: options, diffImage: diffImage)
    }
    let maskMap = MaskMap(options.masks, width: size.width, height: size.height)
    var image = expected
    let counts = image.pixels.withUnsafeMutableBytes { a in
      actual.pixels.withUnsafeBytes { b in
        maskMap.withUnsafeFlags { mask in
          Pixelmatch(
            a: UnsafeRawPointer(a.baseAddress!), b: b.baseAddress!, width: size.width,
            height: size.height, options: options
          ).run(output: .overExpected, mask: mask)
        }
      }
    }
    return DiffResult(
      mismatched: counts.mismatched, antialiased: counts.antialiased,
      total: size.width * size.height - maskMap.maskedCount, identical: false, size: size,
      diffImage: image)
  }

  /// Decodes two PNG files and compares them; the entry point `waterflow diff` and `waterflow
  /// bench` use.
  ///
  /// Decoding ignores gamma and colour profiles, as pixelmatch's own test harness (pngjs) does.
  /// The two files are decoded at once on two threads, and the diff image is drawn over the
  /// expected image's pixels, so the peak memory is that of the two decoded images.
  ///
  /// - Parameters:
  ///   - expectedPath: The reference PNG.
  ///   - actualPath: The PNG under test.
  ///   - options: As for `compare(_:_:options:diffImage:)`.
  ///   - diffImage: As for `compare(_:_:options:diffImage:)`.
  /// - Returns: The comparison of the decoded images.
  /// - Throws: `PNGDecodingError` naming the file that could not be read or decoded.
  public static func compareFiles(
    _ expectedPath: String, _ actualPath: String, options: Options = .init(),
    diffImage: DiffImagePolicy = .always
  ) throws(PNGDecodingError) -> DiffResult {
    let (expected, actual) = try decodeBoth(expectedPath, actualPath)
    return compare(consuming: expected, actual, options: options, diffImage: diffImage)
  }

  /// Decodes two PNG files, the second on another thread; a failure names the expected file
  /// first when both fail.
  package static func decodeBoth(_ expectedPath: String, _ actualPath: String)
    throws(PNGDecodingError) -> (RGBAImage, RGBAImage)
  {
    let actual = decodeAhead(actualPath)
    let expected = Result { () throws(PNGDecodingError) in
      try RGBAImage(contentsOfPNGFile: expectedPath)
    }
    let decoded = actual()
    return (try expected.get(), try decoded.get())
  }

  /// Starts decoding a PNG file on another thread; the function it returns waits for the result.
  ///
  /// Call the function exactly once: it also ends the thread.
  package static func decodeAhead(_ path: String) -> () -> Result<RGBAImage, PNGDecodingError> {
    final class Slot: @unchecked Sendable { var result: Result<RGBAImage, PNGDecodingError>? }
    let slot = Slot()
    let worker = WorkerThread {
      slot.result = Result { () throws(PNGDecodingError) in try RGBAImage(contentsOfPNGFile: path) }
    }
    return {
      worker.join()
      return slot.result!
    }
  }

  /// The diff image for bitwise-identical inputs: everything is background, except masks.
  private static func identicalDiffImage(
    _ expected: RGBAImage, options: Options, mask: MaskMap
  ) -> RGBAImage {
    var output = [UInt8](repeating: 0, count: expected.pixels.count)
    expected.pixels.withUnsafeBytes { a in
      output.withUnsafeMutableBytes { out in
        mask.withUnsafeFlags { flags in
          Pixelmatch(
            a: a.baseAddress!, b: a.baseAddress!, width: expected.width,
            height: expected.height,
            options: options
          ).drawBackground(output: out.baseAddress!, mask: flags)
        }
      }
    }
    return RGBAImage(
      width: expected.width, height: expected.height, pixels: output)
  }
}

/// When `ImageDiff.compare` draws a diff image.
public enum DiffImagePolicy: Hashable, Sendable {
  /// Never draw one; the cheapest mode (pixelmatch with `output = null`).
  case never
  /// Always draw one, even for identical images (pixelmatch with an output buffer).
  case always
  /// Draw one unless the buffers are bitwise identical, so a passing check costs one `memcmp`.
  case unlessIdentical
}
