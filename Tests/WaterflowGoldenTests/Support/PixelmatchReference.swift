import PNGCodec
import WaterflowGolden

// pixelmatch 7.2.0's index.js, transliterated line by line for tests: one pixel at a time, no
// run skipping, no in-place drawing, nothing shared with `ImageDiff`. It is checked against
// pixelmatch's own fixtures (PixelmatchReferenceTests), and then stands in for pixelmatch on
// inputs the fixtures do not cover: odd widths, random pairs, alpha-only changes.

/// The count and the diff image pixelmatch 7.2.0 gives for `img1`, `img2` (output buffer zeroed).
func referencePixelmatch(
  _ img1: RGBAImage, _ img2: RGBAImage, options: ImageDiff.Options
) -> (mismatched: Int, output: [UInt8]) {
  precondition(img1.width == img2.width && img1.height == img2.height)
  let width = img1.width
  let height = img1.height
  let a = img1.pixels
  let b = img2.pixels
  var output = [UInt8](repeating: 0, count: width * height * 4)
  let alt = options.diffColorAlt ?? options.diffColor

  func word(_ image: [UInt8], _ i: Int) -> [UInt8] { Array(image[i * 4..<i * 4 + 4]) }

  if a == b {
    if !options.diffMask {
      for i in 0..<(width * height) { drawGrayPixel(a, i * 4, options.alpha, &output) }
    }
    return (0, output)
  }

  func colorDelta(_ img1: [UInt8], _ img2: [UInt8], _ k: Int, _ m: Int, _ yOnly: Bool)
    -> Double
  {
    let r1 = Double(img1[k])
    let g1 = Double(img1[k + 1])
    let b1 = Double(img1[k + 2])
    let a1 = Double(img1[k + 3])
    let r2 = Double(img2[m])
    let g2 = Double(img2[m + 1])
    let b2 = Double(img2[m + 2])
    let a2 = Double(img2[m + 3])
    var dr = r1 - r2
    var dg = g1 - g2
    var db = b1 - b2
    let da = a1 - a2
    if dr == 0 && dg == 0 && db == 0 && da == 0 { return 0 }
    if a1 < 255 || a2 < 255 {
      var rb = 255.0
      var gb = 255.0
      var bb = 255.0
      if options.checkerboard {
        // `(k / φ) | 0` and `%` as JavaScript computes them (k is small and positive here).
        rb = 48 + 159 * Double(k % 2)
        gb = 48 + 159 * Double(Int(Double(k) / 1.618033988749895) % 2)
        bb = 48 + 159 * Double(Int(Double(k) / 2.618033988749895) % 2)
      }
      dr = (r1 * a1 - r2 * a2 - rb * da) / 255
      dg = (g1 * a1 - g2 * a2 - gb * da) / 255
      db = (b1 * a1 - b2 * a2 - bb * da) / 255
    }
    let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    if yOnly { return y }
    let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
    let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
    let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    return y > 0 ? -delta : delta
  }

  func hasManySiblings(_ img: [UInt8], _ x1: Int, _ y1: Int) -> Bool {
    let x0 = max(x1 - 1, 0)
    let y0 = max(y1 - 1, 0)
    let x2 = min(x1 + 1, width - 1)
    let y2 = min(y1 + 1, height - 1)
    let val = word(img, y1 * width + x1)
    var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
    for x in x0...x2 {
      for y in y0...y2 {
        if x == x1 && y == y1 { continue }
        zeroes += val == word(img, y * width + x) ? 1 : 0
        if zeroes > 2 { return true }
      }
    }
    return false
  }

  func antialiased(_ img: [UInt8], _ x1: Int, _ y1: Int, _ a32: [UInt8], _ b32: [UInt8])
    -> Bool
  {
    let x0 = max(x1 - 1, 0)
    let y0 = max(y1 - 1, 0)
    let x2 = min(x1 + 1, width - 1)
    let y2 = min(y1 + 1, height - 1)
    let pos = y1 * width + x1
    var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
    var minimum = 0.0
    var maximum = 0.0
    var minX = 0
    var minY = 0
    var maxX = 0
    var maxY = 0
    for x in x0...x2 {
      for y in y0...y2 {
        if x == x1 && y == y1 { continue }
        let delta = colorDelta(img, img, pos * 4, (y * width + x) * 4, true)
        if delta == 0 {
          zeroes += 1
          if zeroes > 2 { return false }
        } else if delta < minimum {
          minimum = delta
          minX = x
          minY = y
        } else if delta > maximum {
          maximum = delta
          maxX = x
          maxY = y
        }
      }
    }
    if minimum == 0 || maximum == 0 { return false }
    return (hasManySiblings(a32, minX, minY) && hasManySiblings(b32, minX, minY))
      || (hasManySiblings(a32, maxX, maxY) && hasManySiblings(b32, maxX, maxY))
  }

  let maxDelta = 35215 * options.threshold * options.threshold
  var diff = 0
  for y in 0..<height {
    for x in 0..<width {
      let i = y * width + x
      let pos = i * 4
      let delta = word(a, i) == word(b, i) ? 0 : colorDelta(a, b, pos, pos, false)
      if abs(delta) > maxDelta {
        let isExcludedAA =
          !options.includeAA && (antialiased(a, x, y, a, b) || antialiased(b, x, y, b, a))
        if isExcludedAA {
          if !options.diffMask { drawPixel(&output, pos, options.aaColor) }
        } else {
          drawPixel(&output, pos, delta < 0 ? alt : options.diffColor)
          diff += 1
        }
      } else if !options.diffMask {
        drawGrayPixel(a, pos, options.alpha, &output)
      }
    }
  }
  return (diff, output)
}

private func drawPixel(_ output: inout [UInt8], _ pos: Int, _ color: DiffColor) {
  output[pos] = color.red
  output[pos + 1] = color.green
  output[pos + 2] = color.blue
  output[pos + 3] = 255
}

private func drawGrayPixel(_ img: [UInt8], _ i: Int, _ alpha: Double, _ output: inout [UInt8]) {
  let luma =
    Double(img[i]) * 0.29889531 + Double(img[i + 1]) * 0.58662247 + Double(img[i + 2])
    * 0.11448223
  let val = uint8ArrayStore(255 + (luma - 255) * alpha * Double(img[i + 3]) / 255)
  output[i] = val
  output[i + 1] = val
  output[i + 2] = val
  output[i + 3] = 255
}

/// What a JavaScript `Uint8Array` keeps of a number: ToUint8, truncation then modulo 256.
private func uint8ArrayStore(_ value: Double) -> UInt8 {
  guard value.isFinite else { return 0 }
  var wrapped = value.rounded(.towardZero).truncatingRemainder(dividingBy: 256)
  if wrapped < 0 { wrapped += 256 }
  return UInt8(wrapped)
}
