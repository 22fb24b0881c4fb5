// A layout in the style of CHTCollectionViewWaterfallLayout: sections, a header each, a column
// count per section from its delegate. Its delegate was an `@objc` protocol with `optional`
// methods (Fixtures/WaterfallLayout.objc.txt); this file is that one after
// `waterflow objc-rewrite --fix`, unchanged, and it compiles on iOS too.
import UIKit

protocol WaterfallLayoutDelegate: UICollectionViewDelegate {
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    sizeForItemAt indexPath: IndexPath) -> CGSize
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    columnCountFor section: Int) -> Int?
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    heightForHeaderIn section: Int) -> CGFloat?
}

extension WaterfallLayoutDelegate {
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    columnCountFor section: Int) -> Int? { nil }
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    heightForHeaderIn section: Int) -> CGFloat? { nil }
}

class WaterfallLayout: UICollectionViewLayout {
  var columnCount = 2
  var minimumColumnSpacing: CGFloat = 10
  var minimumInteritemSpacing: CGFloat = 10
  var headerHeight: CGFloat = 0
  var sectionInset = UIEdgeInsets.zero

  private var delegate: WaterfallLayoutDelegate? {
    return collectionView?.delegate as? WaterfallLayoutDelegate
  }
  private var sectionItemAttributes: [[UICollectionViewLayoutAttributes]] = []
  private var headersAttributes: [Int: UICollectionViewLayoutAttributes] = [:]
  private var allItemAttributes: [UICollectionViewLayoutAttributes] = []
  private var contentHeight: CGFloat = 0

  override func prepare() {
    super.prepare()
    sectionItemAttributes = []
    headersAttributes = [:]
    allItemAttributes = []
    contentHeight = 0
    guard let collectionView = collectionView, collectionView.numberOfSections > 0 else { return }
    var top: CGFloat = 0
    for section in 0..<collectionView.numberOfSections {
      let columns = delegate?.collectionView(collectionView, layout: self, columnCountFor: section) ?? columnCount
      let width = collectionView.bounds.width - sectionInset.left - sectionInset.right
      let itemWidth = floor((width - CGFloat(columns - 1) * minimumColumnSpacing) / CGFloat(columns))

      let header = delegate?.collectionView(collectionView, layout: self, heightForHeaderIn: section) ?? headerHeight
      if header > 0 {
        let attributes = UICollectionViewLayoutAttributes(
          forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
          with: IndexPath(item: 0, section: section))
        attributes.frame = CGRect(x: 0, y: top, width: collectionView.bounds.width, height: header)
        headersAttributes[section] = attributes
        allItemAttributes.append(attributes)
        top = attributes.frame.maxY
      }
      top += sectionInset.top
      var columnHeights = [CGFloat](repeating: top, count: columns)
      var itemAttributes: [UICollectionViewLayoutAttributes] = []
      for item in 0..<collectionView.numberOfItems(inSection: section) {
        let indexPath = IndexPath(item: item, section: section)
        let shortest = columnHeights.indices.min { columnHeights[$0] < columnHeights[$1] } ?? 0
        let x = sectionInset.left + (itemWidth + minimumColumnSpacing) * CGFloat(shortest)
        let size = delegate?.collectionView(collectionView, layout: self, sizeForItemAt: indexPath) ?? .zero
        let height = size.width > 0 ? floor(size.height * itemWidth / size.width) : 0
        let attributes = UICollectionViewLayoutAttributes(forCellWith: indexPath)
        attributes.frame = CGRect(x: x, y: columnHeights[shortest], width: itemWidth, height: height)
        itemAttributes.append(attributes)
        allItemAttributes.append(attributes)
        columnHeights[shortest] = attributes.frame.maxY + minimumInteritemSpacing
      }
      sectionItemAttributes.append(itemAttributes)
      top = (columnHeights.max() ?? top) - minimumInteritemSpacing + sectionInset.bottom
    }
    contentHeight = top
  }

  override var collectionViewContentSize: CGSize {
    CGSize(width: collectionView?.bounds.width ?? 0, height: contentHeight)
  }

  override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
    guard indexPath.section < sectionItemAttributes.count,
      indexPath.item < sectionItemAttributes[indexPath.section].count
    else { return nil }
    return sectionItemAttributes[indexPath.section][indexPath.item]
  }

  override func layoutAttributesForSupplementaryView(
    ofKind elementKind: String, at indexPath: IndexPath
  ) -> UICollectionViewLayoutAttributes? {
    elementKind == UICollectionView.elementKindSectionHeader ? headersAttributes[indexPath.section] : nil
  }

  override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
    allItemAttributes.filter { $0.frame.intersects(rect) }
  }

  override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
    newBounds.width != collectionView?.bounds.width
  }
}
