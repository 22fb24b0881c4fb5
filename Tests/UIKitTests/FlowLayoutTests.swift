import Testing
import UIKit

/// A grid of items, sized by the flow layout's delegate where a test says.
final class Grid: NSObject, UICollectionViewDataSource, UICollectionViewDelegateFlowLayout {
  var counts: [Int]
  var sizes: [IndexPath: CGSize] = [:]
  var headerHeight: CGFloat = 0

  init(counts: [Int]) { self.counts = counts }

  func numberOfSections(in collectionView: UICollectionView) -> Int { counts.count }

  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
    counts[section]
  }

  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
    collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
  }

  func collectionView(
    _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath
  ) -> UICollectionReusableView {
    collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "header", for: indexPath)
  }

  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    sizeForItemAt indexPath: IndexPath
  ) -> CGSize {
    sizes[indexPath] ?? (collectionViewLayout as! UICollectionViewFlowLayout).itemSize
  }

  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    referenceSizeForHeaderInSection section: Int
  ) -> CGSize { CGSize(width: 0, height: headerHeight) }
}

@MainActor
func gridView(_ grid: Grid, _ layout: UICollectionViewFlowLayout, width: CGFloat = 320) -> UICollectionView {
  let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: width, height: 600), collectionViewLayout: layout)
  view.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "cell")
  view.register(
    UICollectionReusableView.self, forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
    withReuseIdentifier: "header")
  view.dataSource = grid
  view.delegate = grid
  view.layoutIfNeeded()
  return view
}

@MainActor
func frame(_ view: UICollectionView, _ item: Int, _ section: Int = 0) -> CGRect? {
  view.layoutAttributesForItem(at: IndexPath(item: item, section: section))?.frame
}

@Suite @MainActor struct FlowLayoutTests {
  /// 320 wide, insets of 10: 300 points of room. Three 100-point items need 320 with the
  /// 10-point spacing, so lines hold two, spread to the edges; the last line keeps the spacing.
  @Test func fullLinesSpreadAndTheLastLineIsLeftAligned() {
    let layout = UICollectionViewFlowLayout()
    layout.itemSize = CGSize(width: 100, height: 50)
    layout.sectionInset = UIEdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
    let view = gridView(Grid(counts: [5]), layout)
    #expect(frame(view, 0) == CGRect(x: 10, y: 10, width: 100, height: 50))
    #expect(frame(view, 1) == CGRect(x: 210, y: 10, width: 100, height: 50))
    #expect(frame(view, 2) == CGRect(x: 10, y: 70, width: 100, height: 50))
    #expect(frame(view, 3) == CGRect(x: 210, y: 70, width: 100, height: 50))
    #expect(frame(view, 4) == CGRect(x: 10, y: 130, width: 100, height: 50))
    #expect(view.contentSize == CGSize(width: 320, height: 190))
  }

  @Test func theLastLineKeepsTheMinimumSpacing() {
    let layout = UICollectionViewFlowLayout()
    layout.itemSize = CGSize(width: 60, height: 40)
    // 300 of room: four 60-point items need 270 with 10-point spacing, five need 340.
    let view = gridView(Grid(counts: [7]), layout, width: 300)
    let xs = (0..<7).map { frame(view, $0)!.minX }
    #expect(xs == [0, 80, 160, 240, 0, 70, 140])
  }

  @Test func itemsAreCentredInTheirLineAndSizedByTheDelegate() {
    let grid = Grid(counts: [3])
    grid.sizes[IndexPath(item: 1, section: 0)] = CGSize(width: 100, height: 90)
    let layout = UICollectionViewFlowLayout()
    layout.itemSize = CGSize(width: 100, height: 50)
    layout.minimumLineSpacing = 20
    let view = gridView(grid, layout, width: 300)
    // Two 10-point gaps fit three 100-point items exactly in 320; here 300: spacing 0 is not
    // the minimum, so two items a line.
    #expect(frame(view, 0) == CGRect(x: 0, y: 20, width: 100, height: 50))
    #expect(frame(view, 1) == CGRect(x: 200, y: 0, width: 100, height: 90))
    #expect(frame(view, 2) == CGRect(x: 0, y: 110, width: 100, height: 50))
  }

  @Test func headersSpanTheSectionAndSectionsFollowEachOther() {
    let grid = Grid(counts: [2, 1])
    grid.headerHeight = 30
    let layout = UICollectionViewFlowLayout()
    layout.itemSize = CGSize(width: 100, height: 50)
    let view = gridView(grid, layout)
    let header = layout.layoutAttributesForSupplementaryView(
      ofKind: UICollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: 1))
    #expect(header?.frame == CGRect(x: 0, y: 80, width: 320, height: 30))
    #expect(frame(view, 0, 1) == CGRect(x: 0, y: 110, width: 100, height: 50))
    #expect(view.visibleSupplementaryViews.map(\.indexPath) == [IndexPath(item: 0, section: 0), IndexPath(item: 0, section: 1)])
  }

  @Test func horizontalFlowFillsColumnsDownThenAcross() {
    let layout = UICollectionViewFlowLayout()
    layout.scrollDirection = .horizontal
    layout.itemSize = CGSize(width: 80, height: 250)
    let view = gridView(Grid(counts: [3]), layout)
    // 600 high: two 250-point items a column, spread to the edges.
    #expect(frame(view, 0) == CGRect(x: 0, y: 0, width: 80, height: 250))
    #expect(frame(view, 1) == CGRect(x: 0, y: 350, width: 80, height: 250))
    #expect(frame(view, 2) == CGRect(x: 90, y: 0, width: 80, height: 250))
  }

  @Test func aNewWidthInvalidatesTheLayoutAndAScrollDoesNot() {
    final class Counting: UICollectionViewFlowLayout {
      var preparations = 0
      override func prepare() {
        preparations += 1
        super.prepare()
      }
    }
    let layout = Counting()
    layout.itemSize = CGSize(width: 100, height: 50)
    let view = gridView(Grid(counts: [40]), layout)
    view.contentOffset = CGPoint(x: 0, y: 100)
    view.layoutIfNeeded()
    #expect(layout.preparations == 1)
    view.frame = CGRect(x: 0, y: 0, width: 220, height: 600)
    view.layoutIfNeeded()
    #expect(layout.preparations == 2)
    #expect(frame(view, 1) == CGRect(x: 120, y: 0, width: 100, height: 50))
  }
}

/// A cell that sizes itself: 20 points a line of its text.
final class NoteCell: UICollectionViewCell {
  var lines = 1

  override func preferredLayoutAttributesFitting(
    _ layoutAttributes: UICollectionViewLayoutAttributes
  ) -> UICollectionViewLayoutAttributes {
    let attributes = super.preferredLayoutAttributesFitting(layoutAttributes)
    attributes.size = CGSize(width: layoutAttributes.size.width, height: CGFloat(20 * lines))
    return attributes
  }
}

final class Notes: NSObject, UICollectionViewDataSource {
  let lines: [Int]
  init(lines: [Int]) { self.lines = lines }
  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { lines.count }
  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
    let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "note", for: indexPath) as! NoteCell
    cell.lines = lines[indexPath.item]
    return cell
  }
}

/// Records the self-sizing hooks as the collection view calls them.
final class RecordingFlowLayout: UICollectionViewFlowLayout {
  var asked: [(IndexPath, CGSize)] = []
  override func shouldInvalidateLayout(
    forPreferredLayoutAttributes preferredAttributes: UICollectionViewLayoutAttributes,
    withOriginalAttributes originalAttributes: UICollectionViewLayoutAttributes
  ) -> Bool {
    asked.append((preferredAttributes.indexPath, preferredAttributes.size))
    return super.shouldInvalidateLayout(
      forPreferredLayoutAttributes: preferredAttributes, withOriginalAttributes: originalAttributes)
  }
}

@Suite @MainActor struct SelfSizingTests {
  @Test func cellsTheirOwnSizeThroughThePreferredAttributesHooks() {
    let layout = RecordingFlowLayout()
    layout.estimatedItemSize = CGSize(width: 300, height: 44)
    layout.minimumLineSpacing = 0
    let notes = Notes(lines: [1, 3, 2])
    let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 600), collectionViewLayout: layout)
    view.register(NoteCell.self, forCellWithReuseIdentifier: "note")
    view.dataSource = notes
    view.layoutIfNeeded()
    #expect(layout.asked.map(\.1).contains(CGSize(width: 300, height: 60)))
    #expect(frame(view, 0) == CGRect(x: 0, y: 0, width: 300, height: 20))
    #expect(frame(view, 1) == CGRect(x: 0, y: 20, width: 300, height: 60))
    #expect(frame(view, 2) == CGRect(x: 0, y: 80, width: 300, height: 40))
    #expect(view.contentSize.height == 120)
    #expect(view.visibleCells.map(\.frame.height) == [20, 60, 40])
  }
}

/// Two sections of photos: the first in two columns (the layout's own count), the second in
/// three (its delegate's), each under a 40-point header.
final class Album: NSObject, UICollectionViewDataSource, WaterfallLayoutDelegate {
  let sizes: [[CGSize]] = [
    [CGSize(width: 100, height: 100), CGSize(width: 100, height: 50), CGSize(width: 100, height: 80)],
    [CGSize(width: 10, height: 10), CGSize(width: 10, height: 20), CGSize(width: 10, height: 10), CGSize(width: 10, height: 10)],
  ]
  func numberOfSections(in collectionView: UICollectionView) -> Int { sizes.count }
  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
    sizes[section].count
  }
  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
    collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
  }
  func collectionView(
    _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath
  ) -> UICollectionReusableView {
    collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "header", for: indexPath)
  }
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    sizeForItemAt indexPath: IndexPath
  ) -> CGSize { sizes[indexPath.section][indexPath.item] }
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    columnCountFor section: Int
  ) -> Int? { section == 1 ? 3 : nil }
}

@Suite @MainActor struct WaterfallLayoutTests {
  @Test func sectionsTakeTheirDelegatesColumnCountUnderTheirHeaders() {
    let album = Album()
    let layout = WaterfallLayout()
    layout.headerHeight = 40
    let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: 310, height: 600), collectionViewLayout: layout)
    view.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "cell")
    view.register(
      UICollectionReusableView.self, forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
      withReuseIdentifier: "header")
    view.dataSource = album
    view.delegate = album
    view.layoutIfNeeded()
    // Section 0: two 150-point columns. 150×150 at (0, 40); 150×75 at (160, 40); the shortest
    // column is then column 1 (ends at 125): 150×120 at (160, 125).
    #expect(frame(view, 0) == CGRect(x: 0, y: 40, width: 150, height: 150))
    #expect(frame(view, 1) == CGRect(x: 160, y: 40, width: 150, height: 75))
    #expect(frame(view, 2) == CGRect(x: 160, y: 125, width: 150, height: 120))
    // Section 1 starts below the taller column (245) and its header: three 96-point columns.
    #expect(frame(view, 0, 1) == CGRect(x: 0, y: 285, width: 96, height: 96))
    #expect(frame(view, 1, 1) == CGRect(x: 106, y: 285, width: 96, height: 192))
    #expect(frame(view, 2, 1) == CGRect(x: 212, y: 285, width: 96, height: 96))
    #expect(frame(view, 3, 1) == CGRect(x: 0, y: 391, width: 96, height: 96))
    #expect(view.visibleSupplementaryViews.map(\.indexPath.section) == [0, 1])
    #expect(view.indexPathsForVisibleItems.count == 7)
    #expect(view.problems.isEmpty)
  }
}
