internal import Foundation
internal import SystemPackage

extension GoldenStore {
  /// The files a golden owns, sorted: its PNG or its frames' (`NAME.00.png` …), and its facts.
  ///
  /// - Complexity: O(n) in the files of the golden's folder.
  public func files(of name: String) -> [String] {
    Self.files(of: name, in: directory, kinds: ["png", "facts.json"])
  }

  /// A digest of the golden's files (names and bytes), which changes when any is written,
  /// added or removed: FNV-1a, to notice a change, not to resist an attacker.
  ///
  /// - Complexity: O(n) in the bytes of the golden's files.
  public func digest(of name: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix<S: Sequence<UInt8>>(_ bytes: S) {
      for byte in bytes {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01b3
      }
    }
    for path in files(of: name) {
      mix((FilePath(path).lastComponent?.string ?? path).utf8)
      mix([0])
      let bytes = FileManager.default.contents(atPath: path) ?? Data()
      mix(String(bytes.count).utf8)
      mix([0])
      mix(bytes)
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
