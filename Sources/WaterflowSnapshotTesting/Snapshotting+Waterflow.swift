// Compiled only with the SnapshotTesting trait: `swift build --traits SnapshotTesting`, or
// `traits: ["SnapshotTesting"]` on the package dependency.
#if SnapshotTesting
internal import Cairo
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
        let result = ImageDiff.compare(
          reference, actual, options: options, diffImage: .unlessIdentical)
        guard !result.isWithin(tolerance) else { return nil }
        var message =
          result.sizesDiffer
          ? "Newly-taken snapshot@\(result.actualSize) does not match reference@\(result.expectedSize)."
          : "Newly-taken snapshot does not match reference (\(result.expectedSize)): \(result)."
        if !result.sizesDiffer {
          message +=
            " Allowed: \(tolerance.maxMismatchedPixels == .max ? "any count" : "\(tolerance.maxMismatchedPixels) pixels")"
          message +=
            tolerance.maxMismatchedRatio < 1
            ? ", ratio \(tolerance.maxMismatchedRatio)." : "."
        }
        var attachments: [DiffAttachment] = []
        if let diff = result.diffImage {
          attachments.append(
            .data(Data(diff.pngData()), name: "difference.png"))
          let panels = DiffPanels.compose(
            expected: reference, actual: actual, diff: diff)
          attachments.append(
            .data(
              Data(panels.pngData()), name: "expected-actual-difference.png"))
        }
        return (message, attachments)
      })
  }
}

extension Snapshotting
where Value == WaterflowSnapshotSubject, Format == RGBAImage {
  /// The subject rendered with DejaVu Sans and compared with pixelmatch's defaults, exactly.
  public static var waterflow: Snapshotting { .waterflow() }

  /// The subject rendered and compared with Waterflow's pixelmatch-compatible diff.
  ///
  /// - Parameters:
  ///   - options: Pixelmatch options and masks.
  ///   - tolerance: How many differing pixels still pass.
  ///   - fontPath: The font of every text.
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
        return RGBAImage(width: 0, height: 0, pixels: [])
      }
      return frame.image
    }
  }
}

extension Snapshotting where Value == WaterflowView, Format == RGBAImage {
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
  ///   - fontPath: The font of every text.
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
        return RGBAImage(width: 0, height: 0, pixels: [])
      }
      return frame.image
    }
  }
}
#endif  // SnapshotTesting
