/// The keys an object of one format may have, matched against the input's bytes without making
/// a `String` per key, so reading a million items costs no key allocations.
///
/// ```swift
/// enum ItemKey: String, CaseIterable { case h, price, w }
/// static let itemKeys = JSONKeys<ItemKey>()
/// while let key = try reader.nextKey(itemKeys) { … }
/// ```
public struct JSONKeys<Key: Sendable>: Sendable {
  /// What a key the table does not know does.
  public enum Unknown: Sendable {
    /// Stops with "unknown key (expected one of: …)", catching typos such as `colums`.
    case reject
    /// Skips the key and its value: data from elsewhere that may carry more than we read.
    case skip
  }

  /// The first eight bytes of each name, little-endian: most keys are compared in one step.
  @usableFromInline let heads: [UInt64]
  /// The names' lengths, and where each starts in `bytes`.
  @usableFromInline let lengths: [Int]
  @usableFromInline let starts: [Int]
  @usableFromInline let bytes: [UInt8]
  /// Each name's index plus one (0 for none), at the slot its head and length hash to or the
  /// first free one after it. With four slots a name, a lookup takes one probe, where going
  /// through the names took one step a name: a third of the time of a key of a scene's items.
  @usableFromInline let slots: [UInt8]
  @usableFromInline let slotShift: UInt64
  @usableFromInline let keys: [Key]
  @usableFromInline let unknown: Unknown
  /// The message for an unknown key.
  @usableFromInline let unknownMessage: String

  /// A table of `keys` with their names; unknown keys are rejected with a message listing the
  /// names in the order given, unless `unknownMessage` words it otherwise.
  public init(
    _ keys: [(String, Key)], unknown: Unknown = .reject,
    unknownMessage: String? = nil
  ) {
    precondition(keys.count <= 64, "a table holds at most 64 keys")
    heads = keys.map { Self.head(Array($0.0.utf8)) }
    lengths = keys.map { $0.0.utf8.count }
    starts = keys.indices.map { i in
      keys[..<i].reduce(0) { $0 + $1.0.utf8.count }
    }
    bytes = keys.flatMap { Array($0.0.utf8) }
    var bits: UInt64 = 3
    while 1 << bits < 4 * keys.count { bits += 1 }
    slotShift = 64 - bits
    var slots = [UInt8](repeating: 0, count: 1 << bits)
    for i in keys.indices {
      var s = Self.slot(head: heads[i], count: lengths[i], shift: slotShift)
      while slots[s] != 0 { s = (s + 1) & (slots.count - 1) }
      slots[s] = UInt8(i + 1)
    }
    self.slots = slots
    self.keys = keys.map(\.1)
    self.unknown = unknown
    self.unknownMessage =
      unknownMessage
      ?? "unknown key (expected one of: \(keys.map(\.0).joined(separator: ", ")))"
  }

  static func head(_ bytes: some Collection<UInt8>) -> UInt64 {
    var head: UInt64 = 0
    for (i, b) in bytes.prefix(8).enumerated() { head |= UInt64(b) << (8 * i) }
    return head
  }

  @inlinable @inline(__always)
  static func slot(head: UInt64, count: Int, shift: UInt64) -> Int {
    Int(truncatingIfNeeded: ((head &+ UInt64(truncatingIfNeeded: count)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// The index of the key whose name is `count` bytes at `start`, or nil.
  // Inlined into each reader of a format, with unchecked reads of the table: for a million
  // items this lookup runs three million times.
  @inlinable @inline(__always)
  func index(of start: UnsafePointer<UInt8>, count: Int) -> Int? {
    var head: UInt64 = 0
    for i in 0..<min(count, 8) { head |= UInt64(start[i]) << (8 * i) }
    var s = Self.slot(head: head, count: count, shift: slotShift)
    return slots.withUnsafeBufferPointer { slots in
      heads.withUnsafeBufferPointer { heads in
        lengths.withUnsafeBufferPointer { lengths in
          while true {
            let entry = Int(slots[s])
            if entry == 0 { return nil }
            let i = entry - 1
            if heads[i] == head && lengths[i] == count
              && (count <= 8
                || bytes.withUnsafeBufferPointer({
                  UnsafeBufferPointer(rebasing: $0[starts[i]..<starts[i] + count])
                    .elementsEqual(UnsafeBufferPointer(start: start, count: count))
                }))
            {
              return i
            }
            s = (s + 1) & (slots.count - 1)
          }
        }
      }
    }
  }
}

extension JSONKeys
where Key: CaseIterable & RawRepresentable, Key.RawValue == String {
  /// A table of every case, named by its raw value and listed in declaration order.
  public init(unknown: Unknown = .reject, unknownMessage: String? = nil) {
    self.init(
      Key.allCases.map { ($0.rawValue, $0) }, unknown: unknown,
      unknownMessage: unknownMessage)
  }
}
