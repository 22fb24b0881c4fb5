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
