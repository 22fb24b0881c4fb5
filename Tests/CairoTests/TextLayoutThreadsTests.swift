import Cairo
import Foundation
import Testing

/// Text laid out on several threads at once, each thread with its own font stack, comes out as
/// it does on one thread alone: scroll workers and the template measurer lay out at once.
@Suite struct TextLayoutThreadsTests {
  static let texts = [
    "蘑菇街 · 新品上架", "summer outfit 1234", "咖啡 latte 旅行 city walk 美食 summer 穿搭 outfit 夏日",
    "a long title that needs two lines in a narrow column, or three, or four at the most",
    "مرحبا بالعالم، هذا نص طويل", "🍰 dessert 🍓🍓", "\u{301}accent", "supercalifragilistic-without-spaces",
    "第一行\n第二行\n第三行\n第四行",
  ]

  /// Each text's lines and size in two styles, at widths from none at all to a column's,
  /// with line limits of one, three and none.
  static func measure(_ fonts: FontStack) -> [String] {
    var out: [String] = []
    for text in texts {
      for width in [0.0, 1, 13, 40, 120] {
        for (size, weight) in [(17.0, TextWeight.bold), (13, .regular)] {
          for lines in [1, 3, 10_000] {
            let layout = TextLayout(text, fonts: fonts, size: size, width: width, maxLines: lines, weight: weight)
            let box = layout.logicalBox
            out.append("\(text)|\(width)|\(size)|\(lines)|\(layout.lineCount)|\(box.width)|\(box.height)")
          }
        }
      }
    }
    return out
  }

  @Test func layoutsOnEightThreadsAtOnce_EqualThoseOnOneThread() throws {
    let alone = Self.measure(try FontStack(paths: FontStack.defaultPaths))
    final class Found: @unchecked Sendable {
      let lock = NSLock()
      var differences: [(alone: String, together: String)] = []
    }
    let found = Found()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      guard let fonts = try? FontStack(paths: FontStack.defaultPaths) else { return }
      for _ in 0..<3 {
        for (a, b) in zip(alone, Self.measure(fonts)) where a != b {
          found.lock.withLock { found.differences.append((a, b)) }
        }
      }
    }
    // Arabic in a box narrower than one of its letters, where Pango breaks inside clusters,
    // differed in most runs (26 lines without its ligatures instead of 21) until right-to-left
    // texts were shaped alone (ShapingGate).
    #expect(
      found.differences.isEmpty,
      "\(found.differences.prefix(10).map { "\($0.alone)  ≠  \($0.together)" }.joined(separator: "\n"))")
  }
}
