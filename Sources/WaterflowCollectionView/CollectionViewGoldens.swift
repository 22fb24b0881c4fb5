public import UIKit
public import WaterflowCells
public import WaterflowComparison

public import WaterflowRender
import Foundation
import PNGCodec

/// Draws what a collection view displays, at an offset, and compares it with its golden; throws
/// when they differ. The golden's facts record each visible cell (its flat index over the
/// sections, frame, instance, template and data), so a changed layout reads
/// `layout changed: …` with the cells that moved, as a scene's goldens do.
///
/// ```
/// try expectGolden(of: view, at: CGPoint(x: 0, y: 600), step: 50, named: "feed/scrolled",
///                  templates: ["note": noteTemplate]) { feed.items[$0.item].data }
/// ```
///
/// - Parameters:
///   - collectionView: The view; it is scrolled from where it is.
///   - offset: The content offset to draw at; nil draws it where it is.
///   - step: Scroll there in steps of this many points (0: one jump), so reuse happens on the way.
///   - name: The golden's name, a relative path without `.png`.
///   - options: Render options; goldens default to scale 1 to stay small.
///   - templates, data: How cells without their own template are drawn (see
///     `FrameContent(collectionView:templates:data:)`).
///   - tolerance: This golden's tolerance, instead of the configuration's.
///   - configuration: Tolerance, diff options and record mode; nil reads the environment.
///   - goldenDirectory: The golden folder; nil finds `Golden/` from `filePath`.
///   - filePath: The calling file, for finding the package.
/// - Throws: `GoldenError`: `.mismatch`, `.missing`, `.recorded`, or a file or render error.
@MainActor
public func expectGolden(
  of collectionView: UICollectionView, at offset: CGPoint? = nil, step: CGFloat = 0, named name: String,
  options: RenderOptions = RenderOptions(scale: 1), templates: [String: CellTemplate] = [:],
  data: (IndexPath) -> ItemData? = { _ in nil }, tolerance: DiffTolerance? = nil,
  configuration: GoldenConfiguration? = nil, goldenDirectory: String? = nil,
  filePath: StaticString = #filePath
) throws(GoldenError) {
  let context = try GoldenTestContext(
    configuration: configuration, tolerance: tolerance, goldenDirectory: goldenDirectory, filePath: filePath)
  if let offset { collectionView.scroll(toContentOffset: offset, step: step) }
  let frame: GoldenFrame
  do {
    frame = try GoldenFrame(
      of: collectionView, with: context.renderer, options: options, templates: templates, data: data)
  } catch {
    throw GoldenError(.render, "Cannot draw the collection view for '\(name)': \(error)")
  }
  if let problem = collectionView.problems.first {
    throw GoldenError(.render, "The collection view of '\(name)' has a problem: \(problem)")
  }
  try context.expect(frame.image, named: name, facts: frame.facts)
}

extension GoldenFrame {
  /// A collection view's frame where it is scrolled: the picture, and the facts that name its
  /// cells by index path, as `expectGolden(of:…)` and the snapshot strategy compare them.
  ///
  /// - Parameters:
  ///   - collectionView: The view, drawn at its `contentOffset`.
  ///   - renderer: The renderer (its fonts).
  ///   - options: Render options.
  ///   - templates, data: How cells without their own template are drawn (see
  ///     `FrameContent(collectionView:templates:data:)`).
  /// - Throws: The renderer's error when the frame cannot be drawn.
  @MainActor
  public init(
    of collectionView: UICollectionView, with renderer: Renderer, options: RenderOptions,
    templates: [String: CellTemplate] = [:], data: (IndexPath) -> ItemData? = { _ in nil }
  ) throws {
    let frame = FrameContent(collectionView: collectionView, templates: templates, data: data)
    self.init(
      offset: frame.offset, image: try renderer.image(of: frame, options: options),
      facts: GoldenFacts(frame, of: collectionView))
  }
}

extension GoldenFacts {
  /// The facts of a frame of a collection view: its cells named by index path (`item [0, 3]`).
  @MainActor
  init(_ frame: FrameContent, of collectionView: UICollectionView) {
    let firsts = collectionView.firstFlatIndices
    self.init(
      offset: frame.offset, isHorizontal: frame.isHorizontal,
      cells: frame.cells.map { cell in
        var facts = Cell(
          index: cell.index, frame: cell.frame, instance: cell.instanceID, color: cell.color?.hexString,
          data: cell.template == nil ? [:] : cell.data.fields)
        if cell.template != nil { facts.id = cell.data["id"] }
        let section = firsts.lastIndex { $0 <= cell.index } ?? 0
        facts.indexPath = [section, cell.index - (firsts.isEmpty ? 0 : firsts[section])]
        return facts
      })
  }
}

/// Draws every frame of a scroll of a collection view from `from` to `to` (content offsets
/// along its scroll axis) in steps of `step`, a layout pass at each, and compares each with its
/// golden `name.kk`; throws naming the first failing frame and the number of failing frames.
///
/// - Throws: `GoldenError`: `.mismatch`, `.missing`, `.recorded`, or a file or render error.
@MainActor
public func expectGoldenSequence(
  of collectionView: UICollectionView, from: CGFloat, to: CGFloat, step: CGFloat, named name: String,
  options: RenderOptions = RenderOptions(scale: 1), templates: [String: CellTemplate] = [:],
  data: (IndexPath) -> ItemData? = { _ in nil },
  configuration: GoldenConfiguration? = nil, goldenDirectory: String? = nil,
  filePath: StaticString = #filePath
) throws(GoldenError) {
  precondition(step > 0, "step must be positive")
  let context = try GoldenTestContext(
    configuration: configuration, goldenDirectory: goldenDirectory, filePath: filePath)
  let horizontal = (collectionView.collectionViewLayout as? UICollectionViewFlowLayout)?.scrollDirection == .horizontal
  func point(_ offset: CGFloat) -> CGPoint { horizontal ? CGPoint(x: offset, y: 0) : CGPoint(x: 0, y: offset) }
  var frames: [GoldenFrame] = []
  var offset = from
  collectionView.scroll(toContentOffset: point(from))
  while true {
    collectionView.scroll(toContentOffset: point(offset))
    do {
      var frame = try GoldenFrame(
        of: collectionView, with: context.renderer, options: options, templates: templates, data: data)
      frame.offset = Double(offset)
      frames.append(frame)
    } catch {
      throw GoldenError(.render, "Cannot draw the collection view for '\(name)' at \(offset): \(error)")
    }
    if offset == to { break }
    offset = from < to ? min(to, offset + step) : max(to, offset - step)
  }
  if let problem = collectionView.problems.first {
    throw GoldenError(.render, "The collection view of '\(name)' has a problem: \(problem)")
  }
  try context.expectSequence(frames, named: name)
}
