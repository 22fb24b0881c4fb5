// Joining independently compressed DEFLATE streams into one, so that bands of a PNG can be
// compressed on different cores while the file still holds the single zlib stream PNG requires.
//
// libdeflate compresses whole buffers and always marks its last block final, and its output
// ends on an unknown bit. To join stream A and stream B we need the bit where A's final block
// starts (to clear its BFINAL flag) and the bit where A ends (to append B right after it).
// `DeflateScanner` finds both by walking A's blocks and Huffman codes without producing output,
// as Mark Adler's puff.c (zlib/contrib/puff) decodes, but discarding the data.

/// A canonical Huffman code: how many codes of each length, and the symbols in code order.
private struct HuffmanCode {
  package var count = [Int](repeating: 0, count: 16)
  package var symbol: [Int]

  /// Builds the code from one length per symbol (0 = unused); nil if the lengths are invalid.
  package init?(lengths: ArraySlice<Int>) {
    symbol = [Int](repeating: 0, count: lengths.count)
    for length in lengths { count[length] += 1 }
    var left = 1
    for length in 1..<16 {
      left <<= 1
      left -= count[length]
      if left < 0 { return nil }  // over-subscribed
    }
    var offsets = [Int](repeating: 0, count: 16)
    for length in 1..<15 {
      offsets[length + 1] = offsets[length] + count[length]
    }
    for (i, length) in lengths.enumerated() where length != 0 {
      symbol[offsets[length]] = i
      offsets[length] += 1
    }
  }
}

/// A canonical Huffman code as a table indexed by the next bits of the stream: each entry holds
/// the symbol (above 4 bits) and the code's length (the low 4 bits; 0 for a pattern no code
/// starts, in an incomplete code).
private struct HuffmanTable {
  package var entries: [UInt16]
  /// The longest code's bits, as a mask.
  package var mask: UInt64

  package init(_ code: HuffmanCode) {
    let longest = (1..<16).last { code.count[$0] > 0 } ?? 1
    let size = 1 << longest
    entries = [UInt16](repeating: 0, count: size)
    mask = UInt64(size - 1)
    // Codes are assigned in order of length, then symbol (RFC 1951, 3.2.2), and read from the
    // stream most significant bit first, so each is entered bit-reversed, at every index whose
    // low bits it is.
    var next = 0
    var index = 0
    for length in 1..<16 {
      for _ in 0..<code.count[length] {
        let symbol = code.symbol[index]
        index += 1
        var reversed = 0
        for b in 0..<length where next & (1 << b) != 0 { reversed |= 1 << (length - 1 - b) }
        var i = reversed
        while i < size {
          entries[i] = UInt16(symbol << 4 | length)
          i += 1 << length
        }
        next += 1
      }
      next <<= 1
    }
  }
}

/// Reads a DEFLATE stream's bits, least significant first, without decompressing it.
package struct DeflateScanner {
  private let data: UnsafePointer<UInt8>
  private let count: Int
  /// The index of the next bit to read.
  private(set) var position = 0

  package init(_ data: UnsafePointer<UInt8>, count: Int) {
    self.data = data
    self.count = count
  }

  private enum Malformed: Error { case stream }

  /// The next 57 bits or more from `position`, least significant first; zeros past the end.
  @inline(__always)
  private func peek() -> UInt64 {
    let byte = position >> 3
    var value: UInt64 = 0
    if byte + 8 <= count {
      value = UInt64(littleEndian: UnsafeRawPointer(data + byte).loadUnaligned(as: UInt64.self))
    } else if byte < count {
      for i in 0..<(count - byte) { value |= UInt64(data[byte + i]) << UInt64(8 * i) }
    }
    return value >> UInt64(position & 7)
  }

  /// Moves past `n` bits, which must lie inside the stream.
  @inline(__always)
  private mutating func advance(_ n: Int) throws(Malformed) {
    position += n
    guard position <= 8 * count else { throw .stream }
  }

  private mutating func bit() throws(Malformed) -> Int { try bits(1) }

  private mutating func bits(_ n: Int) throws(Malformed) -> Int {
    let value = Int(peek() & ((1 << UInt64(n)) - 1))
    try advance(n)
    return value
  }

  /// Decodes one symbol by looking its next bits up in the code's table (as zlib's inflate
  /// does), rather than a bit at a time as puff.c does: the scan of a band's stream was a
  /// third of a failing photo golden's time, and the table makes it one lookup a symbol.
  @inline(__always)
  private mutating func decode(_ code: HuffmanTable) throws(Malformed) -> Int {
    let entry = code.entries[Int(peek() & code.mask)]
    let length = Int(entry & 15)
    // An unused pattern of an incomplete code: a malformed stream.
    guard length > 0 else { throw .stream }
    try advance(length)
    return Int(entry >> 4)
  }

  /// Decodes one symbol a bit at a time: for the code-length code, read once a block.
  private mutating func decode(_ code: HuffmanCode) throws(Malformed) -> Int {
    var value = 0
    var first = 0
    var index = 0
    for length in 1..<16 {
      value |= try bit()
      let n = code.count[length]
      if value - n < first { return code.symbol[index + value - first] }
      index += n
      first = (first + n) << 1
      value <<= 1
    }
    throw .stream
  }

  private static let lengthExtraBits = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5,
    5, 5, 5, 0,
  ]
  private static let distanceExtraBits = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
    11, 11, 12, 12,
    13, 13,
  ]
  private static let fixedCodes: (HuffmanTable, HuffmanTable) = {
    var lengths = [Int](repeating: 8, count: 288)
    for i in 144..<256 { lengths[i] = 9 }
    for i in 256..<280 { lengths[i] = 7 }
    return (
      HuffmanTable(HuffmanCode(lengths: lengths[...])!),
      HuffmanTable(HuffmanCode(lengths: [Int](repeating: 5, count: 30)[...])!)
    )
  }()

  /// Skips a block's compressed symbols up to and including its end-of-block code.
  private mutating func skipSymbols(
    _ literals: HuffmanTable, _ distances: HuffmanTable
  ) throws(Malformed) {
    while true {
      let symbol = try decode(literals)
      if symbol == 256 { return }
      if symbol > 256 {
        let length = symbol - 257
        guard length < 29 else { throw .stream }
        _ = try bits(Self.lengthExtraBits[length])
        let distance = try decode(distances)
        guard distance < 30 else { throw .stream }
        _ = try bits(Self.distanceExtraBits[distance])
      }
    }
  }

  /// Reads a dynamic block's code description (RFC 1951, 3.2.7).
  private mutating func dynamicCodes() throws(Malformed) -> (
    HuffmanTable, HuffmanTable
  ) {
    let literalCount = try bits(5) + 257
    let distanceCount = try bits(5) + 1
    let codeLengthCount = try bits(4) + 4
    let order = [
      16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ]
    var codeLengths = [Int](repeating: 0, count: 19)
    for i in 0..<codeLengthCount { codeLengths[order[i]] = try bits(3) }
    guard let lengthCode = HuffmanCode(lengths: codeLengths[...]) else {
      throw .stream
    }
    var lengths: [Int] = []
    lengths.reserveCapacity(literalCount + distanceCount)
    while lengths.count < literalCount + distanceCount {
      let symbol = try decode(lengthCode)
      switch symbol {
      case 0..<16: lengths.append(symbol)
      case 16:
        guard let previous = lengths.last else { throw .stream }
        lengths += repeatElement(previous, count: 3 + (try bits(2)))
      case 17: lengths += repeatElement(0, count: 3 + (try bits(3)))
      default: lengths += repeatElement(0, count: 11 + (try bits(7)))
      }
    }
    guard lengths.count == literalCount + distanceCount,
      let literals = HuffmanCode(lengths: lengths[..<literalCount]),
      let distances = HuffmanCode(lengths: lengths[literalCount...])
    else { throw .stream }
    return (HuffmanTable(literals), HuffmanTable(distances))
  }

  /// Walks every block; returns where the final block's header starts and where the stream
  /// ends, in bits, or nil if the stream is malformed.
  package mutating func finalBlockAndEnd() -> (finalHeader: Int, end: Int)? {
    do {
      while true {
        let header = position
        let isFinal = try bit() == 1
        switch try bits(2) {
        case 0:
          position = (position + 7) & ~7
          let length = try bits(16)
          _ = try bits(16)
          position += 8 * length
        case 1:
          try skipSymbols(Self.fixedCodes.0, Self.fixedCodes.1)
        case 2:
          let (literals, distances) = try dynamicCodes()
          try skipSymbols(literals, distances)
        default:
          return nil
        }
        if isFinal { return position <= 8 * count ? (header, position) : nil }
      }
    } catch {
      return nil
    }
  }
}

/// Appends `bitCount` bits of `source` (least significant first) to `output` at bit `offset`.
///
/// `output` must be zeroed from `offset`'s byte onward.
package func appendBits(
  _ source: UnsafePointer<UInt8>, bitCount: Int,
  to output: UnsafeMutablePointer<UInt8>, at offset: Int
) {
  let shift = offset & 7
  var o = offset >> 3
  let wholeBytes = bitCount >> 3
  let remainder = bitCount & 7
  if shift == 0 {
    output.advanced(by: o).update(from: source, count: wholeBytes)
    o += wholeBytes
  } else {
    for i in 0..<wholeBytes {
      let byte = source[i]
      output[o] |= byte << UInt8(shift)
      output[o + 1] = byte >> UInt8(8 - shift)
      o += 1
    }
  }
  if remainder > 0 {
    let byte = source[wholeBytes] & UInt8((1 << remainder) - 1)
    output[o] |= byte << UInt8(shift)
    if shift + remainder > 8 { output[o + 1] = byte >> UInt8(8 - shift) }
  }
}
