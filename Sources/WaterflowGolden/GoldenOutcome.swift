internal import WaterflowJSON
public import PNGCodec

/// The result of checking one image against its golden: a mismatch is a result, not an error.
public struct GoldenOutcome: Sendable {
  /// What happened.
  public enum Status: String, Hashable, Sendable {
    /// The image matches the golden within the tolerance.
    case matched
    /// There was no golden; one was written (record mode `missing`, `failed` or `all`).
    case recordedNew
    /// The golden did not match and was replaced (record mode `failed`).
    case rerecorded
    /// The golden was overwritten without comparing (record mode `all`).
    case recordedAll
    /// The image differs from the golden beyond the tolerance.
    case failed
    /// There is no golden and recording is not allowed.
    case missing
    /// Not drawn: its inputs hash as they did when it last passed (`golden check --changed`).
    case unchanged
  }

  /// The golden's name, for example `"reference/top"`.
  public let name: String
  /// The golden file.
  public let goldenPath: String
  /// What happened.
  public let status: Status
  /// The comparison, when one was made.
  public let diff: DiffResult?
  /// The tolerance that applied.
  public let tolerance: DiffTolerance
  /// The golden image, when there was one.
  public let expected: RGBAImage?
  /// The rendered image.
  public let actual: RGBAImage
  /// The files written on failure: expected, actual and the three-panel diff.
  public let artifacts: GoldenArtifacts?
  /// How this machine's font stack differs from the recorded one; empty when it does not.
  public let fontStackChanges: [String]
  /// The full message: empty for a match, else what happened and what to do next.
  public let message: String
  /// What changed, from the facts recorded with the golden, when it failed and both exist.
  public var changes: GoldenChanges? = nil
  /// True when recording found the golden's pixels unchanged and left its file as it was.
  public var unchanged = false
  /// How the comparison went when the golden was recorded on another font stack; nil when it
  /// was recorded on this one (or not compared).
  public var crossStack: CrossStackCheck? = nil

  /// True for `.failed` and `.missing`.
  public var isFailure: Bool { status == .failed || status == .missing }
  /// True when the golden file was written.
  public var didRecord: Bool {
    [.recordedNew, .rerecorded, .recordedAll].contains(status)
  }
}

/// The files a failing check leaves in the artifacts folder.
public struct GoldenArtifacts: Hashable, Sendable {
  /// The golden as it was (absent when the golden is missing).
  public var expected: String?
  /// The rendered image.
  public var actual: String
  /// Expected, actual and the pixelmatch diff side by side (absent without a golden).
  public var diff: String?
}

/// The result of checking every frame of a scroll against its golden.
public struct GoldenSequenceOutcome: Sendable {
  /// The sequence's name; frame *k* is the golden `name.kk`.
  public let name: String
  /// The offsets of the frames, in order.
  public let offsets: [Double]
  /// One outcome per frame.
  public let frames: [GoldenOutcome]
  /// Golden frames beyond the last rendered one (the sequence got shorter), to prune.
  public let extraGoldenFrames: [String]
  /// False for a single golden, which is checked as a sequence of one frame.
  public let isSequence: Bool

  /// Creates an outcome from the frames' outcomes.
  public init(
    name: String, offsets: [Double], frames: [GoldenOutcome],
    extraGoldenFrames: [String] = [],
    isSequence: Bool = true
  ) {
    self.name = name
    self.offsets = offsets
    self.frames = frames
    self.extraGoldenFrames = extraGoldenFrames
    self.isSequence = isSequence
  }

  /// The index of the first frame that failed, or nil.
  public var firstFailingFrame: Int? { frames.firstIndex { $0.isFailure } }
  /// How many frames failed.
  public var failingFrameCount: Int { frames.count { $0.isFailure } }
  /// True when a frame failed.
  public var isFailure: Bool { firstFailingFrame != nil }
  /// The frame whose changes explain the failure: the first failing one.
  public var explainedFrame: GoldenOutcome? { firstFailingFrame.map { frames[$0] } }

  /// A message for the whole sequence: the first failing frame and the count, then that frame's message.
  public var message: String {
    if !isSequence, frames.count == 1 { return frames[0].message }
    guard let first = firstFailingFrame else {
      let recorded = frames.count { $0.didRecord }
      return recorded > 0
        ? "Recorded \(recorded) of \(frames.count) frames of '\(name)'." : ""
    }
    let frame = frames[first]
    var text = ""
    if !frame.fontStackChanges.isEmpty,
      let line = frame.message.split(separator: "\n").first
    {
      text += line + "\n"
    }
    text +=
      "Sequence '\(name)': \(failingFrameCount) of \(frames.count) frames fail; the first is frame \(first) at offset \(offsets[first].jsonText).\n"
    let body =
      frame.fontStackChanges.isEmpty
      ? frame.message
      : frame.message.split(separator: "\n").dropFirst().joined(separator: "\n")
    text += body
    return text
  }
}

extension GoldenOutcome {
  /// How every output names a golden that `--changed` did not draw.
  public static let unchangedPhrase = "unchanged (inputs identical to the last pass)"

  /// The outcome of a golden that was not drawn because its inputs are those of its last pass.
  public static func unchanged(name: String, goldenPath: String, tolerance: DiffTolerance)
    -> GoldenOutcome
  {
    GoldenOutcome(
      name: name, goldenPath: goldenPath, status: .unchanged, diff: nil, tolerance: tolerance,
      expected: nil, actual: RGBAImage(width: 0, height: 0, pixels: []), artifacts: nil,
      fontStackChanges: [], message: "")
  }
}
