#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of one JSON input and the name its messages give it.
public struct JSONDocument: Sendable {
  /// The text followed by one zero byte, which no JSON value contains outside a string: scanning
  /// loops stop on it instead of testing the length at every byte.
  let bytes: [UInt8]
  /// The file the text came from, as messages name it.
  public let file: String

  /// A document of `text`, named `file` in messages.
  public init(_ text: some Collection<UInt8>, file: String) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count + 1)
    bytes.append(contentsOf: text)
    bytes.append(0)
    self.bytes = bytes
    self.file = file
  }

  /// Reads a file.
  ///
  /// - Throws: ``JSONInputError`` naming the file: "cannot read the file (no such file or directory)".
  public init(contentsOf path: String) throws(JSONInputError) {
    func failure() -> JSONInputError {
      let reason = String(cString: strerror(errno)).lowercased()
      return JSONInputError(
        file: path, field: "", message: "cannot read the file (\(reason))")
    }
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw failure() }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure() }
    // Read in place into a buffer sized from fstat (not zeroed first: the read fills it).
    let size = max(Int(info.st_size), 0)
    var failed = false
    var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) {
      buffer, initialized in
      adviseHugePages(buffer.baseAddress!, byteCount: size + 1)
      var count = 0
      while count < size {
        let n = readFile(fd, buffer.baseAddress! + count, size - count)
        if n == 0 { break }
        if n < 0 {
          if errno == EINTR { continue }
          failed = true
          break
        }
        count += n
      }
      buffer[count] = 0
      initialized = count + 1
    }
    // A file that grew meanwhile, or a pipe (size 0), is read on in chunks.
    if !failed && bytes.count - 1 == size && readMore(fd, into: &bytes) < 0 {
      failed = true
    }
    guard !failed else { throw failure() }
    self.bytes = bytes
    self.file = path
  }

  /// The text, without the terminating zero.
  public var text: ArraySlice<UInt8> { bytes.dropLast() }

  /// Reads the document's one value with `body`, which must consume it whole.
  ///
  /// When `body` throws about a field, the whole text is checked first: a syntax error anywhere
  /// is the one reported, as a parser that reads everything before looking would report it.
  ///
  /// - Throws: ``JSONInputError``: a syntax error with its line and column, or what `body` threw.
  public func read<T>(
    options: JSONReader.Options = [],
    _ body: (inout JSONReader) throws(JSONInputError) -> T
  ) throws(JSONInputError) -> T {
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONInputError) -> T in
      var reader = JSONReader(buffer, file: file, options: options)
      do throws(JSONInputError) {
        let value = try body(&reader)
        try reader.finish()
        return value
      } catch {
        var check = JSONReader(buffer, file: file, options: [])
        try check.skipValue()
        try check.finish()
        throw error
      }
    }
  }
}

/// Reads past the size the file had when opened, inserting what arrives before the terminating
/// zero of `bytes`.
private func readMore(_ fd: Int32, into bytes: inout [UInt8]) -> Int {
  var chunk = [UInt8](repeating: 0, count: 65_536)
  var total = 0
  while true {
    let n = chunk.withUnsafeMutableBytes {
      readFile(fd, $0.baseAddress!, $0.count)
    }
    if n < 0 && errno == EINTR { continue }
    if n <= 0 { return total > 0 ? total : n }
    bytes.insert(contentsOf: chunk[..<n], at: bytes.count - 1)
    total += n
  }
}

/// `read(2)`, under a name the document's own `read` does not hide.
private func readFile(
  _ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int
) -> Int {
  read(fd, buffer, count)
}

/// Asks the kernel to back the whole 2 MiB pages inside a large, not yet touched buffer with
/// transparent huge pages (where it hands them out on request, as this project's machines do).
///
/// Reading a 41 MB scene's text and filling its million items in 4 KiB pages took ~33,000 page
/// faults, whose handling was ~15% of the load's profile; `waterflow visible` on that scene now
/// takes 14,400 faults instead of 46,700. Buffers under 4 MiB are left alone, and so are those
/// over 256 MiB: a 10M-item scene's 880 MB of items took 0.7–2.2 s more kernel time in huge
/// pages than in small ones on this project's VM, the kernel zeroing fresh 2 MiB pages far more
/// slowly than the small pages a freed buffer leaves.
package func adviseHugePages(_ start: UnsafeMutableRawPointer, byteCount: Int) {
  #if os(Linux)
    guard let pages = hugePages(in: Int(bitPattern: start), byteCount: byteCount) else {
      return
    }
    _ = madvise(
      UnsafeMutableRawPointer(bitPattern: pages.lowerBound), pages.count, MADV_HUGEPAGE)
  #endif
}

/// The addresses of the whole 2 MiB pages within `byteCount` bytes at `address`, or nil for a
/// buffer under 4 MiB, which has at most one, or over 256 MiB.
func hugePages(in address: Int, byteCount: Int) -> Range<Int>? {
  let huge = 1 << 21
  guard byteCount >= 2 * huge && byteCount <= 256 << 20 else { return nil }
  let first = (address + huge - 1) & ~(huge - 1)
  let last = (address + byteCount) & ~(huge - 1)
  return first < last ? first..<last : nil
}
