extension UICollectionView {
  /// The axis a flow layout scrolls along.
  public enum ScrollDirection: Int, Sendable {
    case vertical, horizontal
  }
}

/// A flow layout's per-item and per-section metrics, asked of the collection view's delegate.
/// Each has a default that reads the layout's own property, as UIKit falls back to it.
@MainActor
public protocol UICollectionViewDelegateFlowLayout: UICollectionViewDelegate {
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    sizeForItemAt indexPath: IndexPath) -> CGSize
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    insetForSectionAt section: Int) -> UIEdgeInsets
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    minimumLineSpacingForSectionAt section: Int) -> CGFloat
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    minimumInteritemSpacingForSectionAt section: Int) -> CGFloat
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    referenceSizeForHeaderInSection section: Int) -> CGSize
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    referenceSizeForFooterInSection section: Int) -> CGSize
}

extension UICollectionViewDelegateFlowLayout {
  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    sizeForItemAt indexPath: IndexPath
  ) -> CGSize { (collectionViewLayout as? UICollectionViewFlowLayout)?.itemSize ?? .zero }

  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    insetForSectionAt section: Int
  ) -> UIEdgeInsets { (collectionViewLayout as? UICollectionViewFlowLayout)?.sectionInset ?? .zero }

  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    minimumLineSpacingForSectionAt section: Int
  ) -> CGFloat { (collectionViewLayout as? UICollectionViewFlowLayout)?.minimumLineSpacing ?? 0 }

  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    minimumInteritemSpacingForSectionAt section: Int
  ) -> CGFloat { (collectionViewLayout as? UICollectionViewFlowLayout)?.minimumInteritemSpacing ?? 0 }

  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    referenceSizeForHeaderInSection section: Int
  ) -> CGSize { (collectionViewLayout as? UICollectionViewFlowLayout)?.headerReferenceSize ?? .zero }

  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    referenceSizeForFooterInSection section: Int
  ) -> CGSize { (collectionViewLayout as? UICollectionViewFlowLayout)?.footerReferenceSize ?? .zero }
}

/// UIKit's flow layout: items in lines across the scroll axis, lines one after another.
///
/// Placement follows UIKit's: each line takes items while they fit between the section's
/// insets, at least the interitem spacing apart; a full line spreads its items so that the
/// first and last touch the insets (one item alone sits at the start); the section's last line
/// keeps the minimum spacing, left-aligned; items are centred across their line's height.
/// Lines are the line spacing apart. A header and a footer span the section across.
open class UICollectionViewFlowLayout: UICollectionViewLayout {
  open var itemSize = CGSize(width: 50, height: 50) { didSet { invalidateLayout() } }
  /// Nonzero: items start at this size and take the size their cells prefer.
  open var estimatedItemSize: CGSize = .zero { didSet { invalidateLayout() } }
  open var minimumLineSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
  open var minimumInteritemSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
  open var sectionInset: UIEdgeInsets = .zero { didSet { invalidateLayout() } }
  open var headerReferenceSize: CGSize = .zero { didSet { invalidateLayout() } }
  open var footerReferenceSize: CGSize = .zero { didSet { invalidateLayout() } }
  open var scrollDirection: UICollectionView.ScrollDirection = .vertical { didSet { invalidateLayout() } }

  /// The estimated size that asks cells for their own: UIKit's `automaticSize`.
  public static let automaticSize = CGSize(
    width: CGFloat(Double.greatestFiniteMagnitude), height: CGFloat(Double.greatestFiniteMagnitude))

  private var items: [[UICollectionViewLayoutAttributes]] = []
  private var headers: [UICollectionViewLayoutAttributes?] = []
  private var footers: [UICollectionViewLayoutAttributes?] = []
  private var contentSize: CGSize = .zero
  /// The sizes self-sizing cells preferred, kept across preparations.
  private var preferredSizes: [IndexPath: CGSize] = [:]

  open override class var invalidationContextClass: AnyClass {
    UICollectionViewFlowLayoutInvalidationContext.self
  }

  open override func prepare() {
    super.prepare()
    items = []
    headers = []
    footers = []
    guard let view = collectionView else {
      contentSize = .zero
      return
    }
    let vertical = scrollDirection == .vertical
    let delegate = view.delegate as? any UICollectionViewDelegateFlowLayout
    let insets = view.adjustedContentInset
    // Across: the width in vertical flow, the height in horizontal; along: the other axis.
    let across = vertical
      ? view.bounds.width - insets.left - insets.right : view.bounds.height - insets.top - insets.bottom
    func rect(along: CGFloat, across: CGFloat, alongLength: CGFloat, acrossLength: CGFloat) -> CGRect {
      vertical
        ? CGRect(x: across, y: along, width: acrossLength, height: alongLength)
        : CGRect(x: along, y: across, width: alongLength, height: acrossLength)
    }
    var along: CGFloat = 0
    for section in 0..<view.numberOfSections {
      let inset = delegate?.collectionView(view, layout: self, insetForSectionAt: section) ?? sectionInset
      let lineSpacing =
        delegate?.collectionView(view, layout: self, minimumLineSpacingForSectionAt: section) ?? minimumLineSpacing
      let itemSpacing =
        delegate?.collectionView(view, layout: self, minimumInteritemSpacingForSectionAt: section)
        ?? minimumInteritemSpacing
      let header = delegate?.collectionView(view, layout: self, referenceSizeForHeaderInSection: section) ?? headerReferenceSize
      let footer = delegate?.collectionView(view, layout: self, referenceSizeForFooterInSection: section) ?? footerReferenceSize
      let (before, after) = vertical ? (inset.top, inset.bottom) : (inset.left, inset.right)
      let (start, end) = vertical ? (inset.left, inset.right) : (inset.top, inset.bottom)
      let headerLength = vertical ? header.height : header.width
      if headerLength > 0 {
        let a = UICollectionViewLayoutAttributes(
          forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader, with: IndexPath(item: 0, section: section))
        a.frame = rect(along: along, across: 0, alongLength: headerLength, acrossLength: across)
        headers.append(a)
      } else {
        headers.append(nil)
      }
      along += headerLength + before
      let room = max(0, across - start - end)
      // Item sizes along and across, clamped to the room.
      let sizes: [(along: CGFloat, across: CGFloat)] = (0..<view.numberOfItems(inSection: section)).map { item in
        let path = IndexPath(item: item, section: section)
        // A self-sizing item starts at the estimate (the item size, for `automaticSize`) until
        // its cell says.
        var size = preferredSizes[path]
          ?? (estimatedItemSize != .zero
            ? estimatedItemSize : delegate?.collectionView(view, layout: self, sizeForItemAt: path) ?? itemSize)
        if size == Self.automaticSize { size = itemSize }
        return vertical ? (size.height, min(size.width, room)) : (size.width, min(size.height, room))
      }
      var sectionItems: [UICollectionViewLayoutAttributes] = []
      var first = 0
      while first < sizes.count {
        var last = first
        var used = sizes[first].across
        while last + 1 < sizes.count, used + itemSpacing + sizes[last + 1].across <= room {
          last += 1
          used += itemSpacing + sizes[last].across
        }
        let count = last - first + 1
        let isLastLine = last == sizes.count - 1
        let lineLength = sizes[first...last].map(\.along).max() ?? 0
        let spacing = count > 1 && !isLastLine
          ? (room - sizes[first...last].reduce(0) { $0 + $1.across }) / CGFloat(count - 1) : itemSpacing
        var position = start
        for item in first...last {
          let a = UICollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: section))
          a.frame = rect(
            along: along + (lineLength - sizes[item].along) / 2, across: position,
            alongLength: sizes[item].along, acrossLength: sizes[item].across)
          sectionItems.append(a)
          position += sizes[item].across + spacing
        }
        along += lineLength + (isLastLine ? 0 : lineSpacing)
        first = last + 1
      }
      items.append(sectionItems)
      along += after
      let footerLength = vertical ? footer.height : footer.width
      if footerLength > 0 {
        let a = UICollectionViewLayoutAttributes(
          forSupplementaryViewOfKind: UICollectionView.elementKindSectionFooter, with: IndexPath(item: 0, section: section))
        a.frame = rect(along: along, across: 0, alongLength: footerLength, acrossLength: across)
        footers.append(a)
      } else {
        footers.append(nil)
      }
      along += footerLength
    }
    contentSize = vertical ? CGSize(width: across, height: along) : CGSize(width: along, height: across)
  }

  open override var collectionViewContentSize: CGSize { contentSize }

  open override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
    var found: [UICollectionViewLayoutAttributes] = []
    for section in items.indices {
      if let header = headers[section], header.frame.intersects(rect) { found.append(header) }
      found += items[section].filter { $0.frame.intersects(rect) }
      if let footer = footers[section], footer.frame.intersects(rect) { found.append(footer) }
    }
    return found
  }

  open override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
    guard items.indices.contains(indexPath.section), items[indexPath.section].indices.contains(indexPath.item)
    else { return nil }
    return items[indexPath.section][indexPath.item]
  }

  open override func layoutAttributesForSupplementaryView(
    ofKind elementKind: String, at indexPath: IndexPath
  ) -> UICollectionViewLayoutAttributes? {
    let list = elementKind == UICollectionView.elementKindSectionHeader ? headers : footers
    return list.indices.contains(indexPath.section) ? list[indexPath.section] : nil
  }

  /// A new width (a new height, sideways) invalidates the layout; a scroll does not.
  open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
    guard let bounds = collectionView?.bounds else { return false }
    return scrollDirection == .vertical ? newBounds.width != bounds.width : newBounds.height != bounds.height
  }

  /// With an estimated size, a cell's preferred size invalidates the layout.
  open override func shouldInvalidateLayout(
    forPreferredLayoutAttributes preferredAttributes: UICollectionViewLayoutAttributes,
    withOriginalAttributes originalAttributes: UICollectionViewLayoutAttributes
  ) -> Bool {
    estimatedItemSize != .zero && preferredAttributes.representedElementCategory == .cell
      && preferredAttributes.size != originalAttributes.size
  }

  open override func invalidationContext(
    forPreferredLayoutAttributes preferredAttributes: UICollectionViewLayoutAttributes,
    withOriginalAttributes originalAttributes: UICollectionViewLayoutAttributes
  ) -> UICollectionViewLayoutInvalidationContext {
    preferredSizes[originalAttributes.indexPath] = preferredAttributes.size
    return super.invalidationContext(
      forPreferredLayoutAttributes: preferredAttributes, withOriginalAttributes: originalAttributes)
  }

  open override func invalidateLayout(with context: UICollectionViewLayoutInvalidationContext) {
    if context.invalidateDataSourceCounts { preferredSizes.removeAll() }
    super.invalidateLayout(with: context)
  }
}
