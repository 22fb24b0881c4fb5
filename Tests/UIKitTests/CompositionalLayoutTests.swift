import Testing
import UIKit

/// A waterfall as compositional layouts build it: one custom group holding every item of the
/// section, each placed in the shortest of two columns of the room the group is given.
@MainActor
func waterfallLayout(heights: [CGFloat]) -> UICollectionViewCompositionalLayout {
  UICollectionViewCompositionalLayout { section, environment in
    let size = NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(100))
    let group = NSCollectionLayoutGroup.custom(layoutSize: size) { environment in
      let width = environment.container.effectiveContentSize.width
      let spacing: CGFloat = 8
      let columnWidth = (width - spacing) / 2
      var tops: [CGFloat] = [0, 0]
      var items: [NSCollectionLayoutGroupCustomItem] = []
      for height in heights {
        let column = tops[0] <= tops[1] ? 0 : 1
        items.append(
          NSCollectionLayoutGroupCustomItem(
            frame: CGRect(x: CGFloat(column) * (columnWidth + spacing), y: tops[column], width: columnWidth, height: height)))
        tops[column] += height + spacing
      }
      return items
    }
    let layoutSection = NSCollectionLayoutSection(group: group)
    layoutSection.contentInsets = NSDirectionalEdgeInsets(top: 10, leading: 10, bottom: 10, trailing: 10)
    return layoutSection
  }
}

@Suite @MainActor struct CompositionalLayoutTests {
  @Test func aCustomGroupPlacesItsItemsInsideTheSectionInsets() {
    let grid = Grid(counts: [3])
    let view = gridView(grid, UICollectionViewFlowLayout())
    view.collectionViewLayout = waterfallLayout(heights: [100, 50, 80])
    view.layoutIfNeeded()
    // 320 wide, 300 inside the insets: two 146-point columns, 8 apart.
    #expect(frame(view, 0) == CGRect(x: 10, y: 10, width: 146, height: 100))
    #expect(frame(view, 1) == CGRect(x: 164, y: 10, width: 146, height: 50))
    #expect(frame(view, 2) == CGRect(x: 164, y: 68, width: 146, height: 80))
    #expect(view.contentSize == CGSize(width: 320, height: 158), "the estimated group grows to its items' 138")
    #expect(view.indexPathsForVisibleItems.count == 3)
  }

  @Test func aGroupRepeatsUntilTheSectionsItemsArePlaced() {
    let pair = NSCollectionLayoutGroup.custom(
      layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(50))
    ) { environment in
      let half = environment.container.effectiveContentSize.width / 2
      return [
        NSCollectionLayoutGroupCustomItem(frame: CGRect(x: 0, y: 0, width: half, height: 50)),
        NSCollectionLayoutGroupCustomItem(frame: CGRect(x: half, y: 0, width: half, height: 50)),
      ]
    }
    let section = NSCollectionLayoutSection(group: pair)
    section.interGroupSpacing = 5
    let view = gridView(Grid(counts: [5, 1]), UICollectionViewFlowLayout())
    view.collectionViewLayout = UICollectionViewCompositionalLayout(section: section)
    view.layoutIfNeeded()
    #expect(frame(view, 0) == CGRect(x: 0, y: 0, width: 160, height: 50))
    #expect(frame(view, 3) == CGRect(x: 160, y: 55, width: 160, height: 50))
    #expect(frame(view, 4) == CGRect(x: 0, y: 110, width: 160, height: 50))
    // The next section starts below the last group.
    #expect(frame(view, 0, 1) == CGRect(x: 0, y: 160, width: 160, height: 50))
    #expect(view.contentSize.height == 210)
  }

  @Test func theSafeAreaReferenceInsetsFromTheSafeArea() {
    let view = gridView(Grid(counts: [1]), UICollectionViewFlowLayout())
    view.safeAreaInsets = UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0)
    let one = NSCollectionLayoutGroup.custom(
      layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(10))
    ) { environment in
      [NSCollectionLayoutGroupCustomItem(frame: CGRect(x: 0, y: 0, width: environment.container.effectiveContentSize.width, height: 30))]
    }
    let section = NSCollectionLayoutSection(group: one)
    section.contentInsetsReference = .safeArea
    view.collectionViewLayout = UICollectionViewCompositionalLayout(section: section)
    view.layoutIfNeeded()
    #expect(frame(view, 0) == CGRect(x: 0, y: 47, width: 320, height: 30), "an estimated height grows to its items")
    #expect(view.contentSize.height == CGFloat(111))
  }
}
