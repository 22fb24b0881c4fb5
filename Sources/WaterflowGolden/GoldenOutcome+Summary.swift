internal import WaterflowJSON
/// The one-line forms of an outcome that every output shares: the text line, JUnit's failure
/// message, the GitHub annotation and the report's table all say the same thing.
extension GoldenSequenceOutcome {
  /// The outcome in one word, as `--json` prints it: `passed`, `failed` or `recorded`.
  public var statusWord: String {
    isFailure ? "failed" : (frames.contains(where: \.didRecord) ? "recorded" : "passed")
  }

  /// True when the golden was not drawn: its inputs are those of its last pass (`--changed`).
  public var isUnchanged: Bool {
    !frames.isEmpty && frames.allSatisfy { $0.status == .unchanged }
  }

  /// True when every failing frame is missing its golden (none differs).
  public var isMissingOnly: Bool {
    isFailure && frames.allSatisfy { $0.status != .failed }
  }

  /// One line saying what happened: the verdict of the facts when they explain the failure,
  /// else the pixel count, the missing file, or what was recorded.
  public var summary: String {
    if isUnchanged { return GoldenOutcome.unchangedPhrase }
    if let first = explainedFrame, let changes = first.changes {
      guard isSequence, let k = firstFailingFrame else { return changes.summary }
      return "frame \(k): \(changes.summary) (\(failingFrameCount) of \(frames.count) frames fail)"
    }
    if isSequence {
      var detail = "\(frames.count) frames"
      if let first = firstFailingFrame {
        detail +=
          ", \(failingFrameCount) failing, first: frame \(first) at offset \(offsets[first].jsonText)"
      }
      if !extraGoldenFrames.isEmpty {
        detail += ", \(extraGoldenFrames.count) stale frame files (run golden prune)"
      }
      if !isFailure, let crossStack { detail += "; " + crossStack.summary }
      return detail
    }
    let f = frames[0]
    switch f.status {
    case .missing: return "no golden at \(f.goldenPath)"
    case .unchanged: return GoldenOutcome.unchangedPhrase
    case .recordedAll where f.unchanged:
      return "unchanged \(f.goldenPath) (\(f.actual.width)×\(f.actual.height)): same pixels, file left as it was"
    case .recordedNew, .recordedAll, .rerecorded:
      return "wrote \(f.goldenPath) (\(f.actual.width)×\(f.actual.height))"
    default:
      if f.status == .matched, let crossStack = f.crossStack { return crossStack.summary }
      return f.diff?.description ?? ""
    }
  }

  /// How the frames recorded on another font stack were compared, as one line: the text boxes
  /// of every frame added up, or the first frame's reason for comparing pixels; nil when every
  /// frame was recorded on this stack.
  ///
  /// - Complexity: O(n) in the frames.
  public var crossStack: CrossStackCheck? {
    let checks = frames.compactMap(\.crossStack)
    guard var first = checks.first else { return nil }
    if let fallback = checks.first(where: { !$0.checksTexts }) { return fallback }
    first.textBoxes = checks.reduce(0) { $0 + ($1.textBoxes ?? 0) }
    return first
  }

  /// The message without the verdict line, which ``summary`` already gives.
  public var details: String {
    let verdict = explainedFrame?.changes?.summary
    return message.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { String($0) != verdict }.joined(separator: "\n")
  }

  /// Every artifact of every failing frame, in frame order: expected, actual, diff.
  public var artifactPaths: [String] {
    frames.flatMap { frame -> [String] in
      guard let a = frame.artifacts, frame.isFailure || frame.status == .rerecorded else { return [] }
      return [a.expected, a.actual, a.diff].compactMap { $0 }
    }
  }

  /// The golden file an annotation points at: the first failing frame's, else the first.
  public var annotatedPath: String {
    (explainedFrame ?? frames.first)?.goldenPath ?? name
  }
}
