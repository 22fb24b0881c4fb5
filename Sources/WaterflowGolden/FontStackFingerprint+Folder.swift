extension FontStackFingerprint {
  /// The folder of this stack's goldens under `stacks/` when goldens are kept per stack:
  /// `cairo-1.16.0_pixman-0.42.2_freetype-2.12.1_3f09c1d2`.
  ///
  /// The versions make it readable in a listing; the last part, a hash of ``description``,
  /// tells apart stacks that differ in anything else (the font file, and whatever the
  /// description comes to name), so two stacks never share a folder.
  ///
  /// - Complexity: O(n) in the description's length.
  public var folderName: String {
    let versions = [("cairo", cairo), ("pixman", pixman), ("freetype", freetype)]
      .map { "\($0.0)-\(Self.safe($0.1))" }
    return (versions + [Self.hash(description)]).joined(separator: "_")
  }

  /// Letters, digits, '.' and '-' only: a version such as "2.13.3+dfsg" must not make a path
  /// that a shell, a golden name or Windows would read otherwise.
  private static func safe(_ s: String) -> String {
    String(s.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") ? $0 : "-" })
  }

  /// FNV-1a, 32 bits, as 8 hex digits: stable across runs and platforms, unlike `Hasher`.
  private static func hash(_ s: String) -> String {
    var h: UInt32 = 0x811c_9dc5
    for byte in s.utf8 { h = (h ^ UInt32(byte)) &* 0x0100_0193 }
    let hex = String(h, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
  }
}
