public import UIKit
// What a test of a collection view names besides it: templates and data, render options, and
// the golden configuration.
@_exported public import WaterflowCells
@_exported public import WaterflowRender
@_exported public import WaterflowGolden
public import PNGCodec
@_exported public import WaterflowView

extension FrameContent {
  /// What a collection view displays now: its visible cells, drawn by their own template and
  /// data (a ``TemplateCollectionViewCell``) or by the template of their reuse identifier with
  /// the data `data` gives their item (or in Waterflow's own look when the identifier has no
  /// template), and its headers and footers as bars.
  ///
  /// - Parameters:
  ///   - collectionView: The view, laid out (`layoutIfNeeded()`) at the offset to draw.
  ///   - templates: Cell templates by reuse identifier.
  ///   - data: The data of the item at an index path, which its template reads.
  @MainActor
  public init(
    collectionView: UICollectionView, templates: [String: CellTemplate] = [:],
    data: (IndexPath) -> ItemData? = { _ in nil }
  ) {
    collectionView.layoutIfNeeded()
    let firsts = collectionView.firstFlatIndices
    let paths = collectionView.indexPathsForVisibleItems
    // A cell with no colour of its own gets Waterflow's look: the n-th cell made gets the n-th
    // colour of the seed, as a scene's cells do, so reuse shows as colours that move.
    let instances = collectionView.visibleCells.map { collectionView.creationNumber(of: $0) ?? 0 }
    var generator = SeededGenerator(seed: 1)
    let palette = (0...(instances.max() ?? 0)).map { _ in Color.random(using: &generator) }
    let cells = zip(paths, collectionView.visibleCells).map { path, cell -> Cell in
      let identifier = cell.reuseIdentifier ?? ""
      // A template cell brings its own template and data; others take the identifier's.
      if let templated = cell as? TemplateCollectionViewCell, let template = templated.template {
        return Cell(
          index: firsts[path.section] + path.item, instanceID: collectionView.creationNumber(of: cell) ?? 0,
          frame: Rect(cell.frame), template: template, data: templated.data)
      }
      let template = templates[identifier]
      return Cell(
        index: firsts[path.section] + path.item,
        instanceID: collectionView.creationNumber(of: cell) ?? 0,
        frame: Rect(cell.frame),
        color: (cell.backgroundColor ?? cell.contentView.backgroundColor).map(Color.init)
          ?? palette[collectionView.creationNumber(of: cell) ?? 0],
        template: template, data: template == nil ? ItemData() : data(path) ?? ItemData())
    }
    let bars = collectionView.visibleSupplementaryViews.map { kind, path, view in
      Bar(
        frame: Rect(view.frame),
        text: kind == UICollectionView.elementKindSectionFooter ? "End of section \(path.section)" : "Section \(path.section)",
        style: .section)
    }
    let bounds = collectionView.bounds
    self.init(
      viewport: Size(width: Double(bounds.width), height: Double(bounds.height)),
      contentOffset: Point(x: Double(bounds.minX), y: Double(bounds.minY)),
      isHorizontal: (collectionView.collectionViewLayout as? UICollectionViewFlowLayout)?.scrollDirection == .horizontal,
      cells: cells, bars: bars)
  }
}

extension Renderer {
  /// Draws what a collection view displays at its content offset, as PNG, PDF or SVG bytes;
  /// see ``WaterflowRender/FrameContent/init(collectionView:templates:data:)``.
  ///
  /// - Throws: When the canvas would exceed Cairo's limit, or Cairo fails.
  @MainActor
  public func render(
    _ collectionView: UICollectionView, as format: OutputFormat,
    options: RenderOptions = RenderOptions(scale: Double(UIScreen.main.scale)),
    templates: [String: CellTemplate] = [:], data: (IndexPath) -> ItemData? = { _ in nil }
  ) throws -> [UInt8] {
    try render(FrameContent(collectionView: collectionView, templates: templates, data: data), as: format, options: options)
  }

  /// The pixels of what a collection view displays: what `expectGolden(of:named:)` compares.
  ///
  /// - Throws: When the canvas would exceed Cairo's limit, or Cairo fails.
  @MainActor
  public func image(
    of collectionView: UICollectionView,
    options: RenderOptions = RenderOptions(scale: Double(UIScreen.main.scale)),
    templates: [String: CellTemplate] = [:], data: (IndexPath) -> ItemData? = { _ in nil }
  ) throws -> RGBAImage {
    try image(of: FrameContent(collectionView: collectionView, templates: templates, data: data), options: options)
  }
}

extension Rect {
  init(_ r: CGRect) {
    self.init(x: Double(r.minX), y: Double(r.minY), width: Double(r.width), height: Double(r.height))
  }
}

extension Color {
  init(_ c: UIColor) {
    self.init(red: Double(c.red), green: Double(c.green), blue: Double(c.blue), alpha: Double(c.alpha))
  }
}

extension UICollectionView {
  /// The flat index of each section's first item: index labels, facts and traces count items
  /// over all sections, as Waterflow's own views do.
  var firstFlatIndices: [Int] {
    var firsts: [Int] = []
    var total = 0
    for section in 0..<numberOfSections {
      firsts.append(total)
      total += numberOfItems(inSection: section)
    }
    return firsts
  }
}
