import WaterflowCommandLine
import UIKit
import WaterflowCollectionView
import WaterflowRender
import WaterflowScene

extension BenchCommand {
  /// An app's delegate-driven layout (the Kodeco "PinterestLayout" pattern) run by the UIKit
  /// module: `prepare()` and 60 scroll frames of 10,000 items, each frame laid out and drawn,
  /// against the same frames from a `CustomWaterflowLayout` in a `WaterflowView`.
  /// On the main actor, where a collection view lives (`run()` is called on the main thread).
  @MainActor
  func uikitFigures() throws -> [(String, Double)] {
    let count = 10_000
    let heights = (0..<count).map { CGFloat(80 + ($0 * 53) % 160) }
    let viewport = CGRect(x: 0, y: 0, width: 390, height: 844)
    let offsets = (0..<60).map { CGFloat($0) * 40 }
    let renderer = try Renderer()
    let options = RenderOptions(scale: 2)
    var collectionFrames = 0
    var waterflowFrames = 0

    let collection = median(runs) { _ in
      let source = BenchFeed(heights: heights)
      let layout = BenchPinterestLayout()
      layout.delegate = source
      let view = UICollectionView(frame: viewport, collectionViewLayout: layout)
      view.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "photo")
      view.dataSource = source
      for y in offsets {
        view.contentOffset = CGPoint(x: 0, y: y)
        _ = try? renderer.image(of: view, options: options)
        collectionFrames += 1
      }
    }

    // The same frames as given frames, through the control's own custom-layout path.
    let source = BenchFeed(heights: heights)
    let layout = BenchPinterestLayout()
    layout.delegate = source
    let probe = UICollectionView(frame: viewport, collectionViewLayout: layout)
    probe.dataSource = source
    probe.layoutIfNeeded()
    let frames = (0..<count).map { item -> Rect in
      let f = probe.layoutAttributesForItem(at: IndexPath(item: item, section: 0))!.frame
      return Rect(x: Double(f.minX), y: Double(f.minY), width: Double(f.width), height: Double(f.height))
    }
    let given = LayoutFrames(
      frames: frames,
      contentSize: Size(width: Double(probe.contentSize.width), height: Double(probe.contentSize.height)))
    let waterflow = median(runs) { _ in
      let cells = BenchCells(count: count)
      let view = WaterflowView(bounds: Size(width: Double(viewport.width), height: Double(viewport.height)))
      view.customLayout = given
      view.dataSource = cells
      view.reloadData()
      for y in offsets {
        _ = view.scroll(to: Double(y))
        _ = try? renderer.image(of: view, options: options)
        waterflowFrames += 1
      }
    }
    return [
      ("uikit_items", Double(count)), ("uikit_60_frames_ms", collection * 1e3),
      ("custom_layout_60_frames_ms", waterflow * 1e3), ("uikit_ratio", collection / waterflow),
    ]
  }
}

@MainActor
private protocol BenchLayoutDelegate: AnyObject {
  func collectionView(_ collectionView: UICollectionView, heightForPhotoAtIndexPath indexPath: IndexPath) -> CGFloat
}

/// Two columns filled in turn, each item as tall as its photo plus padding, cached in
/// `prepare()`: the shape of the layout most apps copied.
private final class BenchPinterestLayout: UICollectionViewLayout {
  weak var delegate: BenchLayoutDelegate?
  private var cache: [UICollectionViewLayoutAttributes] = []
  private var contentHeight: CGFloat = 0

  override var collectionViewContentSize: CGSize {
    CGSize(width: collectionView?.bounds.width ?? 0, height: contentHeight)
  }

  override func prepare() {
    guard cache.isEmpty, let collectionView else { return }
    let columnWidth = collectionView.bounds.width / 2
    var yOffset: [CGFloat] = [0, 0]
    for item in 0..<collectionView.numberOfItems(inSection: 0) {
      let column = item % 2
      let path = IndexPath(item: item, section: 0)
      let height = 12 + (delegate?.collectionView(collectionView, heightForPhotoAtIndexPath: path) ?? 180)
      let frame = CGRect(x: CGFloat(column) * columnWidth, y: yOffset[column], width: columnWidth, height: height)
      let attributes = UICollectionViewLayoutAttributes(forCellWith: path)
      attributes.frame = frame.insetBy(dx: 6, dy: 6)
      cache.append(attributes)
      contentHeight = max(contentHeight, frame.maxY)
      yOffset[column] += height
    }
  }

  // The tutorial's loop. (A `cache.filter { … }` closure here is main-actor isolated, and Swift 6
  // checks the executor on each call, ~50 ns an item, on iOS as here.)
  override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
    var visible: [UICollectionViewLayoutAttributes] = []
    for attributes in cache where attributes.frame.intersects(rect) {
      visible.append(attributes)
    }
    return visible
  }

  override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
    cache[indexPath.item]
  }
}

private final class BenchFeed: NSObject, UICollectionViewDataSource, BenchLayoutDelegate {
  let heights: [CGFloat]
  init(heights: [CGFloat]) { self.heights = heights }
  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { heights.count }
  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
    let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "photo", for: indexPath)
    cell.backgroundColor = UIColor(red: 0.9, green: 0.6, blue: 0.5, alpha: 1)
    return cell
  }
  func collectionView(_ collectionView: UICollectionView, heightForPhotoAtIndexPath indexPath: IndexPath) -> CGFloat {
    heights[indexPath.item]
  }
}

private final class BenchCells: WaterflowViewDataSource {
  let count: Int
  init(count: Int) { self.count = count }
  func numberOfCells(in view: WaterflowView) -> Int { count }
  func waterflowView(_ view: WaterflowView, cellAt index: Int) -> WaterflowCell {
    let cell = view.dequeueReusableCell(withIdentifier: "photo") ?? WaterflowCell(reuseIdentifier: "photo")
    cell.backgroundColor = Color(red: 0.9, green: 0.6, blue: 0.5)
    return cell
  }
}
