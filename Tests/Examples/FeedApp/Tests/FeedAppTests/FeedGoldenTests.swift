import FeedApp
import Testing
import UIKit

// The layout's frames, as the app computes them: checked on every platform.
@Suite @MainActor struct FeedLayoutTests {
  @Test func itemsGoToTheShortestColumn() {
    let feed = FeedDataSource.sample(count: 5)
    let view = makeFeedView(frame: CGRect(x: 0, y: 0, width: 390, height: 844), dataSource: feed)
    view.layoutIfNeeded()
    // 390 wide, 8-point insets and spacing: two 183-point columns. Covers 540×720, 540×540,
    // 405×540, 540×675 at 183 wide are 244, 183, 244 and 229 high, plus 44 of caption.
    let frames = (0..<5).map { view.layoutAttributesForItem(at: IndexPath(item: $0, section: 0))!.frame }
    #expect(frames[0] == CGRect(x: 8, y: 8, width: 183, height: 288))
    #expect(frames[1] == CGRect(x: 199, y: 8, width: 183, height: 227))
    #expect(frames[2] == CGRect(x: 199, y: 243, width: 183, height: 288))
    #expect(frames[3] == CGRect(x: 8, y: 304, width: 183, height: 273))
    #expect(view.indexPathsForVisibleItems.count == 5)
  }
}

#if canImport(WaterflowCollectionView)
  import WaterflowCollectionView

  /// The note card, drawn by Waterflow where the cells' own drawing code does not run.
  let noteCard = CellTemplate(background: Color(red: 0.93, green: 0.91, blue: 0.88), cornerRadius: 8) {
    CellStack(.vertical, spacing: 2, padding: EdgeInsets(top: 8, left: 8, bottom: 6, right: 8)) {
      CellSpacer()
      CellText("{title}", size: 13, weight: .semibold, lines: 1)
      CellText("{author} ♥ {likes|compact}", size: 11, color: CellText.secondaryColor, lines: 1)
    }
  }

  @Suite @MainActor struct FeedGoldenTests {
    func data(_ feed: FeedDataSource) -> (IndexPath) -> ItemData? {
      { path in
        let note = feed.notes[path.item]
        return ItemData(values: ["id": .string(note.id), "title": .string(note.title), "author": .string(note.author), "likes": .number("\(note.likes)")])
      }
    }

    @Test func theTopOfTheFeed() throws {
      let feed = FeedDataSource.sample(count: 40)
      let view = makeFeedView(frame: CGRect(x: 0, y: 0, width: 390, height: 844), dataSource: feed)
      try expectGolden(of: view, named: "feed-top", templates: ["note": noteCard], data: data(feed))
    }

    @Test func theFeedScrolledTwoScreens() throws {
      let feed = FeedDataSource.sample(count: 40)
      let view = makeFeedView(frame: CGRect(x: 0, y: 0, width: 390, height: 844), dataSource: feed)
      try expectGolden(
        of: view, at: CGPoint(x: 0, y: 1688), step: 100, named: "feed-scrolled", templates: ["note": noteCard],
        data: data(feed))
      #expect(view.createdViewCount < 20, "cells are reused on the way: \(view.createdViewCount) made")
    }
  }
#endif
