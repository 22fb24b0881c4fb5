internal import PNGKernels

// A PNG may carry text in iTXt chunks (UTF-8), which every decoder skips. Waterflow stores a golden's
// facts in one, so a snapshot reference that is a single PNG file (swift-snapshot-testing keeps
// one file per snapshot) still knows what it was drawn from.

extension RGBAImage {
  /// PNG bytes with an `iTXt` chunk (`keyword`, uncompressed UTF-8 text) right after the header.
  ///
  /// - Precondition: `keyword` is 1–79 printable Latin-1 characters.
  public static func png(_ png: [UInt8], addingText text: String, keyword: String) -> [UInt8] {
    precondition((1...79).contains(keyword.utf8.count), "a PNG text keyword has 1 to 79 bytes")
    // iTXt: keyword, 0, not compressed (0, 0), no language tag (0), no translated keyword (0),
    // then the UTF-8 text (prices such as "¥24" are not Latin-1, which tEXt would need).
    let body = Array(keyword.utf8) + [0, 0, 0, 0, 0] + Array(text.utf8)
    var chunk: [UInt8] = []
    chunk.reserveCapacity(body.count + 12)
    append32(UInt32(body.count), to: &chunk)
    let typeAndBody = Array("iTXt".utf8) + body
    chunk += typeAndBody
    let crc = typeAndBody.withUnsafeBytes { crc32(0, $0.baseAddress!, count: $0.count) }
    append32(crc, to: &chunk)
    // The signature is 8 bytes and IHDR 25 (length, type, 13 bytes, CRC): the text goes after it.
    let headerEnd = 33
    guard png.count > headerEnd else { return png }
    return Array(png[..<headerEnd]) + chunk + Array(png[headerEnd...])
  }

  /// The text of the first uncompressed `iTXt` chunk with this keyword, or nil.
  ///
  /// - Complexity: O(c) in the number of chunks; chunk bodies other than the match are skipped.
  public static func text(in png: [UInt8], keyword: String) -> String? {
    let key = Array(keyword.utf8) + [0, 0, 0, 0, 0]
    var offset = 8
    while offset + 12 <= png.count {
      let length =
        Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8
        | Int(png[offset + 3])
      let bodyStart = offset + 8
      guard length >= 0, bodyStart + length + 4 <= png.count else { return nil }
      let type = png[offset + 4..<offset + 8]
      if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return nil }
      if type.elementsEqual("iTXt".utf8), png[bodyStart..<bodyStart + length].starts(with: key) {
        return String(decoding: png[(bodyStart + key.count)..<(bodyStart + length)], as: UTF8.self)
      }
      offset = bodyStart + length + 4
    }
    return nil
  }
}

private func append32(_ value: UInt32, to bytes: inout [UInt8]) {
  bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}
