/// The data of many items, kept packed and unpacked one row at a time: a large feed's rows.
///
/// Decoded, a feed's row weighs about three and a half times its JSON (a string, a list and a
/// value for every field, each its own allocation); a 100 MB feed would hold 350 MB of rows
/// for as long as the scene lives, though a layout reads each row once and a drawing a screen
/// of them. Packed, a row is its values' bytes with its keys numbered once for the whole feed,
/// about half its JSON, and ``subscript(_:)`` unpacks it in about a microsecond.
///
/// The packing is the module's own, not JSON kept as written: it needs no second parse, no
/// escapes and no checks (the rows were checked as they were read), and no library offers a
/// packed form of these values that reads back into them.
///
/// ```swift
/// var rows = DataRows.Builder(folder: "Feeds")
/// rows.append(ItemData(values: ["title": "夏日", "interact": ["liked": true]]))
/// let feed = rows.build()
/// feed[0]["interact.liked"]  // "true"
/// ```
public final class DataRows: RandomAccessCollection, Sendable {
  /// The folder image paths in the rows are relative to (every row's ``ItemData/folder``).
  public let folder: String
  /// Every key of every object, numbered in order of first use: a row names a key by number.
  private let keys: [String]
  /// The packed rows, in pieces of about a megabyte: no piece is copied when the next grows.
  private let pieces: [[UInt8]]
  /// Where each row starts: its piece in the high 32 bits, its offset there in the low ones.
  private let starts: [UInt64]

  fileprivate init(folder: String, keys: [String], pieces: [[UInt8]], starts: [UInt64]) {
    self.folder = folder
    self.keys = keys
    self.pieces = pieces
    self.starts = starts
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { starts.count }

  /// The data of the row at a position, unpacked.
  ///
  /// - Complexity: O(size of the row).
  public subscript(position: Int) -> ItemData {
    read(position) { reader in
      var data = ItemData(folder: folder)
      data.object = reader.object()
      return data
    }
  }

  /// One top-level field of a row, unpacked alone (the rest are stepped over), or nil.
  ///
  /// - Complexity: O(size of the row).
  public func value(ofField name: String, inRow position: Int) -> DataValue? {
    guard let key = keys.firstIndex(of: name) else { return nil }
    return read(position) { reader in
      for _ in 0..<reader.count() {
        if reader.count() == key { return reader.value() }
        reader.skipValue()
      }
      return nil
    }
  }

  /// The bytes the packed rows take, without the keys and the list of starts.
  public var packedByteCount: Int { pieces.reduce(0) { $0 + $1.count } }

  private func read<T>(_ position: Int, _ body: (inout Reader) -> T) -> T {
    let start = starts[position]
    return pieces[Int(start >> 32)].withUnsafeBufferPointer { bytes in
      var reader = Reader(bytes: bytes, at: Int(start & 0xFFFF_FFFF), keys: keys)
      return body(&reader)
    }
  }

  /// Packs rows one by one into a ``DataRows``.
  public struct Builder {
    private let folder: String
    private var keys: [String] = []
    private var numbers: [String: Int] = [:]
    private var pieces: [[UInt8]] = []
    private var piece: [UInt8] = []
    private var starts: [UInt64] = []
    /// The row being packed, copied into the piece once its size is known.
    private var row: [UInt8] = []

    /// A piece's size: large enough that its header and slack are nothing per row, small
    /// enough that a piece's last unfilled room is too.
    private static let pieceSize = 1 << 20

    /// An empty set of rows whose image paths are relative to `folder`.
    public init(folder: String) { self.folder = folder }

    /// The number of rows appended so far.
    public var count: Int { starts.count }

    /// Packs a row after the others; its `folder` and `item` are not kept.
    public mutating func append(_ data: ItemData) {
      row.removeAll(keepingCapacity: true)
      writeObject(data.object)
      if piece.count + row.count > Self.pieceSize, !piece.isEmpty {
        pieces.append(piece)
        piece = []
      }
      if piece.isEmpty { piece.reserveCapacity(Swift.max(Self.pieceSize, row.count)) }
      starts.append(UInt64(pieces.count) << 32 | UInt64(piece.count))
      piece += row
    }

    /// The rows packed so far.
    public func build() -> DataRows {
      var pieces = pieces
      // The last piece without the room it was given: one small feed, one small piece.
      if !piece.isEmpty { pieces.append(piece.withUnsafeBufferPointer { Array($0) }) }
      return DataRows(
        folder: folder, keys: keys, pieces: pieces, starts: starts.withUnsafeBufferPointer { Array($0) })
    }

    private mutating func writeObject(_ object: DataObject) {
      writeCount(object.fields.count)
      for field in object.fields {
        if let number = numbers[field.key] {
          writeCount(number)
        } else {
          numbers[field.key] = keys.count
          writeCount(keys.count)
          keys.append(field.key)
        }
        write(field.value)
      }
    }

    private mutating func write(_ value: DataValue) {
      switch value {
      case .null: row.append(Tag.null.rawValue)
      case .bool(let b): row.append(b ? Tag.true.rawValue : Tag.false.rawValue)
      case .string(let s): writeText(s, tag: .string)
      case .number(let s): writeText(s, tag: .number)
      case .array(let entries):
        row.append(Tag.array.rawValue)
        writeCount(entries.count)
        for entry in entries { write(entry) }
      case .object(let object):
        row.append(Tag.object.rawValue)
        writeObject(object)
      }
    }

    private mutating func writeText(_ text: String, tag: Tag) {
      row.append(tag.rawValue)
      var text = text
      text.withUTF8 { utf8 in
        writeCount(utf8.count)
        row.append(contentsOf: utf8)
      }
    }

    /// A count, seven bits a byte, low bits first (LEB128): most counts take one byte.
    private mutating func writeCount(_ count: Int) {
      var n = UInt(count)
      while n >= 0x80 {
        row.append(UInt8(truncatingIfNeeded: n) | 0x80)
        n >>= 7
      }
      row.append(UInt8(n))
    }
  }

  fileprivate enum Tag: UInt8 {
    case null, `false`, `true`, string, number, array, object
  }

  /// Unpacks values from a piece; trusts the bytes, which only ``Builder`` writes.
  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var at: Int
    let keys: [String]

    init(bytes: UnsafeBufferPointer<UInt8>, at: Int, keys: [String]) {
      self.bytes = bytes
      self.at = at
      self.keys = keys
    }

    mutating func count() -> Int {
      var n = 0
      var shift = 0
      while true {
        let byte = bytes[at]
        at += 1
        n |= Int(byte & 0x7F) << shift
        if byte < 0x80 { return n }
        shift += 7
      }
    }

    mutating func object() -> DataObject {
      var object = DataObject()
      let n = count()
      object.fields.reserveCapacity(n)
      for _ in 0..<n {
        let key = keys[count()]
        object.fields.append(DataObject.Field(key: key, value: value()))
      }
      return object
    }

    mutating func value() -> DataValue {
      let tag = Tag(rawValue: bytes[at])!
      at += 1
      switch tag {
      case .null: return .null
      case .false: return .bool(false)
      case .true: return .bool(true)
      case .string: return .string(text())
      case .number: return .number(text())
      case .array:
        let n = count()
        var entries: [DataValue] = []
        entries.reserveCapacity(n)
        for _ in 0..<n { entries.append(value()) }
        return .array(entries)
      case .object: return .object(object())
      }
    }

    mutating func text() -> String {
      let n = count()
      defer { at += n }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[at..<(at + n)]), as: UTF8.self)
    }

    mutating func skipValue() {
      let tag = Tag(rawValue: bytes[at])!
      at += 1
      switch tag {
      case .null, .false, .true: break
      case .string, .number: at += count()
      case .array: for _ in 0..<count() { skipValue() }
      case .object:
        for _ in 0..<count() {
          _ = count()
          skipValue()
        }
      }
    }
  }
}
