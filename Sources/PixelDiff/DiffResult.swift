internal import WaterflowJSON
public import PNGCodec

/// The outcome of `ImageDiff.compare`: counts, sizes and, if requested, the diff image.
///
/// A mismatch is a result, not an error. Ask `isWithin(_:)` for a pass/fail verdict.
public struct DiffResult: Hashable, Sendable, CustomStringConvertible {
  /// Differences that count: over the threshold, not anti-aliasing, not masked.
  ///
  /// This is pixelmatch's return value. When the sizes differ it is `total`, so that a caller
  /// who only checks `mismatched == 0` still sees a failure.
  public let mismatched: Int
  /// Over-threshold pixels that were excused as anti-aliasing (drawn in `aaColor`).
  public let antialiased: Int
  /// The pixels compared: width × height minus masked pixels; for different sizes, the larger
  /// image's pixel count.
  public let total: Int
  /// True when the two RGBA buffers are bitwise identical (then `mismatched` is 0).
  public let identical: Bool
  /// True when the images have different sizes; such images never match.
  public let sizesDiffer: Bool
  /// The size of the expected image.
  public let expectedSize: PixelSize
  /// The size of the actual image.
  public let actualSize: PixelSize
  /// The pixelmatch diff image, when one was requested and the sizes agree.
  public let diffImage: RGBAImage?

  /// The share of compared pixels that differ, from 0 to 1; 1 when the sizes differ.
  ///
  /// - Complexity: O(1).
  public var ratio: Double {
    if sizesDiffer { return 1 }
    return total == 0 ? 0 : Double(mismatched) / Double(total)
  }

  /// Says whether the difference is small enough to pass; different sizes never pass.
  ///
  /// - Parameter tolerance: The largest acceptable count and ratio of differing pixels.
  /// - Returns: True when the sizes agree and both limits of `tolerance` hold.
  /// - Complexity: O(1).
  public func isWithin(_ tolerance: DiffTolerance) -> Bool {
    guard !sizesDiffer else { return false }
    return mismatched <= tolerance.maxMismatchedPixels
      && ratio <= tolerance.maxMismatchedRatio
  }

  /// One line for logs, for example `"143 of 131072 pixels differ (0.109%)"`.
  public var description: String {
    if sizesDiffer {
      return "Sizes differ: expected \(expectedSize), actual \(actualSize)"
    }
    if identical { return "Identical (\(expectedSize))" }
    let percent = (ratio * 100_000).rounded() / 1000
    var text = "\(mismatched) of \(total) pixels differ (\(percent)%)"
    if antialiased > 0 {
      text += "; \(antialiased) anti-aliased pixels ignored"
    }
    return text
  }

  init(
    mismatched: Int, antialiased: Int, total: Int, identical: Bool,
    size: PixelSize,
    diffImage: RGBAImage?
  ) {
    self.mismatched = mismatched
    self.antialiased = antialiased
    self.total = total
    self.identical = identical
    self.sizesDiffer = false
    self.expectedSize = size
    self.actualSize = size
    self.diffImage = diffImage
  }

  init(sizesDifferExpected expected: PixelSize, actual: PixelSize) {
    let larger = max(
      expected.width * expected.height, actual.width * actual.height)
    self.mismatched = larger
    self.antialiased = 0
    self.total = larger
    self.identical = false
    self.sizesDiffer = true
    self.expectedSize = expected
    self.actualSize = actual
    self.diffImage = nil
  }
}

/// How many differing pixels a comparison may have and still pass.
///
/// Both limits apply: a result passes when its count is at most `maxMismatchedPixels` and its
/// ratio at most `maxMismatchedRatio`.
///
/// ```swift
/// result.isWithin(.exact)                    // no counted differences
/// result.isWithin(.pixels(20))               // at most 20
/// result.isWithin(.ratio(0.001))             // at most 0.1 % of compared pixels
/// ```
public struct DiffTolerance: Hashable, Sendable {
  /// The largest acceptable `DiffResult.mismatched`.
  public var maxMismatchedPixels: Int
  /// The largest acceptable `DiffResult.ratio`, from 0 to 1.
  public var maxMismatchedRatio: Double

  /// Creates a tolerance; a limit left out does not constrain.
  public init(maxMismatchedPixels: Int = .max, maxMismatchedRatio: Double = 1) {
    precondition(
      maxMismatchedPixels >= 0, "maxMismatchedPixels must not be negative")
    precondition(
      maxMismatchedRatio >= 0, "maxMismatchedRatio must not be negative")
    self.maxMismatchedPixels = maxMismatchedPixels
    self.maxMismatchedRatio = maxMismatchedRatio
  }

  /// No counted differences at all (anti-aliasing and masked pixels are still excused).
  public static let exact = DiffTolerance(maxMismatchedPixels: 0)

  /// At most `count` differing pixels.
  public static func pixels(_ count: Int) -> DiffTolerance {
    DiffTolerance(maxMismatchedPixels: count)
  }

  /// At most `fraction` (0 to 1) of the compared pixels differ.
  public static func ratio(_ fraction: Double) -> DiffTolerance {
    DiffTolerance(maxMismatchedRatio: fraction)
  }
}

extension DiffTolerance {
  /// "0 pixels", "20 pixels", "0.1%", "20 pixels and 0.1%", or "any number".
  package var phrase: String {
    var parts: [String] = []
    if maxMismatchedPixels != .max { parts.append("\(maxMismatchedPixels) pixels") }
    if maxMismatchedRatio < 1 { parts.append(DiffTolerance.percent(maxMismatchedRatio)) }
    return parts.isEmpty ? "any number" : parts.joined(separator: " and ")
  }

  /// "0.085%": three significant decimals of a ratio as a percentage.
  package static func percent(_ ratio: Double) -> String {
    ((ratio * 100_000).rounded() / 1000).jsonText + "%"
  }
}
