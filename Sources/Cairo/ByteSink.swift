internal import CCairo

/// Collects the bytes cairo writes to a stream (PDF, SVG, PNG) in memory.
///
/// Cairo gets an unretained pointer to the sink, so its owner must outlive the cairo surface.
final class ByteSink {
  var bytes: [UInt8] = []
  /// Where the bytes go instead of `bytes`, for output too long to hold (a PDF of every frame).
  private let forward: ((UnsafeRawBufferPointer) -> Void)?

  /// A sink that collects the bytes, or hands them on to `forward` as they come.
  init(forward: ((UnsafeRawBufferPointer) -> Void)? = nil) {
    self.forward = forward
  }

  /// The `cairo_write_func_t` cairo calls; `closure` is the sink.
  static let write: cairo_write_func_t = { closure, data, length in
    let sink = Unmanaged<ByteSink>.fromOpaque(closure!).takeUnretainedValue()
    let buffer = UnsafeRawBufferPointer(start: data, count: Int(length))
    if let forward = sink.forward {
      forward(buffer)
    } else {
      sink.bytes.append(contentsOf: buffer)
    }
    return CAIRO_STATUS_SUCCESS
  }
}
