internal import Cairo
internal import SystemPackage
public import PNGCodec
internal import FileTransactions
internal import Foundation
internal import WaterflowScene
public import WaterflowRender

/// A folder of golden PNGs, checked and recorded under a ``GoldenConfiguration``.
///
/// The golden named `"reference/top"` is `<directory>/reference/top.png`. Goldens are written
/// atomically and never in CI. A failure writes `NAME.expected.png`, `NAME.actual.png` and the
/// three-panel `NAME.diff.png` into the artifacts folder, and its message starts with the font
/// stack when that differs from `fingerprint.json`.
///
/// ```swift
/// let store = GoldenStore(directory: "Golden", configuration: .init(recordMode: .missing))
/// let outcome = try store.check(image, named: "reference/top", fingerprint: fingerprint)
/// if outcome.isFailure { print(outcome.message) }
/// ```
public struct GoldenStore: Sendable {
  /// The golden folder.
  public let directory: String
  /// Record mode, artifacts, diff options and tolerance.
  public var configuration: GoldenConfiguration
  /// Whether `check(_:renderer:fingerprint:)` decodes an entry's golden on another thread while
  /// the entry renders: for runs with fewer jobs than cores (`--jobs 1` on a bigger machine),
  /// where a core would otherwise wait. The outcome is the same either way.
  package var decodesAhead = false
  /// Whether a golden it records compresses its two bands one after the other on the drawing
  /// thread rather than on two cores: for runs with a job on every core. The bytes are the same.
  ///
  /// Measured (release, 2 cores, 200 new goldens at scale 2, two fifths photo feeds, two jobs,
  /// 5 alternating rounds): 4.41–4.44 s against 4.58–4.64 s, byte-identical goldens.
  package var encodesBandsInTurn = false

  /// Creates a store over a folder, which is created when the first golden is recorded.
  public init(directory: String, configuration: GoldenConfiguration) {
    self.directory = directory
    self.configuration = configuration
  }

  /// The folder under a golden folder that holds one folder per font stack.
  public static let stacksFolder = "stacks"

  /// The folder of the goldens kept for one font stack: `<root>/stacks/<stack>`.
  public static func stackDirectory(in root: String, for stack: FontStackFingerprint) -> String {
    root + "/" + stacksFolder + "/" + stack.folderName
  }

  /// The path of a golden's file.
  public func path(for name: String) -> String {
    directory + "/" + name + ".png"
  }

  /// The fingerprint file in the golden folder.
  public var fingerprintPath: String {
    directory + "/" + FontStackFingerprint.fileName
  }

  /// The changes between the recorded fingerprint and `current`; empty when none was recorded.
  ///
  /// - Throws: `GoldenError` when the fingerprint file is damaged.
  public func fontStackChanges(to current: FontStackFingerprint)
    throws(GoldenError) -> [String]
  {
    guard let recorded = try GoldenFingerprints.read(from: fingerprintPath)
    else { return [] }
    return current.changes(since: recorded.folder)
  }

  /// The changes between the stack `name` was recorded with and `current`.
  ///
  /// - Throws: `GoldenError` when the fingerprint file is damaged.
  public func fontStackChanges(to current: FontStackFingerprint, of name: String)
    throws(GoldenError) -> [String]
  {
    guard let recorded = try GoldenFingerprints.read(from: fingerprintPath)
    else { return [] }
    return current.changes(since: recorded.fingerprint(of: name))
  }


  /// Compares an image with its golden, recording it when the mode allows.
  ///
  /// - Parameters:
  ///   - image: The rendered image.
  ///   - name: The golden's name (a relative path without `.png`).
  ///   - fingerprint: This machine's font stack; written next to recorded goldens.
  ///   - diffOptions: Options for this golden, instead of the configuration's.
  ///   - tolerance: The tolerance for this golden, instead of the configuration's.
  ///   - facts: What the image was drawn from, recorded beside it and compared with the recorded
  ///     facts to explain a failure; nil compares pixels only.
  /// - Returns: The outcome; a mismatch is an outcome, not an error.
  /// - Throws: `GoldenError` (`.file`) when a golden cannot be decoded or a file cannot be written.
  public func check(
    _ image: RGBAImage, named name: String, fingerprint: FontStackFingerprint,
    diffOptions: ImageDiff.Options? = nil, tolerance: DiffTolerance? = nil,
    facts: GoldenFacts? = nil
  ) throws(GoldenError) -> GoldenOutcome {
    try check(
      image, named: name, fingerprint: fingerprint, diffOptions: diffOptions, tolerance: tolerance,
      facts: facts, onDisk: nil)
  }

  /// `check(_:named:fingerprint:diffOptions:tolerance:facts:)`, with the golden file already
  /// decoded when `onDisk` is given (see `decodesAhead`).
  func check(
    _ image: RGBAImage, named name: String, fingerprint: FontStackFingerprint,
    diffOptions: ImageDiff.Options?, tolerance: DiffTolerance?, facts: GoldenFacts?,
    onDisk: Result<RGBAImage, PNGDecodingError>?
  ) throws(GoldenError) -> GoldenOutcome {
    clearArtifacts(of: name)
    let recorded = try recordedFacts(of: name)
    let outcome = try check(
      image, named: name, fingerprint: fingerprint, diffOptions: diffOptions,
      tolerance: tolerance, facts: facts, recorded: recorded.map { $0.first }, onDisk: onDisk)
    if outcome.didRecord, let facts { try writeFacts([facts], of: name) }
    return outcome
  }

  /// The path of the facts recorded with a golden (a sequence has one file for all its frames).
  public func factsPath(for name: String) -> String {
    directory + "/" + name + ".facts.json"
  }

  /// The facts recorded with a golden, per frame; nil when none were (an older golden).
  func recordedFacts(of name: String) throws(GoldenError) -> [GoldenFacts]? {
    try GoldenFacts.read(from: factsPath(for: name))
  }

  /// Writes a golden's facts, leaving the file alone when its bytes would not change.
  func writeFacts(_ frames: [GoldenFacts], of name: String) throws(GoldenError) {
    let path = factsPath(for: name)
    let bytes = GoldenFacts.fileContents(frames.map { $0.withImages(relativeTo: directory) })
    if let old = FileManager.default.contents(atPath: path), [UInt8](old) == bytes { return }
    guard !configuration.isCI else { return }
    try GoldenStore.writeFile(bytes, to: path)
  }

  /// Checks one frame against its golden; `recorded` is nil without a facts file, and `.some(nil)`
  /// when the file has no facts for this frame.
  private func check(
    _ image: RGBAImage, named name: String, fingerprint: FontStackFingerprint,
    diffOptions: ImageDiff.Options?, tolerance: DiffTolerance?, facts: GoldenFacts?,
    recorded: GoldenFacts??, onDisk: Result<RGBAImage, PNGDecodingError>?
  ) throws(GoldenError) -> GoldenOutcome {
    let golden = path(for: name)
    let mode = configuration.effectiveRecordMode
    let tolerance = tolerance ?? configuration.tolerance
    let options = diffOptions ?? configuration.diffOptions
    // Read once per golden: what changed, and whether the fonts differ by name.
    let recordedStack = try GoldenFingerprints.read(from: fingerprintPath)?.fingerprint(of: name)
    let changes = recordedStack.map { fingerprint.changes(since: $0) } ?? []
    let exists = FileManager.default.fileExists(atPath: golden)
    let size = PixelSize(width: image.width, height: image.height)

    var explained: GoldenChanges?
    var crossStack: CrossStackCheck?
    func outcome(
      _ status: GoldenOutcome.Status, diff: DiffResult? = nil,
      expected: RGBAImage? = nil,
      artifacts: GoldenArtifacts? = nil, message: String = ""
    ) -> GoldenOutcome {
      GoldenOutcome(
        name: name, goldenPath: golden, status: status, diff: diff,
        tolerance: tolerance,
        expected: expected, actual: image, artifacts: artifacts,
        fontStackChanges: changes,
        message: message, changes: explained, crossStack: crossStack)
    }

    if mode == .all {
      let wrote = try record(image, named: name, fingerprint: fingerprint, onDisk: onDisk)
      var recorded = outcome(
        .recordedAll,
        message: wrote
          ? "Recorded golden '\(name)' (\(size)) at \(golden) because the record mode is 'all'; nothing was compared."
          : "Golden '\(name)' (\(size)) is unchanged: its pixels equal \(golden), which was left as it was."
      )
      recorded.unchanged = !wrote
      return recorded
    }
    guard exists else {
      if mode == .never {
        let artifacts = try writeArtifacts(
          name: name, expected: nil, actual: image, diff: nil)
        let why =
          configuration.isCI
          ? "CI is set, so goldens are never recorded here"
          : "the record mode is 'never'"
        return outcome(
          .missing, artifacts: artifacts,
          message: """
            No golden '\(name)' at \(golden), and \(why). The rendered image (\(size)) is at \(artifacts.actual).
            Record it on a development machine with: \(configuration.recordHint(name))
            then commit \(golden)\(FileManager.default.fileExists(atPath: fingerprintPath) ? "" : " and \(fingerprintPath)").
            """)
      }
      try record(image, named: name, fingerprint: fingerprint, onDisk: onDisk)
      return outcome(
        .recordedNew,
        message:
          "No golden '\(name)' existed; recorded \(golden) (\(size)). Check the image, commit it, and re-run to compare against it."
      )
    }

    let expected: RGBAImage
    do {
      expected = try (onDisk ?? Result { () throws(PNGDecodingError) in
        try RGBAImage(contentsOfPNGFile: golden)
      }).get()
    } catch {
      throw GoldenError(
        .file,
        "The golden '\(name)' cannot be read: \(error). Delete it and record it again."
      )
    }
    let comparison = GoldenComparison(
      expected: expected, actual: image, recorded: recorded,
      current: facts?.withImages(relativeTo: directory), stackChanges: changes,
      otherFonts: !changes.isEmpty
        && recordedStack.map { fingerprint.drawsWithOtherFonts(than: $0) } ?? false,
      options: options, tolerance: tolerance)
    let result = comparison.diff
    let textTolerance = comparison.textTolerance
    explained = comparison.changes
    crossStack = comparison.crossStack
    if comparison.passes {
      return outcome(.matched, diff: result, expected: expected)
    }

    let artifacts = try writeArtifacts(
      name: name, expected: expected, actual: image, diff: result)
    var lines: [String] = []
    if !changes.isEmpty {
      let how =
        crossStack?.textBoxes.map {
          "Text was checked by its recorded strings and boxes (\($0) texts), every other pixel \(tolerance == .exact ? "exactly" : "within the tolerance")."
        }
        ?? "Glyph edges may differ for that reason alone: compared pixel for pixel, as \(crossStack?.fallbackReason ?? "no texts were recorded")."
      lines.append(
        "The font stack differs from the one the goldens were recorded with (\(fingerprintPath)): \(changes.joined(separator: ", ")). \(how)"
      )
    }
    if result.sizesDiffer {
      lines.append(
        "Golden '\(name)' has a different size: \(golden) is \(result.expectedSize), the rendered image is \(result.actualSize)."
      )
    } else if result.isWithin(tolerance), textTolerance != nil {
      lines.append(
        "Golden '\(name)' fails on what it shows: its pixels outside the texts match (\(result.mismatched) of \(result.total) differ, allowed \(tolerance.phrase)), but its facts do not."
      )
    } else if result.isWithin(tolerance) {
      lines.append(
        "Golden '\(name)' fails on what it shows, although its pixels are within the tolerance (\(result.mismatched) of \(result.total) pixels differ, allowed \(tolerance.phrase)): a tolerance excuses rasterisation, not a change of layout, content or reuse."
      )
    } else {
      let outside = textTolerance == nil ? "" : " outside the texts"
      lines.append(
        "Golden '\(name)' does not match \(golden) (\(size)): \(result.mismatched) of \(result.total) pixels differ\(outside) (\(DiffTolerance.percent(result.ratio))), allowed \(tolerance.phrase)."
      )
    }
    if facts != nil {
      if let found = explained {
        lines.append(([found.summary] + found.details.map { "  " + $0 }).joined(separator: "\n"))
      } else if recorded == nil {
        lines.append(
          "No facts were recorded with this golden: re-record it to learn what changed (layout, content, reuse or only the drawing)."
        )
      }
    }
    lines.append("  expected: \(artifacts.expected ?? "-")")
    lines.append("  actual:   \(artifacts.actual)")
    if let diff = artifacts.diff {
      lines.append(
        "  diff:     \(diff) (expected | actual | differences in red)")
    }
    if mode == .failed {
      try record(image, named: name, fingerprint: fingerprint, onDisk: onDisk)
      lines.append("Re-recorded \(golden) because the record mode is 'failed'.")
      return outcome(
        .rerecorded, diff: result, expected: expected, artifacts: artifacts,
        message: lines.joined(separator: "\n"))
    }
    lines.append(
      "If the change is intended, re-record with: \(configuration.recordHint(name))"
    )
    return outcome(
      .failed, diff: result, expected: expected, artifacts: artifacts,
      message: lines.joined(separator: "\n"))
  }

  /// Checks every frame of a sequence; frame *k* is the golden `name.kk` (two digits or more).
  ///
  /// - Parameters:
  ///   - frames: The rendered frames with their offsets, in order.
  ///   - name: The sequence's name.
  ///   - fingerprint: As for ``check(_:named:fingerprint:diffOptions:tolerance:facts:)``.
  ///   - diffOptions: As for ``check(_:named:fingerprint:diffOptions:tolerance:facts:)``.
  ///   - tolerance: As for ``check(_:named:fingerprint:diffOptions:tolerance:facts:)``.
  /// - Returns: Every frame's outcome, the first failing frame and the failing count.
  /// - Throws: `GoldenError` as ``check(_:named:fingerprint:diffOptions:tolerance:facts:)`` does.
  public func checkSequence(
    _ frames: [GoldenFrame], named name: String,
    fingerprint: FontStackFingerprint, diffOptions: ImageDiff.Options? = nil,
    tolerance: DiffTolerance? = nil
  ) throws(GoldenError) -> GoldenSequenceOutcome {
    clearArtifacts(of: name)
    var outcomes: [GoldenOutcome] = []
    // Frames are re-recorded through their sequence, so hints name the sequence.
    var store = self
    let hint = configuration.recordHint
    store.configuration.recordHint = { _ in hint(name) }
    let recorded = try recordedFacts(of: name)
    for (k, frame) in frames.enumerated() {
      var options = diffOptions ?? configuration.diffOptions
      options.masks += frame.masks
      outcomes.append(
        try store.check(
          frame.image,
          named: GoldenStore.frameName(name, k, count: frames.count),
          fingerprint: fingerprint, diffOptions: options, tolerance: tolerance,
          facts: frame.facts,
          recorded: recorded.map { k < $0.count ? $0[k] : nil }, onDisk: nil))
    }
    let facts = frames.compactMap(\.facts)
    if outcomes.contains(where: \.didRecord) && facts.count == frames.count {
      try writeFacts(facts, of: name)
    }
    // Frames past the end of a shortened sequence: reported so `golden prune` can remove them.
    var extra: [String] = []
    var k = frames.count
    while FileManager.default.fileExists(
      atPath: path(for: GoldenStore.frameName(name, k, count: k + 1)))
    {
      extra.append(path(for: GoldenStore.frameName(name, k, count: k + 1)))
      k += 1
    }
    return GoldenSequenceOutcome(
      name: name, offsets: frames.map(\.offset), frames: outcomes,
      extraGoldenFrames: extra)
  }

  /// Renders a manifest entry and checks it: one golden, or every frame of a sequence.
  ///
  /// - Parameters:
  ///   - entry: The entry.
  ///   - renderer: The renderer; its font must be the one in `fingerprint`.
  ///   - fingerprint: This machine's font stack.
  /// - Returns: The outcome (a single golden is a sequence of one frame with `isSequence` false).
  /// - Throws: `GoldenError` when the scene cannot be loaded or rendered, or a file fails.
  public func check(
    _ entry: GoldenManifest.Entry, renderer: Renderer,
    fingerprint: FontStackFingerprint
  ) throws(GoldenError) -> GoldenSequenceOutcome {
    // With a core to spare, the golden on disk is decoded while the entry renders.
    let golden = path(for: entry.name)
    let pending =
      decodesAhead && !entry.isSequence && FileManager.default.fileExists(atPath: golden)
      ? ImageDiff.decodeAhead(golden) : nil
    let frames: [GoldenFrame]
    do { frames = try entry.shot().frames(with: renderer) } catch {
      _ = pending?()
      throw error
    }
    let onDisk = pending?()
    if entry.isSequence {
      return try checkSequence(
        frames, named: entry.name, fingerprint: fingerprint,
        diffOptions: entry.diffOptions,
        tolerance: entry.tolerance)
    }
    var options = entry.diffOptions
    options.masks += frames[0].masks
    let outcome = try check(
      frames[0].image, named: entry.name, fingerprint: fingerprint,
      diffOptions: options,
      tolerance: entry.tolerance, facts: frames[0].facts, onDisk: onDisk)
    return GoldenSequenceOutcome(
      name: entry.name, offsets: [frames[0].offset], frames: [outcome],
      isSequence: false)
  }

  /// The golden name of frame `k` of a sequence of `count` frames: `name.03`.
  public static func frameName(_ name: String, _ k: Int, count: Int) -> String {
    let digits = max(2, String(max(0, count - 1)).count)
    let number = String(k)
    return name + "."
      + String(repeating: "0", count: max(0, digits - number.count)) + number
  }

  // MARK: - Files

  /// Writes a golden and notes its font stack, unless its pixels are those already on disk:
  /// re-encoding would change the bytes (churn in git) for the same picture, and the file it
  /// leaves keeps the stack it was recorded with. Returns whether it wrote.
  @discardableResult
  private func record(
    _ image: RGBAImage, named name: String, fingerprint: FontStackFingerprint,
    onDisk: Result<RGBAImage, PNGDecodingError>? = nil
  ) throws(GoldenError) -> Bool {
    let golden = path(for: name)
    // Belt and braces: effectiveRecordMode is already .never in CI.
    guard !configuration.isCI else {
      throw GoldenError(
        .configuration,
        "Refusing to write \(golden): CI is set, and goldens are never written in CI."
      )
    }
    let unchanged =
      (onDisk.map { try? $0.get() } ?? (try? RGBAImage(contentsOfPNGFile: golden))).map {
        $0 == image
      } ?? false
    if !unchanged {
      let bytes = GoldenStore.encoded(image, bandsInTurn: encodesBandsInTurn)
      try GoldenStore.writeFile(bytes, to: golden)
    }
    // The stack is noted even when the pixels are unchanged: the golden is now known to hold on
    // it. Only this golden's entry changes; the lock keeps parallel recorders from losing one.
    GoldenFingerprints.lock.lock()
    defer { GoldenFingerprints.lock.unlock() }
    let existing = try? GoldenFingerprints.read(from: fingerprintPath)
    var updated = existing ?? GoldenFingerprints(folder: fingerprint)
    updated.set(fingerprint, for: name)
    if existing != updated {
      try GoldenStore.writeFile(updated.fileContents, to: fingerprintPath)
    }
    return !unchanged
  }

  /// How goldens are compressed: libdeflate level 7 with the adaptive filters.
  ///
  /// Chosen by measurement (`waterflow bench --golden-encodings Golden/manifest.json`, release,
  /// this 2-core machine, medians of 5, two runs): the repository's 25 golden PNGs hold
  /// 2,983,818 bytes at level 12, most of them in the four photo shots and the feeds. Level 12
  /// took 237–252 ms a golden, 70 % of recording one. Level 7 takes 9–12 ms for 1.092× the bytes,
  /// the cheapest within the 1.1× bound: level 6 is 6–8 ms for 1.108×, levels 1–5 are
  /// 1.12–1.20×, Up filtering alone 1.17–1.27×, and the run encoder of scroll frames 2 ms for
  /// 1.37× (it Huffman-codes photos as literals). Levels 8–11 cost 2–14× level 7 for 1–8 % fewer
  /// bytes. Recording the whole manifest went from 23× checking it to 2× (wall, one job).
  ///
  /// On goldens with photos no level meets both of issue 41's bounds (recording ≤ 3× checking,
  /// bytes ≤ 1.1× level 12). 200 new goldens at scale 2, two fifths of them photo feeds
  /// (`golden-scale.sh`'s mix), recorded then checked on two jobs, 3 alternating rounds:
  ///
  /// | Encoding | Record ÷ check | Bytes ÷ level 12 |
  /// | --- | --- | --- |
  /// | run encoder (`.frames`) | 1.0× | 1.27× |
  /// | level 1 / 4 / 5 / 6 | 3.5× / 3.8× / 4.2× / 5.0× | 1.20× / 1.15× / 1.13× / 1.11× |
  /// | level 7 | 7.3× | 1.10× |
  /// | level 8 / 12 | 17× / 93× | 1.09× / 1.00× |
  ///
  /// A photo's Paeth residuals are three quarters zeros and ±1: below one bit a byte, which
  /// DEFLATE reaches only through matches, and level 12 finds 10 % more of them than level 7
  /// by its near-optimal parse. Other filters change level 7's bytes by under 0.2 %; zlib's
  /// run-only strategy and ISA-L's levels 1–3 are 1.14–1.33× level 12.
  ///
  /// Goldens are compared by decoded pixels, so goldens written at another level still pass,
  /// and `record` leaves a file whose pixels are unchanged as it is (no churn in git).
  package static let encoding = PNGCompression(level: 7)

  /// The bytes a golden file holds for `image`: the one encoding of `golden record`, of a check
  /// that records, and of an accept in `golden review` (which records through `check`).
  ///
  /// - Parameter bandsInTurn: Whether its bands are compressed on this thread only (see
  ///   ``encodesBandsInTurn``); the bytes are the same.
  package static func encoded(_ image: RGBAImage, bandsInTurn: Bool = false) -> [UInt8] {
    withPooledEncoder(encoding) { $0.encode(image, bandsInTurn: bandsInTurn) }
  }

  /// Removes what an earlier failure of `name` left in the artifacts folder (its frames' too),
  /// so that the folder shows only this run's failures.
  func clearArtifacts(of name: String) {
    guard configuration.clearsArtifacts else { return }
    for path in Self.files(
      of: name, in: configuration.artifactsDirectory, kinds: ["expected.png", "actual.png", "diff.png"])
    {
      try? FileManager.default.removeItem(atPath: path)
    }
  }

  /// The files beside `root/name` named `NAME.KIND`, or `NAME.07.KIND` for a frame, with KIND
  /// one of `kinds`: sorted paths.
  ///
  /// - Complexity: O(n) in the files of that folder.
  static func files(of name: String, in root: String, kinds: Set<String>) -> [String] {
    let base = FilePath(root + "/" + name)
    let folder = base.removingLastComponent().string
    let stem = (base.lastComponent?.string ?? "") + "."
    guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
    return files.filter { file in
      guard file.hasPrefix(stem) else { return false }
      var rest = file.dropFirst(stem.count)
      if let dot = rest.firstIndex(of: "."), !rest[..<dot].isEmpty,
        rest[..<dot].allSatisfy({ $0.isASCII && $0.isNumber })
      {
        rest = rest[rest.index(after: dot)...]
      }
      return kinds.contains(String(rest))
    }.sorted().map { folder + "/" + $0 }
  }

  private func writeArtifacts(
    name: String, expected: RGBAImage?, actual: RGBAImage, diff: DiffResult?
  ) throws(GoldenError) -> GoldenArtifacts {
    let base = configuration.artifactsDirectory + "/" + name
    var artifacts = GoldenArtifacts(
      expected: nil, actual: base + ".actual.png", diff: nil)
    try GoldenStore.writeFile(
      actual.pngData(compression: Self.artifactEncoding), to: artifacts.actual)
    if let expected {
      artifacts.expected = base + ".expected.png"
      // The golden's own bytes when they can be read again: a copy, not an encoding.
      let golden = FileManager.default.contents(atPath: path(for: name)).map { [UInt8]($0) }
      try GoldenStore.writeFile(
        golden ?? expected.pngData(compression: Self.artifactEncoding), to: artifacts.expected!)
      let panels = DiffPanels.compose(
        expected: expected, actual: actual, diff: diff?.diffImage)
      artifacts.diff = base + ".diff.png"
      try GoldenStore.writeFile(
        panels.pngData(compression: Self.artifactEncoding), to: artifacts.diff!)
    }
    return artifacts
  }

  /// How a failure's images are compressed: the frame encoder, whose files are read once by a
  /// person or a CI upload and are then deleted.
  ///
  /// Measured (release, this 2-core machine): a check of 200 goldens at scale 2 with 40 failures
  /// (a notes template edit), artifacts, report and results included, took 4.77 s and 7.6 s of
  /// CPU with libdeflate level 1 in two bands, where encoding and joining the bands was over half
  /// the CPU time; 3.0–3.2 s and 3.8–4.1 s with this, for artifacts 6–9 % larger.
  package static let artifactEncoding = PNGCompression.frames

  /// Writes a file atomically, creating its folder first.
  ///
  /// - Throws: `GoldenError` (`.file`) with one sentence that names the path and the reason.
  static func writeFile(_ bytes: [UInt8], to path: String) throws(GoldenError) {
    let folder = FilePath(path).removingLastComponent().string
    if !folder.isEmpty {
      do {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw GoldenError(.file, "Cannot write '\(path)': \(error)")
      }
    }
    // A `FileWriteError` already reads "Cannot write 'PATH': reason."; wrapping it again said
    // its first clause twice.
    do { try writeAtomically(bytes, to: path) } catch {
      throw GoldenError(.file, error.description)
    }
  }
}
