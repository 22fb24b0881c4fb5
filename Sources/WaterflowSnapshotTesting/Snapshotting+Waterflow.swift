// Compiled only with the SnapshotTesting trait: `swift build --traits SnapshotTesting`, or
// `traits: ["SnapshotTesting"]` on the package dependency.
#if SnapshotTesting
internal import Cairo
internal import SystemPackage
public import PNGCodec
import Foundation
public import SnapshotTesting
public import WaterflowGolden
public import WaterflowRender
public import WaterflowScene

/// What a Waterflow snapshot shows: a scene at an offset, reached in steps or by a jump.
///
/// ```swift
/// assertSnapshot(of: WaterflowSnapshotSubject(scene: scene, offset: 600, step: 50), as: .waterflow)
/// ```
public struct WaterflowSnapshotSubject: Sendable {
  /// The scene.
  public var scene: Scene
  /// The scroll offset.
  public var offset: Double
  /// Scroll in steps of this many points (0: jump), so recycled cells keep their old colours.
  public var step: Double
  /// Scale (goldens default to 1) and debug overlay.
  public var options: RenderOptions
  /// Draws the whole-content overview instead of the viewport.
  public var overview: Bool

  /// Creates a subject.
  public init(
    scene: Scene, offset: Double = 0, step: Double = 0,
    options: RenderOptions = RenderOptions(scale: 1),
    overview: Bool = false
  ) {
    self.scene = scene
    self.offset = offset
    self.step = step
    self.options = options
    self.overview = overview
  }
}

/// A snapshot: the picture, the facts it was drawn from (which cells, where, with what) and the
/// font stack that drew it, stored in the reference PNG's text so that a failure says what
/// changed and a reference recorded on another stack has its text checked by content.
public struct WaterflowSnapshot: Sendable {
  /// The picture.
  public var image: RGBAImage
  /// What the picture shows; nil for a reference recorded without facts.
  public var facts: GoldenFacts?
  /// The libraries and fonts that drew it; nil for a reference recorded before they were kept.
  public var stack: FontStackFingerprint?

  /// Creates a snapshot.
  public init(image: RGBAImage, facts: GoldenFacts? = nil, stack: FontStackFingerprint? = nil) {
    self.image = image
    self.facts = facts
    self.stack = stack
  }

  /// The PNG text keywords that hold the facts and the stack.
  static let factsKeyword = "waterflow-facts"
  static let stackKeyword = "waterflow-stack"

  /// The reference file: a PNG, with the facts and the stack in iTXt chunks every viewer ignores.
  var pngData: Data {
    var png = image.pngData()
    if let facts {
      let text = String(decoding: GoldenFacts.fileContents([facts]), as: UTF8.self)
      png = RGBAImage.png(png, addingText: text, keyword: Self.factsKeyword)
    }
    if let stack {
      let text = String(decoding: stack.fileContents, as: UTF8.self)
      png = RGBAImage.png(png, addingText: text, keyword: Self.stackKeyword)
    }
    return Data(png)
  }

  /// Reads a reference; an unreadable one becomes an empty image, which then fails on its size.
  init(pngData data: Data) {
    let bytes = [UInt8](data)
    image = (try? RGBAImage(pngData: bytes)) ?? RGBAImage(width: 0, height: 0, pixels: [])
    facts = RGBAImage.text(in: bytes, keyword: Self.factsKeyword).flatMap {
      try? GoldenFacts.read(Array($0.utf8), name: "snapshot").first
    }
    stack = RGBAImage.text(in: bytes, keyword: Self.stackKeyword).flatMap {
      try? FontStackFingerprint.read(Array($0.utf8), file: "snapshot")
    }
  }

  /// What differs from the stack `reference` was recorded with; empty when either is unknown.
  func stackChanges(since reference: WaterflowSnapshot) -> [String] {
    guard let stack, let old = reference.stack else { return [] }
    return stack.changes(since: old)
  }
}

extension Diffing where Value == WaterflowSnapshot {
  /// Snapshots compared as images with Waterflow's diff and a tolerance, and explained by their
  /// facts: the message says whether the layout, the content, the reuse or only the drawing
  /// changed, and a change of layout, content or reuse fails whatever the tolerance.
  ///
  /// A reference recorded on another font stack (another cairo, pixman, FreeType, Pango or
  /// build of the fonts) is compared as `golden check` compares one: its texts by their strings
  /// and boxes, every other pixel with the tolerance. A passing comparison of that kind prints
  /// its one line to standard error.
  ///
  /// Failures also leave expected, actual and diff PNGs in Waterflow's artifacts folder
  /// (`WATERFLOW_GOLDEN_ARTIFACTS`, default `.build/golden-artifacts/snapshots`), since
  /// swift-snapshot-testing keeps its attachments only inside Xcode.
  public static func waterflow(
    options: ImageDiff.Options = .init(), tolerance: DiffTolerance = .exact
  ) -> Diffing {
    .diff(
      toData: { $0.pngData },
      fromData: { WaterflowSnapshot(pngData: $0) },
      diffV2: { reference, actual in
        let stackChanges = actual.stackChanges(since: reference)
        let comparison = GoldenComparison(
          expected: reference.image, actual: actual.image,
          recorded: reference.facts.map { .some($0) }, current: actual.facts,
          stackChanges: stackChanges,
          otherFonts: !stackChanges.isEmpty
            && reference.stack.flatMap { actual.stack?.drawsWithOtherFonts(than: $0) } ?? false,
          options: options, tolerance: tolerance)
        guard !comparison.passes else {
          if let crossStack = comparison.crossStack {
            FileHandle.standardError.write(Data("snapshot: \(crossStack.summary)\n".utf8))
          }
          return nil
        }
        let failure = imageFailure(reference.image, actual.image, comparison)
        var message = failure.message
        if let changes = comparison.changes {
          message += "\n" + ([changes.summary] + changes.details.map { "  " + $0 }).joined(
            separator: "\n")
        } else if reference.facts == nil {
          message += "\nThe reference has no facts: re-record it to learn what changed."
        }
        if reference.stack == nil {
          message +=
            "\nThe reference does not name the font stack that drew it: re-record it, so that on another stack its text is checked by content."
        }
        message += writeArtifacts(reference.image, actual.image, panels: failure.panels)
        return (message, failure.attachments)
      })
  }
}

/// Where a failing snapshot's images go: the golden artifacts folder, under `snapshots/`, named
/// by a hash of the actual image so that the same failure always writes the same files.
private func writeArtifacts(
  _ expected: RGBAImage, _ actual: RGBAImage, panels: RGBAImage?
) -> String {
  guard let configuration = try? GoldenConfiguration.fromEnvironment() else { return "" }
  // The font files' hash over the pixels: stable across runs (Hasher is seeded per run).
  let base =
    configuration.artifactsDirectory + "/snapshots/"
    + fnv1a64Hex(actual.pixels).dropFirst("fnv1a64:".count)
  var written: [String] = []
  for (suffix, image) in [("expected", expected), ("actual", actual), ("diff", panels)] {
    guard let image else { continue }
    let path = base + ".\(suffix).png"
    if (try? FileManager.default.createDirectory(
      atPath: FilePath(path).removingLastComponent().string, withIntermediateDirectories: true))
      != nil, (try? Data(image.pngData()).write(to: URL(fileURLWithPath: path))) != nil
    {
      written.append("  \(suffix): \(path)")
    }
  }
  return written.isEmpty ? "" : "\n" + written.joined(separator: "\n")
}

/// The message, attachments and expected | actual | diff panels of a comparison that fails.
private func imageFailure(
  _ reference: RGBAImage, _ actual: RGBAImage, _ comparison: GoldenComparison
) -> (message: String, attachments: [DiffAttachment], panels: RGBAImage?) {
  let result = comparison.diff
  let tolerance = comparison.tolerance
  let outside = comparison.textTolerance == nil ? "" : " outside the texts"
  var message =
    result.sizesDiffer
    ? "Newly-taken snapshot@\(result.actualSize) does not match reference@\(result.expectedSize)."
    : result.isWithin(tolerance)
      ? "Newly-taken snapshot fails on what it shows, although its pixels\(outside) are within the tolerance (\(result))."
      : "Newly-taken snapshot does not match reference (\(result.expectedSize)): \(result)\(outside)."
  if !result.sizesDiffer {
    message +=
      " Allowed: \(tolerance.maxMismatchedPixels == .max ? "any count" : "\(tolerance.maxMismatchedPixels) pixels")"
    message += tolerance.maxMismatchedRatio < 1 ? ", ratio \(tolerance.maxMismatchedRatio)." : "."
  }
  if let crossStack = comparison.crossStack {
    message += "\n" + crossStack.summary
  }
  var attachments: [DiffAttachment] = []
  var panels: RGBAImage?
  if let diff = result.diffImage {
    attachments.append(.data(Data(diff.pngData()), name: "difference.png"))
    let composed = DiffPanels.compose(expected: reference, actual: actual, diff: diff)
    attachments.append(.data(Data(composed.pngData()), name: "expected-actual-difference.png"))
    panels = composed
  }
  return (message, attachments, panels)
}

extension Diffing where Value == RGBAImage {
  /// PNG files compared with Waterflow's pixelmatch-compatible diff and a tolerance.
  ///
  /// The failure message gives both sizes and the counts; the attachments are the pixelmatch diff
  /// image and the three-panel expected | actual | diff picture.
  ///
  /// - Parameters:
  ///   - options: Pixelmatch options and masks (default: pixelmatch's).
  ///   - tolerance: How many differing pixels still pass (default: none).
  /// - Returns: The diffing.
  public static func waterflow(
    options: ImageDiff.Options = .init(), tolerance: DiffTolerance = .exact
  ) -> Diffing {
    .diff(
      toData: { Data($0.pngData()) },
      // An unreadable reference becomes an empty image, which then fails on its size.
      fromData: {
        (try? RGBAImage(pngData: Array($0)))
          ?? RGBAImage(width: 0, height: 0, pixels: [])
      },
      diffV2: { reference, actual in
        let comparison = GoldenComparison(
          expected: reference, actual: actual, recorded: nil, current: nil, stackChanges: [],
          otherFonts: false, options: options, tolerance: tolerance)
        guard !comparison.passes else { return nil }
        let failure = imageFailure(reference, actual, comparison)
        return (failure.message, failure.attachments)
      })
  }
}

extension Snapshotting
where Value == WaterflowSnapshotSubject, Format == WaterflowSnapshot {
  /// The subject rendered with DejaVu Sans and compared with pixelmatch's defaults, exactly.
  public static var waterflow: Snapshotting { .waterflow() }

  /// The subject rendered and compared with Waterflow's pixelmatch-compatible diff.
  ///
  /// - Parameters:
  ///   - options: Pixelmatch options and masks.
  ///   - tolerance: How many differing pixels still pass.
  ///   - fontPath: The font tried first for each character; DejaVu Sans and WenQuanYi Micro Hei follow.
  /// - Returns: A strategy that writes `.png` references.
  public static func waterflow(
    options: ImageDiff.Options = .init(), tolerance: DiffTolerance = .exact,
    fontPath: String = Renderer.defaultFontPath
  ) -> Snapshotting {
    Snapshotting(
      pathExtension: "png",
      diffing: .waterflow(options: options, tolerance: tolerance)
    ) { subject in
      let shot = GoldenShot(
        scene: subject.scene,
        position: .offset(subject.offset, step: subject.step),
        options: subject.options,
        overview: subject.overview)
      // The strategy cannot throw: a render failure becomes an empty image, which fails on its size.
      guard let renderer = try? Renderer(fontPath: fontPath),
        let frame = try? shot.frames(with: renderer).first
      else {
        return WaterflowSnapshot(image: RGBAImage(width: 0, height: 0, pixels: []))
      }
      // Image paths relative to where the tests run (the package root), as on every machine.
      return WaterflowSnapshot(
        image: frame.image,
        facts: frame.facts?.withImages(relativeTo: FileManager.default.currentDirectoryPath),
        stack: FontStackFingerprint(renderer: renderer))
    }
  }
}

extension Snapshotting where Value == WaterflowView, Format == WaterflowSnapshot {
  /// Any view (your data source, your own layout) scrolled to an offset and rendered, compared
  /// with Waterflow's pixelmatch-compatible diff.
  ///
  /// ```swift
  /// assertSnapshot(of: view, as: .waterflow(at: 600, step: 50))
  /// ```
  ///
  /// - Parameters:
  ///   - offset: The scroll offset, reached from where the view is.
  ///   - step: Scroll in steps of this many points (0: jump), so cells are recycled on the way.
  ///   - renderOptions: Scale (goldens default to 1) and debug overlay.
  ///   - options: Pixelmatch options and masks.
  ///   - tolerance: How many differing pixels still pass.
  ///   - fontPath: The font tried first for each character; DejaVu Sans and WenQuanYi Micro Hei follow.
  /// - Returns: A strategy that writes `.png` references.
  public static func waterflow(
    at offset: Double, step: Double = 0, renderOptions: RenderOptions = RenderOptions(scale: 1),
    options: ImageDiff.Options = .init(), tolerance: DiffTolerance = .exact,
    fontPath: String = Renderer.defaultFontPath
  ) -> Snapshotting {
    Snapshotting(
      pathExtension: "png",
      diffing: .waterflow(options: options, tolerance: tolerance)
    ) { view in
      // The strategy cannot throw: a render failure becomes an empty image, which fails on its size.
      guard let renderer = try? Renderer(fontPath: fontPath),
        let frame = try? GoldenShot.frames(
          of: view, named: "view", position: .offset(offset, step: step),
          options: renderOptions, with: renderer
        ).first
      else {
        return WaterflowSnapshot(image: RGBAImage(width: 0, height: 0, pixels: []))
      }
      // Image paths relative to where the tests run (the package root), as on every machine.
      return WaterflowSnapshot(
        image: frame.image,
        facts: frame.facts?.withImages(relativeTo: FileManager.default.currentDirectoryPath),
        stack: FontStackFingerprint(renderer: renderer))
    }
  }
}
/// `assertSnapshot` under Waterflow's golden rules: with `CI` set (GitHub Actions, GitLab and most
/// others set `CI=true`) nothing is ever recorded, whatever `SNAPSHOT_TESTING_RECORD` or `record`
/// say, so a missing or changed reference fails the build instead of being written on the runner.
///
/// ```swift
/// assertWaterflowSnapshot(of: view, as: .waterflow(at: 600, step: 50))
/// ```
public func assertWaterflowSnapshot<Value>(
  of value: @autoclosure () throws -> Value,
  as snapshotting: Snapshotting<Value, WaterflowSnapshot>,
  named name: String? = nil,
  record: SnapshotTestingConfiguration.Record? = nil,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) {
  assertSnapshot(
    of: try value(), as: snapshotting, named: name,
    record: waterflowRecordMode(record, environment: ProcessInfo.processInfo.environment),
    fileID: fileID, file: filePath, testName: testName, line: line, column: column)
}

/// The record mode under Waterflow's rules: `.never` with `CI` set, else the one asked for.
public func waterflowRecordMode(
  _ asked: SnapshotTestingConfiguration.Record?, environment: [String: String]
) -> SnapshotTestingConfiguration.Record? {
  GoldenConfiguration.isCIEnvironment(environment) ? .never : asked
}
#endif  // SnapshotTesting
