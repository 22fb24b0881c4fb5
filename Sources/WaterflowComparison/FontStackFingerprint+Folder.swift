internal import Cairo

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
    // The first 8 hex digits of the description's FNV-1a hash, as font files are hashed.
    let hash = fnv1a64Hex(description.utf8).dropFirst("fnv1a64:".count).prefix(8)
    return (versions + [String(hash)]).joined(separator: "_")
  }

  /// Letters, digits, '.' and '-' only: a version such as "2.13.3+dfsg" must not make a path
  /// that a shell, a golden name or Windows would read otherwise.
  private static func safe(_ s: String) -> String {
    String(s.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") ? $0 : "-" })
  }
}
