// A deliberately naive PNG writer for decoder tests: stored (uncompressed) deflate blocks, every
// filter type, Adam7, any colour type and depth. It lets the tests build each PNG variant in code
// instead of shipping binary fixtures, and it shares no code with the decoder under test.

struct TestPNGWriter {
  var width: Int
  var height: Int
  var bitDepth: Int
  var colorType: Int
  var interlaced = false
  var palette: [UInt8] = []
  var transparency: [UInt8]? = nil
  /// Extra chunks (type, data) written before IDAT, such as gAMA.
  var ancillary: [(String, [UInt8])] = []
  /// The raw samples of pixel (x, y), in file units (for example 0...65535 at depth 16).
  var sample: (Int, Int) -> [Int]
  /// Filter type for each scanline, by scanline number within its pass.
  var filter: (Int) -> UInt8 = { UInt8($0 % 5) }

  var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! }

  func encode() -> [UInt8] {
    var out: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    var ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
    ihdr += [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0]
    appendChunk("IHDR", ihdr, to: &out)
    for (type, data) in ancillary { appendChunk(type, data, to: &out) }
    if !palette.isEmpty { appendChunk("PLTE", palette, to: &out) }
    if let transparency { appendChunk("tRNS", transparency, to: &out) }
    let stream = zlibStored(scanlines())
    // Split IDAT in two to exercise concatenation.
    let half = stream.count / 2
    appendChunk("IDAT", Array(stream[..<half]), to: &out)
    appendChunk("IDAT", Array(stream[half...]), to: &out)
    appendChunk("IEND", [], to: &out)
    return out
  }

  func scanlines() -> [UInt8] {
    let passes =
      interlaced
      ? [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4),
        (1, 0, 2, 2), (0, 1, 1, 2),
      ]
      : [(0, 0, 1, 1)]
    var data: [UInt8] = []
    for (x0, y0, dx, dy) in passes {
      let w = (width - x0 + dx - 1) / dx
      let h = (height - y0 + dy - 1) / dy
      guard w > 0 && h > 0 else { continue }
      let bpp = max(1, channels * bitDepth / 8)
      var previous = [UInt8](
        repeating: 0, count: (w * channels * bitDepth + 7) / 8)
      for row in 0..<h {
        let line = packRow((0..<w).map { sample(x0 + $0 * dx, y0 + row * dy) })
        let type = filter(row)
        data.append(type)
        data += applyFilter(type, line, previous, bpp)
        previous = line
      }
    }
    return data
  }

  private func packRow(_ pixels: [[Int]]) -> [UInt8] {
    var bytes: [UInt8] = []
    var accumulator = 0
    var bits = 0
    for value in pixels.flatMap({ $0 }) {
      if bitDepth == 16 {
        bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
      } else {
        accumulator = accumulator << bitDepth | value
        bits += bitDepth
        if bits == 8 {
          bytes.append(UInt8(accumulator))
          accumulator = 0
          bits = 0
        }
      }
    }
    if bits > 0 { bytes.append(UInt8(accumulator << (8 - bits))) }
    return bytes
  }
}

private func applyFilter(
  _ type: UInt8, _ line: [UInt8], _ prev: [UInt8], _ bpp: Int
) -> [UInt8] {
  func left(_ i: Int) -> Int { i >= bpp ? Int(line[i - bpp]) : 0 }
  func upLeft(_ i: Int) -> Int { i >= bpp ? Int(prev[i - bpp]) : 0 }
  return line.indices.map { i in
    let x = Int(line[i])
    let a = left(i)
    let b = Int(prev[i])
    let c = upLeft(i)
    let predictor: Int
    switch type {
    case 1: predictor = a
    case 2: predictor = b
    case 3: predictor = (a + b) / 2
    case 4:
      let p = a + b - c
      let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
      predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
    default: predictor = 0
    }
    return UInt8((x - predictor) & 0xFF)
  }
}

func bigEndian(_ value: UInt32) -> [UInt8] {
  [
    UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
    UInt8(value & 0xFF),
  ]
}

func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
  let typed = Array(type.utf8) + data
  out += bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
}

func crc32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}

/// A zlib stream of stored deflate blocks.
func zlibStored(_ data: [UInt8]) -> [UInt8] {
  var out: [UInt8] = [0x78, 0x01]
  var start = 0
  repeat {
    let count = min(65_535, data.count - start)
    let final: UInt8 = start + count == data.count ? 1 : 0
    out += [final, UInt8(count & 0xFF), UInt8(count >> 8)]
    out += [UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
    out += data[start..<start + count]
    start += count
  } while start < data.count
  var s1: UInt32 = 1
  var s2: UInt32 = 0
  for byte in data {
    s1 = (s1 + UInt32(byte)) % 65_521
    s2 = (s2 + s1) % 65_521
  }
  return out + bigEndian(s2 << 16 | s1)
}

/// FNV-1a over bytes; the expected values in the tests were computed the same way in Python
/// over Pillow's `convert("RGBA").tobytes()`.
func fnv1a(_ bytes: [UInt8]) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in bytes {
    hash ^= UInt64(byte)
    hash = hash &* 0x100_0000_01b3
  }
  return hash
}
