// WaterflowScene.docc, "Layout Files": dumping an app's real layout from an iOS test target.
// It needs UIKit, so it compiles only where UIKit exists; here it is checked to stay verbatim.
#if canImport(UIKit)
import Foundation
import UIKit

// doc: uikit-layout-file begin
// In an iOS test target: the frames of a real UICollectionViewLayout, as a layout file.
@MainActor  // as UIKit is
func layoutFile(of collectionView: UICollectionView) throws -> Data {
  collectionView.layoutIfNeeded()
  let layout = collectionView.collectionViewLayout
  let size = layout.collectionViewContentSize
  let attributes = layout.layoutAttributesForElements(in: CGRect(origin: .zero, size: size)) ?? []
  var flat: [IndexPath: Int] = [:]  // Waterflow indexes items flat, section after section
  for section in 0..<collectionView.numberOfSections {
    for item in 0..<collectionView.numberOfItems(inSection: section) {
      flat[IndexPath(item: item, section: section)] = flat.count
    }
  }
  let frames: [[String: Any]] = attributes
    .filter { $0.representedElementCategory == .cell }
    .map { a in
      ["index": flat[a.indexPath]!, "x": a.frame.minX, "y": a.frame.minY,
       "width": a.frame.width, "height": a.frame.height]
    }
  let bounds = collectionView.bounds.size
  let file: [String: Any] = [
    "viewport": ["width": bounds.width, "height": bounds.height, "scale": UIScreen.main.scale],
    "contentSize": ["width": size.width, "height": size.height],
    "frames": frames,
  ]
  return try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys])
}
// doc: uikit-layout-file end
#endif
