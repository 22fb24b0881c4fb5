/// JSON text written piece by piece into a fixed buffer that goes to a sink whenever it fills:
/// output of any length in constant memory.
///
/// Numbers follow ``Swift/Double/jsonText``; strings are quoted with `\"`, `\\`, `\n`, `\t`, `\r`
/// and `\u00XX` for other control characters, everything else as it is.
public final class JSONWriter {
  private let buffer: UnsafeMutablePointer<UInt8>
  private let capacity: Int
  private var count = 0
  private let sink: (UnsafeRawBufferPointer) -> Void

  /// A writer that hands `sink` its text in pieces of up to `capacity` bytes.
  public init(
    capacity: Int = 1 << 16, sink: @escaping (UnsafeRawBufferPointer) -> Void
  ) {
    precondition(capacity >= 64, "a buffer of at least 64 bytes")
    self.capacity = capacity
    self.sink = sink
    buffer = .allocate(capacity: capacity)
  }

  deinit {
    flush()
    buffer.deallocate()
  }

  /// Writes `text` as it is.
  public func write(_ text: StaticString) {
    append(
      UnsafeRawBufferPointer(
        start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Writes `text` as it is.
  public func write(_ text: String) {
    var text = text
    text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
  }

  /// Writes a whole number.
  public func write(_ n: Int) {
    reserve(20)
    var magnitude = n.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    let length = withUnsafeMutableBytes(of: &digits) { tmp -> Int in
      var i = tmp.count
      repeat {
        i -= 1
        tmp[i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      if n < 0 {
        i -= 1
        tmp[i] = UInt8(ascii: "-")
      }
      (buffer + count).update(
        from: tmp.baseAddress!.assumingMemoryBound(to: UInt8.self) + i,
        count: tmp.count - i)
      return tmp.count - i
    }
    count += length
  }

  /// Writes a number as ``Swift/Double/jsonText`` does.
  public func write(_ d: Double) {
    if let n = d.jsonInteger { write(n) } else { write(d.jsonText) }
  }

  /// Writes `text` in double quotes, escaped.
  public func write(quoting text: String) {
    write("\"")
    var text = text
    text.withUTF8 { bytes in
      var run = 0
      for (i, c) in bytes.enumerated()
      where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
        append(
          UnsafeRawBufferPointer(
            rebasing: UnsafeRawBufferPointer(bytes)[run..<i]))
        switch c {
        case UInt8(ascii: "\""): write("\\\"")
        case UInt8(ascii: "\\"): write("\\\\")
        case 0x0A: write("\\n")
        case 0x09: write("\\t")
        case 0x0D: write("\\r")
        default:
          write("\\u00" + (c < 0x10 ? "0" : "") + String(c, radix: 16))
        }
        run = i + 1
      }
      append(
        UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[run...]))
    }
    write("\"")
  }

  /// Hands what is buffered to the sink.
  public func flush() {
    guard count > 0 else { return }
    sink(UnsafeRawBufferPointer(start: buffer, count: count))
    count = 0
  }

  @inline(__always)
  private func reserve(_ n: Int) {
    if count + n > capacity { flush() }
  }

  private func append(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    if count + bytes.count > capacity {
      flush()
      if bytes.count > capacity {
        sink(bytes)
        return
      }
    }
    UnsafeMutableRawPointer(buffer + count).copyMemory(
      from: bytes.baseAddress!, byteCount: bytes.count)
    count += bytes.count
  }
}

extension JSONWriter {
  /// Writes the text into a string, for output small enough to hold.
  public static func text(_ body: (JSONWriter) -> Void) -> String {
    var bytes: [UInt8] = []
    do {
      let writer = JSONWriter { bytes.append(contentsOf: $0) }
      body(writer)
      writer.flush()
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
