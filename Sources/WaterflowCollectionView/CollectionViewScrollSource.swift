public import UIKit
@_exported public import WaterflowMotion

/// A collection view played by a scroll animation (`ScrollJob(frames:…)`): each frame sets its
/// content offset and runs a layout pass, so the layout is asked
/// `shouldInvalidateLayout(forBoundsChange:)` at every frame, as on a phone, and cells are reused
/// as UIKit reuses them. What each pass created, reused and enqueued feeds the reuse marks and
/// the trace.
///
/// ```
/// let job = ScrollJob(
///   frames: {
///     let feed = FeedDataSource.sample(count: 200)
///     let view = makeFeedView(frame: CGRect(x: 0, y: 0, width: 390, height: 844), dataSource: feed)
///     return (CollectionViewScrollSource(view, templates: ["note": noteCard]), feed)
///   },
///   script: .scroll(from: 0, to: 2000, frames: 60), output: ScrollOutput(path: "feed.mp4"))
/// ```
// Main-actor isolated, as the view it plays; the conformance checks at run time that the
// simulation calls it there.
@MainActor
public final class CollectionViewScrollSource: @preconcurrency ScrollFrameSource {
  /// The collection view.
  public let collectionView: UICollectionView
  private let templates: [String: CellTemplate]
  private let data: (IndexPath) -> ItemData?
  /// The cells shown after the last pass, by flat index, with their creation numbers.
  private var shown: [Int: Int] = [:]
  /// Every reuse identifier a shown cell had: the pools a pass counts.
  private var identifiers: Set<String> = []

  /// Plays a collection view; `templates` and `data` draw its cells as
  /// `FrameContent(collectionView:templates:data:)` does.
  public init(
    _ collectionView: UICollectionView, templates: [String: CellTemplate] = [:],
    data: @escaping (IndexPath) -> ItemData? = { _ in nil }
  ) {
    self.collectionView = collectionView
    self.templates = templates
    self.data = data
  }

  private var isHorizontal: Bool {
    (collectionView.collectionViewLayout as? UICollectionViewFlowLayout)?.scrollDirection == .horizontal
  }

  public var offset: Double {
    Double(isHorizontal ? collectionView.contentOffset.x : collectionView.contentOffset.y)
  }

  public var maximumOffset: Double {
    collectionView.layoutIfNeeded()
    let content = isHorizontal ? collectionView.contentSize.width : collectionView.contentSize.height
    return Swift.max(0, Double(content) - viewportLength)
  }

  public var viewportLength: Double {
    Double(isHorizontal ? collectionView.bounds.width : collectionView.bounds.height)
  }

  public func scroll(to offset: Double) -> LayoutPass {
    let madeBefore = collectionView.createdViewCount
    collectionView.contentOffset = isHorizontal ? CGPoint(x: offset, y: 0) : CGPoint(x: 0, y: offset)
    collectionView.layoutIfNeeded()
    let firsts = collectionView.firstFlatIndices
    var now: [Int: Int] = [:]
    for (path, cell) in zip(collectionView.indexPathsForVisibleItems, collectionView.visibleCells) {
      now[firsts[path.section] + path.item] = collectionView.creationNumber(of: cell) ?? 0
      if let identifier = cell.reuseIdentifier { identifiers.insert(identifier) }
    }
    var pass = LayoutPass(offset: offset)
    pass.displayed = now.sorted { $0.key < $1.key }.map { DisplayedCell(index: $0.key, cell: $0.value) }
    for cell in pass.displayed where shown[cell.index] != cell.cell {
      if cell.cell >= madeBefore { pass.created.append(cell) } else { pass.reused.append(cell) }
    }
    pass.enqueued = shown.filter { now[$0.key] != $0.value }.sorted { $0.key < $1.key }
      .map { DisplayedCell(index: $0.key, cell: $0.value) }
    pass.poolSize = identifiers.reduce(0) { $0 + collectionView.pooledViewCount(withReuseIdentifier: $1) }
    shown = now
    return pass
  }

  public func frameContent() -> FrameContent {
    FrameContent(collectionView: collectionView, templates: templates, data: data)
  }
}
