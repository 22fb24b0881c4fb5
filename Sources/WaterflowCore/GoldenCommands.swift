import WaterflowCommandLine
import ArgumentParser
import WaterflowMotion
import PNGCodec
import FileTransactions
import Foundation
import WaterflowGolden
import WaterflowGoldenReport
import WaterflowRender
import WaterflowScene
internal import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Runs a command body; errors print one message and exit 2, so exit 1 keeps meaning "differs".
func exitingWithTwo(_ body: () throws -> Void) throws {
  do {
    try body()
  } catch let code as ExitCode {
    throw code
  } catch {
    warn("Error: \(error)")
    throw ExitCode(2)
  }
}

// MARK: - diff

struct DiffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Compare two PNG images with pixelmatch 7.2.0 semantics.",
    discussion: """
      A pixel differs when its YIQ colour distance exceeds the threshold and it is not excused as \
      anti-aliasing. The images match when the count of differing pixels is at most \
      --max-diff-pixels and their share at most --max-diff-ratio; with neither, no pixel may \
      differ, and with one alone, only that one limits. \
      Exit status: 0 within tolerance, 1 beyond it (or different sizes), 2 when a file cannot be \
      read or written, 64 for invalid options.

      Masks exclude pixels from the count: --mask x,y,w,h in pixels, or --mask-cell INDEX with \
      --scene and --offset to mask a cell of the layout (for example one that shows a clock).
      """)

  @Argument(help: "The expected image (the golden).")
  var expected: String
  @Argument(help: "The actual image.")
  var actual: String

  @Option(
    help:
      "Per-pixel colour tolerance from 0 (exact) to 1; pixelmatch's default.")
  var threshold = 0.1
  @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels too.")
  var includeAA = false
  @Option(
    help: "How strongly unchanged pixels show in the diff image, from 0 to 1.")
  var alpha = 0.1
  @Option(
    name: .customLong("aa-color"),
    help: ArgumentHelp("The colour of anti-aliased pixels in the diff image.", valueName: "r,g,b"))
  var aaColor = "255,255,0"
  @Option(
    name: .customLong("diff-color"),
    help: ArgumentHelp("The colour of differing pixels in the diff image.", valueName: "r,g,b"))
  var diffColor = "255,0,0"
  @Option(
    name: .customLong("diff-color-alt"),
    help: ArgumentHelp(
      "The colour of pixels that got darker, to tell them from lighter ones (default: --diff-color).",
      valueName: "r,g,b"))
  var diffColorAlt: String?
  @Flag(
    name: .customLong("diff-mask"),
    help: "Draw the diff image on a transparent background, as a mask to lay over the image.")
  var diffMask = false
  @Option(
    name: .customLong("max-diff-pixels"),
    help: "The most differing pixels that still match (default: 0 unless --max-diff-ratio is given).")
  var maxDiffPixels: Int?
  @Option(
    name: .customLong("max-diff-ratio"),
    help:
      "The largest share of differing pixels that still matches, from 0 to 1 (default: 1).")
  var maxDiffRatio: Double?
  @Option(
    name: .shortAndLong,
    help: ArgumentHelp(
      "Write the pixelmatch diff image here.", valueName: "diff.png"))
  var output: String?
  @Option(
    name: .customLong("mask"),
    help: ArgumentHelp(
      "Ignore a rectangle, in pixels (repeatable).", valueName: "x,y,w,h"))
  var masks: [String] = []
  @Option(
    name: .customLong("mask-cell"),
    help: ArgumentHelp(
      "Ignore a cell of --scene at --offset (repeatable).", valueName: "index"))
  var maskCells: [Int] = []
  @Option(help: "The scene that --mask-cell indices refer to.")
  var scene: String?
  @Option(parsing: .unconditional, help: "The scroll offset of the images, for --mask-cell.")
  var offset = 0.0
  @Option(
    help:
      "Device pixels per point of the images, for --mask-cell (default: the scene's)."
  )
  var scale: Double?
  @Flag(
    help:
      "Print {\"mismatched\", \"total\", \"ratio\", \"identical\", \"sizesDiffer\"} as JSON."
  )
  var json = false

  func validate() throws {
    guard (0...1).contains(threshold) else {
      throw ValidationError(
        "The value '\(JSONText.format(threshold))' is invalid for '--threshold <threshold>': use a number from 0 to 1."
      )
    }
    guard (0...1).contains(alpha) else {
      throw ValidationError(
        "The value '\(JSONText.format(alpha))' is invalid for '--alpha <alpha>': use a number from 0 to 1."
      )
    }
    if let maxDiffPixels, maxDiffPixels < 0 {
      throw ValidationError(
        "The value '\(maxDiffPixels)' is invalid for '--max-diff-pixels <max-diff-pixels>': use 0 or more."
      )
    }
    if let maxDiffRatio, !(0...1).contains(maxDiffRatio) {
      throw ValidationError(
        "The value '\(JSONText.format(maxDiffRatio))' is invalid for '--max-diff-ratio <max-diff-ratio>': use a number from 0 to 1."
      )
    }
    _ = try Self.color(aaColor, option: "aa-color")
    _ = try Self.color(diffColor, option: "diff-color")
    _ = try diffColorAlt.map { try Self.color($0, option: "diff-color-alt") }
    for mask in masks { _ = try Self.rect(mask) }
    if !maskCells.isEmpty && scene == nil {
      throw ValidationError(
        "--mask-cell needs --scene (and --offset) to find the cells.")
    }
    if let scale, !(scale > 0 && scale <= 4) {
      throw ValidationError(
        "The value '\(JSONText.format(scale))' is invalid for '--scale <scale>': use a number above 0, at most 4."
      )
    }
    if let output, OutputFormat(path: output) != .png {
      throw ValidationError("The output '\(output)' must end in .png.")
    }
  }

  /// `r,g,b`, each 0…255.
  static func color(_ text: String, option: String) throws -> DiffColor {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
      UInt8($0.trimmingCharacters(in: .whitespaces))
    }
    guard parts.count == 3, let r = parts[0], let g = parts[1], let b = parts[2] else {
      throw ValidationError(
        "The value '\(text)' is invalid for '--\(option) <r,g,b>': expected three whole numbers from 0 to 255 such as 255,0,0."
      )
    }
    return DiffColor(red: r, green: g, blue: b)
  }

  /// The tolerance the limits give: both when both are given, the one given alone, else exact.
  var tolerance: DiffTolerance {
    DiffTolerance(
      maxMismatchedPixels: maxDiffPixels ?? (maxDiffRatio == nil ? 0 : .max),
      maxMismatchedRatio: maxDiffRatio ?? 1)
  }

  static func rect(_ text: String) throws -> PixelRect {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map
    { Int($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 4, let x = parts[0], let y = parts[1],
      let w = parts[2], let h = parts[3], w > 0, h > 0
    else {
      throw ValidationError(
        "The value '\(text)' is invalid for '--mask <x,y,w,h>': expected four whole numbers such as 0,0,375,44, with positive width and height."
      )
    }
    return PixelRect(x: x, y: y, width: w, height: h)
  }

  func run() throws {
    try exitingWithTwo {
      var options = ImageDiff.Options(
        threshold: threshold, includeAA: includeAA, alpha: alpha,
        aaColor: try Self.color(aaColor, option: "aa-color"),
        diffColor: try Self.color(diffColor, option: "diff-color"),
        diffColorAlt: try diffColorAlt.map { try Self.color($0, option: "diff-color-alt") },
        diffMask: diffMask)
      options.masks = try masks.map(Self.rect) + cellMasks()
      let passes = try DiffRequest(
        expected: expected, actual: actual, output: output, options: options,
        tolerance: tolerance, json: json
      ).run()
      if !passes { throw ExitCode(1) }
    }
  }

  private func cellMasks() throws -> [PixelRect] {
    guard let path = scene, !maskCells.isEmpty else { return [] }
    let scene = try SceneArgument.load(path)
    let controller = SceneController(scene: scene)
    _ = controller.view.scroll(to: offset)
    let options = RenderOptions(scale: scale ?? scene.scale)
    return try maskCells.map { index in
      guard
        let rect = PixelRect(
          cellAt: index, in: controller.view, options: options)
      else {
        throw CLIError(
          "--mask-cell \(index): the scene '\(path)' has \(scene.itemCount) cells (0...\(scene.itemCount - 1))."
        )
      }
      return rect
    }
  }
}

// MARK: - golden

struct GoldenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "golden",
    abstract:
      "Check, record, review and prune the golden images listed in Golden/manifest.json.",
    discussion: """
      Record modes (--record or WATERFLOW_RECORD): never, missing, failed, all. With CI=true \
      nothing is ever recorded. Failures write NAME.expected.png, NAME.actual.png and a \
      three-panel NAME.diff.png to the artifacts folder; `golden review` shows them in the browser, \
      grouped by cause, to accept. Exit status: 0 all pass, 1 a golden fails or is missing, 2 for \
      errors (bad manifest, unreadable scene, unwritable file).
      """,
    subcommands: [
      GoldenCheckCommand.self, GoldenRecordCommand.self,
      GoldenPruneCommand.self, GoldenMergeCommand.self, GoldenReviewCommand.self,
    ],
    defaultSubcommand: GoldenCheckCommand.self)
}

struct GoldenRunOptions: ParsableArguments {
  @Argument(
    help: "Golden names or folders to work on (default: all in the manifest).")
  var names: [String] = []
  @Option(help: "The manifest; goldens live in its folder.")
  var manifest = "Golden/manifest.json"
  @Option(
    help: "A TrueType/OpenType font file tried first for each character (default: the manifest's font, else DejaVu Sans); DejaVu Sans and WenQuanYi Micro Hei follow.")
  var font: String?
  @Option(
    help: ArgumentHelp(
      "Record mode: never, missing, failed or all (default: $WATERFLOW_RECORD, else the command's).",
      valueName: "mode"))
  var record: String?
  @Option(
    help:
      "Where failures leave expected, actual and diff images (default: $WATERFLOW_GOLDEN_ARTIFACTS or .build/golden-artifacts)."
  )
  var artifacts: String?
  @Option(
    help: ArgumentHelp(
      "Work on part i of n, a deterministic contiguous split of the selected goldens.",
      valueName: "i/n"))
  var shard: String?
  @Option(
    help: ArgumentHelp(
      "Write a self-contained HTML report with images, a slider and frame timelines.",
      valueName: "report.html"))
  var report: String?
  @Option(
    help: ArgumentHelp(
      "Write a JUnit XML report, one testcase per golden, for the CI's test tab.",
      valueName: "junit.xml"))
  var junit: String?
  @Option(
    help: ArgumentHelp(
      "Save everything the outputs need (results, changes, artifacts) in this folder, for `golden merge`.",
      valueName: "dir"))
  var results: String?
  @Option(
    help:
      "Render and compare this many goldens at once (default: the number of cores)."
  )
  var jobs: Int?
  @Flag(
    name: .customLong("per-stack"),
    help:
      "Keep goldens in one folder per font stack, stacks/<stack>/ beside the manifest, compared pixel for pixel (as the manifest's \"perStack\": true does).")
  var perStack = false
  @Flag(help: "Print one JSON object per golden instead of text.")
  var json = false
  @Flag(
    help: ArgumentHelp(
      "Skip goldens whose inputs (entry, scene, data, images, strings, fonts, binary, options) hash as they did at their last pass.",
      discussion:
        "Each golden's inputs are kept beside it (NAME.inputs.json) when it passes or is recorded. A golden that failed last time, or whose inputs file is missing, is always checked; a golden that runs says which inputs changed. Never implied, in CI or elsewhere."
    ))
  var changed = false
  @Option(
    help: ArgumentHelp(
      "Draw each golden this many times, in different orders, first, and report any whose renderings differ (flaky) instead of comparing it.",
      valueName: "n"))
  var `repeat`: Int?

  func validate() throws {
    if let count = `repeat`, !(2...100).contains(count) {
      throw ValidationError("The value '\(count)' is invalid for '--repeat <n>': use 2 to 100.")
    }
    if let jobs, !(1...256).contains(jobs) {
      throw ValidationError("The value '\(jobs)' is invalid for '--jobs <jobs>': use 1 to 256.")
    }
    if let record, RecordMode(rawValue: record) == nil {
      throw ValidationError(
        "The value '\(record)' is invalid for '--record <mode>': use never, missing, failed or all."
      )
    }
    if let shard {
      do { _ = try GoldenShard(parsing: shard) } catch {
        throw ValidationError(error.description)
      }
    }
  }

  /// Checks (and records, as the mode allows) the selected goldens; exits 1 on failures.
  func run(defaultMode: RecordMode, verb: String) throws {
    let run = try perform(defaultMode: defaultMode, verb: verb)
    try run.output.finish(
      run.records, info: run.info,
      shardNote: run.shard.map { "shard \($0) of \(run.info.selected)" }, report: report,
      junit: junit,
      imagePath: { _, key in key.hasPrefix("/") ? key : run.info.artifacts + "/" + key })
  }

  /// The renderer in the golden font, its font stack, and the folder of the manifest's goldens
  /// for that stack.
  func openStore(of manifest: GoldenManifest, configuration: GoldenConfiguration) throws -> (
    Renderer, FontStackFingerprint, GoldenStore
  ) {
    let renderer: Renderer
    do {
      renderer = try Renderer(fontPath: font ?? manifest.fontPath ?? Renderer.defaultFontPath)
    } catch { throw CLIError("\(error)") }
    let fingerprint = FontStackFingerprint(renderer: renderer)
    let store = GoldenStore(
      directory: manifest.goldenDirectory(for: fingerprint, perStack: perStack || manifest.perStack),
      configuration: configuration)
    return (renderer, fingerprint, store)
  }

  /// What a check leaves for its outputs, or for a review.
  struct CheckRun {
    var records: [GoldenRecord]
    var info: GoldenRunInfo
    var output: GoldenOutput
    var shard: GoldenShard?
    var manifest: GoldenManifest
    var store: GoldenStore
    var fingerprint: FontStackFingerprint
    var fontPath: String
  }

  /// Checks (and records, as the mode allows) the selected goldens, printing a line per golden
  /// as it comes: on standard error for a review, whose standard output starts with its address.
  ///
  /// - Parameter reviewing: The review's check, which handles signals itself (an accept in
  ///   flight finishes) and prints on standard error.
  func perform(defaultMode: RecordMode, verb: String, reviewing: Bool = false) throws -> CheckRun {
    let environment = ProcessInfo.processInfo.environment
    var configuration = try GoldenConfiguration.fromEnvironment(
      environment, explicitMode: record.map { RecordMode(rawValue: $0)! },
      defaultMode: defaultMode)
    if let artifacts { configuration.artifactsDirectory = artifacts }
    let manifestPath = manifest
    let perStackFlag = perStack
    configuration.recordHint = { name in
      "waterflow golden record \(name)\(manifestPath == "Golden/manifest.json" ? "" : " --manifest \(manifestPath)")\(perStackFlag ? " --per-stack" : "")"
    }
    if configuration.isCI && verb == "record" {
      throw CLIError(
        "Refusing to record: CI is set (CI=\(environment["CI"] ?? "")), and goldens are never written in CI. Record on a development machine with `waterflow golden record` and commit Golden/."
      )
    }
    let manifest = try GoldenManifest(contentsOf: manifestPath)
    let selected = try manifest.entries(matching: names)
    let part = try shard.map { try GoldenShard(parsing: $0) }
    let entries = part?.select(selected) ?? selected
    // The manifest position of each entry: merged shards are put back in this order.
    let position = Dictionary(
      manifest.entries.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    // A golden is several files (a sequence's frames, the fingerprint): each is promised by
    // name and settled once checked or recorded.
    let records = configuration.effectiveRecordMode != .never
    if !reviewing {
      let goldens = records ? entries.map { interruptionLabel(of: $0.name) } : []
      installInterruptionCleanup(promising: goldens + [report, junit])
    }
    let (renderer, fingerprint, opened) = try openStore(of: manifest, configuration: configuration)
    // Record on every core too: its goldens are written whole (a temporary file, then a rename)
    // in any order, so an interrupt keeps each golden old or new. Measured (release, 2 cores,
    // 3 alternating runs): the repository's manifest recorded anew 0.52 → 0.32 s against a
    // 0.13 s check; 200 new goldens at scale 2 (two fifths photo feeds) 5.05 → 4.50 s, and the
    // same 200 re-recorded unchanged 0.71 → 0.62 s.
    let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
    // Fewer jobs than cores: each golden on disk is decoded on a spare core while its entry
    // renders: 200 unchanged goldens at scale 2 re-recorded on one job 1.30 → 0.82 s, and
    // checked with --jobs 1 1.27 → 0.81 s (7 alternating runs). A job on every core: a new
    // golden's two bands are compressed in turn on its own thread, not on two more.
    let store = {
      var store = opened
      store.decodesAhead = jobs < ProcessInfo.processInfo.activeProcessorCount
      store.encodesBandsInTurn = !store.decodesAhead
      return store
    }()
    let perStack = self.perStack || manifest.perStack
    if perStack && !json {
      var note = "note: goldens are kept per font stack; this stack's are in \(store.directory)"
      if !FileManager.default.fileExists(atPath: store.directory) {
        let root = manifest.goldenDirectory + "/" + GoldenStore.stacksFolder
        let others = (try? FileManager.default.contentsOfDirectory(atPath: root))?.sorted() ?? []
        note +=
          ", which does not exist yet"
          + (others.isEmpty ? "" : " (recorded stacks: \(others.joined(separator: ", ")))")
      }
      warn(note)
    }
    let changes = try store.fontStackChanges(to: fingerprint)
    if !changes.isEmpty && !json {
      warn(
        "note: the font stack differs from \(store.fingerprintPath): \(changes.joined(separator: ", ")). Text is checked by its recorded strings and boxes, every other pixel as usual; goldens whose facts have no texts are compared pixel for pixel, and may fail along glyph edges for that alone."
      )
    }
    let info = GoldenRunInfo(
      verb: verb, manifest: manifestPath, shard: part?.description ?? "1/1",
      selected: selected.count, recordMode: configuration.effectiveRecordMode.rawValue,
      isCI: configuration.isCI, artifacts: configuration.artifactsDirectory,
      fontStack: fingerprint.description, fontStackChanges: changes)
    // A shard that saves its results for `golden merge` leaves the annotations to the merge:
    // both printing them showed each failure twice on the pull request.
    let annotate = GitHubAnnotation.isEnabled(environment) && results == nil
    if GitHubAnnotation.isEnabled(environment) && results != nil && !json {
      warn("note: GitHub annotations are left to `waterflow golden merge`, which reads --results \(results!)")
    }
    let output = GoldenOutput(
      json: json, width: selected.map(\.name.count).max() ?? 0, annotate: annotate,
      toStandardError: reviewing)
    let folder = try results.map { try GoldenResultsFolder(replacing: $0) }
    defer { folder?.discard() }

    // Each worker has its own renderer (cairo contexts are not shared across threads) and
    // makes a record, so an outcome's images are dropped as soon as its files are written;
    // at most 2 × jobs goldens are in flight, and records come back in manifest order.
    keepLargeBuffersInTheHeap()
    let artifactsDirectory = configuration.artifactsDirectory
    let artifactsRoot = artifactsDirectory + "/"
    let fontPath = renderer.fontPath
    let skipUnchanged = changed
    let flakes = try `repeat`.map {
      try findFlakes(in: entries, fontPath: fontPath, jobs: jobs, passes: $0)
    } ?? [:]
    let inputsContext = GoldenInputs.Context(
      folder: FilePath(manifestPath).removingLastComponent().string,
      options: "perStack=\(perStack) font=\(FilePath(fontPath).lastComponent?.string ?? fontPath)",
      binary: GoldenInputs.binary(version: "waterflow " + VersionText.version), fingerprint: fingerprint)
    let pipeline = OrderedPipeline<GoldenManifest.Entry, GoldenRecord>(
      jobs: jobs, window: 2 * jobs)
    var done: [GoldenRecord] = []
    let decodes = SharedImageDecodes()
    try pipeline.run(
      makeWorker: {
        // Each worker draws with its own renderer (they are not thread-safe), in the same font,
        // and its photos are decoded once for all of them.
        let worker: Renderer
        do {
          worker = try Renderer(fontPath: fontPath, images: ImageStore(sharing: decodes))
        } catch { throw CLIError("\(error)") }
        let renderer = worker
        return { entry in
          // A flaky golden is not compared (nor recorded): its record says it is flaky.
          let (outcome, ranBecause) =
            flakes[entry.name] != nil
            ? (
              GoldenSequenceOutcome(
                name: entry.name, offsets: [],
                frames: [
                  .unchanged(
                    name: entry.name, goldenPath: store.path(for: entry.goldenNames[0]),
                    tolerance: entry.tolerance)
                ], isSequence: entry.isSequence), []
            )
            : try store.check(
              entry, renderer: renderer, fingerprint: fingerprint, inputs: inputsContext,
              skipUnchanged: skipUnchanged)
          // Settled here, as soon as its files are in place, not when its record is shown in
          // manifest order: on several jobs, a golden written while an earlier one still renders
          // would otherwise be named "not written" by an interrupt.
          Interruption.fulfil(interruptionLabel(of: entry.name))
          PausePoint.reached("written:\(entry.name)")
          var record = GoldenRecord(
            index: position[entry.name] ?? 0, outcome: outcome,
            json: GoldenRunOptions.json(outcome, ranBecause: ranBecause).rendered(),
            digest: outcome.isFailure ? store.digest(of: entry.name) : ""
          ) { path in
            path.hasPrefix(artifactsRoot) ? String(path.dropFirst(artifactsRoot.count)) : path
          }
          if let flake = flakes[entry.name] {
            record.markFlaky(
              flake,
              json: JSONText.object([
                ("name", .string(entry.name)), ("status", .string("failed")),
                ("cause", .object([("verdict", .string("flaky")), ("summary", .string(flake.summary))])),
                ("message", .string(flake.message)),
              ]).rendered())
          }
          if ranBecause == [GoldenInputs.noneKept] || ranBecause == [GoldenInputs.failedLastTime] {
            record.detail += " (checked: \(ranBecause[0]))"
          } else if !ranBecause.isEmpty {
            record.detail += " (checked: \(ranBecause.joined(separator: "; ")) changed)"
          }
          try folder?.save(record, artifacts: artifactsDirectory)
          return record
        }
      },
      produce: { emit in for entry in entries { try emit(entry) } },
      consume: { entry, record in
        output.show(record)
        done.append(record)
      })
    try folder?.commit(info)
    return CheckRun(
      records: done, info: info, output: output, shard: part, manifest: manifest, store: store,
      fingerprint: fingerprint, fontPath: fontPath)
  }

  /// Every golden allocates a few image-sized buffers (4 MB at 750×1334). glibc maps each from
  /// the kernel and unmaps it when freed, so every golden paid for zeroed pages again: half of
  /// a check's time was the kernel's. Kept in the heap, they are reused from one golden to the
  /// next; the peak stays a few buffers per job.
  private func keepLargeBuffersInTheHeap() {
    #if canImport(Glibc)
    // Swift's Glibc module leaves out malloc.h; mallopt is looked up instead.
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(nil, "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
    _ = mallopt(-3, 64 << 20)  // M_MMAP_THRESHOLD
    _ = mallopt(-1, 128 << 20)  // M_TRIM_THRESHOLD
    #endif
  }

  static func json(_ o: GoldenSequenceOutcome, ranBecause: [String] = []) -> JSONText {
    let mismatched = o.frames.reduce(0) { $0 + ($1.diff?.mismatched ?? 0) }
    var pairs: [(String, JSONText)] = [
      ("name", .string(o.name)),
      ("status", .string(o.statusWord)),
      ("frames", JSONText(o.frames.count)),
      ("failingFrames", JSONText(o.failingFrameCount)),
      ("firstFailingFrame", JSONText(o.firstFailingFrame)),
      ("mismatched", JSONText(mismatched)),
    ]
    if o.isFailure { pairs.append(("message", .string(o.message))) }
    if o.isUnchanged {
      pairs.append(("skipped", .string(GoldenOutcome.unchangedPhrase)))
    }
    if !ranBecause.isEmpty { pairs.append(("changedInputs", .array(ranBecause.map { .string($0) }))) }
    if let cause = GoldenCause(o) {
      pairs.append(("cause", .object([("verdict", .string(cause.verdict)), ("summary", .string(cause.summary))])))
    }
    if let crossStack = o.crossStack { pairs.append(("fontStack", .string(crossStack.summary))) }
    if let changes = o.explainedFrame?.changes { pairs.append(("changes", json(changes))) }
    if o.isSequence {
      let explained = o.frames.enumerated().compactMap { k, frame in
        frame.isFailure ? frame.changes.map { (k, $0) } : nil
      }
      if !explained.isEmpty {
        pairs.append(
          (
            "frameChanges",
            .array(explained.map { .object([("frame", JSONText($0.0)), ("changes", json($0.1))]) })
          ))
      }
    }
    return .object(pairs)
  }

  /// `{"verdict", "moved", "appeared", "disappeared", "content", "reuse"}`: the keys scripts rely on.
  static func json(_ c: GoldenChanges) -> JSONText {
    func rect(_ r: Rect) -> JSONText {
      .object([
        ("x", JSONText(r.minX)), ("y", JSONText(r.minY)), ("width", JSONText(r.width)),
        ("height", JSONText(r.height)),
      ])
    }
    func text(_ s: String?) -> JSONText { s.map { .string($0) } ?? .null }
    return .object([
      ("verdict", .string(c.verdict.rawValue)),
      (
        "moved",
        .array(
          c.moved.map {
            .object([("index", JSONText($0.index)), ("from", rect($0.from)), ("to", rect($0.to))])
          })
      ),
      ("appeared", .array(c.appeared.map { JSONText($0) })),
      ("disappeared", .array(c.disappeared.map { JSONText($0) })),
      (
        "content",
        .array(
          c.content.map {
            .object([
              ("index", JSONText($0.index)), ("field", .string($0.field)), ("from", text($0.from)),
              ("to", text($0.to)),
            ])
          })
      ),
      (
        "reuse",
        .array(
          c.reuse.map {
            .object([("index", JSONText($0.index)), ("from", JSONText($0.from)), ("to", JSONText($0.to))])
          })
      ),
    ] + (c.comparedTexts ? [("texts", .array(c.texts.map(json)))] : []))
  }

  /// `{"kind", "from", "to"}`, each side `{"text", "x", "y", "width", "height"}` or null.
  static func json(_ t: GoldenChanges.TextChange) -> JSONText {
    func side(_ d: DrawnText?) -> JSONText {
      guard let d else { return .null }
      return .object([
        ("text", .string(d.text)), ("x", JSONText(d.box.minX)), ("y", JSONText(d.box.minY)),
        ("width", JSONText(d.box.width)), ("height", JSONText(d.box.height)),
      ])
    }
    return .object([("kind", .string(t.kind.rawValue)), ("from", side(t.from)), ("to", side(t.to))])
  }
}

struct GoldenCheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract:
      "Render every golden of the manifest and compare (records only if --record or WATERFLOW_RECORD says so)."
  )

  @OptionGroup var options: GoldenRunOptions

  func run() throws {
    try exitingWithTwo { try options.run(defaultMode: .never, verb: "check") }
  }
}

struct GoldenRecordCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "record",
    abstract:
      "Re-render and write goldens (mode all unless --record says missing or failed); refused when CI is set."
  )

  @OptionGroup var options: GoldenRunOptions

  func run() throws {
    try exitingWithTwo { try options.run(defaultMode: .all, verb: "record") }
  }
}

struct GoldenPruneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prune",
    abstract:
      "List golden files (PNGs, facts, inputs) that no manifest entry owns (exit 1 if any); delete them with --delete."
  )

  @Option(help: "The manifest; goldens live in its folder.")
  var manifest = "Golden/manifest.json"
  @Flag(help: "Delete the orphans (refused when CI is set).")
  var delete = false
  @Flag(help: "Print a JSON array of the orphans' paths.")
  var json = false

  func run() throws {
    try exitingWithTwo {
      let manifest = try GoldenManifest(contentsOf: manifest)
      let root = manifest.goldenDirectory
      let orphans = manifest.orphans().map { root + "/" + $0 }
      if delete
        && GoldenConfiguration.isCIEnvironment(
          ProcessInfo.processInfo.environment)
      {
        throw CLIError(
          "Refusing to delete goldens: CI is set. Run `waterflow golden prune --delete` on a development machine."
        )
      }
      if delete {
        for path in orphans {
          do { try FileManager.default.removeItem(atPath: path) } catch {
            throw CLIError(
              "Cannot delete '\(path)': \(error.localizedDescription)")
          }
        }
      }
      if json {
        emit(JSONText.array(orphans.map { .string($0) }).rendered())
        return
      }
      if orphans.isEmpty {
        emit(
          "No orphaned goldens in \(root) (\(manifest.entries.count) entries\(manifest.unmanaged.isEmpty ? "" : "; not looking in \(manifest.unmanaged.joined(separator: ", "))"))."
        )
        return
      }
      emit(orphans.joined(separator: "\n"))
      if delete {
        emit(
          "Deleted \(orphans.count) orphaned golden\(orphans.count == 1 ? "" : "s")."
        )
      } else {
        emit(
          "\(orphans.count) orphaned golden\(orphans.count == 1 ? "" : "s") (no manifest entry owns \(orphans.count == 1 ? "it" : "them")). Delete with: waterflow golden prune --delete"
        )
        // Exit 1, so CI can fail on forgotten goldens without deleting anything.
        throw ExitCode(1)
      }
    }
  }
}

/// How an interrupt names a golden it did not write.
private func interruptionLabel(of golden: String) -> String { "golden '\(golden)'" }
