// The strategy for a collection view exists where UIKit is Waterflow's, with the trait.
#if SnapshotTesting && canImport(WaterflowCollectionView)
import Foundation
import SnapshotTesting
import Testing
import UIKit
import WaterflowCollectionView
import WaterflowSnapshotTesting
import WaterflowTestSupport

/// A flow layout of items whose heights vary, sized by its delegate, as an app's grid is.
private final class Shelf: NSObject, UICollectionViewDataSource, UICollectionViewDelegateFlowLayout {
  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 40 }

  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
    collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
  }

  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    sizeForItemAt indexPath: IndexPath
  ) -> CGSize { CGSize(width: 150, height: [90, 120, 100][indexPath.item % 3]) }
}

@Suite @MainActor struct SnapshottingCollectionViewTests {
  private static let directory = packageRoot(containing: #filePath)! + "/Golden/SnapshotTesting"

  private static func shelf(_ shelf: Shelf, top: CGFloat = 10) -> UICollectionView {
    let layout = UICollectionViewFlowLayout()
    layout.sectionInset = UIEdgeInsets(top: top, left: 10, bottom: 10, right: 10)
    layout.minimumInteritemSpacing = 10
    layout.minimumLineSpacing = 10
    let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: 330, height: 400), collectionViewLayout: layout)
    view.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "cell")
    view.dataSource = shelf
    view.delegate = shelf
    return view
  }

  @Test func aScrolledCollectionViewMatchesItsCommittedReference() {
    let shelf = Shelf()
    let failure = verifySnapshot(
      of: Self.shelf(shelf), as: .waterflow(at: CGPoint(x: 0, y: 500), step: 50), named: "scrolled",
      record: .never, snapshotDirectory: Self.directory, testName: "collectionView")
    #expect(failure == nil, "\(failure ?? "")")
  }

  @Test func aChangedLayoutFailsNamingTheIndexPathsThatMoved() throws {
    let shelf = Shelf()
    let failure = try #require(
      verifySnapshot(
        of: Self.shelf(shelf, top: 14), as: .waterflow(at: CGPoint(x: 0, y: 500), step: 50),
        named: "scrolled", record: .never, snapshotDirectory: Self.directory, testName: "collectionView"))
    #expect(failure.contains("layout changed:"), "\(failure)")
    #expect(failure.contains("[0, "), "cells are named by index path: \(failure)")
    #expect(failure.contains("4 pt"), "\(failure)")
  }

  @Test func theSnapshotDrawsWhereTheViewIsWhenNoOffsetIsGiven() throws {
    let shelf = Shelf()
    let view = Self.shelf(shelf)
    view.scroll(toContentOffset: CGPoint(x: 0, y: 500), step: 50)
    var taken: WaterflowSnapshot?
    Snapshotting<UICollectionView, WaterflowSnapshot>.waterflow().snapshot(view).run { taken = $0 }
    let snapshot = try #require(taken)
    #expect(snapshot.image.width == 330 && snapshot.image.height == 400)
    #expect(snapshot.facts?.offset == 500)
    #expect(snapshot.facts?.cells.first?.indexPath?.first == 0)
  }
}
#endif
