// The compositional layout's custom groups: a section of groups, each group placing the items
// its provider returns, as waterfall layouts built with `NSCollectionLayoutGroup.custom` do.
// Nested estimated groups, orthogonal scrolling and supplementary items are not modelled.

/// A length in a compositional layout: fractional, absolute or estimated.
public struct NSCollectionLayoutDimension: Hashable, Sendable {
  enum Kind: Hashable, Sendable { case fractionalWidth, fractionalHeight, absolute, estimated }
  let kind: Kind
  /// The fraction, or the length in points.
  public let dimension: CGFloat

  /// A fraction of the container's width.
  public static func fractionalWidth(_ fraction: CGFloat) -> Self { Self(kind: .fractionalWidth, dimension: fraction) }
  /// A fraction of the container's height.
  public static func fractionalHeight(_ fraction: CGFloat) -> Self { Self(kind: .fractionalHeight, dimension: fraction) }
  /// A length in points.
  public static func absolute(_ points: CGFloat) -> Self { Self(kind: .absolute, dimension: points) }
  /// A length in points that the content may change.
  public static func estimated(_ points: CGFloat) -> Self { Self(kind: .estimated, dimension: points) }

  public var isFractionalWidth: Bool { kind == .fractionalWidth }
  public var isFractionalHeight: Bool { kind == .fractionalHeight }
  public var isAbsolute: Bool { kind == .absolute }
  public var isEstimated: Bool { kind == .estimated }

  /// The length in a container of a size.
  func resolved(in container: CGSize) -> CGFloat {
    switch kind {
    case .fractionalWidth: dimension * container.width
    case .fractionalHeight: dimension * container.height
    case .absolute, .estimated: dimension
    }
  }
}

/// A width and a height in a compositional layout.
public struct NSCollectionLayoutSize: Hashable, Sendable {
  public let widthDimension: NSCollectionLayoutDimension
  public let heightDimension: NSCollectionLayoutDimension

  public init(widthDimension: NSCollectionLayoutDimension, heightDimension: NSCollectionLayoutDimension) {
    self.widthDimension = widthDimension
    self.heightDimension = heightDimension
  }
}

/// The container a section lays out in: its size, and its size inside the section's insets.
@MainActor
public final class NSCollectionLayoutContainer {
  /// The collection view's size.
  public let contentSize: CGSize
  /// The size inside the section's content insets.
  public let effectiveContentSize: CGSize
  /// The section's insets.
  public let contentInsets: NSDirectionalEdgeInsets
  public let effectiveContentInsets: NSDirectionalEdgeInsets

  init(contentSize: CGSize, insets: NSDirectionalEdgeInsets) {
    self.contentSize = contentSize
    contentInsets = insets
    effectiveContentInsets = insets
    effectiveContentSize = CGSize(
      width: max(0, contentSize.width - insets.leading - insets.trailing),
      height: max(0, contentSize.height - insets.top - insets.bottom))
  }
}

/// What a section provider and a custom group's item provider see.
@MainActor
public final class NSCollectionLayoutEnvironment {
  /// The container the section lays out in.
  public let container: NSCollectionLayoutContainer
  /// The collection view's traits.
  public let traitCollection: UITraitCollection

  init(container: NSCollectionLayoutContainer, traitCollection: UITraitCollection) {
    self.container = container
    self.traitCollection = traitCollection
  }
}

/// One item of a custom group: its frame in the group, and its z-index.
@MainActor
public final class NSCollectionLayoutGroupCustomItem {
  public let frame: CGRect
  public let zIndex: Int

  public init(frame: CGRect) {
    self.frame = frame
    zIndex = 0
  }

  public init(frame: CGRect, zIndex: Int) {
    self.frame = frame
    self.zIndex = zIndex
  }
}

/// A group whose items a provider places, given the layout environment.
@MainActor
public final class NSCollectionLayoutGroup {
  public typealias ItemProvider = (NSCollectionLayoutEnvironment) -> [NSCollectionLayoutGroupCustomItem]
  /// The group's size.
  public let layoutSize: NSCollectionLayoutSize
  let itemProvider: ItemProvider

  private init(layoutSize: NSCollectionLayoutSize, itemProvider: @escaping ItemProvider) {
    self.layoutSize = layoutSize
    self.itemProvider = itemProvider
  }

  /// A group whose items' frames the provider gives, in the group's coordinates.
  public static func custom(
    layoutSize: NSCollectionLayoutSize, itemProvider: @escaping ItemProvider
  ) -> NSCollectionLayoutGroup {
    NSCollectionLayoutGroup(layoutSize: layoutSize, itemProvider: itemProvider)
  }
}

/// What a section's content insets are measured from.
public enum UIContentInsetsReference: Int, Sendable {
  case automatic, none, safeArea, layoutMargins, readableContent
}

/// A section: its group repeated until the section's items are placed.
@MainActor
public final class NSCollectionLayoutSection {
  public let group: NSCollectionLayoutGroup
  /// Room around the section's groups.
  public var contentInsets: NSDirectionalEdgeInsets = .zero
  /// What the insets are measured from: the collection view's edges (`.automatic`, `.none`),
  /// its safe area, or its layout margins.
  public var contentInsetsReference: UIContentInsetsReference = .automatic
  /// Room between consecutive groups.
  public var interGroupSpacing: CGFloat = 0

  public init(group: NSCollectionLayoutGroup) { self.group = group }
}

/// A compositional layout of custom groups.
///
/// Each section repeats its group down the content: every repetition asks the item provider
/// for its items, places as many of the section's remaining items as it returns, and takes the
/// group's height (an estimated height grows to hold its items). Sections follow each other.
open class UICollectionViewCompositionalLayout: UICollectionViewLayout {
  public typealias SectionProvider = (Int, NSCollectionLayoutEnvironment) -> NSCollectionLayoutSection?

  private let sectionProvider: SectionProvider
  private var items: [[UICollectionViewLayoutAttributes]] = []
  private var contentHeight: CGFloat = 0

  /// A layout whose every section is `section`.
  public init(section: NSCollectionLayoutSection) {
    sectionProvider = { _, _ in section }
    super.init()
  }

  /// A layout whose sections a provider makes, given the environment.
  public init(sectionProvider: @escaping SectionProvider) {
    self.sectionProvider = sectionProvider
    super.init()
  }

  public required init?(coder: NSCoder) { return nil }

  open override func prepare() {
    super.prepare()
    items = []
    contentHeight = 0
    guard let view = collectionView else { return }
    let size = view.bounds.size
    // The section provider sees the collection view's size inside its content insets; a
    // group's item provider sees the section's room inside the section's insets, as on iOS.
    let inset = view.contentInset
    let viewEnvironment = NSCollectionLayoutEnvironment(
      container: NSCollectionLayoutContainer(
        contentSize: size,
        insets: NSDirectionalEdgeInsets(top: inset.top, leading: inset.left, bottom: inset.bottom, trailing: inset.right)),
      traitCollection: view.traitCollection)
    var top: CGFloat = 0
    for sectionIndex in 0..<view.numberOfSections {
      guard let section = sectionProvider(sectionIndex, viewEnvironment) else {
        items.append([])
        continue
      }
      var insets = section.contentInsets
      let reference: UIEdgeInsets =
        switch section.contentInsetsReference {
        case .safeArea: view.safeAreaInsets
        case .layoutMargins, .readableContent: view.layoutMargins
        case .automatic, .none: .zero
        }
      insets.top += reference.top
      insets.bottom += reference.bottom
      insets.leading += reference.left
      insets.trailing += reference.right
      let container = NSCollectionLayoutContainer(contentSize: size, insets: insets)
      let environment = NSCollectionLayoutEnvironment(container: container, traitCollection: view.traitCollection)
      let count = view.numberOfItems(inSection: sectionIndex)
      var placed: [UICollectionViewLayoutAttributes] = []
      var y = top + insets.top
      var first = true
      while placed.count < count {
        let custom = section.group.itemProvider(environment)
        // A group that places nothing would repeat for ever: the rest of the section stays
        // unplaced, as UIKit leaves it.
        guard !custom.isEmpty else { break }
        if !first { y += section.interGroupSpacing }
        first = false
        let groupSize = section.group.layoutSize
        var height = groupSize.heightDimension.resolved(in: container.effectiveContentSize)
        let x = insets.leading
        for item in custom.prefix(count - placed.count) {
          let attributes = UICollectionViewLayoutAttributes(
            forCellWith: IndexPath(item: placed.count, section: sectionIndex))
          attributes.frame = item.frame.offsetBy(dx: x, dy: y)
          attributes.zIndex = item.zIndex
          placed.append(attributes)
          if groupSize.heightDimension.isEstimated { height = max(height, item.frame.maxY) }
        }
        y += height
      }
      items.append(placed)
      top = y + insets.bottom
    }
    contentHeight = top
  }

  open override var collectionViewContentSize: CGSize {
    CGSize(width: collectionView?.bounds.width ?? 0, height: contentHeight)
  }

  open override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
    items.flatMap { $0.filter { $0.frame.intersects(rect) } }
  }

  open override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
    guard items.indices.contains(indexPath.section), items[indexPath.section].indices.contains(indexPath.item)
    else { return nil }
    return items[indexPath.section][indexPath.item]
  }

  /// A new width invalidates the layout; a scroll does not.
  open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
    newBounds.size != collectionView?.bounds.size
  }
}
