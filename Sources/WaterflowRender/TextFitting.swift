/// Breaks text into lines no wider than a width, ending the last in "…" when the text does not
/// fit: the layout of item titles. Widths come from `measure`, so the rules are testable without
/// a font.
///
/// Lines break at spaces, at `\n`, and between CJK characters (which have no spaces between
/// words); a word wider than the whole line is broken between characters.
enum TextFitting {
  /// The tail of text that does not fit.
  static let ellipsis = "…"

  /// The lines, at most `maxLines`, each no wider than `width` as `measure` sees it.
  static func lines(
    _ text: String, width: Double, maxLines: Int, measure: (String) -> Double
  ) -> [String] {
    guard maxLines > 0 else { return [] }
    var lines: [String] = []
    var overflow = false
    paragraphs: for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      for token in tokens(of: String(paragraph)) {
        let candidate = line + token
        if line.isEmpty || measure(trimmingTrailingSpaces(candidate)) <= width {
          line = candidate
          if measure(trimmingTrailingSpaces(line)) > width {
            // A single token wider than the line: break it between characters.
            var pieces = breakByCharacters(line, width: width, measure: measure)
            line = pieces.removeLast()
            for piece in pieces {
              if lines.count == maxLines { overflow = true; break paragraphs }
              lines.append(piece)
            }
          }
          continue
        }
        if lines.count == maxLines { overflow = true; break paragraphs }
        lines.append(trimmingTrailingSpaces(line))
        line = token.first == " " ? String(token.drop { $0 == " " }) : token
      }
      if lines.count == maxLines { overflow = true; break }
      lines.append(trimmingTrailingSpaces(line))
    }
    if overflow, let last = lines.popLast() {
      lines.append(withEllipsis(last, width: width, measure: measure))
    }
    return lines
  }

  /// One line: the text as it is when it fits, else cut and ended with "…".
  static func line(_ text: String, width: Double, measure: (String) -> Double) -> String {
    lines(text, width: width, maxLines: 1, measure: measure).first ?? ""
  }

  /// The text, shortened until it and a "…" after it fit.
  private static func withEllipsis(
    _ text: String, width: Double, measure: (String) -> Double
  ) -> String {
    var kept = trimmingTrailingSpaces(text)
    while !kept.isEmpty && measure(kept + ellipsis) > width {
      kept.removeLast()
      kept = trimmingTrailingSpaces(kept)
    }
    return kept + ellipsis
  }

  /// Pieces that can end a line: a word with the spaces after it, or one CJK character.
  private static func tokens(of text: String) -> [String] {
    var tokens: [String] = []
    var current = ""
    for c in text {
      if isCJK(c) {
        if !current.isEmpty { tokens.append(current) }
        tokens.append(String(c))
        current = ""
      } else if c == " " {
        current.append(c)
      } else {
        if current.last == " " {
          tokens.append(current)
          current = ""
        }
        current.append(c)
      }
    }
    if !current.isEmpty { tokens.append(current) }
    return tokens
  }

  /// Lines of a word too wide for one, broken between characters; the last may have room left.
  private static func breakByCharacters(
    _ text: String, width: Double, measure: (String) -> Double
  ) -> [String] {
    var pieces: [String] = []
    var line = ""
    for c in text {
      if !line.isEmpty && measure(line + String(c)) > width {
        pieces.append(line)
        line = ""
      }
      line.append(c)
    }
    pieces.append(line)
    return pieces
  }

  private static func trimmingTrailingSpaces(_ s: String) -> String {
    var s = s
    while s.last == " " { s.removeLast() }
    return s
  }

  /// Han, kana, Hangul and CJK punctuation and full-width forms: text written without spaces.
  private static func isCJK(_ c: Character) -> Bool {
    guard let v = c.unicodeScalars.first?.value else { return false }
    return (0x2E80...0x9FFF).contains(v) || (0xAC00...0xD7AF).contains(v)
      || (0xF900...0xFAFF).contains(v) || (0xFF00...0xFFEF).contains(v)
  }
}
