internal import CCairo
internal import Dispatch
internal import Foundation
internal import Synchronization

// Why our own encoder: cairo_surface_write_to_png goes through libpng and zlib level 6 with
// libpng's adaptive filtering; it takes ~100x as long as drawing a frame. Here, libdeflate
// (whole-buffer DEFLATE, much faster than zlib at the same or better ratio) compresses the
// filtered scanlines in one call, and a tiny chunk writer (IHDR, one IDAT, IEND) frames it.
// Measurements: see the comment on `PNGCompression.default`.

/// How hard the PNG encoder tries to make the file small.
///
/// Higher levels are slower. Every level is deterministic: the same pixels and level always
/// give the same bytes.
public struct PNGCompression: Hashable, Sendable {
  /// The libdeflate compression level, from 1 to 12.
  public let level: Int

  /// Creates a compression setting with a libdeflate level from 1 (fastest) to 12 (smallest).
  public init(level: Int) {
    precondition((1...12).contains(level), "level must be from 1 to 12")
    self.level = level
  }

  /// The fastest level; files are larger.
  public static let fast = PNGCompression(level: 1)
  /// The level chosen by measurement for rendered frames: faster than cairo, and no larger.
  public static let `default` = PNGCompression(level: 6)
  /// The smallest files libdeflate can make; much slower.
  public static let best = PNGCompression(level: 12)
}

/// A PNG encoder that keeps its compressor and buffers between images.
///
/// Use one encoder for a sequence of frames to avoid reallocating; ``ImageSurface/pngData(compression:)``
/// and ``RGBAImage/pngData(compression:)`` borrow one from a shared pool. An encoder is not
/// thread-safe: use one per thread.
///
/// Images whose pixels are all opaque are written as 8-bit RGB (colour type 2), others as
/// 8-bit RGBA (colour type 6) with straight alpha, un-premultiplied exactly as cairo's own PNG
/// writer does, so cairo reads back the same pixels from either file.
public final class PNGEncoder {
  /// The compression level of this encoder.
  public let compression: PNGCompression
  /// The `libdeflate_compressor *`; owned, freed in `deinit`.
  private let compressor: OpaquePointer
  /// Filtered scanlines, each prefixed by its filter type byte; reused between images.
  private var filtered: UnsafeMutablePointer<UInt8>?
  private var filteredCapacity = 0

  /// Creates an encoder at the given compression level.
  public init(compression: PNGCompression = .default) {
    self.compression = compression
    guard let compressor = libdeflate_alloc_compressor(Int32(compression.level))
    else {
      fatalError("libdeflate could not allocate a compressor (out of memory)")
    }
    self.compressor = compressor
  }

  deinit {
    libdeflate_free_compressor(compressor)
    filtered?.deallocate()
  }

  /// Encodes a surface as PNG.
  ///
  /// - Parameter surface: The surface; its premultiplied pixels are un-premultiplied.
  /// - Returns: The bytes of a PNG file.
  public func encode(_ surface: ImageSurface) -> [UInt8] {
    surface.withUnsafePixels { buffer, stride in
      let base = buffer.baseAddress!
      let width = surface.width
      let opaque = Self.isOpaque(
        base, width: width, height: surface.height, stride: stride)
      return encode(width: width, height: surface.height, alpha: !opaque) {
        y, row in
        let pixels = (base + y * stride).assumingMemoryBound(to: UInt32.self)
        if opaque {
          packOpaqueRow(pixels, width: width, into: row)
        } else {
          unpremultiplyRow(pixels, width: width, into: row)
        }
      }
    }
  }

  /// Encodes straight RGBA pixels as PNG.
  ///
  /// - Parameter image: The image.
  /// - Returns: The bytes of a PNG file.
  public func encode(_ image: RGBAImage) -> [UInt8] {
    image.pixels.withUnsafeBufferPointer { buffer in
      let width = image.width
      let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
      var opaque = true
      var i = 3
      while i < buffer.count {
        if buffer[i] != 255 {
          opaque = false
          break
        }
        i += 4
      }
      return encode(width: width, height: image.height, alpha: !opaque) {
        y, row in
        let source = base + y * width * 4
        if opaque {
          for x in 0..<width {
            row[3 * x] = source[4 * x]
            row[3 * x + 1] = source[4 * x + 1]
            row[3 * x + 2] = source[4 * x + 2]
          }
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
  private func encode(
    width: Int, height: Int, alpha: Bool,
    fillRow: (Int, UnsafeMutablePointer<UInt8>) -> Void
  ) -> [UInt8] {
    let bytesPerPixel = alpha ? 4 : 3
    let rowBytes = width * bytesPerPixel
    let rawCount = height * (rowBytes + 1)
    if filteredCapacity < rawCount {
      filtered?.deallocate()
      filtered = .allocate(capacity: rawCount)
      filteredCapacity = rawCount
    }
    let raw = filtered!
    filterRows(
      into: raw, width: width, height: height, bytesPerPixel: bytesPerPixel,
      fillRow: fillRow)

    let bound = libdeflate_zlib_compress_bound(compressor, rawCount)
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
        put32(libdeflate_crc32(0, o + start, n - start))
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
      let compressed = libdeflate_zlib_compress(
        compressor, raw, rawCount, o + n, bound)
      precondition(compressed > 0, "libdeflate output exceeded its own bound")
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

/// Converts premultiplied ARGB pixels to straight RGBA bytes.
///
/// Rounds as cairo's `unpremultiply_data` (cairo-png.c) does, `(c × 255 + a / 2) / a`, so our
/// files decode to exactly the pixels cairo's own writer would have stored.
@inline(__always)
func unpremultiplyRow(
  _ pixels: UnsafePointer<UInt32>, width: Int,
  into row: UnsafeMutablePointer<UInt8>
) {
  var o = row
  for x in 0..<width {
    let p = pixels[x]
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
    o += 4
  }
}

// MARK: - Filtering

/// Filters every row, choosing per row the filter with the smallest sum of absolute values.
///
/// This is libpng's heuristic (the one cairo's files get) over None, Sub, Up and Paeth; Average
/// almost never wins on rendered UI, so it is not tried. Up wins on rows that repeat the row
/// above, Sub on horizontal runs, Paeth on anti-aliased edges and text; without Paeth, files of
/// the test frame are 3% larger than cairo's.
private func filterRows(
  into raw: UnsafeMutablePointer<UInt8>, width: Int, height: Int,
  bytesPerPixel bpp: Int,
  fillRow: (Int, UnsafeMutablePointer<UInt8>) -> Void
) {
  // Rows filter independently once the row above is known, so big images are cut into one band
  // of rows per core. On the 1500×2668 test frame this halves filtering (17 ms to about 9 ms
  // on 2 cores); small images stay on the calling thread.
  let bands =
    width * height * bpp >= 1 << 20
    ? min(ProcessInfo.processInfo.activeProcessorCount, 4) : 1
  if bands <= 1 {
    filterBand(
      0..<height, into: raw, width: width, bytesPerPixel: bpp, fillRow: fillRow)
    return
  }
  let rowsPerBand = (height + bands - 1) / bands
  // Safe to share: each band writes only its own rows of `raw` and its own buffers, and
  // `fillRow` only reads the source pixels, which nothing changes while encoding.
  withoutActuallyEscaping(fillRow) { fillRow in
    let shared = UncheckedSendable((raw, fillRow))
    DispatchQueue.concurrentPerform(iterations: bands) { band in
      let (raw, fillRow) = shared.value
      let rows =
        min(height, band * rowsPerBand)..<min(height, (band + 1) * rowsPerBand)
      filterBand(
        rows, into: raw, width: width, bytesPerPixel: bpp, fillRow: fillRow)
    }
  }
}

/// Carries values across threads where the caller guarantees there is no data race.
private struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Filters `rows`, reading the row above the first one again if the band does not start at 0.
private func filterBand(
  _ rows: Range<Int>, into raw: UnsafeMutablePointer<UInt8>, width: Int,
  bytesPerPixel bpp: Int,
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
    filterRow(
      current, previous, rowBytes: rowBytes, bpp: bpp, scratch: scratch,
      into: raw + y * (rowBytes + 1))
    swap(&previous, &current)
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

/// Encoders lent out by `pngData(compression:)`, so a frame sequence reuses compressors.
private let encoderPool = Mutex<[PNGCompression: [PooledEncoder]]>([:])

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
func withPooledEncoder<R>(
  _ compression: PNGCompression, _ body: (PNGEncoder) -> R
) -> R {
  let pooled =
    encoderPool.withLock { $0[compression]?.popLast() }
    ?? PooledEncoder(compression)
  defer {
    // At most two per level (one per core here); more would only hold memory.
    encoderPool.withLock { pool in
      if pool[compression, default: []].count < 2 {
        pool[compression, default: []].append(pooled)
      }
    }
  }
  return body(pooled.encoder)
}

extension ImageSurface {
  /// Encodes the surface as a PNG file, with Waterflow's fast encoder.
  ///
  /// Opaque surfaces become RGB files; others RGBA with straight alpha. The bytes depend only
  /// on the pixels and the compression level.
  ///
  /// - Parameter compression: How hard to compress; `.default` suits rendered frames.
  /// - Returns: The bytes of a PNG file.
  public func pngData(compression: PNGCompression = .default) -> [UInt8] {
    withPooledEncoder(compression) { $0.encode(self) }
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
