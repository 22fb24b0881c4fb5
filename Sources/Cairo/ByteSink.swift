internal import CCairo

/// Collects the bytes cairo writes to a stream (PDF, SVG, PNG) in memory.
///
/// Cairo gets an unretained pointer to the sink, so its owner must outlive the cairo surface.
final class ByteSink {
  var bytes: [UInt8] = []

  /// The `cairo_write_func_t` cairo calls; `closure` is the sink.
  static let write: cairo_write_func_t = { closure, data, length in
    let sink = Unmanaged<ByteSink>.fromOpaque(closure!).takeUnretainedValue()
    sink.bytes.append(
      contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
    return CAIRO_STATUS_SUCCESS
  }
}
