internal import PNGKernels
internal import Dispatch
internal import PNGDeflate
#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif
internal import Synchronization

// Why our own encoder, and why libdeflate.
//
// cairo_surface_write_to_png un-premultiplies, then libpng tries all five filters per row
// and zlib compresses at level 6: on the 1500×2668 test frame (Tests/CairoTests, 40 cards
// with text) it takes 120–160 ms, ~30x the 4 ms it takes to draw the frame.
//
// Measured on this 2-core machine (release, medians, other builds running):
// - zlib level 6 alone on our filtered rows: 58 ms; libdeflate levels 5–7: 37–40 ms, 1–2%
//   smaller. Levels 1–4 are at most ~20% faster here (the input is mostly long zero runs,
//   where every level pays per byte) but 1.5–3.5% larger than cairo's file; 8–9 are slower
//   and larger, 12 takes 2.5 s. Level 6 is the smallest of the fast ones: the default.
// - libspng (libspng-dev 0.7.3, default settings) uses zlib too: 197 ms, 123231 bytes,
//   slower than cairo itself, so it cannot meet the target.
// - Filtering: libpng's minimum-sum-of-absolute-differences choice over Sub, Up and Paeth,
//   in one branch-free loop LLVM vectorizes (17 ms; Swift's SIMD types were 4x slower),
//   with Up chosen at once for rows equal to the row above. Up alone is 2.7% larger than cairo's file.
// - Two bands, each filtered and compressed on its own core and joined bit-exactly into one
//   zlib stream (DeflateStitching.swift): 35–50 ms wall against 52 ms with one band.
// Result, 1500×2668 frame: ours 35 ms against cairo's 130 ms when a core is free (3.8x),
// 56–69 ms against 147–183 ms with load average 3–4 on 2 cores (median per-pair ratio
// 2.6–2.7x); 120739 bytes against cairo's 123249.
// Reproduce: WATERFLOW_BENCHMARK=1 swift test -c release --filter PNGEncoderBenchmark

/// How hard the PNG encoder tries to make the file small.
///
/// Higher levels are slower. Every setting is deterministic: the same pixels and setting always
/// give the same bytes.
public struct PNGCompression: Hashable, Sendable {
  /// How rows are filtered before compression.
  public enum Filtering: Hashable, Sendable {
    /// libpng's choice per row among Sub, Up and Paeth: the smallest files.
    case adaptive
    /// Up for every row: about 3% larger files, and 14% less time for a frame sequence, where
    /// the other filters' arithmetic and the extra bytes libdeflate then sees cost the most.
    case up
  }

  /// Which DEFLATE encoder compresses the filtered rows.
  public enum Encoder: Hashable, Sendable {
    /// libdeflate at a level from 1 (fastest) to 12 (smallest).
    case libdeflate(level: Int)
    /// Waterflow's run encoder: it looks only for rows that repeat the row above and runs of one
    /// pixel, which is what rendered UI is made of, with Up filtering; rows of photos get Paeth,
    /// runs of zero chunks and literals coded straight from the rows.
    case runs
  }

  /// The DEFLATE encoder and its level.
  public let encoder: Encoder
  /// How rows are filtered.
  public let filtering: Filtering

  /// Creates a compression setting with a libdeflate level from 1 (fastest) to 12 (smallest).
  public init(level: Int, filtering: Filtering = .adaptive) {
    precondition((1...12).contains(level), "level must be from 1 to 12")
    self.encoder = .libdeflate(level: level)
    self.filtering = filtering
  }

  private init(encoder: Encoder, filtering: Filtering) {
    self.encoder = encoder
    self.filtering = filtering
  }

  /// The libdeflate level, or 1 (the zlib header's "fastest") for the run encoder.
  var level: Int {
    switch encoder {
    case .libdeflate(let level): level
    case .runs: 1
    }
  }

  /// The fastest libdeflate level; files are larger.
  public static let fast = PNGCompression(level: 1)
  /// The level chosen by measurement for rendered frames: faster than cairo, and no larger.
  public static let `default` = PNGCompression(level: 6)
  /// The smallest files libdeflate can make; much slower.
  public static let best = PNGCompression(level: 12)
  /// For frame sequences: the run encoder, about 3× faster than libdeflate on rendered UI for
  /// files about 5 % larger, and faster than fpng on photo feeds for smaller files (measurements
  /// in RunDeflater.swift).
  public static let frames = PNGCompression(encoder: .runs, filtering: .up)
}

/// A PNG encoder that keeps its compressor and buffers between images.
///
/// Use one encoder for a sequence of frames to avoid reallocating; `ImageSurface.pngData(compression:)`
/// and ``RGBAImage/pngData(compression:)`` borrow one from a shared pool. An encoder is not
/// thread-safe: use one per thread.
///
/// Images whose pixels are all opaque are written as 8-bit RGB (colour type 2), others as
/// 8-bit RGBA (colour type 6) with straight alpha, un-premultiplied exactly as cairo's own PNG
/// writer does, so cairo reads back the same pixels from either file.
public final class PNGEncoder {
  /// The compression level of this encoder.
  public let compression: PNGCompression
  /// One libdeflate compressor per band.
  private var compressors: [DeflateCompressor] = []
  /// Filtered scanlines, each prefixed by its filter type byte; reused between images.
  private var filtered: UnsafeMutablePointer<UInt8>?
  private var filteredCapacity = 0
  /// The run encoder, made on first use.
  private var runDeflater: RunDeflater?
  /// Two rows packed as RGB for photo rows' filters (the row and the one above), each after 16
  /// zero bytes; the slot of the last row packed, and which surface row that is (-1: none).
  private var packedRows: UnsafeMutablePointer<UInt8>?
  private var packedRowBytes = 0
  private var packedSlot = 0
  private var packedRowIndex = -1
  /// Whether frames are filtered and their photo rows coded with the CPU's vector unit (AVX2, and
  /// AVX-512 for literals where the CPU has it) rather than in portable code: the same bytes
  /// either way. Tests turn it off to compare the two.
  package var usesVectorFilter = VectorRowFilter.isAvailable
  /// Whether rows after a photo row are filtered in one pass where the CPU can
  /// (`PhotoRows.isFused`); tests turn it off to compare the bytes with the separate passes'.
  package var usesFusedPhotoRows = true

  /// The reused buffer of filtered rows, grown to `count` bytes.
  private func filteredRows(_ count: Int) -> UnsafeMutablePointer<UInt8> {
    // `filtered == nil` too: a 0×0 image (a failed render) needs a buffer as well, not a trap.
    if filtered == nil || filteredCapacity < count {
      filtered?.deallocate()
      // Slack for row packing, which stores whole words past a row's last byte.
      let bytes = count + 16
      if bytes >= 1 << 21 {
        // A frame's buffer in 2 MiB pages where the kernel has them (transparent huge pages on
        // request): in 4 KiB pages, a 750×1334 frame's 3 MB took ~750 page faults when the first
        // frame was written, before any frame was done, and a TLB miss every 4 KiB on every frame.
        // Whole huge pages: a partial one at the end would be faulted in 4 KiB at a time.
        let rounded = ((bytes + (1 << 21) - 1) >> 21) << 21
        let memory = UnsafeMutableRawPointer.allocate(byteCount: rounded, alignment: 1 << 21)
        #if os(Linux)
          _ = madvise(memory, rounded, MADV_HUGEPAGE)
        #endif
        filtered = memory.bindMemory(to: UInt8.self, capacity: rounded)
      } else {
        filtered = .allocate(capacity: bytes)
      }
      filteredCapacity = count
    }
    return filtered!
  }

  /// Creates an encoder at the given compression level.
  public init(compression: PNGCompression = .default) {
    self.compression = compression
  }

  deinit {
    filtered?.deallocate()
    packedRows?.deallocate()
  }

  /// Rows `y − 1` and `y` of the surface packed as RGB, each after zero bytes. Row `y − 1` is
  /// kept from the call for the row above when that was a photo row too, as photos span many
  /// rows: only row `y` is packed then.
  private func packedRows(
    _ y: Int, of base: UnsafeRawPointer, stride: Int, width: Int
  ) -> (above: UnsafePointer<UInt8>, row: UnsafePointer<UInt8>) {
    let rowBytes = 3 * width
    if packedRows == nil || packedRowBytes < rowBytes {
      packedRows?.deallocate()
      let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * (rowBytes + 64))
      memory.initialize(repeating: 0, count: 2 * (rowBytes + 64))
      packedRows = memory
      packedRowBytes = rowBytes
      packedRowIndex = -1
    }
    // A slot's place depends on the buffer's size, not this image's width: the 16 bytes before
    // the second must stay zero whatever a wider image wrote.
    func slot(_ k: Int) -> UnsafeMutablePointer<UInt8> {
      packedRows! + 16 + k * (packedRowBytes + 64)
    }
    func pack(_ row: Int, into k: Int) {
      PhotoRows.pack(
        (base + row * stride).assumingMemoryBound(to: UInt32.self), width: width, into: slot(k),
        vector: usesVectorFilter)
    }
    if packedRowIndex != y - 1 { pack(y - 1, into: packedSlot) }
    packedSlot = 1 - packedSlot
    pack(y, into: packedSlot)
    packedRowIndex = y
    return (UnsafePointer(slot(1 - packedSlot)), UnsafePointer(slot(packedSlot)))
  }

  /// Allocates compressors until there is one per band.
  private func reserveCompressors(_ n: Int) {
    while compressors.count < n {
      compressors.append(DeflateCompressor(level: compression.level))
    }
  }

  /// Encodes premultiplied, native-endian ARGB32 pixels (a cairo surface's) as PNG.
  ///
  /// - Parameters:
  ///   - base: The first row; each row holds `width` 32-bit pixels.
  ///   - width: The width in pixels.
  ///   - height: The height in pixels.
  ///   - stride: The distance in bytes from one row to the next.
  ///   - concurrently: Whether a big image is cut in two bands compressed on two cores. Callers
  ///     that already keep every core busy (frame sequences) pass `false` and get one band: other
  ///     bytes (slightly smaller), the same pixels, and the same bytes on every run.
  /// - Returns: The bytes of a PNG file.
  package func encode(
    premultiplied base: UnsafeRawPointer, width: Int, height: Int, stride: Int,
    concurrently: Bool = true
  ) -> [UInt8] {
    // Frames are opaque: the run encoder takes that for granted and finds out otherwise while
    // it filters, which spares the separate pass over every pixel that `isOpaque` costs.
    if compression.encoder == .runs,
      let png = encodeOpaqueFrame(base, width: width, height: height, stride: stride)
    {
      return png
    }
    let opaque = Self.isOpaque(base, width: width, height: height, stride: stride)
    return encode(width: width, height: height, alpha: !opaque, concurrently: concurrently) {
      y, row in
      let pixels = (base + y * stride).assumingMemoryBound(to: UInt32.self)
      if opaque {
        packOpaqueRow(pixels, width: width, into: row)
      } else {
        unpremultiplyRow(pixels, width: width, into: row)
      }
    }
  }

  /// Encodes opaque pixels as RGB with the run encoder, or returns nil as soon as a pixel is not
  /// opaque (the caller then encodes the image as RGBA).
  ///
  /// Opaque pixels need no division, so the Up filter subtracts whole surface rows before
  /// packing, and packs only the groups of pixels that differ from the row above: in a frame
  /// most rows are mostly equal to the one above. A pixel equal to the one above is as opaque as
  /// it, so only the first row and the pixels that differ need their alpha checked.
  private func encodeOpaqueFrame(
    _ base: UnsafeRawPointer, width: Int, height: Int, stride: Int
  ) -> [UInt8]? {
    let rowBytes = 3 * width
    let rawCount = height * (rowBytes + 1)
    let raw = filteredRows(rawCount)
    let deflater = runDeflater ?? RunDeflater()
    runDeflater = deflater
    deflater.usesVectorCoder = usesVectorFilter
    deflater.begin(raw, rowBytes: rowBytes, bytesPerPixel: 3)
    packedRowIndex = -1
    // Rows that are not all zero are checksummed together, in one call per stretch of them.
    var checksum: UInt32 = 1
    var unsummed = raw
    let vector = usesVectorFilter
    // Photo rows come in runs: after one, the next is tried as a photo row in one pass
    // (PhotoRows.photoRow), which reaches the same choice from the same counts.
    let fused = vector && usesFusedPhotoRows && PhotoRows.isFused
    var afterPhotoRow = false
    var neighbourhood = PhotoNeighbourhood()
    for y in 0..<height {
      let pixels = (base + y * stride).assumingMemoryBound(to: UInt32.self)
      let out = raw + y * (rowBytes + 1)
      out[0] = 2
      var isZero = false
      if y == 0 {
        guard Self.isOpaque(base, width: width, height: 1, stride: stride)
        else { return nil }
        packOpaqueRow(pixels, width: width, into: out + 1)
      } else if fused && afterPhotoRow {
        let above = (base + (y - 1) * stride).assumingMemoryBound(to: UInt32.self)
        guard
          let counts = PhotoRows.photoRow(
            pixels, above: above, width: width, into: out + 1, zero: deflater.zeroChunks)
        else { return nil }
        isZero = counts.changed == 0
        let isPhoto =
          isPhotoRow(changed: counts.changed, rowBytes: rowBytes)
          && isPaethRow(gradient: counts.gradient, nonzero: counts.nonzero, rowBytes: rowBytes)
        if isPhoto { neighbourhood.notePhotoRow(y) }
        afterPhotoRow = isPhoto || (!isZero && neighbourhood.includes(y))
        if afterPhotoRow {
          out[0] = 4
          deflater.addPhotoRow(y)
          continue
        }
        // Not a photo row after all: the Up residual the other path codes it from.
        if !isZero {
          _ = VectorRowFilter.upFilterOpaqueRow(pixels, above: above, width: width, into: out + 1)
        }
      } else {
        let above = (base + (y - 1) * stride).assumingMemoryBound(
          to: UInt32.self)
        // How many bytes changed from the row above (0: none, and with the vector filter none
        // written), or nil at a pixel that is not opaque.
        let changed: Int?
        if vector {
          changed = VectorRowFilter.upFilterOpaqueRow(
            pixels, above: above, width: width, into: out + 1)
        } else {
          changed = upFilterOpaqueRow(pixels, above: above, width: width, into: out + 1).map {
            $0 ? 0 : PhotoRows.nonzeroCount(out + 1, count: rowBytes, vector: false)
          }
        }
        guard let changed else { return nil }
        isZero = changed == 0
        afterPhotoRow = false
        let isCandidate = isPhotoRow(changed: changed, rowBytes: rowBytes)
        let isNeighbour = !isZero && neighbourhood.includes(y)
        if isCandidate || isNeighbour {
          let packed = packedRows(y, of: base, stride: stride, width: width)
          let coding = addPhotoRow(
            y, packed.row, above: packed.above, rowBytes: rowBytes, bytesPerPixel: 3, into: out,
            deflater: deflater, vector: vector, always: isNeighbour)
          if isCandidate && coding.paethPays { neighbourhood.notePhotoRow(y) }
          afterPhotoRow = coding.isPhotoCoded
          continue
        }
      }
      if isZero {
        checksum = adler32(checksum, unsummed, count: out - unsummed)
        checksum = adler32(checksum, zeroRowOf: rowBytes)
        unsummed = out + rowBytes + 1
      }
      deflater.addRow(y, isZero: isZero)
    }
    checksum = adler32(checksum, unsummed, count: raw + rawCount - unsummed)
    return container(
      width: width, height: height, alpha: false,
      zlib: deflater.finish(adler32: checksum))
  }

  /// Encodes straight RGBA pixels as PNG.
  ///
  /// - Parameter image: The image.
  /// - Returns: The bytes of a PNG file.
  public func encode(_ image: RGBAImage) -> [UInt8] {
    encode(image, bandsInTurn: false)
  }

  /// Encodes straight RGBA pixels as PNG, into the same bytes as ``encode(_:)``.
  ///
  /// - Parameters:
  ///   - image: The image.
  ///   - bandsInTurn: Whether a big image's two bands are compressed one after the other on
  ///     this thread rather than on two cores: for callers that keep every core busy (goldens
  ///     on as many jobs as cores), where a second thread per image only contends for them.
  ///     The bands, and so the bytes, are the same either way.
  /// - Returns: The bytes of a PNG file.
  package func encode(_ image: RGBAImage, bandsInTurn: Bool) -> [UInt8] {
    image.pixels.withUnsafeBufferPointer { buffer in
      let width = image.width
      let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
      // Straight RGBA read as little-endian words has alpha in the top byte, as ARGB words do.
      // Scanning byte by byte and packing pixel by pixel were a sixth of `waterflow diff`'s CPU
      // time on a 750×1334 pair (its diff image is opaque).
      let opaque = Self.isOpaque(
        UnsafeRawPointer(base), width: width, height: image.height, stride: width * 4)
      let vector = usesVectorFilter
      return encode(width: width, height: image.height, alpha: !opaque, bandsInTurn: bandsInTurn) {
        y, row in
        let source = base + y * width * 4
        if opaque {
          PhotoRows.pack(rgba: source, width: width, into: row, vector: vector)
        } else {
          row.update(from: source, count: width * 4)
        }
      }
    }
  }

  /// True if every pixel has alpha 255.
  private static func isOpaque(
    _ base: UnsafeRawPointer, width: Int, height: Int, stride: Int
  ) -> Bool {
    for y in 0..<height {
      let pixels = (base + y * stride).assumingMemoryBound(to: UInt32.self)
      // AND-ing all pixels keeps alpha 0xff only if every alpha is 0xff; no branch per pixel.
      var all: UInt32 = 0xff00_0000
      for x in 0..<width { all &= pixels[x] }
      if all & 0xff00_0000 != 0xff00_0000 { return false }
    }
    return true
  }

  /// Writes the PNG: signature, IHDR, one IDAT holding the zlib stream, IEND.
  ///
  /// `fillRow(y, row)` writes row `y`'s unfiltered bytes (RGB or RGBA) into `row`.
  /// `concurrently` decides the bands (two for a big image, else one piece); `bandsInTurn`
  /// only whether two bands share this thread.
  private func encode(
    width: Int, height: Int, alpha: Bool, concurrently: Bool = true, bandsInTurn: Bool = false,
    fillRow: (Int, UnsafeMutablePointer<UInt8>) -> Void
  ) -> [UInt8] {
    let bytesPerPixel = alpha ? 4 : 3
    let rowBytes = width * bytesPerPixel
    let rawCount = height * (rowBytes + 1)
    let raw = filteredRows(rawCount)
    if compression.encoder == .runs {
      let deflater = runDeflater ?? RunDeflater()
      runDeflater = deflater
      deflater.usesVectorCoder = usesVectorFilter
      deflater.begin(raw, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel)
      let checksum = filterAndDeflate(
        height: height, into: raw, rowBytes: rowBytes, deflater: deflater,
        vector: usesVectorFilter,
        fillRow: fillRow)
      return container(
        width: width, height: height, alpha: alpha,
        zlib: deflater.finish(adler32: checksum))
    }
    // Big images are cut into bands of rows that are filtered and compressed on separate
    // cores, then joined into one zlib stream (DeflateStitching.swift). The number of bands
    // depends only on the image size, never on the machine, so the bytes are the same everywhere.
    // On one thread, bands would only add the cost of joining them: encode in one piece.
    let bands = concurrently && rawCount >= 1 << 20 ? 2 : 1
    reserveCompressors(bands)
    let rowsPerBand = (height + bands - 1) / bands
    let compressedBands = [CompressedBand](unsafeUninitializedCapacity: bands) {
      bandsBuffer, initialized in
      let results = UncheckedSendable(bandsBuffer.baseAddress!)
      let shared = UncheckedSendable((raw, compressors))
      let filtering = compression.filtering
      withoutActuallyEscaping(fillRow) { fillRow in
        let fill = UncheckedSendable(fillRow)
        // Safe to share: each band writes only its own rows of `raw`, its own result and
        // uses its own compressor; `fillRow` only reads pixels nothing changes meanwhile.
        forEachBand(bands, concurrently: concurrently && !bandsInTurn) { band in
          let (raw, compressors) = shared.value
          let first = min(height, band * rowsPerBand)
          let rows = first..<min(height, first + rowsPerBand)
          filterBand(
            rows, into: raw, width: width, bytesPerPixel: bytesPerPixel,
            filtering: filtering,
            fillRow: fill.value)
          let start = raw + rows.lowerBound * (rowBytes + 1)
          (results.value + band).initialize(
            to: CompressedBand(
              compressor: compressors[band], bands == 1 ? .zlib : .raw, start,
              count: rows.count * (rowBytes + 1)))
        }
      }
      initialized = bands
    }
    let zlib =
      bands == 1
      ? compressedBands[0]
      : CompressedBand(
        stitching: compressedBands, level: compression.level,
        adler32: adler32(1, raw, count: rawCount))
    defer { for band in compressedBands { band.bytes.deallocate() } }
    defer { if bands > 1 { zlib.bytes.deallocate() } }
    return container(
      width: width, height: height, alpha: alpha,
      zlib: UnsafeBufferPointer(start: zlib.bytes, count: zlib.count))
  }

  /// The PNG file around a zlib stream: signature, IHDR, one IDAT, IEND.
  private func container(
    width: Int, height: Int, alpha: Bool, zlib: UnsafeBufferPointer<UInt8>
  ) -> [UInt8] {
    let bound = zlib.count
    let headerCount = 8 + 25 + 8  // signature, IHDR chunk, IDAT length and type
    let trailerCount = 4 + 12  // IDAT CRC, IEND chunk
    return [UInt8](
      unsafeUninitializedCapacity: headerCount + bound + trailerCount
    ) { out, count in
      let o = out.baseAddress!
      var n = 0
      func put(_ bytes: [UInt8]) {
        for b in bytes {
          o[n] = b
          n += 1
        }
      }
      func put32(_ v: UInt32) {
        o[n] = UInt8(v >> 24)
        o[n + 1] = UInt8((v >> 16) & 0xff)
        o[n + 2] = UInt8((v >> 8) & 0xff)
        o[n + 3] = UInt8(v & 0xff)
        n += 4
      }
      func putCRC(from start: Int) {
        put32(crc32(0, o + start, count: n - start))
      }
      put([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
      // IHDR: width, height, bit depth 8, colour type 2 (RGB) or 6 (RGBA), deflate, adaptive
      // filtering, no interlace.
      put32(13)
      var start = n
      put([0x49, 0x48, 0x44, 0x52])
      put32(UInt32(width))
      put32(UInt32(height))
      put([8, alpha ? 6 : 2, 0, 0, 0])
      putCRC(from: start)
      // IDAT: compressed straight into the output, then its length is patched in.
      let lengthAt = n
      put32(0)
      start = n
      put([0x49, 0x44, 0x41, 0x54])
      let compressed = zlib.count
      (o + n).update(from: zlib.baseAddress!, count: compressed)
      n += compressed
      let end = n
      n = lengthAt
      put32(UInt32(compressed))
      n = end
      putCRC(from: start)
      put32(0)
      start = n
      put([0x49, 0x45, 0x4e, 0x44])
      putCRC(from: start)
      count = n
    }
  }
}

// MARK: - Row packing

/// Copies opaque premultiplied ARGB pixels to RGB bytes (no division needed when alpha is 255).
@inline(__always)
private func packOpaqueRow(
  _ pixels: UnsafePointer<UInt32>, width: Int,
  into row: UnsafeMutablePointer<UInt8>
) {
  // One 4-byte store per pixel, each overlapping the next by a byte: R, G, B, 0 in memory
  // order is the byte-swapped ARGB word shifted down. The row buffer has slack for the last.
  let o = UnsafeMutableRawPointer(row)
  for x in 0..<width {
    o.storeBytes(
      of: (pixels[x].byteSwapped >> 8).littleEndian, toByteOffset: 3 * x,
      as: UInt32.self)
  }
}

/// Writes the Up filter of a row of opaque premultiplied ARGB pixels as RGB bytes: `row − above`
/// byte by byte, packed as `packOpaqueRow` packs. Returns whether every byte is zero, or nil as
/// soon as a pixel that differs from the one above is not opaque.
///
/// Groups of four pixels equal to the four above, most of any frame, are compared as two words
/// and stored as 12 zero bytes; only the others are subtracted, checked and packed. On CPUs with
/// AVX2, `VectorRowFilter` (kernels.h) writes the same bytes, eight pixels a step.
@inline(__always)
private func upFilterOpaqueRow(
  _ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>, width: Int,
  into out: UnsafeMutablePointer<UInt8>
) -> Bool? {
  let o = UnsafeMutableRawPointer(out)
  var any: UInt32 = 0
  var alpha: UInt32 = 0xff00_0000
  /// Subtracts, checks and packs pixel `x`: byte-wise subtraction without borrows between
  /// bytes (Hacker's Delight 2-18), then one 4-byte store that overlaps the next pixel's.
  @inline(__always) func pack(_ x: Int) {
    let a = row[x]
    let b = above[x]
    let high: UInt32 = 0x8080_8080
    let d = ((a | high) &- (b & ~high)) ^ ((a ^ ~b) & high)
    any |= d
    alpha &= a
    o.storeBytes(
      of: (d.byteSwapped >> 8).littleEndian, toByteOffset: 3 &* x, as: UInt32.self)
  }
  let r = UnsafeRawPointer(row)
  let u = UnsafeRawPointer(above)
  /// Group `g` of four pixels: 12 zero bytes if it equals the four above, else packed.
  @inline(__always) func group(_ g: Int) {
    let offset = 16 &* g
    if r.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      == u.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      && r.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
        == u.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
    {
      o.storeBytes(of: 0 as UInt64, toByteOffset: 12 &* g, as: UInt64.self)
      o.storeBytes(of: 0 as UInt32, toByteOffset: 12 &* g &+ 8, as: UInt32.self)
    } else {
      pack(4 &* g)
      pack(4 &* g &+ 1)
      pack(4 &* g &+ 2)
      pack(4 &* g &+ 3)
    }
  }
  // Eight pixels are compared at a time as two 16-byte vectors, the common case in a frame;
  // a block that differs goes through its two groups, so only a group that differs is packed.
  let blocks = width / 8
  for b in 0..<blocks {
    let offset = 32 &* b
    let equal =
      (r.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
        .== u.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self))
      .& (r.loadUnaligned(fromByteOffset: offset &+ 16, as: SIMD16<UInt8>.self)
        .== u.loadUnaligned(fromByteOffset: offset &+ 16, as: SIMD16<UInt8>.self))
    if all(equal) {
      o.storeBytes(of: 0 as UInt64, toByteOffset: 24 &* b, as: UInt64.self)
      o.storeBytes(of: 0 as UInt64, toByteOffset: 24 &* b &+ 8, as: UInt64.self)
      o.storeBytes(of: 0 as UInt64, toByteOffset: 24 &* b &+ 16, as: UInt64.self)
    } else {
      group(2 &* b)
      group(2 &* b &+ 1)
    }
  }
  let groups = 2 &* blocks &+ (width % 8) / 4
  if groups > 2 &* blocks { group(2 &* blocks) }
  for x in (4 &* groups)..<width { pack(x) }
  guard alpha == 0xff00_0000 else { return nil }
  // The alpha bytes of `any` are zero: every pixel that differs is opaque, as is the one above.
  return any == 0
}

/// Converts premultiplied ARGB pixels to straight RGBA bytes.
///
/// Rounds as cairo's `unpremultiply_data` (cairo-png.c) does, `(c × 255 + a / 2) / a`, so our
/// files decode to exactly the pixels cairo's own writer would have stored.
@inline(__always)
package func unpremultiplyRow(
  _ pixels: UnsafePointer<UInt32>, width: Int,
  into row: UnsafeMutablePointer<UInt8>
) {
  var x = 0
  #if _endian(little)
    // Four opaque pixels at a time need only their bytes reordered, ARGB words to R, G, B, A:
    // a screenshot is mostly such, and pixel by pixel this loop was a tenth of a `golden record`
    // of unchanged goldens (it converts each render before comparing it with the file).
    while x + 4 <= width {
      let p = UnsafeRawPointer(pixels + x).loadUnaligned(as: SIMD4<UInt32>.self)
      if all(p .>= 0xFF00_0000) {
        let rgba = (p & 0xFF00_FF00) | (p &>> 16 & 0xFF) | ((p & 0xFF) &<< 16)
        UnsafeMutableRawPointer(row + 4 * x).storeBytes(of: rgba, as: SIMD4<UInt32>.self)
      } else {
        for k in x..<x + 4 { unpremultiplyPixel(pixels[k], into: row + 4 * k) }
      }
      x += 4
    }
  #endif
  while x < width {
    unpremultiplyPixel(pixels[x], into: row + 4 * x)
    x += 1
  }
}

/// One pixel of `unpremultiplyRow`.
@inline(__always)
private func unpremultiplyPixel(_ p: UInt32, into o: UnsafeMutablePointer<UInt8>) {
  let a = p >> 24
  if a == 255 {
    o[0] = UInt8(truncatingIfNeeded: p >> 16)
    o[1] = UInt8(truncatingIfNeeded: p >> 8)
    o[2] = UInt8(truncatingIfNeeded: p)
    o[3] = 255
  } else if a == 0 {
    o[0] = 0
    o[1] = 0
    o[2] = 0
    o[3] = 0
  } else {
    let half = a / 2
    o[0] = UInt8(truncatingIfNeeded: (((p >> 16) & 0xff) * 255 + half) / a)
    o[1] = UInt8(truncatingIfNeeded: (((p >> 8) & 0xff) * 255 + half) / a)
    o[2] = UInt8(truncatingIfNeeded: ((p & 0xff) * 255 + half) / a)
    o[3] = UInt8(truncatingIfNeeded: a)
  }
}

// MARK: - Filtering

/// Carries values across threads where the caller guarantees there is no data race.
private struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// One band of filtered rows, compressed, in memory we own (deallocate `bytes`).
private struct CompressedBand {
  enum Format { case zlib, raw }
  let bytes: UnsafeMutablePointer<UInt8>
  let count: Int
  /// For a raw stream, the bit where its final block starts.
  ///
  /// It and `end` are found in the band's own thread, so the walks run in parallel too.
  private var finalHeader = 0
  /// For a raw stream, the bit where it ends.
  private var end = 0

  /// Compresses `count` bytes at `source` as a zlib stream or a raw DEFLATE stream.
  init(
    compressor: DeflateCompressor, _ format: Format, _ source: UnsafePointer<UInt8>,
    count: Int
  ) {
    let bound = compressor.bound(count, zlib: format == .zlib)
    bytes = .allocate(capacity: bound)
    self.count = compressor.compress(
      source, count: count, into: bytes, capacity: bound, zlib: format == .zlib)
    precondition(self.count > 0, "libdeflate output exceeded its own bound")
    if format == .raw {
      var scanner = DeflateScanner(bytes, count: self.count)
      guard let (finalHeader, end) = scanner.finalBlockAndEnd() else {
        preconditionFailure("libdeflate wrote a DEFLATE stream we cannot walk")
      }
      self.finalHeader = finalHeader
      self.end = end
    }
  }

  /// Joins raw DEFLATE streams into one zlib stream: header, the streams with every final-block
  /// flag but the last cleared, and the Adler-32 of all the uncompressed data.
  init(stitching parts: [CompressedBand], level: Int, adler32: UInt32) {
    let capacity = 2 + parts.reduce(0) { $0 + $1.count } + 4
    bytes = .allocate(capacity: capacity)
    bytes.initialize(repeating: 0, count: capacity)
    // CMF: deflate, 32 KiB window. FLG: libdeflate's level hint, with FCHECK making the pair
    // a multiple of 31, exactly as libdeflate_zlib_compress writes it.
    bytes[0] = 0x78
    bytes[1] = level < 2 ? 0x01 : level < 6 ? 0x5e : level < 8 ? 0x9c : 0xda
    var bit = 16
    for (i, part) in parts.enumerated() {
      if i < parts.count - 1 {
        part.bytes[part.finalHeader >> 3] &= ~(1 << UInt8(part.finalHeader & 7))
      }
      // Only up to the exact end, for the last part too: its padding bits, shifted, could
      // spill into a byte that a decoder would take as the start of the Adler-32.
      appendBits(part.bytes, bitCount: part.end, to: bytes, at: bit)
      bit += part.end
    }
    var n = (bit + 7) >> 3
    for shift in [24, 16, 8, 0] {
      bytes[n] = UInt8(truncatingIfNeeded: adler32 >> UInt32(shift))
      n += 1
    }
    count = n
  }
}

/// Filters `rows`, choosing per row the filter with the smallest sum of absolute values.
///
/// This is libpng's heuristic (the one cairo's files get) over Sub, Up and Paeth. None and
/// Average never won a row of rendered UI in our measurements, so they are not tried. Up wins
/// on rows that repeat the row above, Sub on horizontal runs, Paeth on anti-aliased edges and
/// text; without Paeth, files of the test frame are 2.7-4% larger than cairo's. A band that does
/// not start at row 0 reads the row above its first row again.
private func filterBand(
  _ rows: Range<Int>, into raw: UnsafeMutablePointer<UInt8>, width: Int,
  bytesPerPixel bpp: Int, filtering: PNGCompression.Filtering,
  fillRow: (Int, UnsafeMutablePointer<UInt8>) -> Void
) {
  guard !rows.isEmpty else { return }
  let rowBytes = width * bpp
  // Each row buffer starts with `bpp` zero bytes, the "pixel left of the first" that Sub and
  // Paeth read, so the loop needs no special case at the left edge; 16 bytes of slack at the
  // end let row packing store whole words.
  let capacity = bpp + rowBytes + 16
  let total = 2 * capacity + 3 * (rowBytes + 16)
  let buffers = UnsafeMutablePointer<UInt8>.allocate(capacity: total)
  defer { buffers.deallocate() }
  buffers.initialize(repeating: 0, count: total)
  var previous = buffers + bpp
  var current = buffers + capacity + bpp
  let scratch = FilterScratch(
    base: buffers + 2 * capacity, stride: rowBytes + 16)
  if rows.lowerBound > 0 {
    fillRow(rows.lowerBound - 1, previous)
  }
  for y in rows {
    fillRow(y, current)
    let out = raw + y * (rowBytes + 1)
    if filtering == .up {
      out[0] = 2
      _ = subtractRow(previous, from: current, count: rowBytes, into: out + 1)
    } else {
      filterRow(
        current, previous, rowBytes: rowBytes, bpp: bpp, scratch: scratch,
        into: out)
    }
    swap(&previous, &current)
  }
}

/// Writes `row − above` byte by byte (the Up filter) to `out`; returns whether every byte is zero.
///
/// OR-ing the differences finds an all-zero row in the same pass, which LLVM vectorizes.
@inline(__always)
private func subtractRow(
  _ above: UnsafePointer<UInt8>, from row: UnsafePointer<UInt8>, count: Int,
  into out: UnsafeMutablePointer<UInt8>
) -> Bool {
  var any: UInt8 = 0
  for i in 0..<count {
    let d = row[i] &- above[i]
    out[i] = d
    any |= d
  }
  return any == 0
}

/// The Adler-32 of zlib streams, continued over one Up-filtered row whose data bytes are all zero.
///
/// Such rows are most of a frame: their checksum is two multiplications instead of a pass over
/// the row, and equals what `adler32` computes over the bytes (RFC 1950: `a` sums the bytes, `b`
/// sums the running `a`s, both modulo 65521).
@inline(__always)
private func adler32(_ adler: UInt32, zeroRowOf rowBytes: Int) -> UInt32 {
  let modulus: UInt64 = 65521
  let a = (UInt64(adler & 0xffff) + 2) % modulus  // the filter byte, 2 (Up)
  let b = (UInt64(adler >> 16) + a + a * (UInt64(rowBytes) % modulus)) % modulus
  return UInt32(b << 16 | a)
}

/// Filters every row with Up (a photo's rows with Paeth) into `raw` and feeds each to `deflater`
/// while it is still in cache; returns the Adler-32 of all the filtered rows.
///
/// Each row is packed with `fillRow` and the packed row above is subtracted. The checksum is
/// taken row by row, while the row is in cache, and without reading rows that are all zero.
private func filterAndDeflate(
  height: Int, into raw: UnsafeMutablePointer<UInt8>, rowBytes: Int,
  deflater: RunDeflater, vector: Bool,
  fillRow: (Int, UnsafeMutablePointer<UInt8>) -> Void
) -> UInt32 {
  var checksum: UInt32 = 1
  // 16 bytes of slack let row packing store whole words; 16 zero bytes before each row are the
  // pixels left of it that Paeth reads.
  let buffers = UnsafeMutablePointer<UInt8>.allocate(
    capacity: 2 * (rowBytes + 32))
  defer { buffers.deallocate() }
  buffers.initialize(repeating: 0, count: 2 * (rowBytes + 32))
  var previous = buffers + 16
  var current = buffers + rowBytes + 48
  let bytesPerPixel = deflater.bytesPerPixel
  var neighbourhood = PhotoNeighbourhood()
  for y in 0..<height {
    let out = raw + y * (rowBytes + 1)
    out[0] = 2
    fillRow(y, current)
    let isZero = subtractRow(
      previous, from: current, count: rowBytes, into: out + 1)
    let isCandidate =
      y > 0 && !isZero
      && isPhotoRow(
        changed: PhotoRows.nonzeroCount(out + 1, count: rowBytes, vector: vector),
        rowBytes: rowBytes)
    let isNeighbour = y > 0 && !isZero && neighbourhood.includes(y)
    if isCandidate || isNeighbour {
      let coding = addPhotoRow(
        y, current, above: previous, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel,
        into: out, deflater: deflater, vector: vector, always: isNeighbour)
      if isCandidate && coding.paethPays { neighbourhood.notePhotoRow(y) }
    } else {
      deflater.addRow(y, isZero: isZero)
    }
    checksum =
      isZero
      ? adler32(checksum, zeroRowOf: rowBytes)
      : adler32(checksum, out, count: rowBytes + 1)
    swap(&previous, &current)
  }
  return checksum
}

/// Whether a row is a photo's, given how many of its bytes changed from the row above: more than
/// a quarter. Rendered UI changes a few bytes a row, at text and edges: 42 of the reference
/// frame's 2,667 rows pass, and 1,247 of the notes frame's 1,623.
@inline(__always)
private func isPhotoRow(changed: Int, rowBytes: Int) -> Bool { changed * 4 > rowBytes }

/// Whether a row that passed `isPhotoRow` is coded as a photo row, given how many bytes of its Up
/// residual differ from the residual a pixel before, and how many of its Paeth residuals are not
/// zero.
///
/// The edges of cards change every byte of a row by the same amount: Up and the run search.
/// (92 rows a frame of the reference scroll pass `isPhotoRow`; Paeth and back cost them 10 %.)
/// So does a row where Paeth leaves little: anti-aliased text in every column, or the top edge of
/// a card, which keep Up and the run search, as frames without photos keep every byte. Photo rows
/// keep a sixth or more of their bytes under Paeth; UI rows that pass `isPhotoRow`, at most a
/// ninth.
@inline(__always)
private func isPaethRow(gradient: Int, nonzero: Int, rowBytes: Int) -> Bool {
  gradient * 8 > rowBytes && nonzero * 8 > rowBytes
}

/// Re-filters a photo row with Paeth (`row` and `above` unfiltered, with zero bytes before them)
/// and gives it to the run encoder's photo coding, unless `isPaethRow` says otherwise or `always`
/// overrules it; returns whether it did, and whether `isPaethRow` said so.
@inline(__always)
private func addPhotoRow(
  _ y: Int, _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, rowBytes: Int,
  bytesPerPixel: Int, into out: UnsafeMutablePointer<UInt8>, deflater: RunDeflater,
  vector: Bool, always: Bool
) -> (isPhotoCoded: Bool, paethPays: Bool) {
  let gradient = PhotoRows.gradientChanges(
    out + 1, count: rowBytes, bytesPerPixel: bytesPerPixel, vector: vector)
  // Paeth is not tried when the gradient alone rules it out (nonzero ≤ rowBytes stands in).
  guard always || isPaethRow(gradient: gradient, nonzero: rowBytes, rowBytes: rowBytes) else {
    deflater.addRow(y, isZero: false)
    return (false, false)
  }
  out[0] = 4
  let nonzero = PhotoRows.paeth(
    row, above: above, count: rowBytes, bytesPerPixel: bytesPerPixel, into: out + 1,
    zero: deflater.zeroChunks, vector: vector)
  let pays = isPaethRow(gradient: gradient, nonzero: nonzero, rowBytes: rowBytes)
  if always || pays {
    deflater.addPhotoRow(y)
    return (true, pays)
  }
  out[0] = 2
  _ = subtractRow(above, from: row, count: rowBytes, into: out + 1)
  deflater.addRow(y, isZero: false)
  return (false, false)
}

/// The rows near photos in an opaque frame, which are coded as photo rows whatever their counts.
///
/// Beside and under a photo are its card's edges, titles, avatars and counts. The run search
/// finds little in them there, and paid for every byte it tried: on the notes feed's frame they
/// were a fifth of the rows and half the encoding time. Filtered with Paeth and coded as
/// literal spans in the photos' blocks they cost fewer bits as well: that frame 752,549 →
/// 737,086 bytes and 4.1 → 2.9 ms; 60-frame scrolls of the notes and pins feeds 2–3 % fewer
/// bytes. Far from photos the run search wins (the repeats of flat UI and text), so only rows
/// at most ``reach`` below a photo row count, and only once the image has had
/// ``photoRowsFirst`` photo rows: frames without photos, or with a few photo-like rows in
/// drawn illustrations, keep every byte they had. A banner photo over a list of text cells
/// costs 0.85 % more bytes this way (30 frames), a sparse feed with a photo in every seventh
/// cell 1.1 % fewer.
private struct PhotoNeighbourhood {
  /// How many photo rows an image has before the rows near them are coded as photo rows.
  static let photoRowsFirst = 16
  /// How many rows below a photo row the rows near it reach.
  static let reach = 48

  private var photoRows = 0
  private var lastPhotoRow = Int.min / 2

  /// Notes a row coded as a photo row for its own counts.
  mutating func notePhotoRow(_ y: Int) {
    photoRows += 1
    lastPhotoRow = y
  }

  /// Whether row `y`, when it is not all zero, is coded as a photo row.
  func includes(_ y: Int) -> Bool {
    photoRows >= Self.photoRowsFirst && y - lastPhotoRow <= Self.reach
  }
}

/// Where the candidate filters write a row before the cheapest is copied out.
private struct FilterScratch {
  let sub: UnsafeMutablePointer<UInt8>
  let up: UnsafeMutablePointer<UInt8>
  let paeth: UnsafeMutablePointer<UInt8>

  init(base: UnsafeMutablePointer<UInt8>, stride: Int) {
    sub = base
    up = base + stride
    paeth = base + 2 * stride
  }
}

/// Lane-friendly absolute value: no branch, so the Paeth loop vectorizes.
@inline(__always)
private func absolute(_ v: Int16) -> Int16 {
  let sign = v >> 15
  return (v ^ sign) &- sign
}

/// Writes the filter type byte and the filtered row to `out`.
///
/// `row` and `prior` must be readable from `bpp` bytes before their start.
private func filterRow(
  _ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafeMutablePointer<UInt8>,
  rowBytes: Int, bpp: Int,
  scratch: FilterScratch, into out: UnsafeMutablePointer<UInt8>
) {
  let data = out + 1
  // A row equal to the one above filters to all zeros with Up: the common case for solid
  // backgrounds, decided by one memcmp.
  if memcmp(row, prior, rowBytes) == 0 {
    out[0] = 2
    data.initialize(repeating: 0, count: rowBytes)
    return
  }
  let left = UnsafePointer(row - bpp)
  let upperLeft = UnsafePointer(prior - bpp)
  let sub = scratch.sub
  let up = scratch.up
  let paeth = scratch.paeth
  // One pass computes all three candidates and their costs. It is written as a plain loop,
  // without branches, so LLVM vectorizes it; Swift's generic SIMD types were 4x slower here.
  var costSub: UInt32 = 0
  var costUp: UInt32 = 0
  var costPaeth: UInt32 = 0
  for i in 0..<rowBytes {
    let x = row[i]
    let a = left[i]
    let b = prior[i]
    let c = upperLeft[i]
    // Paeth: predict a, else b, else c, in the PNG spec's order of ties.
    let a16 = Int16(a)
    let b16 = Int16(b)
    let c16 = Int16(c)
    let pa = absolute(b16 &- c16)
    let pb = absolute(a16 &- c16)
    let pc = absolute(a16 &+ b16 &- c16 &- c16)
    let predictor = pa <= min(pb, pc) ? a : (pb <= pc ? b : c)
    let s = x &- a
    let u = x &- b
    let p = x &- predictor
    sub[i] = s
    up[i] = u
    paeth[i] = p
    // libpng's cost of a filtered byte: its magnitude as a signed byte.
    costSub &+= UInt32(min(s, 0 &- s))
    costUp &+= UInt32(min(u, 0 &- u))
    costPaeth &+= UInt32(min(p, 0 &- p))
  }
  let best = min(costSub, costUp, costPaeth)
  let (type, source): (UInt8, UnsafeMutablePointer<UInt8>) =
    best == costUp ? (2, up) : best == costSub ? (1, sub) : (4, paeth)
  out[0] = type
  data.update(from: source, count: rowBytes)
}

// MARK: - Shared encoders

/// Encoders lent out by `pngData(compression:)`, so a frame sequence reuses compressors: a few
/// compressions at most, each with its encoders.
///
/// An array, not a dictionary: a dictionary keyed by `PNGCompression` makes the runtime look up
/// its `Hashable` conformance on first use, scanning every conformance in the binary (0.3 ms, a
/// percent of a small `waterflow diff`).
private let encoderPool = Mutex<[(compression: PNGCompression, encoders: [PooledEncoder])]>([])

/// An encoder in the pool, used by one thread at a time.
///
/// It is taken out under the lock, used, and put back; hence `@unchecked Sendable`.
private final class PooledEncoder: @unchecked Sendable {
  let encoder: PNGEncoder
  init(_ compression: PNGCompression) {
    encoder = PNGEncoder(compression: compression)
  }
}

/// Runs `body` with an encoder borrowed from the pool.
package func withPooledEncoder<R>(
  _ compression: PNGCompression, _ body: (PNGEncoder) -> R
) -> R {
  let pooled =
    encoderPool.withLock { pool in
      pool.firstIndex { $0.compression == compression }.flatMap { pool[$0].encoders.popLast() }
    }
    ?? PooledEncoder(compression)
  defer {
    // At most two per level (one per core here); more would only hold memory.
    encoderPool.withLock { pool in
      guard let k = pool.firstIndex(where: { $0.compression == compression }) else {
        pool.append((compression, [pooled]))
        return
      }
      if pool[k].encoders.count < 2 { pool[k].encoders.append(pooled) }
    }
  }
  return body(pooled.encoder)
}

/// Runs `body` for each band, on several cores or one after the other.
private func forEachBand(
  _ count: Int, concurrently: Bool, _ body: @Sendable (Int) -> Void
) {
  if concurrently {
    DispatchQueue.concurrentPerform(iterations: count, execute: body)
  } else {
    for band in 0..<count { body(band) }
  }
}

extension RGBAImage {
  /// Encodes the image as a PNG file, with Waterflow's fast encoder.
  ///
  /// Opaque images become RGB files; others RGBA.
  ///
  /// - Parameter compression: How hard to compress; `.default` suits rendered frames.
  /// - Returns: The bytes of a PNG file.
  public func pngData(compression: PNGCompression = .default) -> [UInt8] {
    withPooledEncoder(compression) { $0.encode(self) }
  }
}
