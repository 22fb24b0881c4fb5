import UIKit

/// Sizes for the feed's layout, asked of its delegate.
@MainActor
public protocol FeedLayoutDelegate: AnyObject {
  /// The height of an item's cell at a column's width.
  func collectionView(_ collectionView: UICollectionView, heightForItemAt indexPath: IndexPath, width: CGFloat) -> CGFloat
  /// How many columns the section has; nil for the layout's own count. (An `@objc optional`
  /// method in the app's Objective-C days, rewritten as the UIKit module's page shows.)
  func collectionView(_ collectionView: UICollectionView, columnCountFor section: Int) -> Int?
}

extension FeedLayoutDelegate {
  public func collectionView(_ collectionView: UICollectionView, columnCountFor section: Int) -> Int? { nil }
}

/// The feed's waterfall: each item goes to the shortest column, as tall as its delegate says.
public final class FeedLayout: UICollectionViewLayout {
  public weak var delegate: FeedLayoutDelegate?
  public var columnCount = 2
  public var spacing: CGFloat = 8
  public var sectionInset = UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8)

  private var cache: [[UICollectionViewLayoutAttributes]] = []
  private var contentHeight: CGFloat = 0

  public override init() { super.init() }
  public required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

  public override var collectionViewContentSize: CGSize {
    CGSize(width: collectionView?.bounds.width ?? 0, height: contentHeight)
  }

  public override func prepare() {
    super.prepare()
    cache = []
    contentHeight = 0
    guard let collectionView else { return }
    var top: CGFloat = 0
    for section in 0..<collectionView.numberOfSections {
      let columns = delegate?.collectionView(collectionView, columnCountFor: section) ?? columnCount
      let width = collectionView.bounds.width - sectionInset.left - sectionInset.right
      let columnWidth = ((width - CGFloat(columns - 1) * spacing) / CGFloat(columns)).rounded(.down)
      var heights = [CGFloat](repeating: top + sectionInset.top, count: columns)
      var attributes: [UICollectionViewLayoutAttributes] = []
      for item in 0..<collectionView.numberOfItems(inSection: section) {
        let indexPath = IndexPath(item: item, section: section)
        let column = heights.indices.min { heights[$0] < heights[$1] }!
        let height = delegate?.collectionView(collectionView, heightForItemAt: indexPath, width: columnWidth) ?? columnWidth
        let item = UICollectionViewLayoutAttributes(forCellWith: indexPath)
        item.frame = CGRect(
          x: sectionInset.left + CGFloat(column) * (columnWidth + spacing), y: heights[column],
          width: columnWidth, height: height)
        attributes.append(item)
        heights[column] = item.frame.maxY + spacing
      }
      cache.append(attributes)
      top = (heights.max() ?? top) - spacing + sectionInset.bottom
    }
    contentHeight = top
  }

  public override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
    cache.flatMap { $0 }.filter { $0.frame.intersects(rect) }
  }

  public override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
    guard indexPath.section < cache.count, indexPath.item < cache[indexPath.section].count else { return nil }
    return cache[indexPath.section][indexPath.item]
  }

  public override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
    newBounds.width != collectionView?.bounds.width
  }
}
