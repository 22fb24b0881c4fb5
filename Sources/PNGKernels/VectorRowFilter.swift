internal import CPNGKernels

// The PNG codec's one pixel kernel in C (kernels.h's waterflow_up_filter_opaque_row): Swift has no
// portable byte shuffle, and packing ARGB words into RGB bytes pixel by pixel was a tenth of a
// scroll frame. Like libdeflate (Deflate.swift), it stays behind this module, `package` only.

/// The PNG frame encoder's Up filter with the CPU's vector unit, where it has one Waterflow uses
/// (AVX2): a row of opaque premultiplied ARGB pixels minus the row above, byte by byte, packed as
/// RGB (`3 × width` bytes at `out`, and up to 4 bytes of scratch after them).
package enum VectorRowFilter {
  /// Whether ``upFilterOpaqueRow(_:above:width:into:)`` filters on this CPU.
  package static let isAvailable = waterflow_has_vector_row_filter() != 0

  /// Filters one row: nil when a pixel is not opaque; 0 when the row equals the row above, and
  /// then nothing is written; else the number of nonzero bytes written. Call it only when
  /// ``isAvailable``.
  @inline(__always)
  package static func upFilterOpaqueRow(
    _ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>, width: Int,
    into out: UnsafeMutablePointer<UInt8>
  ) -> Int? {
    var nonzero = 0
    switch waterflow_up_filter_opaque_row(row, above, width, out, &nonzero) {
    case 0: return nil
    case 1: return 0
    default: return nonzero
    }
  }
}

extension VectorRowFilter {
  /// Reverses the Paeth filter of four consecutive RGB rows at once with AVX2; false (nothing
  /// done) without AVX2 or below 8 pixels.
  ///
  /// `rows` follow `above` in one buffer, each after its filter byte; `above` is already
  /// reconstructed.
  @inline(__always)
  package static func unfilterPaethRGBRows(
    _ rows: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>,
      UnsafeMutablePointer<UInt8>),
    above: UnsafePointer<UInt8>, pixels: Int
  ) -> Bool {
    waterflow_paeth_rgb_quad(rows.0, rows.1, rows.2, rows.3, above, pixels) != 0
  }

  /// Widens the first pixels of an RGB row to opaque RGBA, sixteen at a time where the CPU has
  /// SSSE3, and returns how many it widened (the caller widens the rest).
  ///
  /// `out` may start below `row` by `width` bytes or more, as the PNG decoder's rows do when it
  /// widens them in place.
  @inline(__always)
  package static func widenRGBRow(
    _ row: UnsafePointer<UInt8>, width: Int, into out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    waterflow_widen_rgb_row(row, width, out)
  }

  /// The index of the first nonzero byte of `bytes[from..<to]`, or `to`, with the vector unit
  /// where the CPU has one (`vector: false` keeps to the portable loop).
  @inline(__always)
  package static func firstNonzero(
    _ bytes: UnsafePointer<UInt8>, from: Int, to: Int, vector: Bool = true
  ) -> Int {
    waterflow_first_nonzero(bytes, from, to, vector ? 1 : 0)
  }
}

/// The frame encoder's steps for rows of photos (kernels.h): the same bytes with the
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

  /// How many bytes of an Up-filtered row differ from the byte `bytesPerPixel` before them (from
  /// that byte on): nearly what Paeth would leave, found without the row's pixels.
  @inline(__always)
  package static func gradientChanges(
    _ bytes: UnsafePointer<UInt8>, count: Int, bytesPerPixel: Int, vector: Bool = true
  ) -> Int {
    waterflow_count_gradient_changes(bytes, count, bytesPerPixel, vector ? 1 : 0)
  }

  /// Packs opaque premultiplied ARGB pixels as RGB bytes.
  @inline(__always)
  package static func pack(
    _ pixels: UnsafePointer<UInt32>, width: Int, into out: UnsafeMutablePointer<UInt8>,
    vector: Bool = true
  ) {
    waterflow_pack_rgb_row(pixels, width, out, 0, vector ? 1 : 0)
  }

  /// Packs straight RGBA bytes as RGB bytes, dropping alpha (for opaque images).
  @inline(__always)
  package static func pack(
    rgba pixels: UnsafePointer<UInt8>, width: Int, into out: UnsafeMutablePointer<UInt8>,
    vector: Bool = true
  ) {
    waterflow_pack_rgb_row(pixels, width, out, 1, vector ? 1 : 0)
  }

  /// Writes the Paeth residuals of a packed row to `out`, marks its all-zero 32-byte chunks in
  /// `zero`, and returns how many residuals are not zero.
  ///
  /// `row` and `above` are packed RGB or RGBA (`bytesPerPixel` 3 or 4), with that many readable
  /// zero bytes before each. A last, shorter chunk is marked only after a marked chunk, so every
  /// stretch of marked chunks is at least 32 bytes. `zero` holds `(count / 32 + 64) / 64` words.
  @inline(__always)
  package static func paeth(
    _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int, bytesPerPixel: Int,
    into out: UnsafeMutablePointer<UInt8>, zero: UnsafeMutablePointer<UInt64>, vector: Bool = true
  ) -> Int {
    waterflow_paeth_row(row, above, count, bytesPerPixel, out, zero, vector ? 1 : 0)
  }

  /// What one pass over a row of opaque ARGB pixels and the row above gives the frame encoder:
  /// how many bytes changed from the row above, how many of those differences differ from the
  /// pixel before's (from the second pixel on), and how many Paeth residuals are not zero.
  package struct Counts {
    package var changed: Int
    package var gradient: Int
    package var nonzero: Int
  }

  /// Whether ``photoRow(_:above:width:into:zero:)`` runs on this CPU (AVX-512 with VBMI).
  package static let isFused = waterflow_has_photo_row_kernel() != 0

  /// Writes the Paeth residuals of a row of opaque premultiplied ARGB pixels as RGB bytes to
  /// `out`, marks their zero chunks as ``paeth(_:above:count:bytesPerPixel:into:zero:vector:)``
  /// does, and returns the row's counts; nil when a pixel is not opaque. Call it only when
  /// ``isFused``: it is the separate passes' work in one, with the same results.
  @inline(__always)
  package static func photoRow(
    _ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>, width: Int,
    into out: UnsafeMutablePointer<UInt8>, zero: UnsafeMutablePointer<UInt64>
  ) -> Counts? {
    var counts = Counts(changed: 0, gradient: 0, nonzero: 0)
    guard
      waterflow_photo_row(
        row, above, width, out, zero, &counts.changed, &counts.gradient, &counts.nonzero) == 1
    else { return nil }
    return counts
  }

  /// Counts the bytes of the chunks `zero` does not mark in `histogram` (4 × 256 counts).
  @inline(__always)
  package static func countLiterals(
    _ bytes: UnsafePointer<UInt8>, count: Int, zero: UnsafePointer<UInt64>,
    into histogram: UnsafeMutablePointer<UInt32>
  ) {
    waterflow_count_literals(bytes, count, zero, histogram)
  }
}

extension PhotoRows {
  /// The byte tables ``code(_:count:fields:tables:buffer:bits:out:vector:)`` reads (768 bytes).
  package static let tableBytes = 768

  /// Fills `tables` from a literal code's `fields` (see ``code(_:count:fields:tables:buffer:bits:out:vector:)``).
  @inline(__always)
  package static func makeTables(
    _ fields: UnsafePointer<UInt64>, into tables: UnsafeMutablePointer<UInt8>
  ) {
    waterflow_literal_tables(fields, tables)
  }

  /// Appends the Huffman codes of `count` literal bytes to a DEFLATE bit stream.
  ///
  /// `fields` holds each byte value's bit-reversed code in its low 32 bits and the code's length
  /// (at most 15) above them, and `tables` the same as ``makeTables(_:into:)`` makes them.
  /// `buffer` holds `bits` (fewer than 32) pending bits; on return fewer than 8 remain and `out`
  /// is past the whole bytes written. The output needs 8 bytes of slack. The bits are the same
  /// with the vector unit (AVX-512) as without.
  @inline(__always)
  package static func code(
    _ bytes: UnsafePointer<UInt8>, count: Int, fields: UnsafePointer<UInt64>,
    tables: UnsafePointer<UInt8>, buffer: inout UInt64, bits: inout Int,
    out: inout UnsafeMutablePointer<UInt8>, vector: Bool = true
  ) {
    var o: UnsafeMutablePointer<UInt8>? = out
    waterflow_code_literals(bytes, count, fields, tables, &buffer, &bits, &o, vector ? 1 : 0)
    out = o!
  }
}
