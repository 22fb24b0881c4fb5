extension UICollectionView {
  /// What an element of a collection view is.
  public enum ElementCategory: UInt, Sendable {
    case cell, supplementaryView, decorationView
  }

  /// The kind of a section's header view.
  nonisolated public static let elementKindSectionHeader = "UICollectionElementKindSectionHeader"
  /// The kind of a section's footer view.
  nonisolated public static let elementKindSectionFooter = "UICollectionElementKindSectionFooter"
}

/// The kind of a section's header view, by its Objective-C name.
public let UICollectionElementKindSectionHeader = UICollectionView.elementKindSectionHeader
/// The kind of a section's footer view, by its Objective-C name.
public let UICollectionElementKindSectionFooter = UICollectionView.elementKindSectionFooter

/// Where a layout places one element: its frame, and how it shows.
@MainActor
open class UICollectionViewLayoutAttributes: NSObject, NSCopying {
  /// The frame in the collection view's content.
  open var frame: CGRect = .zero
  /// The frame's size.
  open var size: CGSize {
    get { frame.size }
    set { frame.size = newValue }
  }
  /// The frame's centre.
  open var center: CGPoint {
    get { CGPoint(x: frame.midX, y: frame.midY) }
    set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
  }
  /// The bounds: the frame's size at the origin.
  open var bounds: CGRect {
    get { CGRect(origin: .zero, size: frame.size) }
    set { size = newValue.size }
  }
  open var alpha: CGFloat = 1
  open var zIndex = 0
  open var isHidden = false
  /// The element's index path.
  open var indexPath = IndexPath(indexes: [0, 0])
  /// Cell, supplementary view or decoration view.
  open private(set) var representedElementCategory: UICollectionView.ElementCategory = .cell
  /// A supplementary or decoration view's kind; nil for a cell.
  open private(set) var representedElementKind: String?

  public override init() { super.init() }

  /// The attributes of the cell at an index path.
  public convenience init(forCellWith indexPath: IndexPath) {
    self.init()
    self.indexPath = indexPath
  }

  /// The attributes of a supplementary view of a kind at an index path.
  public convenience init(forSupplementaryViewOfKind elementKind: String, with indexPath: IndexPath) {
    self.init()
    self.indexPath = indexPath
    representedElementCategory = .supplementaryView
    representedElementKind = elementKind
  }

  /// The attributes of a decoration view of a kind at an index path.
  public convenience init(forDecorationViewOfKind decorationViewKind: String, with indexPath: IndexPath) {
    self.init()
    self.indexPath = indexPath
    representedElementCategory = .decorationView
    representedElementKind = decorationViewKind
  }

  /// A copy of another's attributes, made as the copy's own class: what ``copy(with:)`` calls.
  /// Required, and a convenience initializer, so that every subclass inherits it.
  public required convenience init(copying other: UICollectionViewLayoutAttributes) {
    self.init()
    frame = other.frame
    alpha = other.alpha
    zIndex = other.zIndex
    isHidden = other.isHidden
    indexPath = other.indexPath
    representedElementCategory = other.representedElementCategory
    representedElementKind = other.representedElementKind
  }

  /// A copy of the same class; a subclass with fields of its own overrides this, calls it and
  /// copies them, as on iOS.
  // NSObject's and NSCopying's members are nonisolated, as on iOS; like UIKit's, these may only
  // be called on the main actor, and trap elsewhere.
  nonisolated open func copy(with zone: NSZone? = nil) -> Any {
    MainActor.assumeIsolated { type(of: self).init(copying: self) }
  }

  nonisolated open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UICollectionViewLayoutAttributes else { return false }
    return MainActor.assumeIsolated {
      frame == other.frame && alpha == other.alpha && zIndex == other.zIndex
        && isHidden == other.isHidden && indexPath == other.indexPath
        && representedElementCategory == other.representedElementCategory
        && representedElementKind == other.representedElementKind
    }
  }

  nonisolated open override var hash: Int { MainActor.assumeIsolated { indexPath.hashValue } }

  nonisolated open override var description: String {
    MainActor.assumeIsolated {
      let kind = representedElementKind.map { " \($0)" } ?? ""
      return "<\(type(of: self))\(kind) \(indexPath): \(frame)>"
    }
  }
}

/// What an invalidation covers: everything, the data source's counts, or an adjustment.
@MainActor
open class UICollectionViewLayoutInvalidationContext: NSObject {
  /// Whether everything is invalid: `invalidateLayout()` and `reloadData()`.
  open internal(set) var invalidateEverything = false
  /// Whether the number of sections or items may have changed.
  open internal(set) var invalidateDataSourceCounts = false
  /// How much the content size changes.
  open var contentSizeAdjustment: CGSize = .zero
  /// How much the content offset moves.
  open var contentOffsetAdjustment: CGPoint = .zero
  /// The items made invalid, if the context names them.
  open private(set) var invalidatedItemIndexPaths: [IndexPath]?

  /// Required: a layout's ``UICollectionViewLayout/invalidationContextClass`` is made by it.
  public override required init() { super.init() }

  /// Marks items as invalid.
  open func invalidateItems(at indexPaths: [IndexPath]) {
    invalidatedItemIndexPaths = (invalidatedItemIndexPaths ?? []) + indexPaths
  }
}

/// A flow layout's invalidation: whether its delegate's metrics or its own attributes changed.
open class UICollectionViewFlowLayoutInvalidationContext: UICollectionViewLayoutInvalidationContext {
  open var invalidateFlowLayoutDelegateMetrics = true
  open var invalidateFlowLayoutAttributes = true
}
