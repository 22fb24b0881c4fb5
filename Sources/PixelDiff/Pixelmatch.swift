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

  /// Where the diff image goes.
  enum Output {
    /// No diff image: only the counts.
    case none
    /// Into a separate `width × height × 4`-byte buffer; every byte is written.
    case buffer(UnsafeMutableRawPointer)
    /// Over the expected image `a` itself, which must then be writable (see `run`).
    case overExpected
  }

  /// Runs the comparison and draws the diff image where `output` says; every byte of the image
  /// is written, so its buffer needs no clearing.
  ///
  /// Drawing `.overExpected` saves a full-size buffer. The anti-aliasing test of a pixel reads
  /// both images two rows above and below it, so each row is drawn into a ring of three rows and
  /// copied over `a` only once the comparison has gone two rows past it, when no later pixel
  /// reads it any more.
  ///
  /// Big images are compared in two bands of rows on two threads; the counts add up and every
  /// pixel is drawn as one pass would draw it. Drawing over `a`, the two rows on either side of
  /// the cut are still read by the other band, so they are kept aside and copied last.
  func run(output: Output, mask: UnsafePointer<UInt8>?) -> (
    mismatched: Int, antialiased: Int
  ) {
    let bands = height >= 2 * Self.minimumBandRows && width * height >= Self.minimumSplitPixels ? 2 : 1
    guard bands == 2 else {
      return runBand(0..<height, output: output, mask: mask, keptAside: nil)
    }
    let cut = height / 2
    let rowBytes = width * 4
    // Rows cut − 2 ... cut + 1, when drawing over `a`.
    let keptAside = UnsafeMutableRawPointer.allocate(
      byteCount: max(1, rowBytes * 4), alignment: 16)
    defer { keptAside.deallocate() }
    let results = UnsafeMutablePointer<(mismatched: Int, antialiased: Int)>.allocate(capacity: 2)
    defer { results.deallocate() }
    // Safe to share: each band writes only its own rows (of the output, or of `a` outside the
    // four rows kept aside), its own result and its own half of `keptAside`.
    let lower = WorkerThread {
      results[1] = self.runBand(
        cut..<self.height, output: output, mask: mask, keptAside: (keptAside, cut))
    }
    results[0] = runBand(0..<cut, output: output, mask: mask, keptAside: (keptAside, cut))
    lower.join()
    if case .overExpected = output {
      let target = UnsafeMutableRawPointer(mutating: a)
      (target + (cut - 2) * rowBytes).copyMemory(from: keptAside, byteCount: rowBytes * 4)
    }
    return (
      results[0].mismatched + results[1].mismatched,
      results[0].antialiased + results[1].antialiased
    )
  }

  /// Bands are cut only for images this big, where a thread costs little beside the work.
  static let minimumSplitPixels = 1 << 16
  /// The fewest rows a band may have.
  static let minimumBandRows = 32

  /// Compares `rows`, drawing over `a` through a ring of three rows when asked; the rows
  /// `cut − 2 ..< cut + 2` of `keptAside` go to its buffer instead (see `run`).
  private func runBand(
    _ rows: Range<Int>, output: Output, mask: UnsafePointer<UInt8>?,
    keptAside: (UnsafeMutableRawPointer, cut: Int)?
  ) -> (mismatched: Int, antialiased: Int) {
    let rowBytes = width * 4
    var ring: UnsafeMutableRawPointer? = nil
    if case .overExpected = output {
      ring = .allocate(byteCount: max(1, rowBytes * 3), alignment: 16)
    }
    defer { ring?.deallocate() }
    let target = UnsafeMutableRawPointer(mutating: a)
    func copyBack(_ y: Int) {
      var destination = target + y * rowBytes
      if let (buffer, cut) = keptAside, (cut - 2..<cut + 2).contains(y) {
        destination = buffer + (y - cut + 2) * rowBytes
      }
      destination.copyMemory(from: ring! + (y % 3) * rowBytes, byteCount: rowBytes)
    }
    var state = RowState(options: options)
    for y in rows {
      let out: UnsafeMutableRawPointer? =
        switch output {
        case .none: nil
        case .buffer(let buffer): buffer + y * rowBytes
        case .overExpected: ring! + (y % 3) * rowBytes
        }
      compareRow(y, output: out, mask: mask, state: &state)
      if ring != nil, y >= rows.lowerBound + 2 { copyBack(y - 2) }
    }
    if ring != nil {
      for y in max(rows.lowerBound, rows.upperBound - 2)..<rows.upperBound { copyBack(y) }
    }
    return (state.mismatched, state.excused)
  }

  /// The counts so far and the colour constants, carried from row to row.
  private struct RowState {
    var mismatched = 0
    var excused = 0
    var gray: GrayCache
    let maxDelta: Double
    let aaWord: UInt32
    let diffWord: UInt32
    let diffAltWord: UInt32
    let maskWord: UInt32?

    init(options: ImageDiff.Options) {
      gray = GrayCache(alpha: options.alpha)
      maxDelta = 35215 * options.threshold * options.threshold
      aaWord = options.aaColor.word
      diffWord = options.diffColor.word
      diffAltWord = (options.diffColorAlt ?? options.diffColor).word
      maskWord = options.maskColor?.word
    }
  }

  /// Compares row `y`, drawing it into `output` (one row) when non-nil.
  ///
  /// Pixels are compared four and then one at a time as raw words, and only those whose words
  /// differ get pixelmatch's colour maths: in a screenshot diff most pixels are bitwise equal,
  /// and pixelmatch's own `a32[i] === b32[i]` test gives them delta 0, the same outcome.
  @inline(__always)
  private func compareRow(
    _ y: Int, output: UnsafeMutableRawPointer?, mask: UnsafePointer<UInt8>?,
    state: inout RowState
  ) {
    let rowStart = y * width * 4
    let rowA = a + rowStart
    let rowB = b + rowStart
    let drawsBackground = !options.diffMask
    var x = 0
    while x < width {
      // The run of bitwise-equal pixels from x.
      let runStart = x
      if mask == nil {
        while x + 4 <= width,
          rowA.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt32>.self)
            == rowB.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt32>.self)
        {
          x += 4
        }
        while x < width,
          rowA.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
            == rowB.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
        {
          x += 1
        }
        if x > runStart, let output {
          if drawsBackground {
            state.gray.draw(rowA, from: runStart, to: x, into: output)
          } else {
            (output + runStart * 4).initializeMemory(
              as: UInt8.self, repeating: 0, count: (x - runStart) * 4)
          }
        }
        if x == width { break }
      }
      let pos = rowStart + x * 4
      if let mask, mask[y * width + x] != 0 {
        if let output {
          if let maskWord = state.maskWord {
            output.storeBytes(of: maskWord, toByteOffset: x * 4, as: UInt32.self)
          } else if drawsBackground {
            state.gray.draw(rowA, from: x, to: x + 1, into: output)
          } else {
            output.storeBytes(of: 0, toByteOffset: x * 4, as: UInt32.self)
          }
        }
        x += 1
        continue
      }
      let wordA = a.loadUnaligned(fromByteOffset: pos, as: UInt32.self)
      let wordB = b.loadUnaligned(fromByteOffset: pos, as: UInt32.self)
      let delta =
        wordA == wordB
        ? 0
        : colorDelta(
          a.assumingMemoryBound(to: UInt8.self), b.assumingMemoryBound(to: UInt8.self),
          pos, pos, checkerboard: options.checkerboard)
      if abs(delta) > state.maxDelta {
        let a8 = a.assumingMemoryBound(to: UInt8.self)
        let b8 = b.assumingMemoryBound(to: UInt8.self)
        let excused =
          !options.includeAA
          && (antialiased(a8, x, y, a, b) || antialiased(b8, x, y, b, a))
        if excused {
          state.excused += 1
          if let output {
            output.storeBytes(
              of: drawsBackground ? state.aaWord : 0, toByteOffset: x * 4, as: UInt32.self)
          }
        } else {
          state.mismatched += 1
          if let output {
            output.storeBytes(
              of: delta < 0 ? state.diffAltWord : state.diffWord, toByteOffset: x * 4,
              as: UInt32.self)
          }
        }
      } else if let output {
        if drawsBackground {
          state.gray.draw(rowA, from: x, to: x + 1, into: output)
        } else {
          output.storeBytes(of: 0, toByteOffset: x * 4, as: UInt32.self)
        }
      }
      x += 1
    }
  }

  /// Draws pixelmatch's output for identical inputs: the faded background (nothing with diffMask).
  func drawBackground(
    output: UnsafeMutableRawPointer, mask: UnsafePointer<UInt8>?
  ) {
    var gray = GrayCache(alpha: options.alpha)
    let maskWord = options.maskColor?.word
    let rowBytes = width * 4
    for y in 0..<height {
      let rowA = a + y * rowBytes
      let out = output + y * rowBytes
      for x in 0..<width {
        if let mask, mask[y * width + x] != 0, let maskWord {
          out.storeBytes(of: maskWord, toByteOffset: x * 4, as: UInt32.self)
        } else if !options.diffMask {
          gray.draw(rowA, from: x, to: x + 1, into: out)
        } else {
          out.storeBytes(of: 0, toByteOffset: x * 4, as: UInt32.self)
        }
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
    let center = image32.loadUnaligned(fromByteOffset: pos, as: UInt32.self)
    let opaqueCenter = image[pos + 3] == 255
    // x outer, y inner: the order decides ties, and visiting rows first changes 5 fixtures.
    for x in x0...x2 {
      for y in y0...y2 {
        if x == x1 && y == y1 { continue }
        let m = (y &* width &+ x) &* 4
        // Equal words give 0 as `channelDeltas` would, and two opaque pixels need no
        // compositing: the same arithmetic in the same order as `brightnessDelta`, with fewer
        // branches (this test runs for every pixel over the threshold, up to twice).
        let delta: Double
        if image32.loadUnaligned(fromByteOffset: m, as: UInt32.self) == center {
          delta = 0
        } else if opaqueCenter && image[m + 3] == 255 {
          let dr = Double(Int(image[pos]) &- Int(image[m]))
          let dg = Double(Int(image[pos + 1]) &- Int(image[m + 1]))
          let db = Double(Int(image[pos + 2]) &- Int(image[m + 2]))
          delta = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        } else {
          delta = compositedBrightnessDelta(image, pos, m)
        }
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

  /// `brightnessDelta` for pixels that are not both opaque, kept out of line: inlined, the
  /// compiler hoisted the checkerboard colour (two divisions) out of the anti-aliasing loop, to
  /// be computed for every pixel tested, opaque or not.
  @inline(never)
  private func compositedBrightnessDelta(
    _ image: UnsafePointer<UInt8>, _ k: Int, _ m: Int
  ) -> Double {
    brightnessDelta(image, k, m)
  }

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

extension DiffColor {
  /// The opaque pixel as the word it is stored as: bytes R, G, B, 255 in memory order.
  var word: UInt32 {
    (UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | 0xFF00_0000).littleEndian
  }
}

/// Draws the expected pixel's luma faded towards white by `alpha`, pixelmatch's background.
///
/// Screenshots repeat colours in long runs, so the last pixel's grey is kept: it saves the
/// floating-point work for most pixels without changing any byte, and a run of pixels equal to
/// the last one is drawn four at a time.
private struct GrayCache {
  let alpha: Double
  /// The last source pixel, and the grey pixel drawn for it.
  var word: UInt32 = 0
  var grayWord: UInt32

  init(alpha: Double) {
    self.alpha = alpha
    grayWord = Self.grayWord(grayByte(0, 0, 0, 0, alpha: alpha))
  }

  @inline(__always)
  static func grayWord(_ byte: UInt8) -> UInt32 {
    (UInt32(byte) &* 0x01_0101 | 0xFF00_0000).littleEndian
  }

  /// Draws pixels `from ..< to` of `row` into the same pixels of `output`.
  @inline(__always)
  mutating func draw(
    _ row: UnsafeRawPointer, from: Int, to: Int, into output: UnsafeMutableRawPointer
  ) {
    var x = from
    while x < to {
      let pixel = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
      if pixel != word {
        let bytes = row.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self)
        word = pixel
        grayWord = Self.grayWord(
          grayByte(bytes[0], bytes[1], bytes[2], bytes[3], alpha: alpha))
      }
      output.storeBytes(of: grayWord, toByteOffset: x * 4, as: UInt32.self)
      x += 1
      let same = SIMD4<UInt32>(repeating: word)
      let gray = SIMD4<UInt32>(repeating: grayWord)
      while x + 4 <= to,
        row.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt32>.self) == same
      {
        output.storeBytes(of: gray, toByteOffset: x * 4, as: SIMD4<UInt32>.self)
        x += 4
      }
    }
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
