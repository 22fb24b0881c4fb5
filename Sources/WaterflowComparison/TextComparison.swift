internal import WaterflowView
public import WaterflowRender

/// Compares the texts a golden was recorded with to the ones drawn now, by string and box: how
/// text is checked when the font stack differs, since its anti-aliased pixels then do too.
public enum TextComparison {
  /// How far a box edge may move, in points, and still be the same box.
  ///
  /// Between Debian 12's and Debian 13's cairo, pixman and FreeType every box measured was
  /// identical (0 pt on every scene in `Assets/Scenes`, scales 1 to 3): with hinting off, the
  /// boxes come from the font file's outlines, not the rasteriser. Half a point leaves room for
  /// a text engine whose shaping rounds differently, and still catches a 1-pt move, the
  /// smallest layout change the README's tolerance table lists.
  public static let boxTolerance = 0.5

  /// What differs between two lists of drawn texts: a text with another string (or one gone
  /// and one new in its place), the same string in another box, a text that appeared or
  /// disappeared. Equal lists give none.
  ///
  /// Texts are matched in drawing order: first the same string in the same box (within
  /// `tolerance`), then the same string in an overlapping box, then another string in an
  /// overlapping box, then the same string anywhere, nearest first.
  ///
  /// - Complexity: O(n²) in the texts on screen (tens per frame).
  public static func changes(
    recorded: [DrawnText], current: [DrawnText], tolerance: Double = boxTolerance
  ) -> [GoldenChanges.TextChange] {
    var leftOld = Array(recorded.indices)
    var usedNew = [Bool](repeating: false, count: current.count)
    func take(_ pick: (DrawnText) -> Int?) -> [(Int, Int)] {
      var pairs: [(Int, Int)] = []
      leftOld.removeAll { i in
        guard let j = pick(recorded[i]) else { return false }
        usedNew[j] = true
        pairs.append((i, j))
        return true
      }
      return pairs
    }
    func free(_ keep: (DrawnText) -> Bool) -> [Int] {
      current.indices.filter { !usedNew[$0] && keep(current[$0]) }
    }
    _ = take { old in
      free { $0.text == old.text && same(old.box, $0.box, tolerance) }.first
    }
    // Near before far: a text whose string also shows elsewhere on screen is paired with the
    // one in its own place first, so a price edited in place reads as changed, not moved.
    var moved = take { old in
      free { $0.text == old.text && overlap(old.box, $0.box) > 0 }.first
    }
    let replaced = take { old in
      free { overlap(old.box, $0.box) > 0 }.max {
        overlap(old.box, current[$0].box) < overlap(old.box, current[$1].box)
      }
    }
    moved += take { old in
      free { $0.text == old.text }.min {
        distance(old.box, current[$0].box) < distance(old.box, current[$1].box)
      }
    }
    moved.sort { $0.0 < $1.0 }
    var out: [GoldenChanges.TextChange] = []
    for (i, j) in replaced {
      out.append(.init(kind: .changed, from: recorded[i], to: current[j]))
    }
    for (i, j) in moved { out.append(.init(kind: .moved, from: recorded[i], to: current[j])) }
    for i in leftOld { out.append(.init(kind: .disappeared, from: recorded[i], to: nil)) }
    for j in free({ _ in true }) { out.append(.init(kind: .appeared, from: nil, to: current[j])) }
    return out
  }

  /// Every edge within `tolerance`.
  static func same(_ a: Rect, _ b: Rect, _ tolerance: Double) -> Bool {
    abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
      && abs(a.maxX - b.maxX) <= tolerance && abs(a.maxY - b.maxY) <= tolerance
  }

  private static func distance(_ a: Rect, _ b: Rect) -> Double {
    let (dx, dy) = (a.midX - b.midX, a.midY - b.midY)
    return dx * dx + dy * dy
  }

  private static func overlap(_ a: Rect, _ b: Rect) -> Double {
    let w = min(a.maxX, b.maxX) - max(a.minX, b.minX)
    let h = min(a.maxY, b.maxY) - max(a.minY, b.minY)
    return w > 0 && h > 0 ? w * h : 0
  }
}

extension GoldenChanges {
  /// A drawn text that differs from the one recorded.
  public struct TextChange: Hashable, Sendable {
    /// How it differs.
    public enum Kind: String, Hashable, Sendable {
      /// Another string where one was (a price, a label): content.
      case changed
      /// The same string in another box: layout.
      case moved
      /// A text drawn now that was not: content.
      case appeared
      /// A text recorded that is not drawn now: content.
      case disappeared
    }

    /// How it differs.
    public var kind: Kind
    /// The recorded text; nil for one that appeared.
    public var from: DrawnText?
    /// The text drawn now; nil for one that disappeared.
    public var to: DrawnText?

    /// Creates a change from its kind and its two sides.
    public init(kind: Kind, from: DrawnText?, to: DrawnText?) {
      (self.kind, self.from, self.to) = (kind, from, to)
    }

    /// `text "129.90" → "139.90"`, `text "Sale" moved (10, 20, 30×9) → (12, 20, 30×9)`.
    ///
    /// - Complexity: O(n) in the texts' lengths.
    public var phrase: String {
      let old = from.map { "\"\($0.text)\"" } ?? ""
      let new = to.map { "\"\($0.text)\"" } ?? ""
      switch kind {
      case .changed: return "text \(old) → \(new)"
      case .appeared: return "text \(new) appeared"
      case .disappeared: return "text \(old) disappeared"
      case .moved:
        return
          "text \(old) moved \(GoldenChanges.describe(from!.box)) → \(GoldenChanges.describe(to!.box))"
      }
    }
  }
}
