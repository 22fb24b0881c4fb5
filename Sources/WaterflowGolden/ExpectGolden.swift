internal import Cairo
public import PNGCodec
internal import Foundation
public import WaterflowRender
public import WaterflowScene

/// Renders a scene at an offset and compares it with its golden; throws when they differ.
///
/// Works from Swift Testing and XCTest alike: a thrown error fails the test in both, and its
/// description is the whole message. The golden is `Golden/<name>.png` in the package that
/// contains the calling file, found from `#filePath` (the folder above it that holds
/// `Package.swift`), as swift-argument-parser's test helpers find their snapshots.
/// The record mode comes from `WATERFLOW_RECORD` (default `missing`); with `CI=true` nothing is
/// recorded. Recording also throws, so a recording run never passes by accident.
///
/// ```swift
/// @Test func referenceAtTop() throws {
///   let scene = try Scene(contentsOf: "Assets/Scenes/reference.json")
///   try expectGolden(of: scene, at: 0, named: "reference/top")
/// }
/// ```
/// ```
/// Golden 'reference/top' does not match Golden/reference/top.png (375×667): 212 of 250125 pixels differ (0.085%), allowed 0 pixels.
///   expected: .build/golden-artifacts/reference/top.expected.png
///   …
/// ```
///
/// - Parameters:
///   - scene: The scene.
///   - offset: The scroll offset.
///   - step: Scroll there in steps of this many points (0: one jump), so reuse happens on the way.
///   - name: The golden's name, a relative path without `.png`.
///   - options: Render options; goldens default to scale 1 to stay small.
///   - overview: Draw the whole-content overview instead.
///   - tolerance: This golden's tolerance, instead of the configuration's.
///   - masks: Rectangles of pixels left out of the comparison.
///   - maskedCells: Cells, by index, left out of the comparison (content that changes on purpose).
///   - fontPath: A font file to draw with instead of the default fonts.
///   - configuration: Tolerance, diff options and record mode; nil reads the environment.
///   - goldenDirectory: The golden folder; nil finds `Golden/` from `filePath`.
///   - filePath: The calling file, for finding the package.
/// - Throws: `GoldenError`: `.mismatch`, `.missing`, `.recorded`, or a file or render error.
public func expectGolden(
  of scene: Scene, at offset: Double = 0, step: Double = 0, named name: String,
  options: RenderOptions = RenderOptions(scale: 1), overview: Bool = false,
  tolerance: DiffTolerance? = nil, masks: [PixelRect] = [], maskedCells: [Int] = [],
  fontPath: String? = nil,
  configuration: GoldenConfiguration? = nil, goldenDirectory: String? = nil,
  filePath: StaticString = #filePath
) throws(GoldenError) {
  let context = try GoldenTestContext(
    configuration: configuration, tolerance: tolerance, masks: masks, fontPath: fontPath,
    goldenDirectory: goldenDirectory, filePath: filePath)
  let shot = GoldenShot(
    scene: scene, position: .offset(offset, step: step), options: options,
    overview: overview, maskedCells: maskedCells)
  let frame = try shot.frames(with: context.renderer)[0]
  try context.expect(frame.image, named: name, facts: frame.facts, masks: frame.masks)
}

/// Renders any view at an offset and compares it with its golden; throws when they differ.
///
/// The view is yours: your data source, your delegate, and your own layout code through
/// `WaterflowView.customLayout` if you like; no scene or JSON is involved. It is laid out and
/// scrolled from where it is, so a fresh view at offset 0 gives the same picture in every run.
///
/// ```swift
/// let view = WaterflowView(bounds: Size(width: 375, height: 667))
/// view.customLayout = BannerLayout()
/// view.dataSource = source
/// try expectGolden(of: view, at: 600, step: 50, named: "banner/scrolled")
/// ```
///
/// - Throws: `GoldenError`: `.mismatch`, `.missing`, `.recorded`, or a file or render error.
public func expectGolden(
  of view: WaterflowView, at offset: Double = 0, step: Double = 0, named name: String,
  options: RenderOptions = RenderOptions(scale: 1), overview: Bool = false,
  tolerance: DiffTolerance? = nil, masks: [PixelRect] = [], maskedCells: [Int] = [],
  fontPath: String? = nil,
  configuration: GoldenConfiguration? = nil, goldenDirectory: String? = nil,
  filePath: StaticString = #filePath
) throws(GoldenError) {
  let context = try GoldenTestContext(
    configuration: configuration, tolerance: tolerance, masks: masks, fontPath: fontPath,
    goldenDirectory: goldenDirectory, filePath: filePath)
  let frame = try GoldenShot.frames(
    of: view, named: name, position: .offset(offset, step: step), options: options,
    overview: overview, maskedCells: maskedCells, with: context.renderer)[0]
  try context.expect(frame.image, named: name, facts: frame.facts, masks: frame.masks)
}

/// Compares an image with its golden; throws when they differ. See
/// ``expectGolden(of:at:step:named:options:overview:tolerance:masks:maskedCells:fontPath:configuration:goldenDirectory:filePath:)-(Scene,_,_,_,_,_,_,_,_,_,_,_,_)``.
///
/// - Throws: `GoldenError`: `.mismatch`, `.missing`, `.recorded`, or a file error.
public func expectGolden(
  of image: RGBAImage, named name: String,
  tolerance: DiffTolerance? = nil, masks: [PixelRect] = [],
  configuration: GoldenConfiguration? = nil,
  goldenDirectory: String? = nil, filePath: StaticString = #filePath
) throws(GoldenError) {
  let context = try GoldenTestContext(
    configuration: configuration, tolerance: tolerance, masks: masks,
    goldenDirectory: goldenDirectory, filePath: filePath)
  try context.expect(image, named: name)
}

/// Renders every frame of a scroll from `from` to `to` in steps of `step` and compares each with
/// its golden `name.kk`; throws naming the first failing frame and the number of failing frames.
///
/// - Throws: `GoldenError`: `.mismatch`, `.missing`, `.recorded`, or a file or render error.
public func expectGoldenSequence(
  of scene: Scene, from: Double, to: Double, step: Double, named name: String,
  options: RenderOptions = RenderOptions(scale: 1),
  configuration: GoldenConfiguration? = nil,
  goldenDirectory: String? = nil, filePath: StaticString = #filePath
) throws(GoldenError) {
  precondition(step > 0, "step must be positive")
  let context = try GoldenTestContext(
    configuration: configuration, goldenDirectory: goldenDirectory, filePath: filePath)
  let shot = GoldenShot(
    scene: scene, position: .sequence(from: from, to: to, step: step),
    options: options)
  try context.expectSequence(try shot.frames(with: context.renderer), named: name)
}

/// Renders every frame of a scroll of any view from `from` to `to` in steps of `step` and compares
/// each with its golden `name.kk`; see `expectGolden(of:at:…)` for views.
///
/// - Throws: `GoldenError`: `.mismatch`, `.missing`, `.recorded`, or a file or render error.
public func expectGoldenSequence(
  of view: WaterflowView, from: Double, to: Double, step: Double, named name: String,
  options: RenderOptions = RenderOptions(scale: 1),
  configuration: GoldenConfiguration? = nil,
  goldenDirectory: String? = nil, filePath: StaticString = #filePath
) throws(GoldenError) {
  precondition(step > 0, "step must be positive")
  let context = try GoldenTestContext(
    configuration: configuration, goldenDirectory: goldenDirectory, filePath: filePath)
  try context.expectSequence(
    try GoldenShot.frames(
      of: view, named: name, position: .sequence(from: from, to: to, step: step),
      options: options, with: context.renderer),
    named: name)
}

extension GoldenTestContext {
  package func expectSequence(_ frames: [GoldenFrame], named name: String) throws(GoldenError) {
    let outcome = try store.checkSequence(frames, named: name, fingerprint: fingerprint)
    try logJUnit(outcome)
    if outcome.isFailure {
      let missingOnly = outcome.frames.allSatisfy { $0.status != .failed }
      throw GoldenError(missingOnly ? .missing : .mismatch, outcome.message)
    }
    if outcome.frames.contains(where: \.didRecord) {
      throw GoldenError(
        .recorded,
        outcome.message + " Re-run without WATERFLOW_RECORD to compare.")
    }
    noteCrossStack(outcome)
  }

  /// Says in one line, on standard error, how a golden recorded on another font stack passed:
  /// a test that passes that way should not pass silently, since its text was not compared
  /// pixel for pixel.
  func noteCrossStack(_ outcome: GoldenSequenceOutcome) {
    guard let crossStack = outcome.crossStack else { return }
    FileHandle.standardError.write(Data("Golden '\(outcome.name)': \(crossStack.summary)\n".utf8))
  }
}

/// The package root above a source file: the nearest folder holding `Package.swift`.
///
/// - Parameter filePath: A file inside the package, usually `#filePath`.
/// - Returns: The folder, or nil when no parent holds `Package.swift`.
public func packageRoot(containing filePath: String) -> String? {
  var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
  while url.path != "/" {
    if FileManager.default.fileExists(
      atPath: url.appendingPathComponent("Package.swift").path)
    {
      return url.path
    }
    url.deleteLastPathComponent()
  }
  return nil
}

/// The store, renderer and fingerprint behind the `expectGolden` functions (and those of views
/// other modules draw, a `UICollectionView`'s).
package struct GoldenTestContext {
  let store: GoldenStore
  package let renderer: Renderer
  let fingerprint: FontStackFingerprint

  /// - Parameters:
  ///   - tolerance, masks: Added to the configuration, whichever it is; the record mode stays
  ///     the environment's (or the given configuration's).
  ///   - fontPath: The font tried first for each character (nil for DejaVu Sans); the fallback fonts follow.
  package init(
    configuration given: GoldenConfiguration?, tolerance: DiffTolerance? = nil,
    masks: [PixelRect] = [], fontPath: String? = nil, goldenDirectory: String?,
    filePath: StaticString
  ) throws(GoldenError) {
    let root = packageRoot(containing: "\(filePath)")
    var configuration: GoldenConfiguration
    if let given {
      configuration = given
    } else {
      var fromEnvironment = try GoldenConfiguration.fromEnvironment(
        ProcessInfo.processInfo.environment, packageRoot: root)
      fromEnvironment.recordHint = { _ in
        "WATERFLOW_RECORD=failed swift test --filter <this test>, then review the images before committing"
      }
      configuration = fromEnvironment
    }
    guard let directory = goldenDirectory ?? root.map({ $0 + "/Golden" }) else {
      throw GoldenError(
        .configuration,
        "Cannot find the package around '\(filePath)': no folder above it holds Package.swift. Pass goldenDirectory:."
      )
    }
    if let tolerance { configuration.tolerance = tolerance }
    configuration.diffOptions.masks += masks
    do { renderer = try Renderer(fontPath: fontPath ?? Renderer.defaultFontPath) } catch {
      throw GoldenError(.render, "Cannot create the renderer: \(error)")
    }
    store = GoldenStore(directory: directory, configuration: configuration)
    fingerprint = FontStackFingerprint(renderer: renderer)
  }

  package func expect(
    _ image: RGBAImage, named name: String, facts: GoldenFacts? = nil, masks: [PixelRect] = []
  ) throws(GoldenError) {
    var options = store.configuration.diffOptions
    options.masks += masks
    let outcome = try store.check(
      image, named: name, fingerprint: fingerprint, diffOptions: options, facts: facts)
    let sequence = GoldenSequenceOutcome(
      name: name, offsets: [0], frames: [outcome], isSequence: false)
    try logJUnit(sequence)
    switch outcome.status {
    case .matched: noteCrossStack(sequence)
    case .unchanged: break
    case .failed: throw GoldenError(.mismatch, outcome.message)
    case .missing: throw GoldenError(.missing, outcome.message)
    case .recordedNew, .recordedAll, .rerecorded:
      throw GoldenError(
        .recorded,
        outcome.message + "\nRe-run without WATERFLOW_RECORD to compare.")
    }
  }
}
