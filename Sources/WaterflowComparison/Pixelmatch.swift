/// The pixelmatch 7.2.0 kernel over raw RGBA buffers of equal size.
///
/// Every formula, constant and evaluation order follows pixelmatch 7.2.0's index.js; the comments
/// mark the places where a "natural" variant changes the counts or the diff image bytes (its test
/// fixtures, in Tests/WaterflowGoldenTests/Fixtures/pixelmatch, are matched byte for byte). All arithmetic is in `Double`, as in JavaScript.
///
/// The algorithm is pixelmatch's (github.com/mapbox/pixelmatch, ISC licence, © 2019 Mapbox),
/// re-implemented in Swift.
struct Pixelmatch {
  let a: UnsafeRawPointer
  let b: UnsafeRawPointer
  let width: Int
  let height: Int
  let options: ImageDiff.Options

  init(
    a: UnsafeRawPointer, b: UnsafeRawPointer, width: Int, height: Int,
    options: ImageDiff.Options
  ) {
    self.a = a
    self.b = b
    self.width = width
    self.height = height
    self.options = options
  }

  /// Runs the comparison; draws into `output` (width × height × 4 zeroed bytes) when non-nil.
  func run(output: UnsafeMutableRawPointer?, mask: UnsafePointer<UInt8>?) -> (
    mismatched: Int, antialiased: Int
  ) {
    let maxDelta = 35215 * options.threshold * options.threshold
    let checkerboard = options.checkerboard
    let includeAA = options.includeAA
    let drawsBackground = !options.diffMask
    var gray = GrayCache(alpha: options.alpha)
    let aaColor = options.aaColor
    let diffColor = options.diffColor
    let diffColorAlt = options.diffColorAlt ?? options.diffColor
    let maskColor = options.maskColor
    let a8 = a.assumingMemoryBound(to: UInt8.self)
    let b8 = b.assumingMemoryBound(to: UInt8.self)
    var mismatched = 0
    var excusedCount = 0

    var i = 0
    for y in 0..<height {
      for x in 0..<width {
        defer { i += 1 }
        let pos = i &* 4
        if let mask, mask[i] != 0 {
          if let output {
            if let maskColor {
              drawPixel(output, pos, maskColor)
            } else if drawsBackground {
              gray.draw(a, pos, output)
            }
          }
          continue
        }
        // Equal words short-cut the colour maths; pixelmatch does the same with Uint32Array views.
        let wordA = a.loadUnaligned(fromByteOffset: pos, as: UInt32.self)
        let wordB = b.loadUnaligned(fromByteOffset: pos, as: UInt32.self)
        let delta =
          wordA == wordB
          ? 0 : colorDelta(a8, b8, pos, pos, checkerboard: checkerboard)
        if abs(delta) > maxDelta {
          let excused =
            !includeAA
            && (antialiased(a8, x, y, a, b) || antialiased(b8, x, y, b, a))
          if excused {
            excusedCount += 1
            if let output, drawsBackground { drawPixel(output, pos, aaColor) }
          } else {
            mismatched += 1
            if let output {
              drawPixel(output, pos, delta < 0 ? diffColorAlt : diffColor)
            }
          }
        } else if let output, drawsBackground {
          gray.draw(a, pos, output)
        }
      }
    }
    return (mismatched, excusedCount)
  }

  /// Draws pixelmatch's output for identical inputs: the faded background (nothing with diffMask).
  func drawBackground(
    output: UnsafeMutableRawPointer, mask: UnsafePointer<UInt8>?
  ) {
    var gray = GrayCache(alpha: options.alpha)
    for i in 0..<(width * height) {
      if let mask, mask[i] != 0, let maskColor = options.maskColor {
        drawPixel(output, i * 4, maskColor)
      } else if !options.diffMask {
        gray.draw(a, i * 4, output)
      }
    }
  }

  // MARK: - Anti-aliasing (Vyšniauskas 2009)

  /// Whether the pixel at (x1, y1) of `image` looks like anti-aliasing.
  ///
  /// `image32` is the same image as `image`, `other32` the other input; siblings are checked in
  /// both, whichever is the subject.
  private func antialiased(
    _ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int,
    _ image32: UnsafeRawPointer,
    _ other32: UnsafeRawPointer
  ) -> Bool {
    let x0 = max(x1 - 1, 0)
    let y0 = max(y1 - 1, 0)
    let x2 = min(x1 + 1, width - 1)
    let y2 = min(y1 + 1, height - 1)
    let pos = (y1 * width + x1) * 4
    // The border bonus: without it 4 fixtures change.
    var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
    var minDelta = 0.0
    var maxDelta = 0.0
    var minX = 0
    var minY = 0
    var maxX = 0
    var maxY = 0
    // x outer, y inner: the order decides ties, and visiting rows first changes 5 fixtures.
    for x in x0...x2 {
      for y in y0...y2 {
        if x == x1 && y == y1 { continue }
        let delta = brightnessDelta(image, pos, (y * width + x) * 4)
        if delta == 0 {
          zeroes += 1
          if zeroes > 2 { return false }
        } else if delta < minDelta {
          minDelta = delta
          minX = x
          minY = y
        } else if delta > maxDelta {
          maxDelta = delta
          maxX = x
          maxY = y
        }
      }
    }
    if minDelta == 0 || maxDelta == 0 { return false }
    return
      (hasManySiblings(image32, minX, minY)
      && hasManySiblings(other32, minX, minY))
      || (hasManySiblings(image32, maxX, maxY)
        && hasManySiblings(other32, maxX, maxY))
  }

  /// Whether at least 3 of the pixel's clipped 3×3 neighbours (with the border bonus) are
  /// bitwise identical to it.
  private func hasManySiblings(
    _ image32: UnsafeRawPointer, _ x1: Int, _ y1: Int
  ) -> Bool {
    let x0 = max(x1 - 1, 0)
    let y0 = max(y1 - 1, 0)
    let x2 = min(x1 + 1, width - 1)
    let y2 = min(y1 + 1, height - 1)
    let value = image32.loadUnaligned(
      fromByteOffset: (y1 * width + x1) * 4, as: UInt32.self)
    var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
    for x in x0...x2 {
      for y in y0...y2 {
        if x == x1 && y == y1 { continue }
        if image32.loadUnaligned(
          fromByteOffset: (y * width + x) * 4, as: UInt32.self) == value
        {
          zeroes += 1
        }
        if zeroes > 2 { return true }
      }
    }
    return false
  }

  // MARK: - Colour

  /// The brightness (Y) difference of two pixels of one image, pixelmatch's `colorDelta(…, yOnly)`.
  @inline(__always)
  private func brightnessDelta(
    _ image: UnsafePointer<UInt8>, _ k: Int, _ m: Int
  ) -> Double {
    let d = channelDeltas(
      image, image, k, m, checkerboard: options.checkerboard)
    guard let d else { return 0 }
    return d.r * 0.29889531 + d.g * 0.58662247 + d.b * 0.11448223
  }
}

/// Per-channel differences of pixel `k` of `p1` and pixel `m` of `p2`, composited when either is
/// not opaque; nil when all four bytes are equal.
@inline(__always)
private func channelDeltas(
  _ p1: UnsafePointer<UInt8>, _ p2: UnsafePointer<UInt8>, _ k: Int, _ m: Int,
  checkerboard: Bool
) -> (r: Double, g: Double, b: Double)? {
  let r1 = Int(p1[k])
  let g1 = Int(p1[k + 1])
  let b1 = Int(p1[k + 2])
  let a1 = Int(p1[k + 3])
  let r2 = Int(p2[m])
  let g2 = Int(p2[m + 1])
  let b2 = Int(p2[m + 2])
  let a2 = Int(p2[m + 3])
  let dr = r1 - r2
  let dg = g1 - g2
  let db = b1 - b2
  let da = a1 - a2
  if dr == 0 && dg == 0 && db == 0 && da == 0 { return nil }
  if a1 < 255 || a2 < 255 {
    let (rb, gb, bb) = background(k, checkerboard: checkerboard)
    // Exact in integers up to the division, which JavaScript does in floating point.
    return (
      Double(r1 * a1 - r2 * a2 - rb * da) / 255,
      Double(g1 * a1 - g2 * a2 - gb * da) / 255,
      Double(b1 * a1 - b2 * a2 - bb * da) / 255
    )
  }
  return (Double(dr), Double(dg), Double(db))
}

/// The colour semi-transparent pixels are composited over, chosen by the *byte offset* `k`.
///
/// pixelmatch 7.2.0 computes `48 + 159 × (k mod 2)` for red; k is always a multiple of 4, so red
/// is always 48. Using the pixel index instead of the byte offset turns 5diff's 6 into 3.
@inline(__always)
private func background(_ k: Int, checkerboard: Bool) -> (Int, Int, Int) {
  guard checkerboard else { return (255, 255, 255) }
  // `(k / φ) | 0` in JavaScript: truncate, then wrap to Int32; `%` keeps the sign, as in JS.
  let g = Int(Int32(truncatingIfNeeded: Int(Double(k) / 1.618033988749895)) % 2)
  let b = Int(Int32(truncatingIfNeeded: Int(Double(k) / 2.618033988749895)) % 2)
  return (48 + 159 * (k % 2), 48 + 159 * g, 48 + 159 * b)
}

/// pixelmatch's signed squared YIQ distance: negative when `p2` is darker than `p1`.
@inline(__always)
private func colorDelta(
  _ p1: UnsafePointer<UInt8>, _ p2: UnsafePointer<UInt8>, _ k: Int, _ m: Int,
  checkerboard: Bool
) -> Double {
  guard let d = channelDeltas(p1, p2, k, m, checkerboard: checkerboard) else {
    return 0
  }
  let y = d.r * 0.29889531 + d.g * 0.58662247 + d.b * 0.11448223
  let i = d.r * 0.59597799 - d.g * 0.27417610 - d.b * 0.32180189
  let q = d.r * 0.21147017 - d.g * 0.52261711 + d.b * 0.31114694
  let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
  return y > 0 ? -delta : delta
}

// MARK: - Drawing

@inline(__always)
private func drawPixel(
  _ output: UnsafeMutableRawPointer, _ pos: Int, _ color: DiffColor
) {
  output.storeBytes(of: color.red, toByteOffset: pos, as: UInt8.self)
  output.storeBytes(of: color.green, toByteOffset: pos + 1, as: UInt8.self)
  output.storeBytes(of: color.blue, toByteOffset: pos + 2, as: UInt8.self)
  output.storeBytes(of: 255, toByteOffset: pos + 3, as: UInt8.self)
}

/// Draws the expected pixel's luma faded towards white by `alpha`, pixelmatch's background.
///
/// Screenshots repeat colours in long runs, so the last pixel's grey is kept: it saves the
/// floating-point work for most pixels without changing any byte.
private struct GrayCache {
  let alpha: Double
  var word: UInt32 = 0
  var byte: UInt8

  init(alpha: Double) {
    self.alpha = alpha
    byte = grayByte(0, 0, 0, 0, alpha: alpha)
  }

  @inline(__always)
  mutating func draw(
    _ image: UnsafeRawPointer, _ pos: Int, _ output: UnsafeMutableRawPointer
  ) {
    let pixel = image.loadUnaligned(fromByteOffset: pos, as: UInt32.self)
    if pixel != word {
      let bytes = image.loadUnaligned(
        fromByteOffset: pos, as: SIMD4<UInt8>.self)
      word = pixel
      byte = grayByte(bytes[0], bytes[1], bytes[2], bytes[3], alpha: alpha)
    }
    output.storeBytes(
      of: SIMD4<UInt8>(byte, byte, byte, 255), toByteOffset: pos,
      as: SIMD4<UInt8>.self)
  }
}

@inline(__always)
private func grayByte(
  _ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8, alpha: Double
) -> UInt8 {
  // Same operation order as upstream, so the doubles round identically.
  let luma =
    Double(r) * 0.29889531 + Double(g) * 0.58662247 + Double(b) * 0.11448223
  return javaScriptUInt8(255 + (luma - 255) * alpha * Double(a) / 255)
}

/// A Double stored into a JavaScript `Uint8Array`: truncated toward zero, then taken modulo 256.
///
/// Rounding instead of truncating changes 10 of the 12 fixture diff images.
@inline(__always)
private func javaScriptUInt8(_ value: Double) -> UInt8 {
  if value >= 0 && value < 256 { return UInt8(value) }
  guard value.isFinite else { return 0 }
  var wrapped = value.rounded(.towardZero).truncatingRemainder(dividingBy: 256)
  if wrapped < 0 { wrapped += 256 }
  return UInt8(wrapped)
}
