/// A collection view's layout, driven as UIKit drives it: ``prepare()`` before the first query
/// and after every invalidation, then the queries for the elements in a rectangle, asked again
/// at every scroll step that the layout says invalidates it.
///
/// Subclass it as on iOS; the collection view calls, in order, at each layout pass:
/// 1. ``prepare()``, when the layout is new, reloaded or invalidated since the last pass;
/// 2. ``collectionViewContentSize``;
/// 3. ``layoutAttributesForElements(in:)`` with the collection view's bounds: its content offset
///    and its size, with no margin around it;
/// 4. for a cell whose preferred size differs (self-sizing),
///    ``shouldInvalidateLayout(forPreferredLayoutAttributes:withOriginalAttributes:)`` and, when
///    it says yes, ``invalidationContext(forPreferredLayoutAttributes:withOriginalAttributes:)``.
///
/// Each scroll step asks ``shouldInvalidateLayout(forBoundsChange:)`` with the new bounds first.
@MainActor
open class UICollectionViewLayout: NSObject {
  /// The collection view the layout lays out.
  open internal(set) weak var collectionView: UICollectionView?
  /// Whether ``prepare()`` is due before the next query.
  var needsPreparation = true
  /// The invalidations since the last ``prepare()``, for tests and messages.
  var pendingInvalidations: [UICollectionViewLayoutInvalidationContext] = []

  public override init() { super.init() }
  /// Layouts are not archived here: this returns nil.
  public required init?(coder: NSCoder) { return nil }

  /// Works out the layout; called before the first query and after each invalidation.
  open func prepare() {}

  /// The size of all the content.
  open var collectionViewContentSize: CGSize { .zero }

  /// The attributes of every element that intersects a rectangle of the content.
  open func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? { nil }

  /// The attributes of the cell at an index path.
  open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? { nil }

  /// The attributes of a supplementary view of a kind at an index path.
  open func layoutAttributesForSupplementaryView(
    ofKind elementKind: String, at indexPath: IndexPath
  ) -> UICollectionViewLayoutAttributes? { nil }

  /// The attributes of a decoration view of a kind at an index path.
  open func layoutAttributesForDecorationView(
    ofKind elementKind: String, at indexPath: IndexPath
  ) -> UICollectionViewLayoutAttributes? { nil }

  /// Whether a change of the collection view's bounds (a scroll step, a new size) makes the
  /// layout invalid. False: most layouts depend on the width only, which a scroll keeps.
  open func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { false }

  /// The invalidation a bounds change makes, when the layout said it makes one.
  open func invalidationContext(forBoundsChange newBounds: CGRect) -> UICollectionViewLayoutInvalidationContext {
    let context = Self.makeContext(of: Self.self)
    if let bounds = collectionView?.bounds {
      context.contentSizeAdjustment = CGSize(
        width: newBounds.width - bounds.width, height: newBounds.height - bounds.height)
    }
    return context
  }

  /// Whether a cell's preferred attributes (its self-sized size) make the layout invalid.
  open func shouldInvalidateLayout(
    forPreferredLayoutAttributes preferredAttributes: UICollectionViewLayoutAttributes,
    withOriginalAttributes originalAttributes: UICollectionViewLayoutAttributes
  ) -> Bool { false }

  /// The invalidation a cell's preferred attributes make.
  open func invalidationContext(
    forPreferredLayoutAttributes preferredAttributes: UICollectionViewLayoutAttributes,
    withOriginalAttributes originalAttributes: UICollectionViewLayoutAttributes
  ) -> UICollectionViewLayoutInvalidationContext {
    let context = Self.makeContext(of: Self.self)
    context.invalidateItems(at: [originalAttributes.indexPath])
    context.contentSizeAdjustment = CGSize(
      width: preferredAttributes.size.width - originalAttributes.size.width,
      height: preferredAttributes.size.height - originalAttributes.size.height)
    return context
  }

  /// The class of the contexts the layout's invalidations make.
  open class var invalidationContextClass: AnyClass { UICollectionViewLayoutInvalidationContext.self }

  /// The class of the attributes the layout makes.
  open class var layoutAttributesClass: AnyClass { UICollectionViewLayoutAttributes.self }

  /// Makes the whole layout invalid: ``prepare()`` runs again before the next query.
  open func invalidateLayout() {
    let context = Self.makeContext(of: Self.self)
    context.invalidateEverything = true
    invalidateLayout(with: context)
  }

  /// Makes the layout invalid as a context says: ``prepare()`` runs again before the next
  /// query. A subclass that overrides this must call it.
  open func invalidateLayout(with context: UICollectionViewLayoutInvalidationContext) {
    pendingInvalidations.append(context)
    needsPreparation = true
    collectionView?.setNeedsLayout()
  }

  /// Where a scroll should stop, given where it would; the proposed offset unless a subclass
  /// says.
  open func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint) -> CGPoint {
    proposedContentOffset
  }

  /// Whether the layout flips in right-to-left interfaces; false, as UIKit's default.
  open var flipsHorizontallyInOppositeLayoutDirection: Bool { false }

  /// A context of the layout's ``invalidationContextClass``.
  static func makeContext(of layout: UICollectionViewLayout.Type) -> UICollectionViewLayoutInvalidationContext {
    let type = layout.invalidationContextClass as? UICollectionViewLayoutInvalidationContext.Type
    return (type ?? UICollectionViewLayoutInvalidationContext.self).init()
  }

  /// Runs ``prepare()`` if it is due; the collection view calls this before every query.
  func prepareIfNeeded() {
    guard needsPreparation else { return }
    needsPreparation = false
    prepare()
    pendingInvalidations.removeAll()
  }
}
