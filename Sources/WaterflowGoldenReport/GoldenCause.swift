public import WaterflowGolden
internal import Foundation

/// Why a golden failed, as a cause several goldens can share: every cell moved by the same
/// amount, the same field of the same item changed, or the same pixels differ.
///
/// A top-margin change fails every golden of a scene with "cells moved down 6 pt", and a price
/// change fails only the goldens that show that item; grouping by cause lets a reviewer accept
/// the first as a whole and look closely at the second. A cause never mixes verdicts.
public struct GoldenCause: Hashable, Sendable, Codable, CustomStringConvertible {
  /// `layout`, `content`, `reuse`, `drawing`, or `missing` for a golden never recorded.
  public var verdict: String
  /// What changed, the same words for every golden of the cause: `cells moved down 6 pt`.
  public var summary: String

  public var description: String { "\(verdict): \(summary)" }

  /// The cause of a failed outcome (its first failing frame for a sequence); nil when it passed.
  public init?(_ outcome: GoldenSequenceOutcome) {
    guard outcome.isFailure, let frame = outcome.explainedFrame else { return nil }
    if frame.status == .missing {
      (verdict, summary) = ("missing", "no golden recorded yet")
      return
    }
    guard let changes = frame.changes else {
      // No facts to explain it: the pixels are the cause, by how many differ and the size.
      let size = frame.diff.map { "\($0.actualSize.width)×\($0.actualSize.height)" } ?? "?"
      let count = frame.diff?.mismatched ?? 0
      if frame.diff?.sizesDiffer == true {
        (verdict, summary) = ("drawing", "the picture is \(size), not the golden's size")
      } else {
        (verdict, summary) = ("drawing", "\(count) pixels differ in \(size) (no facts to explain them)")
      }
      return
    }
    verdict = changes.verdict.rawValue
    switch changes.verdict {
    case .layout: summary = Self.layoutSummary(changes)
    case .content: summary = Self.contentSummary(changes)
    case .reuse:
      let pairs = changes.reuse.map { "item \($0.index) #\($0.from) → #\($0.to)" }
      summary = "other cells show " + Self.list(pairs)
    case .drawing:
      let size = frame.diff.map { "\($0.actualSize.width)×\($0.actualSize.height)" } ?? "?"
      summary = "only the drawing: \(frame.diff?.mismatched ?? 0) pixels differ in \(size)"
    }
  }

  /// Moves described by their common amount: a shift of the whole layout reads the same in
  /// every golden, whichever cells each one shows.
  static func layoutSummary(_ c: GoldenChanges) -> String {
    func amount(_ m: GoldenChanges.Move) -> String {
      let dx = round2(m.to.minX - m.from.minX)
      let dy = round2(m.to.minY - m.from.minY)
      let dw = round2(m.to.width - m.from.width)
      let dh = round2(m.to.height - m.from.height)
      var parts: [String] = []
      if dy != 0 { parts.append("\(dy > 0 ? "down" : "up") \(number(abs(dy))) pt") }
      if dx != 0 { parts.append("\(dx > 0 ? "right" : "left") \(number(abs(dx))) pt") }
      if dw != 0 || dh != 0 {
        parts.append("resized by \(signed(dw)) × \(signed(dh)) pt")
      }
      return parts.isEmpty ? "unchanged" : parts.joined(separator: ", ")
    }
    guard !c.moved.isEmpty else {
      // Only cells appearing or disappearing: which ones depends on the offset, so the cause
      // is the kind of change alone.
      return c.appeared.isEmpty ? "cells left the screen" : "other cells are on screen"
    }
    let amounts = Set(c.moved.map(amount))
    if amounts.count == 1 { return "cells moved " + amounts.first! }
    return "cells moved by different amounts: " + list(amounts.sorted())
  }

  static func contentSummary(_ c: GoldenChanges) -> String {
    guard !c.content.isEmpty else {
      return "texts changed: " + list(c.texts.map { "\($0)" }.sorted())
    }
    let changes = Set(
      c.content.map { "item \($0.index) \($0.field) \($0.from ?? "none") → \($0.to ?? "none")" })
    return list(changes.sorted { a, b in a.localizedStandardCompare(b) == .orderedAscending })
  }

  /// Up to four items, then how many more.
  static func list(_ items: [String]) -> String {
    items.count <= 4 ? items.joined(separator: ", ")
      : items.prefix(4).joined(separator: ", ") + " and \(items.count - 4) more"
  }

  private static func round2(_ v: Double) -> Double { (v * 100).rounded() / 100 }
  private static func number(_ v: Double) -> String {
    v == v.rounded() ? String(Int(v)) : String(v)
  }
  private static func signed(_ v: Double) -> String { v >= 0 ? "+" + number(v) : "−" + number(-v) }

  /// Failures grouped by cause, in the order each cause first fails: the largest groups are
  /// what one intended change did, a group of one is worth a closer look.
  ///
  /// - Complexity: O(n) in the failures.
  public static func groups(_ failures: [(name: String, cause: GoldenCause)])
    -> [(cause: GoldenCause, names: [String])]
  {
    var order: [GoldenCause] = []
    var names: [GoldenCause: [String]] = [:]
    for (name, cause) in failures {
      if names[cause] == nil { order.append(cause) }
      names[cause, default: []].append(name)
    }
    return order.map { ($0, names[$0]!) }
  }
}
