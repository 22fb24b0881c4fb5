internal import CPNGKernels

// libdeflate, wrapped for the PNG codec. The codec's C (libdeflate and its vector kernels) stays
// behind this one module, as the drawing libraries stay behind `Cairo`, so the codec (modules
// PNGCodec and PNGDeflate) calls these instead of importing the C module; `package` keeps them
// out of the public API. They are coarse (a whole band or chunk per call), so the extra call
// costs nothing measurable.

/// A libdeflate compressor at one level; not thread-safe, so one per band.
package final class DeflateCompressor {
  private let compressor: OpaquePointer

  /// Allocates a compressor at `level` (0 to 12); stops the program when out of memory.
  package init(level: Int) {
    guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
      fatalError("libdeflate could not allocate a compressor (out of memory)")
    }
    self.compressor = compressor
  }

  deinit { libdeflate_free_compressor(compressor) }

  /// The most bytes a zlib (`zlib` true) or raw DEFLATE stream of `count` bytes can take.
  package func bound(_ count: Int, zlib: Bool) -> Int {
    zlib
      ? libdeflate_zlib_compress_bound(compressor, count)
      : libdeflate_deflate_compress_bound(compressor, count)
  }

  /// Compresses `count` bytes into `output` (at least `bound` bytes) as a zlib or raw DEFLATE
  /// stream; returns the length written, 0 when `capacity` is too small.
  package func compress(
    _ source: UnsafeRawPointer, count: Int, into output: UnsafeMutableRawPointer,
    capacity: Int, zlib: Bool
  ) -> Int {
    zlib
      ? libdeflate_zlib_compress(compressor, source, count, output, capacity)
      : libdeflate_deflate_compress(compressor, source, count, output, capacity)
  }
}

/// The CRC-32 of PNG chunks, continuing from `crc` (start with 0).
package func crc32(_ crc: UInt32, _ bytes: UnsafeRawPointer, count: Int) -> UInt32 {
  libdeflate_crc32(crc, bytes, count)
}

/// The Adler-32 of zlib streams, continuing from `adler` (start with 1).
package func adler32(_ adler: UInt32, _ bytes: UnsafeRawPointer, count: Int) -> UInt32 {
  libdeflate_adler32(adler, bytes, count)
}

/// What inflating a zlib stream gave.
package enum InflateResult: Equatable {
  /// The stream is whole; this many bytes came out.
  case success(Int)
  /// The stream holds more than the output's room.
  case tooLong
  /// Not a valid zlib stream (or the allocation failed).
  case corrupt
}

/// Inflates a whole zlib stream into `output`.
package func zlibDecompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
  -> InflateResult
{
  guard let decompressor = libdeflate_alloc_decompressor() else { return .corrupt }
  defer { libdeflate_free_decompressor(decompressor) }
  var produced = 0
  let result = libdeflate_zlib_decompress(
    decompressor, input.baseAddress, input.count, output.baseAddress, output.count, &produced)
  switch result {
  case LIBDEFLATE_SUCCESS: return .success(produced)
  case LIBDEFLATE_INSUFFICIENT_SPACE: return .tooLong
  default: return .corrupt
  }
}

/// libdeflate's version, as its header gives it (for `waterflow --version`).
package let libdeflateVersion = LIBDEFLATE_VERSION_STRING
