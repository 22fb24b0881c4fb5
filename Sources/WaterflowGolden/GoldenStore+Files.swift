internal import Cairo
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
    var hash = FNV1a64()
    for path in files(of: name) {
      hash.add((FilePath(path).lastComponent?.string ?? path).utf8)
      hash.add(0)
      let bytes = FileManager.default.contents(atPath: path) ?? Data()
      hash.add(String(bytes.count).utf8)
      hash.add(0)
      // Through the buffer: byte by byte, `Data`'s iterator was 2 % of a check whose failures
      // each hash their new files.
      bytes.withUnsafeBytes { hash.add($0) }
    }
    return hash.hexDigits
  }
}
