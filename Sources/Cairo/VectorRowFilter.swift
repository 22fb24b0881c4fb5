internal import CCairo

// The PNG codec's one pixel kernel in C (the shim's waterflow_up_filter_opaque_row): Swift has no
// portable byte shuffle, and packing ARGB words into RGB bytes pixel by pixel was a tenth of a
// scroll frame. Like libdeflate (Deflate.swift), it stays behind this module, `package` only.

/// The PNG frame encoder's Up filter with the CPU's vector unit, where it has one Waterflow uses
/// (AVX2): a row of opaque premultiplied ARGB pixels minus the row above, byte by byte, packed as
/// RGB (`3 × width` bytes at `out`, and up to 4 bytes of scratch after them).
package enum VectorRowFilter {
  /// Whether ``upFilterOpaqueRow(_:above:width:into:)`` filters on this CPU.
  package static let isAvailable = waterflow_has_vector_row_filter() != 0

  /// Filters one row; nil when a pixel is not opaque, else whether every byte written is zero.
  /// Call it only when ``isAvailable``.
  @inline(__always)
  package static func upFilterOpaqueRow(
    _ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>, width: Int,
    into out: UnsafeMutablePointer<UInt8>
  ) -> Bool? {
    switch waterflow_up_filter_opaque_row(row, above, width, out) {
    case 0: nil
    case 1: true
    default: false
    }
  }
}

/// The frame encoder's steps for rows of photos (the shim's kernels): the same bytes with the
/// CPU's vector unit (AVX2) as without. `vector: false` keeps to the portable code, as tests do to
/// compare the two.
package enum PhotoRows {
  /// The number of nonzero bytes among `count` at `bytes`.
  @inline(__always)
  package static func nonzeroCount(
    _ bytes: UnsafePointer<UInt8>, count: Int, vector: Bool = true
  ) -> Int {
    waterflow_count_nonzero(bytes, count, vector ? 1 : 0)
  }

  /// Packs opaque premultiplied ARGB pixels as RGB bytes.
  @inline(__always)
  package static func pack(
    _ pixels: UnsafePointer<UInt32>, width: Int, into out: UnsafeMutablePointer<UInt8>,
    vector: Bool = true
  ) {
    waterflow_pack_rgb_row(pixels, width, out, vector ? 1 : 0)
  }

  /// Writes the Paeth residuals of a packed row to `out`.
  ///
  /// `row` and `above` are packed RGB or RGBA (`bytesPerPixel` 3 or 4), with that many readable
  /// zero bytes before each.
  @inline(__always)
  package static func paeth(
    _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int, bytesPerPixel: Int,
    into out: UnsafeMutablePointer<UInt8>, vector: Bool = true
  ) {
    waterflow_paeth_row(row, above, count, bytesPerPixel, out, vector ? 1 : 0)
  }

  /// Marks the all-zero 32-byte chunks of a filtered row in `zero` and counts the other chunks'
  /// bytes in `histogram` (4 × 256 counts) if there is one; returns the number of chunks.
  @inline(__always)
  package static func chunks(
    _ bytes: UnsafePointer<UInt8>, count: Int, histogram: UnsafeMutablePointer<UInt32>?,
    zero: UnsafeMutablePointer<UInt64>
  ) -> Int {
    waterflow_photo_row_chunks(bytes, count, histogram, zero)
  }
}

extension PhotoRows {
  /// Appends the Huffman codes of `count` literal bytes to a DEFLATE bit stream.
  ///
  /// `fields` holds each byte value's bit-reversed code in its low 32 bits and the code's length
  /// (at most 15) above them. `buffer` holds `bits` (fewer than 32) pending bits; on return fewer
  /// than 8 remain and `out` is past the whole bytes written. The output needs 8 bytes of slack.
  @inline(__always)
  package static func code(
    _ bytes: UnsafePointer<UInt8>, count: Int, fields: UnsafePointer<UInt64>,
    buffer: inout UInt64, bits: inout Int, out: inout UnsafeMutablePointer<UInt8>
  ) {
    var o: UnsafeMutablePointer<UInt8>? = out
    waterflow_code_literals(bytes, count, fields, &buffer, &bits, &o)
    out = o!
  }
}
