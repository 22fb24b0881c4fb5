// Compiled with the SnapshotTesting trait, where UIKit is Waterflow's (Linux, macOS): on iOS a
// collection view is snapshotted by swift-snapshot-testing's own `.image` strategy.
#if SnapshotTesting && canImport(WaterflowCollectionView)
import Foundation
public import SnapshotTesting
public import UIKit
public import WaterflowCollectionView
import PNGCodec

extension Snapshotting where Value == UICollectionView, Format == WaterflowSnapshot {
  /// A collection view driven by your layout and data source, drawn where it is scrolled (or
  /// after scrolling it to `offset`), compared with Waterflow's pixelmatch-compatible diff and
  /// explained by its facts: a failure names the index paths that moved.
  ///
  /// ```swift
  /// assertSnapshot(of: collectionView, as: .waterflow(at: CGPoint(x: 0, y: 600), step: 50))
  /// ```
  ///
  /// - Parameters:
  ///   - offset: The content offset, reached from where the view is; nil draws it where it is.
  ///   - step: Scroll in steps of this many points (0: jump), so cells are reused on the way.
  ///   - templates: The templates of cells without their own, by reuse identifier (see
  ///     `FrameContent(collectionView:templates:data:)`).
  ///   - data: The data of the item at an index path, which its template reads.
  ///   - renderOptions: Scale (goldens default to 1) and debug overlay.
  ///   - options: Pixelmatch options and masks.
  ///   - tolerance: How many differing pixels still pass.
  ///   - fontPath: The font tried first for each character; DejaVu Sans and WenQuanYi Micro Hei follow.
  /// - Returns: A strategy that writes `.png` references.
  public static func waterflow(
    at offset: CGPoint? = nil, step: CGFloat = 0, templates: [String: CellTemplate] = [:],
    data: @escaping (IndexPath) -> ItemData? = { _ in nil },
    renderOptions: RenderOptions = RenderOptions(scale: 1), options: ImageDiff.Options = .init(),
    tolerance: DiffTolerance = .exact, fontPath: String = Renderer.defaultFontPath
  ) -> Snapshotting {
    // Called only on the main actor, with the view (see below).
    nonisolated(unsafe) let data = data
    return Snapshotting(
      pathExtension: "png",
      diffing: .waterflow(options: options, tolerance: tolerance)
    ) { collectionView in
      // swift-snapshot-testing calls a strategy where the assertion runs: for a view, on the
      // main actor (a `@MainActor` test), as on iOS; elsewhere this traps, as UIKit would.
      MainActor.assumeIsolated {
        if let offset { collectionView.scroll(toContentOffset: offset, step: step) }
        // The strategy cannot throw: a render failure becomes an empty image, which fails on its size.
        guard let renderer = try? Renderer(fontPath: fontPath),
          let frame = try? GoldenFrame(
            of: collectionView, with: renderer, options: renderOptions, templates: templates, data: data)
        else {
          return WaterflowSnapshot(image: RGBAImage(width: 0, height: 0, pixels: []))
        }
        return WaterflowSnapshot(
          image: frame.image, facts: frame.facts, stack: FontStackFingerprint(renderer: renderer))
      }
    }
  }
}
#endif
