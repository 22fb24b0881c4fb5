internal import PNGKernels

// Why our own DEFLATE encoder for frame sequences.
//
// A scroll frame (750×1334 px, 3 MB of RGB) is mostly rows equal to the row above (after Up
// filtering: rows of zeros) and runs of one repeated pixel. On 60 such frames libdeflate spent
// ~60 % of `waterflow scroll`'s CPU time, ~9 ms a frame at every level from 1 to 6, because its
// matchfinders walk every zero run byte by byte; zlib is slower still. Neither lets a caller say
// "this row is all zeros", nor can their streams be joined without a decode pass
// (DeflateStitching.swift). fpnge (github.com/veluca93/fpnge) showed that a PNG encoder which only
// looks for the repeats screen content has, and Huffman-codes the rest, is several times faster;
// it is C++ with AVX2 intrinsics and not packaged for Debian, so this is the same idea in a few
// hundred lines of Swift:
// - a row known to be zero costs a handful of tokens and no scanning at all;
// - other rows try two match distances only, the previous pixel and the row above, so there is no
//   hash table; anti-aliased text becomes literals;
// - each block is Huffman-coded with codes built from its own symbol counts (RFC 1951 dynamic
//   blocks), or stored when that is smaller, so noise never grows.
// The code-length computation is the in-place minimum-redundancy algorithm of Moffat and
// Katajainen (1995), with the length limit applied as miniz's tdefl_huffman_enforce_max_code_size
// does.
//
// Measured (release, this shared 2-core machine, medians): 60 frames of a 375×667@2x scroll with
// `--jobs 1` take 0.28–0.31 s of CPU against 0.93 s with libdeflate level 6, for 3.99 MB of files
// against 3.81 MB (+4.9 %); the hash probe took that from +24 %. The 1500×2668 bench frame: 9–15 ms
// against cairo's 115–190 ms, 76,645 bytes against 68,765 for our libdeflate default.
//
// Issue 28, same bytes (RunDeflaterTests pins them), callgrind instruction counts for that 60-frame
// `--jobs 1` scroll: `addRow` works on locals and measures a run or a copy only when its first
// bytes match (542 M → 340 M), `writeTokens` reads one table entry per symbol (163 M → 120 M),
// and PNGEncoder's filter pass for opaque surfaces (556 M → 208 M, see `encodeOpaqueFrame`).
//
// Issue 43, photo feeds. On the notes feed's first screen (750×1624 at scale 2, photos in two
// columns) the search above found few runs in a photo's residuals and paid for every byte it
// tried: 9.6 ms and 846 KB, against fpnge's 2.3 ms for 773 KB. Rows of which a quarter of the
// bytes change from the row above (1,247 of that frame's 1,623 rows, 42 of the reference frame's
// 2,667), and an eighth from the plane through their neighbours (PNGEncoder's `addPhotoRow`:
// not the edges of cards, nor text across every column), are now filtered with Paeth, as fpnge
// does, and coded by `addPhotoRow`: whole 32-byte
// chunks of zeros as runs, the rest as literal spans that `writeTokens` codes straight from the
// stream (kernels.h's waterflow_code_literals: eight codes per store, or with AVX-512 VBMI 64
// codes looked up at once and joined in fours in vector lanes, 4.1 → 3.7 ms), with code lengths
// counted on every fourth photo row. That frame: 3.6–3.8 ms for 771,049 bytes; frames without photos
// keep every byte they had (the pinned digests), the reference frame 1.8–1.9 ms from 1.9–2.0.
// Later, once rows near photos were coded as photo rows too: blocks of 2^19 symbols instead of
// 2^17 (10 % faster, 0.6 % larger) and code lengths counted on one photo row in 16 (7 % faster,
// 0.4 % larger): 2.9 → 2.5 ms for 743,892 bytes, where fpnge's default level takes 3.3 ms for
// 752,878. Measured and left: a
// filter chosen per row by the smallest sum of residuals (Paeth won 1,208 of 1,247 rows; 0.2 %
// smaller, a tenth slower); a jump from one
// match candidate to the next by vector masks (slower than the branches it replaced). What is
// left between us and fpnge is its coding 32 literals per vector instruction sequence, which
// needs every block's code to give the middle literals one length; and the search for UI rows.
// Since: rows after a photo row are filtered in one AVX-512 pass (kernels.h's
// waterflow_photo_row_avx512), and `addRow` measures a stretch of zeros once and writes its whole
// runs together (same bytes): the notes frame 4.65 → 4.01 ms, the 1500×2668 bench frame 2.49 →
// 2.23 ms (fpnge: 3.32 ms at its default level, 1.95 ms at its Paeth level). Then the rows near
// photos (their cards' edges and texts, PNGEncoder's `PhotoNeighbourhood`) were coded as photo
// rows too, and `writeTokens` lost its exclusivity checks: the notes frame 4.1 → 3.0 ms at
// 737,086 bytes (752,549), 1.1× fpnge's speed at 0.98× its bytes; frames without photos keep
// every byte.

/// A DEFLATE encoder for PNG frames, that looks only for the repeats rendered UI has and codes the
/// rows of photos as runs of zero chunks and literals.
///
/// Feed it the rows of one image in order with ``addRow(_:isZero:)``, then ``finish(adler32:)``
/// returns the zlib stream. It keeps its buffers between images; it is not thread-safe.
package final class RunDeflater {
  /// The filtered image: each row is a filter byte and `stride − 1` data bytes.
  private var stream = UnsafePointer<UInt8>(bitPattern: 1)!
  private var stride = 0
  /// Whether literal spans are coded with the CPU's vector unit where it has one (the same bits),
  /// read by ``begin(_:rowBytes:bytesPerPixel:)``: tests turn it off to compare the two.
  package var usesVectorCoder = true
  /// 3 (RGB) or 4 (RGBA), as given to ``begin(_:rowBytes:bytesPerPixel:)``.
  package private(set) var bytesPerPixel = 0
  /// `bytesPerPixel` and `usesVectorCoder` as `begin` found them, for the per-row code: reading
  /// a property that other files may write costs the runtime's exclusivity check on each row.
  private var pixelBytes = 0
  private var vectorCoder = true
  /// Where in `stream` the block being collected starts, and where the next row starts.
  private var blockStart = 0
  private var position = 0

  /// Literals (< 256) and matches (bit 31, length << 16, distance) of the block being collected.
  private var tokens: UnsafeMutablePointer<UInt32>
  private var tokenCount = 0
  private var tokenCapacity: Int
  /// The literals and matches the tokens of the block stand for (a span is several literals):
  /// blocks end by this count, so spans leave block boundaries where single literals put them.
  private var blockSymbols = 0
  /// The literal bytes of the block's spans, whose codes' lengths are estimated from sampled
  /// rows, and so bounded apart when the block's output is reserved.
  private var spanBytes = 0
  /// A zero row's data bytes as tokens (the same for every zero row of an image), how many there
  /// are, and the symbol counts they add (index into `frequencies`, count); set by `begin`.
  private var zeroRunTokens: [UInt32] = []
  private var zeroRunSymbols = 0
  /// Kept in a buffer rather than an array property: a loop over (or an append to) an array that
  /// a class holds pays the runtime's exclusivity check on every zero row.
  private let zeroRunCounts = UnsafeMutablePointer<(index: Int, count: Int)>.allocate(capacity: 8)
  private var zeroRunCountsUsed = 0
  /// A token that stands for a whole zero row: its filter byte, then `zeroRunTokens`.
  private static let zeroRowToken: UInt32 = 0xc000_0000
  /// Counts of the literals in photo rows' spans (4 × 256, added up when the block is written),
  /// from one photo row in `sampledRows` of the block, and how many photo rows the block has.
  private let spanCounts: UnsafeMutablePointer<UInt32>
  private var photoRows = 0
  private static let sampledRows = 16
  /// What the previous row was (see ``addRow(_:isZero:)``), and the zero rows of the block that
  /// are not written.
  private var previousRow = RowKind.changed
  private var unwrittenRows = UnsafeMutablePointer<Int>.allocate(capacity: 64)
  private var unwrittenCount = 0
  private var unwrittenCapacity = 64
  private enum RowKind { case changed, zeroWritten, zeroUnwritten }
  /// The all-zero chunks of the photo row being added, marked by its filter (`PhotoRows.paeth`).
  package var zeroChunks: UnsafeMutablePointer<UInt64> { zeroChunkMarks }
  /// Private, so that each photo row reads it without the runtime's exclusivity check.
  private var zeroChunkMarks = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
  private var zeroChunkWords = 1
  /// Symbol counts of the block: literal/length symbols 0…285, then distance codes 0…29.
  private let frequencies: UnsafeMutablePointer<Int>
  private static let symbolCount = 286
  private static let distanceCount = 30
  /// The literal/length symbol of each match length 3…258, with its extra bits.
  private let lengthSymbols: UnsafeMutablePointer<UInt16>
  /// The block's codes as `writeTokens` appends them: 256 literals' fields, 259 match lengths'
  /// (3…258), and the vector coder's byte tables; kept between blocks.
  private let literalFields = UnsafeMutablePointer<UInt64>.allocate(capacity: 256)
  private let lengthFields = UnsafeMutablePointer<UInt64>.allocate(capacity: 259)
  private let literalTables = UnsafeMutablePointer<UInt8>.allocate(capacity: PhotoRows.tableBytes)
  /// The last position + 1 (0: none) at which each hash of 4 bytes was seen in this image.
  private let recent: UnsafeMutablePointer<Int32>
  private static let hashBits: UInt32 = 12

  private var output: UnsafeMutablePointer<UInt8>
  private var outputCapacity: Int
  private var outputCount = 0
  private var bitBuffer: UInt64 = 0
  private var bitCount = 0

  package init() {
    // A block ends after this many symbols. Each block builds its Huffman codes and the vector
    // coder's tables again: at 2^17 a photo frame had 28 blocks, and at 2^19 it has 7 and
    // encodes 10 % faster, for 0.6–0.9 % more bytes in photo feeds (their residuals change
    // little from card to card) and the same bytes in flat frames.
    tokenCapacity = 1 << 19
    tokens = .allocate(capacity: tokenCapacity)
    frequencies = .allocate(capacity: Self.symbolCount + Self.distanceCount)
    frequencies.initialize(
      repeating: 0, count: Self.symbolCount + Self.distanceCount)
    spanCounts = .allocate(capacity: 1024)
    spanCounts.initialize(repeating: 0, count: 1024)
    lengthSymbols = .allocate(capacity: 259)
    lengthSymbols.initialize(repeating: 0, count: 259)
    for code in 0..<29 {
      let base = Int(lengthBase[code])
      let span = code == 28 ? 1 : 1 << Int(lengthExtraBits[code])
      for length in base..<min(259, base + span) {
        lengthSymbols[length] = UInt16(257 + code)
      }
    }
    recent = .allocate(capacity: 1 << Self.hashBits)
    outputCapacity = 1 << 16
    output = .allocate(capacity: outputCapacity)
  }

  deinit {
    literalFields.deallocate()
    lengthFields.deallocate()
    literalTables.deallocate()
    tokens.deallocate()
    spanCounts.deallocate()
    zeroChunkMarks.deallocate()
    frequencies.deallocate()
    lengthSymbols.deallocate()
    recent.deallocate()
    output.deallocate()
    zeroRunCounts.deallocate()
    unwrittenRows.deallocate()
  }

  /// Starts a zlib stream over `rows` rows of `rowBytes` data bytes each, filtered in `stream`.
  ///
  /// The rows need not be written yet: ``addRow(_:isZero:)`` reads each row and the rows above it.
  package func begin(
    _ stream: UnsafePointer<UInt8>, rowBytes: Int, bytesPerPixel: Int
  ) {
    self.stream = stream
    stride = rowBytes + 1
    self.bytesPerPixel = bytesPerPixel
    pixelBytes = bytesPerPixel
    vectorCoder = usesVectorCoder
    blockStart = 0
    position = 0
    tokenCount = 0
    blockSymbols = 0
    spanBytes = 0
    // Counts left by an attempt that stopped mid-image (an opaque frame found translucent) would
    // make this image's codes depend on it.
    frequencies.update(repeating: 0, count: Self.symbolCount + Self.distanceCount)
    previousRow = .changed
    unwrittenCount = 0
    photoRows = 0
    spanCounts.update(repeating: 0, count: 1024)
    let words = (rowBytes / 32 + 64) / 64
    if zeroChunkWords < words {
      zeroChunkMarks.deallocate()
      zeroChunkMarks = .allocate(capacity: words)
      zeroChunkWords = words
    }
    recent.initialize(repeating: 0, count: 1 << Self.hashBits)
    zeroRunTokens.removeAll(keepingCapacity: true)
    Self.zeroRun(stride - 1) { zeroRunTokens.append($0) }
    zeroRunSymbols = zeroRunTokens.count
    // A few distinct symbols (the zero literal, one or two lengths, distance 1): summed in a
    // list, without a dictionary or a sort, which would cost the Swift runtime's conformance
    // lookups on a `waterflow diff`'s one image.
    zeroRunCountsUsed = 0
    func count(_ index: Int) {
      if let k = (0..<zeroRunCountsUsed).first(where: { zeroRunCounts[$0].index == index }) {
        zeroRunCounts[k].count += 1
      } else {
        // The zero literal, the lengths of two copies and their distance, 1.
        precondition(zeroRunCountsUsed < 8, "a zero run has at most four distinct symbols")
        zeroRunCounts[zeroRunCountsUsed] = (index, 1)
        zeroRunCountsUsed += 1
      }
    }
    for t in zeroRunTokens {
      if t & 0x8000_0000 == 0 {
        count(Int(t))
      } else {
        count(Int(lengthSymbols[Int(t >> 16 & 0x1ff)]))
        count(Self.symbolCount + distanceCode(Int(t & 0xffff)))
      }
    }
    if tokenCapacity < 2 * stride + 64 {
      tokens.deallocate()
      tokenCapacity = 2 * stride + 64
      tokens = .allocate(capacity: tokenCapacity)
    }
    outputCount = 0
    bitBuffer = 0
    bitCount = 0
    // CMF: deflate with a 32 KiB window; FLG: "fastest" level hint, with the check bits that
    // make the pair a multiple of 31.
    reserveOutput(2)
    output[0] = 0x78
    output[1] = 0x01
    outputCount = 2
  }

  /// Encodes the next row; `isZero` says that its data bytes are all zero (the row repeats the
  /// one above), which skips the search.
  ///
  /// A zero row's data bytes need not be written: the encoder reads a row only from the next row
  /// on (copies of the row above, and runs that start in its last bytes) and from a match
  /// found in the row before it, which can reach at most 258 bytes into it. So it writes the zeros
  /// of a zero row after a changed row; of one above a changed row only the last 16 bytes (the
  /// search compares with the rest as zeros); and those of the rest only when a block is
  /// stored. Not writing them saves the memory traffic of most rows of a frame.
  package func addRow(_ y: Int, isZero: Bool) {
    precondition(y * stride == position, "rows must be added in order")
    if blockSymbols + stride + 16 > tokenCapacity { writeBlock(final: false) }
    let end = position + stride
    if isZero {
      // After a changed row (a match found in it may reach into this one), and in rows narrower
      // than a match, which one can cross: written.
      if previousRow == .changed || stride <= 259 {
        writeZeros(row: y)
        previousRow = .zeroWritten
      } else {
        previousRow = .zeroUnwritten
        if unwrittenCount == unwrittenCapacity {
          let larger = UnsafeMutablePointer<Int>.allocate(capacity: 2 * unwrittenCapacity)
          larger.moveInitialize(from: unwrittenRows, count: unwrittenCount)
          unwrittenRows.deallocate()
          unwrittenRows = larger
          unwrittenCapacity *= 2
        }
        unwrittenRows[unwrittenCount] = y
        unwrittenCount += 1
      }
      addZeroRow(stream[position])
      position = end
      return
    }
    let aboveIsZero = rowChanges(y)
    // The loop works on locals: stores through `tokens` and `frequencies` could alias `self`'s
    // fields as far as the compiler knows, so it would reload each of them on every byte.
    let s = stream
    let tokens = self.tokens
    let frequencies = self.frequencies
    let lengthSymbols = self.lengthSymbols
    let recent = self.recent
    var count = tokenCount
    let pixel = pixelBytes
    let above = stride <= 32768 ? stride : Int.max
    var p = position
    let vector = vectorCoder
    let fullRun =
      0x8000_0000 | UInt32(258) << 16 | UInt32(truncatingIfNeeded: pixel)
    while p < end {
      // Zeros after a pixel of zeros: the search below would find a run of the previous pixel
      // filling each 258 bytes of them (the row above is then not even measured), so the
      // stretch is measured once and its whole runs written at once. A rendered row is mostly
      // such stretches between a few changed pixels: they were a third of its search.
      if p >= pixel && end &- p >= 258
        && UnsafeRawPointer(s + (p &- pixel)).loadUnaligned(as: UInt64.self)
          & ((1 << UInt64(8 * (pixel &+ 4))) &- 1) == 0
      {
        let runs =
          (VectorRowFilter.firstNonzero(s, from: p, to: end, vector: vector) &- p) / 258
        if runs > 0 {
          for k in 0..<runs { tokens[count &+ k] = fullRun }
          count &+= runs
          frequencies[Int(lengthSymbols[258])] &+= runs
          frequencies[Self.symbolCount &+ distanceCode(pixel)] &+= runs
          p &+= 258 &* runs
          continue
        }
      }
      let limit = min(258, end &- p)
      // Below 3 bytes a run is as good as none, and below 4 so is a copy of the row above, so
      // each is measured only when its first bytes match: one 4-byte comparison each, where
      // anti-aliased text, nearly all literals, would otherwise pay for two measurements a byte.
      // The row above can only win with 4 bytes more than the run, so it is not measured when
      // the run leaves no such room: in flat stretches the run reaches the limit.
      let word =
        limit >= 4 ? UnsafeRawPointer(s + p).loadUnaligned(as: UInt32.self) : 0
      var run = 0
      if p >= pixel
        && (limit < 4
          || (word ^ UnsafeRawPointer(s + (p &- pixel)).loadUnaligned(as: UInt32.self))
            & 0x00ff_ffff == 0)
      {
        run = matchLength(s, at: p, distance: pixel, limit: limit)
      }
      var copy = 0
      if aboveIsZero && above <= 32768 {
        // The row above is its filter byte (written) and zeros (not written): compared as such,
        // which is what measuring them would give.
        let rowStart = position
        let filterAbove = UInt32(s[rowStart &- stride])
        if (run < 3 || run &+ 4 <= limit)
          && (limit < 4 || word == (p == rowStart ? filterAbove : 0))
        {
          if p == rowStart {
            copy =
              UInt32(s[p]) == filterAbove
              ? 1 &+ VectorRowFilter.firstNonzero(s, from: p &+ 1, to: p &+ limit, vector: vector)
                &- (p &+ 1)
              : 0
          } else {
            copy = VectorRowFilter.firstNonzero(s, from: p, to: p &+ limit, vector: vector) &- p
          }
        }
      } else if !aboveIsZero && p >= above && (run < 3 || run &+ 4 <= limit)
        && (limit < 4
          || word == UnsafeRawPointer(s + (p &- above)).loadUnaligned(as: UInt32.self))
      {
        copy = matchLength(s, at: p, distance: above, limit: limit)
      }
      // A copy of the previous pixel costs about half the bits of a copy of the row above
      // (its distance needs no extra bits), so the row above wins only by a clear margin.
      var length = 0
      var distance = 0
      if run >= 3 && run &+ 4 > copy {
        length = run
        distance = pixel
      } else if copy >= 4 {
        length = copy
        distance = above
      } else if limit >= 4 {
        // Neither: anti-aliased text, whose glyphs repeat elsewhere in the row (the same digits
        // in every price). One hash probe of the next 4 bytes finds the last place they occurred.
        let slot = Int((word &* 0x9E37_79B1) >> (32 - Self.hashBits))
        let candidate = Int(recent[slot])
        recent[slot] = Int32(truncatingIfNeeded: p &+ 1)
        let back = p &+ 1 &- candidate
        // A match needs its first 4 bytes equal: most candidates fail on that one comparison.
        if candidate > 0 && back <= 32768
          && UnsafeRawPointer(s + (p &- back)).loadUnaligned(as: UInt32.self) == word
        {
          let found = matchLength(s, at: p, distance: back, limit: limit)
          if found >= 4 {
            length = found
            distance = back
          }
        }
      }
      if length == 0 {
        let byte = s[p]
        tokens[count] = UInt32(byte)
        count &+= 1
        frequencies[Int(byte)] &+= 1
        p &+= 1
      } else {
        tokens[count] =
          0x8000_0000 | UInt32(truncatingIfNeeded: length) << 16
          | UInt32(truncatingIfNeeded: distance)
        count &+= 1
        frequencies[Int(lengthSymbols[length])] &+= 1
        frequencies[Self.symbolCount &+ distanceCode(distance)] &+= 1
        p &+= length
      }
    }
    blockSymbols &+= count &- tokenCount
    tokenCount = count
    position = end
  }

  /// Encodes the next row as a row of a photo: its filter byte, then runs of the whole 32-byte
  /// chunks of zeros marked in ``zeroChunks``, and the other chunks as literals (spans, coded
  /// straight from the stream).
  ///
  /// The run search of ``addRow(_:isZero:)`` finds little in photos after any filter, and pays
  /// for every byte it tries; here each byte is counted once and coded once.
  package func addPhotoRow(_ y: Int) {
    precondition(y * stride == position, "rows must be added in order")
    if blockSymbols + stride + 16 > tokenCapacity { writeBlock(final: false) }
    _ = rowChanges(y)
    addLiteral(stream[position])
    let data = position + 1
    let count = stride - 1
    // Counting every byte cost a tenth of a photo frame; a photo's residuals are much alike
    // from row to row, so a few rows give the code lengths nearly as well. One row in 16, against
    // one in 4: the notes bench frame 7 % faster for 0.36 % more bytes (blocks of 2^19 symbols
    // hold about 150 photo rows).
    if photoRows % Self.sampledRows == 0 {
      PhotoRows.countLiterals(stream + data, count: count, zero: zeroChunkMarks, into: spanCounts)
    }
    photoRows += 1
    let chunks = (count + 31) / 32
    var k = 0
    let marks = zeroChunkMarks
    while k < chunks {
      let isZero = marks[k >> 6] >> UInt64(k & 63) & 1 != 0
      // The next chunk marked otherwise, a word of marks at a time: a photo row is mostly one
      // long stretch, which a test per chunk walked chunk by chunk.
      var end = k + 1
      while end < chunks {
        let word = isZero ? ~marks[end >> 6] : marks[end >> 6]
        let rest = word & (~0 << UInt64(end & 63))
        if rest != 0 {
          end = min(chunks, (end & ~63) + rest.trailingZeroBitCount)
          break
        }
        end = (end & ~63) + 64
      }
      end = min(end, chunks)
      let start = data + 32 * k
      let length = min(data + count, data + 32 * end) - start
      if isZero {
        addZeros(length)
      } else {
        tokens[tokenCount] = 0x4000_0000 | UInt32(truncatingIfNeeded: length)
        tokenCount += 1
        blockSymbols += length
        spanBytes += length
      }
      k = end
    }
    position += stride
  }

  /// Ends the stream with the Adler-32 of every row, and returns it; valid until the next ``begin``.
  package func finish(adler32: UInt32) -> UnsafeBufferPointer<UInt8> {
    writeBlock(final: true)
    flushBits(all: true)
    reserveOutput(4)
    for shift in [24, 16, 8, 0] {
      output[outputCount] = UInt8(truncatingIfNeeded: adler32 >> UInt32(shift))
      outputCount += 1
    }
    return UnsafeBufferPointer(start: output, count: outputCount)
  }

  /// Row `y` is not all zero; returns whether the row above is zeros that are not written.
  ///
  /// Such a row stays unwritten (a stored block writes it): the search compares with it as
  /// zeros, and only its last bytes are written, which the first comparisons of row `y` read
  /// (the pixel before, and a word of it). Writing whole rows above changed rows was most of the
  /// encoder's memset, 4 % of a flat frame.
  @inline(__always)
  private func rowChanges(_ y: Int) -> Bool {
    let aboveIsUnwritten = previousRow == .zeroUnwritten
    if aboveIsUnwritten {
      // Unwritten rows are wider than 259 bytes.
      UnsafeMutablePointer(mutating: stream + y * stride - 16).update(repeating: 0, count: 16)
    }
    previousRow = .changed
    return aboveIsUnwritten
  }

  /// Writes the zero data bytes of row `y` of the stream (its filter byte is the caller's).
  private func writeZeros(row y: Int) {
    UnsafeMutablePointer(mutating: stream + y * stride + 1).update(
      repeating: 0, count: stride - 1)
  }

  // MARK: Tokens

  /// How many bytes from `p` on equal those `distance` bytes earlier, up to `limit`.
  @inline(__always)
  private func matchLength(
    _ stream: UnsafePointer<UInt8>, at p: Int, distance: Int, limit: Int
  ) -> Int {
    let a = UnsafeRawPointer(stream + p)
    let b = UnsafeRawPointer(stream + p - distance)
    var n = 0
    while n &+ 8 <= limit {
      let x =
        a.loadUnaligned(fromByteOffset: n, as: UInt64.self)
        ^ b.loadUnaligned(fromByteOffset: n, as: UInt64.self)
      if x != 0 { return n &+ x.littleEndian.trailingZeroBitCount >> 3 }
      n &+= 8
      // Then 16 bytes a step: long runs (flat colour) are where the bytes go.
      while n &+ 16 <= limit {
        let y =
          a.loadUnaligned(fromByteOffset: n, as: UInt64.self)
          ^ b.loadUnaligned(fromByteOffset: n, as: UInt64.self)
        let z =
          a.loadUnaligned(fromByteOffset: n &+ 8, as: UInt64.self)
          ^ b.loadUnaligned(fromByteOffset: n &+ 8, as: UInt64.self)
        if y | z != 0 {
          return y != 0
            ? n &+ y.littleEndian.trailingZeroBitCount >> 3
            : n &+ 8 &+ z.littleEndian.trailingZeroBitCount >> 3
        }
        n &+= 16
      }
    }
    while n < limit
      && a.load(fromByteOffset: n, as: UInt8.self)
        == b.load(fromByteOffset: n, as: UInt8.self)
    {
      n &+= 1
    }
    return n
  }

  /// The tokens of a run of `count` zeros: one as a literal, then copies of the byte before,
  /// whose distance of 1 needs no extra bits, so a whole zero row costs a few bits.
  private static func zeroRun(_ count: Int, _ emit: (UInt32) -> Void) {
    guard count > 0 else { return }
    emit(0)
    var left = count - 1
    while left >= 3 {
      // Never leave 1 or 2: they could not be a copy.
      let length = left > 258 ? (left - 258 >= 3 ? 258 : left - 3) : left
      emit(0x8000_0000 | UInt32(length) << 16 | 1)
      left -= length
    }
    for _ in 0..<left { emit(0) }
  }

  /// A run of `count` zeros (see `zeroRun`).
  private func addZeros(_ count: Int) {
    Self.zeroRun(count) { t in
      if t & 0x8000_0000 == 0 {
        addLiteral(UInt8(t))
      } else {
        addMatch(length: Int(t >> 16 & 0x1ff), distance: Int(t & 0xffff))
      }
    }
  }

  /// A row of zeros after its filter byte, as one token: every zero row of an image has the same
  /// tokens, so `writeTokens` appends their bits at once, where it coded some twenty tokens a
  /// row one by one (a tenth of a flat frame's encoding).
  @inline(__always)
  private func addZeroRow(_ filter: UInt8) {
    tokens[tokenCount] = Self.zeroRowToken | UInt32(filter)
    tokenCount += 1
    blockSymbols += 1 + zeroRunSymbols
    frequencies[Int(filter)] += 1
    for k in 0..<zeroRunCountsUsed {
      frequencies[zeroRunCounts[k].index] += zeroRunCounts[k].count
    }
  }

  @inline(__always)
  private func addLiteral(_ byte: UInt8) {
    tokens[tokenCount] = UInt32(byte)
    tokenCount += 1
    blockSymbols += 1
    frequencies[Int(byte)] += 1
  }

  @inline(__always)
  private func addMatch(length: Int, distance: Int) {
    tokens[tokenCount] =
      0x8000_0000 | UInt32(length) << 16 | UInt32(truncatingIfNeeded: distance)
    tokenCount += 1
    blockSymbols += 1
    frequencies[Int(lengthSymbols[length])] += 1
    frequencies[Self.symbolCount + distanceCode(distance)] += 1
  }

  // MARK: Blocks

  /// Writes the collected tokens as one block: dynamic Huffman, or stored if that is smaller.
  private func writeBlock(final: Bool) {
    let literalCounts = frequencies
    let distanceCounts = frequencies + Self.symbolCount
    let hasSpans = photoRows > 0
    if photoRows > 0 {
      // The sampled rows stand for 16 each; every byte value gets a count, and so a code, as a
      // row that was not sampled may hold any.
      for byte in 0..<256 {
        literalCounts[byte] +=
          Self.sampledRows
          * Int(
            spanCounts[byte] &+ spanCounts[256 + byte] &+ spanCounts[512 + byte]
              &+ spanCounts[768 + byte]) + 1
      }
      spanCounts.update(repeating: 0, count: 1024)
      photoRows = 0
    }
    literalCounts[256] += 1  // end of block
    var literalLengths = [UInt8](repeating: 0, count: Self.symbolCount)
    var distanceLengths = [UInt8](repeating: 0, count: Self.distanceCount)
    codeLengths(
      literalCounts, count: Self.symbolCount, limit: 15, into: &literalLengths)
    codeLengths(
      distanceCounts, count: Self.distanceCount, limit: 15,
      into: &distanceLengths)

    // The two code length lists, trimmed, run-length coded with symbols 16, 17 and 18.
    var literalsUsed = Self.symbolCount
    while literalsUsed > 257 && literalLengths[literalsUsed - 1] == 0 {
      literalsUsed -= 1
    }
    var distancesUsed = Self.distanceCount
    while distancesUsed > 1 && distanceLengths[distancesUsed - 1] == 0 {
      distancesUsed -= 1
    }
    let lengths =
      Array(literalLengths[..<literalsUsed]) + distanceLengths[..<distancesUsed]
    var lengthCodes: [(symbol: Int, extra: Int, bits: Int)] = []
    var i = 0
    while i < lengths.count {
      let value = lengths[i]
      var run = 1
      while i + run < lengths.count && lengths[i + run] == value { run += 1 }
      i += run
      if value == 0 {
        while run >= 11 {
          let n = min(run, 138)
          lengthCodes.append((18, n - 11, 7))
          run -= n
        }
        if run >= 3 {
          lengthCodes.append((17, run - 3, 3))
          run = 0
        }
      } else {
        lengthCodes.append((Int(value), 0, 0))
        run -= 1
        while run >= 3 {
          let n = min(run, 6)
          lengthCodes.append((16, n - 3, 2))
          run -= n
        }
      }
      for _ in 0..<run { lengthCodes.append((Int(value), 0, 0)) }
    }
    var lengthCounts = [Int](repeating: 0, count: 19)
    for code in lengthCodes { lengthCounts[code.symbol] += 1 }
    var lengthLengths = [UInt8](repeating: 0, count: 19)
    lengthCounts.withUnsafeMutableBufferPointer {
      codeLengths($0.baseAddress!, count: 19, limit: 7, into: &lengthLengths)
    }
    let order = [
      16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ]
    var lengthsSent = 19
    while lengthsSent > 4 && lengthLengths[order[lengthsSent - 1]] == 0 {
      lengthsSent -= 1
    }

    // Exact sizes decide between a dynamic block and stored blocks.
    var bits = 3 + 14 + 3 * lengthsSent
    for code in lengthCodes {
      bits += Int(lengthLengths[code.symbol]) + code.bits
    }
    for symbol in 0..<Self.symbolCount where literalCounts[symbol] > 0 {
      let extra = symbol > 256 ? Int(lengthExtraBits[symbol - 257]) : 0
      bits += literalCounts[symbol] * (Int(literalLengths[symbol]) + extra)
    }
    for code in 0..<Self.distanceCount where distanceCounts[code] > 0 {
      bits +=
        distanceCounts[code]
        * (Int(distanceLengths[code]) + Int(distanceExtraBits[code]))
    }
    let raw = position - blockStart
    let storedBlocks = max(1, (raw + 65534) / 65535)
    if bits > 8 * (raw + 5 * storedBlocks) {
      writeStored(final: final)
    } else {
      // `bits` counts span literals from the sampled photo rows': the rows between may cost
      // more. Each literal takes at most 15 bits, so two bytes each bound them whatever the
      // sample said (a sample of every eighth row overran the estimate on the notes frame).
      reserveOutput(bits / 8 + 16 + 2 * spanBytes)
      putBits(final ? 1 : 0, 1)
      putBits(2, 2)  // dynamic Huffman codes
      putBits(UInt64(literalsUsed - 257), 5)
      putBits(UInt64(distancesUsed - 1), 5)
      putBits(UInt64(lengthsSent - 4), 4)
      for symbol in order[..<lengthsSent] {
        putBits(UInt64(lengthLengths[symbol]), 3)
      }
      let lengthTable = canonicalCodes(lengthLengths)
      for code in lengthCodes {
        let length = Int(lengthLengths[code.symbol])
        putBits(
          UInt64(lengthTable[code.symbol]) | UInt64(code.extra) << length,
          length + code.bits)
      }
      writeTokens(
        hasSpans: hasSpans,
        literalCodes: canonicalCodes(literalLengths),
        literalLengths: literalLengths,
        distanceCodes: canonicalCodes(distanceLengths),
        distanceLengths: distanceLengths)
    }
    frequencies.update(
      repeating: 0, count: Self.symbolCount + Self.distanceCount)
    tokenCount = 0
    blockSymbols = 0
    spanBytes = 0
    blockStart = position
    // A stored block writes its own unwritten rows; of earlier blocks' rows only the row above
    // is still read, as zeros.
    if previousRow == .zeroUnwritten {
      unwrittenRows[0] = unwrittenRows[unwrittenCount - 1]
      unwrittenCount = 1
    } else {
      unwrittenCount = 0
    }
  }

  /// Writes the block's tokens and its end-of-block symbol.
  private func writeTokens(
    hasSpans: Bool,
    literalCodes: [UInt16], literalLengths: [UInt8], distanceCodes: [UInt16],
    distanceLengths: [UInt8]
  ) {
    // Each table entry is a symbol's code with its extra bits already shifted in (at most 28
    // bits), and the bit count above bit 32: a literal is one load and one append, a match two.
    let literalFields = self.literalFields
    for symbol in 0..<256 {
      literalFields[symbol] =
        UInt64(literalCodes[symbol]) | UInt64(literalLengths[symbol]) << 32
    }
    let lengthFields = self.lengthFields
    for length in 3...258 {
      let symbol = Int(lengthSymbols[length])
      let code = symbol - 257
      let size = Int(literalLengths[symbol])
      lengthFields[length] =
        UInt64(literalCodes[symbol]) | UInt64(length - Int(lengthBase[code]))
        << size | UInt64(size + Int(lengthExtraBits[code])) << 32
    }
    // Distances are mostly one pixel, one row, or one byte (the zeros of rows that repeat the
    // row above): those three are looked up once per block.
    let pixelField = distanceField(
      bytesPerPixel, codes: distanceCodes, lengths: distanceLengths)
    let byteField = distanceField(1, codes: distanceCodes, lengths: distanceLengths)
    let rowField =
      stride <= 32768
      ? distanceField(stride, codes: distanceCodes, lengths: distanceLengths) : 0
    // The writer is a plain local that no closure captures: the span coder below takes its
    // buffer and bit count inout, which for a captured variable costs a dynamic exclusivity
    // check per call (3.5 % of a photo frame, when `put` was a nested function).
    var writer = BitWriter(buffer: bitBuffer, bits: bitCount, out: outputCount, output: output)
    let pixel = UInt32(truncatingIfNeeded: bytesPerPixel)
    let row = UInt32(truncatingIfNeeded: stride)
    let all = UnsafeBufferPointer(start: tokens, count: tokenCount)
    let zeroRow = zeroRowBits(
      literalFields: literalFields, lengthFields: lengthFields, byteField: byteField)
    @inline(__always) func distance(_ t: UInt32) -> UInt64 {
      let distance = t & 0xffff
      return distance == pixel
        ? pixelField
        : distance == row
          ? rowField
          : distance == 1
            ? byteField
            : distanceField(Int(distance), codes: distanceCodes, lengths: distanceLengths)
    }
    if !hasSpans {
      // A block without photo rows: no token needs its place in the stream.
      for t in all {
        if t & 0x8000_0000 == 0 {
          writer.put(literalFields[Int(t)])
        } else if t & 0xc000_0000 == Self.zeroRowToken {
          writer.put(literalFields[Int(t & 0xff)])
          for chunk in zeroRow { writer.put(chunk) }
        } else {
          writer.put(lengthFields[Int((t >> 16) & 0x1ff)])
          writer.put(distance(t))
        }
      }
    } else {
      let s = stream
      var at = blockStart
      // The code as byte tables, for the vector coder's lookups (once a block).
      let tables = literalTables
      PhotoRows.makeTables(literalFields, into: tables)
      let vector = vectorCoder
      for t in all {
        if t & 0xc000_0000 == 0 {
          writer.put(literalFields[Int(t)])
          at &+= 1
        } else if t & 0xc000_0000 == Self.zeroRowToken {
          writer.put(literalFields[Int(t & 0xff)])
          for chunk in zeroRow { writer.put(chunk) }
          at &+= stride
        } else if t & 0x8000_0000 == 0 {
          let n = Int(t & 0x3fff_ffff)
          var o = writer.output + writer.out
          PhotoRows.code(
            s + at, count: n, fields: literalFields, tables: tables,
            buffer: &writer.buffer, bits: &writer.bits, out: &o, vector: vector)
          writer.out = o - writer.output
          at &+= n
        } else {
          at &+= Int((t >> 16) & 0x1ff)
          writer.put(lengthFields[Int((t >> 16) & 0x1ff)])
          writer.put(distance(t))
        }
      }
    }
    bitBuffer = writer.buffer
    bitCount = writer.bits
    outputCount = writer.out
    putBits(UInt64(literalCodes[256]), Int(literalLengths[256]))
  }

  /// A zero row's data tokens (`zeroRunTokens`) coded with the block's code, as fields of 32
  /// bits (the last of fewer) that `BitWriter.put` appends in order: the same bits as the tokens'
  /// own fields one by one.
  private func zeroRowBits(
    literalFields: UnsafeMutablePointer<UInt64>, lengthFields: UnsafeMutablePointer<UInt64>,
    byteField: UInt64
  ) -> [UInt64] {
    var chunks: [UInt64] = []
    chunks.reserveCapacity(zeroRunTokens.count)
    var pending: UInt64 = 0
    var count = 0
    func add(_ field: UInt64) {
      pending |= (field & 0xffff_ffff) << UInt64(count)
      count += Int(field >> 32)
      if count >= 32 {
        chunks.append(pending & 0xffff_ffff | 32 << 32)
        pending >>= 32
        count -= 32
      }
    }
    for t in zeroRunTokens {
      if t & 0x8000_0000 == 0 {
        add(literalFields[Int(t)])
      } else {
        // Distance 1: the byte field (a pixel is 3 or 4 bytes and a row longer than 1).
        add(lengthFields[Int(t >> 16 & 0x1ff)])
        add(byteField)
      }
    }
    if count > 0 { chunks.append(pending | UInt64(count) << 32) }
    return chunks
  }

  /// A distance's code and extra bits as one field, with the bit count above bit 32.
  @inline(__always)
  private func distanceField(
    _ distance: Int, codes: [UInt16], lengths: [UInt8]
  ) -> UInt64 {
    let code = distanceCode(distance)
    let size = Int(lengths[code])
    return UInt64(codes[code]) | UInt64(distance - Int(distanceBase[code])) << size
      | UInt64(size + Int(distanceExtraBits[code])) << 32
  }

  /// Writes the block's bytes as stored blocks of at most 65,535 bytes.
  private func writeStored(final: Bool) {
    for k in 0..<unwrittenCount { writeZeros(row: unwrittenRows[k]) }
    var start = blockStart
    repeat {
      let n = min(65535, position - start)
      let last = start + n == position
      reserveOutput(n + 16)
      putBits(final && last ? 1 : 0, 1)
      putBits(0, 2)  // stored
      flushBits(all: true)
      for v in [n & 0xff, n >> 8, ~n & 0xff, (~n >> 8) & 0xff] {
        output[outputCount] = UInt8(v)
        outputCount += 1
      }
      (output + outputCount).update(from: stream + start, count: n)
      outputCount += n
      start += n
    } while start < position
  }

  // MARK: Bits

  /// Appends `count` bits (at most 32), least significant first.
  @inline(__always)
  private func putBits(_ value: UInt64, _ count: Int) {
    bitBuffer |= value << UInt64(bitCount)
    bitCount += count
    if bitCount >= 32 { flushBits(all: false) }
  }

  /// Moves whole bytes (or, with `all`, every bit, padded to a byte) to the output.
  @inline(__always)
  private func flushBits(all: Bool) {
    // One unaligned 8-byte store, then advance by the whole bytes in it: `reserveOutput` keeps
    // 8 bytes of slack for this.
    UnsafeMutableRawPointer(output + outputCount).storeBytes(
      of: bitBuffer.littleEndian, as: UInt64.self)
    let bytes = all ? (bitCount + 7) >> 3 : bitCount >> 3
    outputCount += bytes
    bitBuffer = bytes == 8 ? 0 : bitBuffer >> UInt64(8 * bytes)
    bitCount = max(0, bitCount - 8 * bytes)
  }

  /// Makes room for `count` more bytes, plus the 8 bytes of slack `flushBits` writes past the end.
  private func reserveOutput(_ count: Int) {
    let needed = outputCount + count + 16
    guard needed > outputCapacity else { return }
    let capacity = max(needed, 2 * outputCapacity)
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    grown.update(from: output, count: outputCount)
    output.deallocate()
    output = grown
    outputCapacity = capacity
  }
}

// MARK: - Huffman codes

/// Bits on their way to the output: `bits` (fewer than 32) pending in `buffer`, `out` bytes
/// written.
private struct BitWriter {
  var buffer: UInt64
  var bits: Int
  var out: Int
  let output: UnsafeMutablePointer<UInt8>

  /// Appends a field (code and extra bits in the low 32 bits, their count above) and moves four
  /// whole bytes out once 32 bits are held: fewer than 32 held and at most 32 added (a zero row's
  /// chunks; a symbol's field is at most 28) always fit the 64-bit buffer.
  @inline(__always) mutating func put(_ field: UInt64) {
    buffer |= (field & 0xffff_ffff) << UInt64(bits)
    bits &+= Int(field >> 32)
    if bits >= 32 {
      UnsafeMutableRawPointer(output + out).storeBytes(
        of: UInt32(truncatingIfNeeded: buffer).littleEndian, as: UInt32.self)
      out &+= 4
      buffer >>= 32
      bits &-= 32
    }
  }
}

/// Sorts `symbols` (in ascending order) by their counts, ties by symbol: a least-significant-
/// digit radix sort on the counts' bytes, which keeps the order of equal counts.
///
/// Why not the standard library's `sort`: it is a merge sort whose run stack is an array of
/// `Range<Int>`, and the first such array in a process makes the runtime check `Int`'s
/// conformances by scanning every conformance record in the binary (0.3 ms, paid by every
/// process that writes a PNG). A heap sort avoided that but its unpredictable branches cost 2 %
/// of a photo feed's scroll; this sort has none, and a block's counts need two or three passes.
private func sortByCount(_ symbols: inout [Int], counts: UnsafeMutablePointer<Int>) {
  let n = symbols.count
  guard n > 1 else { return }
  var largest = 0
  for symbol in symbols { largest = max(largest, counts[symbol]) }
  var other = [Int](repeating: 0, count: n)
  var buckets = [Int](repeating: 0, count: 257)
  var shift = 0
  while largest >> shift > 0 {
    buckets.withUnsafeMutableBufferPointer { b in
      b.update(repeating: 0)
      for symbol in symbols { b[((counts[symbol] >> shift) & 0xff) + 1] += 1 }
      for digit in 1...256 { b[digit] += b[digit - 1] }
      for symbol in symbols {
        let digit = (counts[symbol] >> shift) & 0xff
        other[b[digit]] = symbol
        b[digit] += 1
      }
    }
    swap(&symbols, &other)
    shift += 8
  }
}

/// Sets the length of each symbol's code from its count: optimal, at most `limit` bits, 0 for
/// unused symbols, and at least two used symbols so that every decoder accepts the code.
private func codeLengths(
  _ counts: UnsafeMutablePointer<Int>, count: Int, limit: Int,
  into lengths: inout [UInt8]
) {
  // zlib rejects an incomplete code with more than one symbol, and a one-symbol code for the
  // code lengths; a second symbol with a count of one costs a bit at most.
  var missing = 2
  for symbol in 0..<count where missing > 0 && counts[symbol] > 0 { missing -= 1 }
  for symbol in 0..<count where missing > 0 && counts[symbol] == 0 {
    counts[symbol] = 1
    missing -= 1
  }
  // Least frequent first; ties by symbol (the symbols start in order and the sort keeps the
  // order of equal counts).
  var used = (0..<count).filter { counts[$0] > 0 }
  sortByCount(&used, counts: counts)
  var a = used.map { counts[$0] }
  let n = a.count
  // Moffat and Katajainen's in-place algorithm: `a` becomes each symbol's code length.
  a[0] += a[1]
  var root = 0
  var leaf = 2
  for next in 1..<(n - 1) {
    if leaf >= n || a[root] < a[leaf] {
      a[next] = a[root]
      a[root] = next
      root += 1
    } else {
      a[next] = a[leaf]
      leaf += 1
    }
    if leaf >= n || (root < next && a[root] < a[leaf]) {
      a[next] += a[root]
      a[root] = next
      root += 1
    } else {
      a[next] += a[leaf]
      leaf += 1
    }
  }
  a[n - 2] = 0
  if n >= 3 {
    for next in stride(from: n - 3, through: 0, by: -1) {
      a[next] = a[a[next]] + 1
    }
  }
  var available = 1
  var usedAtDepth = 0
  var depth = 0
  root = n - 2
  var next = n - 1
  while available > 0 {
    while root >= 0 && a[root] == depth {
      usedAtDepth += 1
      root -= 1
    }
    while available > usedAtDepth {
      a[next] = depth
      next -= 1
      available -= 1
    }
    available = 2 * usedAtDepth
    depth += 1
    usedAtDepth = 0
  }
  // Codes per length, then the limit: move codes up from the deepest lengths until the Kraft
  // sum is exact again (miniz's tdefl_huffman_enforce_max_code_size).
  var perLength = [Int](repeating: 0, count: max(limit, a.max()!) + 1)
  for length in a { perLength[length] += 1 }
  for length in stride(from: perLength.count - 1, to: limit, by: -1) {
    perLength[limit] += perLength[length]
    perLength[length] = 0
  }
  var total = 0
  for length in 1...limit { total += perLength[length] << (limit - length) }
  while total != 1 << limit {
    perLength[limit] -= 1
    for length in stride(from: limit - 1, to: 0, by: -1)
    where perLength[length] > 0 {
      perLength[length] -= 1
      perLength[length + 1] += 2
      break
    }
    total -= 1
  }
  // The shortest codes go to the most frequent symbols, at the end of `used`.
  for i in lengths.indices { lengths[i] = 0 }
  var j = n
  for length in 1...limit {
    for _ in 0..<perLength[length] {
      j -= 1
      lengths[used[j]] = UInt8(length)
    }
  }
}

/// The canonical code of each symbol (RFC 1951 3.2.2), bit-reversed for least-significant-first output.
private func canonicalCodes(_ lengths: [UInt8]) -> [UInt16] {
  var perLength = [Int](repeating: 0, count: 16)
  for length in lengths where length > 0 { perLength[Int(length)] += 1 }
  var next = [Int](repeating: 0, count: 16)
  var code = 0
  for length in 1..<16 {
    code = (code + perLength[length - 1]) << 1
    next[length] = code
  }
  return lengths.map { length in
    guard length > 0 else { return 0 }
    let value = UInt16(truncatingIfNeeded: next[Int(length)])
    next[Int(length)] += 1
    // Reversed by swapping halves, bytes, nibbles, pairs and bits, then shifted down to `length`.
    var r = value.byteSwapped
    r = (r & 0xf0f0) >> 4 | (r & 0x0f0f) << 4
    r = (r & 0xcccc) >> 2 | (r & 0x3333) << 2
    r = (r & 0xaaaa) >> 1 | (r & 0x5555) << 1
    return r >> (16 - UInt16(length))
  }
}

// MARK: - RFC 1951 tables

/// The smallest length of each length symbol 257…285, and its extra bits.
private let lengthBase: [UInt16] = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67,
  83, 99, 115,
  131, 163, 195, 227, 258,
]
private let lengthExtraBits: [UInt8] = [
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5,
  5, 5, 0,
]
/// The smallest distance of each distance code 0…29, and its extra bits.
private let distanceBase: [UInt16] = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
  1025, 1537,
  2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
]
private let distanceExtraBits: [UInt8] = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11,
  11, 12, 12, 13,
  13,
]

/// The distance code of a distance from 1 to 32768: two codes per power of two above 4.
@inline(__always)
private func distanceCode(_ distance: Int) -> Int {
  let d = distance - 1
  if d < 4 { return d }
  let high = Int.bitWidth - 1 - d.leadingZeroBitCount
  return 2 * high + ((d >> (high - 1)) & 1)
}
