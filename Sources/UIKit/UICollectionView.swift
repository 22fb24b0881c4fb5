/// A collection view, headless: a model of what UIKit's shows at its content offset, with its
/// reuse pools, driven by the app's own layout, data source and delegate.
///
/// Set `contentOffset` (or call ``scroll(toContentOffset:step:)``) and the view does what
/// UIKit does on a phone: it asks the layout whether the new bounds invalidate it, prepares the
/// layout again when they do, asks for the elements in its bounds, puts the cells that left in
/// their pools and dequeues cells for the ones that arrived.
///
/// ```swift
/// let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: 390, height: 844),
///                             collectionViewLayout: PinterestLayout())
/// view.register(PhotoCell.self, forCellWithReuseIdentifier: "photo")
/// view.dataSource = feed
/// view.layoutIfNeeded()
/// view.contentOffset.y = 600
/// view.layoutIfNeeded()
/// view.indexPathsForVisibleItems  // the items on screen at 600
/// ```
open class UICollectionView: UIScrollView {
  /// The layout; a new one is prepared before the next layout pass.
  open var collectionViewLayout: UICollectionViewLayout {
    didSet {
      if oldValue !== collectionViewLayout, oldValue.collectionView === self {
        oldValue.collectionView = nil
      }
      collectionViewLayout.collectionView = self
      collectionViewLayout.invalidateLayout()
    }
  }
  open weak var dataSource: (any UICollectionViewDataSource)? { didSet { reloadData() } }
  open weak var delegate: (any UICollectionViewDelegate)?
  open var allowsSelection = true
  open var allowsMultipleSelection = false

  /// The problems UIKit would have stopped the app for, in the order they happened.
  public private(set) var problems: [UICollectionViewProblem] = []
  /// Every rectangle ``UICollectionViewLayout/layoutAttributesForElements(in:)`` was asked for:
  /// the view's bounds (content offset and size) at each layout pass, nothing around them.
  public private(set) var queriedRects: [CGRect] = []
  /// How many cells and supplementary views were made, not taken from a pool.
  public private(set) var createdViewCount = 0
  /// Each made view's number, in the order they were made: what reuse marks and facts name.
  private var creationNumbers: [ObjectIdentifier: Int] = [:]

  private var registeredClasses: [ReuseKey: UICollectionReusableView.Type] = [:]
  private var pools: [ReuseKey: [UICollectionReusableView]] = [:]
  private var cells: [IndexPath: UICollectionViewCell] = [:]
  private var supplementaryViews: [ElementKey: UICollectionReusableView] = [:]
  private var selected: [IndexPath] = []
  /// The data source's counts, read once per reload.
  private var counts: [Int]?
  private var needsLayout = true
  /// The views dequeued during this pass: a cell the data source returns must be one of them.
  private var dequeuedThisPass: Set<ObjectIdentifier> = []

  /// A reuse pool's key: an identifier, and a supplementary view's kind (nil for cells).
  private struct ReuseKey: Hashable {
    var kind: String?
    var identifier: String
  }

  private struct ElementKey: Hashable {
    var kind: String
    var indexPath: IndexPath
  }

  /// A collection view of a size, laid out by a layout.
  public init(frame: CGRect, collectionViewLayout layout: UICollectionViewLayout) {
    collectionViewLayout = layout
    super.init(frame: frame)
    layout.collectionView = self
  }

  public required init?(coder: NSCoder) { return nil }

  /// A change of bounds (a scroll step, a new size) asks the layout whether it invalidates it.
  open override var bounds: CGRect {
    willSet {
      guard newValue != bounds else { return }
      let layout = collectionViewLayout
      if layout.shouldInvalidateLayout(forBoundsChange: newValue) {
        layout.invalidateLayout(with: layout.invalidationContext(forBoundsChange: newValue))
      }
    }
    didSet {
      guard bounds != oldValue else { return }
      needsLayout = true
      if bounds.origin != oldValue.origin { delegate?.scrollViewDidScroll(self) }
    }
  }

  // MARK: - Data

  /// The number of sections, as the data source gives it.
  open var numberOfSections: Int { loadedCounts().count }

  /// The number of items in a section, as the data source gives it.
  open func numberOfItems(inSection section: Int) -> Int {
    let counts = loadedCounts()
    return counts.indices.contains(section) ? counts[section] : 0
  }

  private func loadedCounts() -> [Int] {
    if let counts { return counts }
    guard let dataSource else { return [] }
    let sections = max(0, dataSource.numberOfSections(in: self))
    let loaded = (0..<sections).map { max(0, dataSource.collectionView(self, numberOfItemsInSection: $0)) }
    counts = loaded
    return loaded
  }

  /// Forgets the counts and every displayed view (they go to their pools), and invalidates the
  /// layout: the next pass asks the data source again.
  open func reloadData() {
    counts = nil
    for (_, cell) in cells { enqueue(cell, kind: nil) }
    cells.removeAll()
    for (key, view) in supplementaryViews { enqueue(view, kind: key.kind) }
    supplementaryViews.removeAll()
    selected.removeAll()
    let context = UICollectionViewLayout.makeContext(of: type(of: collectionViewLayout))
    context.invalidateEverything = true
    context.invalidateDataSourceCounts = true
    collectionViewLayout.invalidateLayout(with: context)
    needsLayout = true
  }

  // MARK: - Reuse

  /// Registers the class of a cell by identifier.
  open func register(_ cellClass: AnyClass?, forCellWithReuseIdentifier identifier: String) {
    registeredClasses[ReuseKey(kind: nil, identifier: identifier)] =
      cellClass as? UICollectionReusableView.Type
  }

  /// Registers the class of a supplementary view of a kind by identifier.
  open func register(
    _ viewClass: AnyClass?, forSupplementaryViewOfKind elementKind: String,
    withReuseIdentifier identifier: String
  ) {
    registeredClasses[ReuseKey(kind: elementKind, identifier: identifier)] =
      viewClass as? UICollectionReusableView.Type
  }

  /// A cell from the identifier's pool, or a new one when the pool is empty; a reused cell is
  /// sent `prepareForReuse()` first.
  open func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath)
    -> UICollectionViewCell
  {
    guard let cell = dequeue(ReuseKey(kind: nil, identifier: identifier), at: indexPath) as? UICollectionViewCell
    else {
      let cell = UICollectionViewCell(frame: .zero)
      cell.reuseIdentifier = identifier
      dequeuedThisPass.insert(ObjectIdentifier(cell))
      return cell
    }
    return cell
  }

  /// A supplementary view of a kind from its pool, or a new one.
  open func dequeueReusableSupplementaryView(
    ofKind elementKind: String, withReuseIdentifier identifier: String, for indexPath: IndexPath
  ) -> UICollectionReusableView {
    dequeue(ReuseKey(kind: elementKind, identifier: identifier), at: indexPath)
      ?? UICollectionReusableView(frame: .zero)
  }

  private func dequeue(_ key: ReuseKey, at indexPath: IndexPath) -> UICollectionReusableView? {
    let view: UICollectionReusableView
    if let reused = pools[key]?.popLast() {
      reused.prepareForReuse()
      view = reused
    } else if let type = registeredClasses[key] {
      view = type.init(registeredFrame: .zero)
      view.reuseIdentifier = key.identifier
      creationNumbers[ObjectIdentifier(view)] = createdViewCount
      createdViewCount += 1
    } else {
      note(.unregisteredIdentifier(key.identifier, kind: key.kind, indexPath: indexPath))
      return nil
    }
    dequeuedThisPass.insert(ObjectIdentifier(view))
    return view
  }

  private func enqueue(_ view: UICollectionReusableView, kind: String?) {
    view.removeFromSuperview()
    guard let identifier = view.reuseIdentifier else { return }
    if let cell = view as? UICollectionViewCell { cell.isSelected = false }
    pools[ReuseKey(kind: kind, identifier: identifier), default: []].append(view)
  }

  /// A view's number among the views this collection view made (0 for the first), or nil for
  /// one it did not make. A reused cell keeps its number: it is the same cell.
  public func creationNumber(of view: UICollectionReusableView) -> Int? {
    creationNumbers[ObjectIdentifier(view)]
  }

  /// How many views wait in a pool.
  public func pooledViewCount(withReuseIdentifier identifier: String, ofKind kind: String? = nil) -> Int {
    pools[ReuseKey(kind: kind, identifier: identifier)]?.count ?? 0
  }

  /// Notes a problem UIKit would have stopped the app for.
  func note(_ problem: UICollectionViewProblem) {
    if !problems.contains(problem) { problems.append(problem) }
  }

  // MARK: - Layout passes

  open override func setNeedsLayout() { needsLayout = true }

  /// Runs a layout pass if anything changed since the last.
  open override func layoutIfNeeded() {
    if needsLayout || collectionViewLayout.needsPreparation { layoutSubviews() }
  }

  /// One layout pass: prepare the layout if due, ask it for the elements in the bounds, and
  /// display them, reusing the cells that left.
  open override func layoutSubviews() {
    // Self-sizing cells may invalidate the layout; it is laid out again, a bounded number of
    // times, as UIKit lays out again within the same pass.
    for _ in 0..<8 {
      needsLayout = false
      placeElements()
      if !collectionViewLayout.needsPreparation { break }
    }
    needsLayout = false
  }

  private func placeElements() {
    let layout = collectionViewLayout
    layout.collectionView = self
    let counts = loadedCounts()
    layout.prepareIfNeeded()
    contentSize = layout.collectionViewContentSize
    let rect = bounds
    queriedRects.append(rect)
    dequeuedThisPass.removeAll()

    var cellAttributes: [UICollectionViewLayoutAttributes] = []
    var viewAttributes: [UICollectionViewLayoutAttributes] = []
    for attributes in layout.layoutAttributesForElements(in: rect) ?? [] {
      let path = attributes.indexPath
      let kind = attributes.representedElementKind
      let frame = attributes.frame
      // The size as given: CGRect's width and height are of the standardized rectangle, never
      // negative.
      let size = frame.size
      guard frame.origin.x.isFinite, frame.origin.y.isFinite, size.width.isFinite, size.height.isFinite,
        size.width >= 0, size.height >= 0
      else {
        note(.badFrame(frame, kind: kind, indexPath: path))
        continue
      }
      guard !attributes.isHidden, frame.intersects(rect) else { continue }
      switch attributes.representedElementCategory {
      case .cell:
        guard path.count == 2, counts.indices.contains(path.section), (0..<counts[path.section]).contains(path.item)
        else {
          let items = path.count == 2 && counts.indices.contains(path.section) ? counts[path.section] : nil
          note(.noSuchItem(path, sections: counts.count, items: items))
          continue
        }
        cellAttributes.append(attributes)
      case .supplementaryView: viewAttributes.append(attributes)
      case .decorationView: continue
      }
    }

    // Leaving first, then arriving: a cell that scrolls off is in its pool before the one that
    // scrolls on is dequeued, as on a phone.
    let arriving = Set(cellAttributes.map(\.indexPath))
    for (path, cell) in cells.sorted(by: { $0.key < $1.key }) where !arriving.contains(path) {
      cells[path] = nil
      enqueue(cell, kind: nil)
      delegate?.collectionView(self, didEndDisplaying: cell, forItemAt: path)
    }
    let shownViews = Set(viewAttributes.map { ElementKey(kind: $0.representedElementKind ?? "", indexPath: $0.indexPath) })
    for (key, view) in supplementaryViews.sorted(by: { $0.key.indexPath < $1.key.indexPath })
    where !shownViews.contains(key) {
      supplementaryViews[key] = nil
      enqueue(view, kind: key.kind)
    }

    for attributes in cellAttributes.sorted(by: { $0.indexPath < $1.indexPath }) {
      let path = attributes.indexPath
      let cell: UICollectionViewCell
      if let shown = cells[path] {
        cell = shown
      } else {
        guard let dataSource else { continue }
        cell = dataSource.collectionView(self, cellForItemAt: path)
        if !dequeuedThisPass.contains(ObjectIdentifier(cell)) { note(.cellNotDequeued(indexPath: path)) }
        cells[path] = cell
        addSubview(cell)
        cell.isSelected = selected.contains(path)
        delegate?.collectionView(self, willDisplay: cell, forItemAt: path)
      }
      show(cell, attributes)
      if offerPreferredAttributes(of: cell, for: attributes) { return }
    }
    for attributes in viewAttributes.sorted(by: { $0.indexPath < $1.indexPath }) {
      let kind = attributes.representedElementKind ?? ""
      let key = ElementKey(kind: kind, indexPath: attributes.indexPath)
      let view: UICollectionReusableView
      if let shown = supplementaryViews[key] {
        view = shown
      } else {
        guard let dataSource else { continue }
        view = dataSource.collectionView(self, viewForSupplementaryElementOfKind: kind, at: attributes.indexPath)
        supplementaryViews[key] = view
        addSubview(view)
      }
      show(view, attributes)
    }
  }

  private func show(_ view: UICollectionReusableView, _ attributes: UICollectionViewLayoutAttributes) {
    view.frame = attributes.frame
    view.alpha = attributes.alpha
    view.isHidden = attributes.isHidden
    view.appliedAttributes = attributes
    view.apply(attributes)
  }

  /// Asks a cell for its preferred attributes and the layout whether they invalidate it: true
  /// when they do, and the pass starts again.
  private func offerPreferredAttributes(
    of cell: UICollectionViewCell, for attributes: UICollectionViewLayoutAttributes
  ) -> Bool {
    let original = attributes.copy() as! UICollectionViewLayoutAttributes
    let preferred = cell.preferredLayoutAttributesFitting(attributes.copy() as! UICollectionViewLayoutAttributes)
    guard preferred.frame != original.frame else { return false }
    let layout = collectionViewLayout
    guard layout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original)
    else { return false }
    layout.invalidateLayout(
      with: layout.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original))
    return true
  }

  // MARK: - Scrolling

  /// Scrolls to an offset in steps of at most `step` points, a layout pass at each, so that
  /// cells are reused on the way as on a phone; a `step` of 0 jumps.
  open func scroll(toContentOffset target: CGPoint, step: CGFloat = 0) {
    layoutIfNeeded()
    if step > 0 {
      while contentOffset != target {
        let dx = target.x - contentOffset.x
        let dy = target.y - contentOffset.y
        let distance = (dx * dx + dy * dy).squareRoot()
        let fraction = min(1, step / distance)
        contentOffset = distance <= step
          ? target : CGPoint(x: contentOffset.x + dx * fraction, y: contentOffset.y + dy * fraction)
        layoutIfNeeded()
      }
    } else {
      contentOffset = target
      layoutIfNeeded()
    }
  }

  // MARK: - Queries

  /// The index paths of the cells displayed, in order.
  open var indexPathsForVisibleItems: [IndexPath] { cells.keys.sorted() }

  /// The cells displayed, in the order of their index paths.
  open var visibleCells: [UICollectionViewCell] { cells.sorted { $0.key < $1.key }.map(\.value) }

  /// The supplementary views displayed, with their kind and index path, in order.
  public var visibleSupplementaryViews: [(kind: String, indexPath: IndexPath, view: UICollectionReusableView)] {
    supplementaryViews.sorted { ($0.key.indexPath, $0.key.kind) < ($1.key.indexPath, $1.key.kind) }
      .map { ($0.key.kind, $0.key.indexPath, $0.value) }
  }

  /// The displayed cell at an index path, or nil.
  open func cellForItem(at indexPath: IndexPath) -> UICollectionViewCell? { cells[indexPath] }

  /// The index path of the displayed cell at a point of the content, or nil; the frontmost
  /// (highest `zIndex`, then last) when cells overlap.
  open func indexPathForItem(at point: CGPoint) -> IndexPath? {
    layoutIfNeeded()
    return cells.compactMap { path, cell -> (IndexPath, Int)? in
      cell.frame.contains(point) ? (path, cell.appliedAttributes?.zIndex ?? 0) : nil
    }.max { ($0.1, $0.0) < ($1.1, $1.0) }?.0
  }

  /// The layout's attributes for the item at an index path.
  open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
    collectionViewLayout.collectionView = self
    _ = loadedCounts()
    collectionViewLayout.prepareIfNeeded()
    return collectionViewLayout.layoutAttributesForItem(at: indexPath)
  }

  // MARK: - Selection

  /// The selected items, in the order they were selected.
  open var indexPathsForSelectedItems: [IndexPath]? { selected }

  /// Selects an item without telling the delegate, as UIKit's method does.
  open func selectItem(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
    guard let indexPath, allowsSelection else { return }
    if !allowsMultipleSelection {
      for path in selected where path != indexPath { cells[path]?.isSelected = false }
      selected.removeAll { $0 != indexPath }
    }
    if !selected.contains(indexPath) { selected.append(indexPath) }
    cells[indexPath]?.isSelected = true
  }

  /// Deselects an item without telling the delegate.
  open func deselectItem(at indexPath: IndexPath, animated: Bool) {
    selected.removeAll { $0 == indexPath }
    cells[indexPath]?.isSelected = false
  }

  /// A tap at a point of the content (the view's bounds coordinates), as a finger would make
  /// it: the item there is selected, and the delegate hears `didSelectItemAt` (and
  /// `didDeselectItemAt` for the item it replaces). Returns the item, or nil.
  @discardableResult
  public func tap(at point: CGPoint) -> IndexPath? {
    guard allowsSelection, let path = indexPathForItem(at: point) else { return nil }
    guard delegate?.collectionView(self, shouldSelectItemAt: path) ?? true else { return nil }
    if allowsMultipleSelection, selected.contains(path) {
      deselectItem(at: path, animated: false)
      delegate?.collectionView(self, didDeselectItemAt: path)
      return path
    }
    let replaced = allowsMultipleSelection ? [] : selected.filter { $0 != path }
    selectItem(at: path, animated: false, scrollPosition: [])
    for old in replaced { delegate?.collectionView(self, didDeselectItemAt: old) }
    delegate?.collectionView(self, didSelectItemAt: path)
    return path
  }

  /// Where a scroll to an item stops.
  public struct ScrollPosition: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let top = ScrollPosition(rawValue: 1 << 0)
    public static let centeredVertically = ScrollPosition(rawValue: 1 << 1)
    public static let bottom = ScrollPosition(rawValue: 1 << 2)
    public static let left = ScrollPosition(rawValue: 1 << 3)
    public static let centeredHorizontally = ScrollPosition(rawValue: 1 << 4)
    public static let right = ScrollPosition(rawValue: 1 << 5)
  }
}
