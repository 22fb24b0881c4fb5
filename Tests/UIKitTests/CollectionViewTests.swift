import PNGCodec
import Testing
import UIKit
import WaterflowCollectionView
import WaterflowGolden
import WaterflowRender
import WaterflowScene
import WaterflowTestSupport

/// A feed of photos of known heights, and what the collection view told its delegate.
final class PhotoFeed: NSObject, UICollectionViewDataSource, UICollectionViewDelegate, PinterestLayoutDelegate {
  var heights: [CGFloat]
  var identifier = "photo"
  var selections: [IndexPath] = []
  var deselections: [IndexPath] = []

  init(heights: [CGFloat]) { self.heights = heights }

  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
    heights.count
  }

  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
    let cell = collectionView.dequeueReusableCell(withReuseIdentifier: identifier, for: indexPath)
    (cell as? AnnotatedPhotoCell)?.caption = "photo \(indexPath.item)"
    return cell
  }

  func collectionView(_ collectionView: UICollectionView, heightForPhotoAtIndexPath indexPath: IndexPath) -> CGFloat {
    heights[indexPath.item]
  }

  func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
    selections.append(indexPath)
  }

  func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {
    deselections.append(indexPath)
  }
}

/// Counts `prepare()` calls, and answers a fixed way about bounds changes.
final class CountingLayout: PinterestLayout {
  var preparations = 0
  var invalidatesOnBoundsChange = false
  var boundsAsked: [CGRect] = []

  override func prepare() {
    preparations += 1
    super.prepare()
  }

  override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
    boundsAsked.append(newBounds)
    return invalidatesOnBoundsChange
  }
}

@MainActor
func makeFeedView(_ feed: PhotoFeed, layout: PinterestLayout, height: CGFloat = 400) -> UICollectionView {
  layout.delegate = feed
  let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: height), collectionViewLayout: layout)
  view.register(AnnotatedPhotoCell.self, forCellWithReuseIdentifier: "photo")
  view.dataSource = feed
  view.delegate = feed
  view.layoutIfNeeded()
  return view
}

@Suite @MainActor struct PinterestLayoutTests {
  /// Two 150-point columns, 6 points of padding: item i goes to column i % 2, stacked.
  @Test func framesAreTheOnesTheLayoutWorksOut() throws {
    let feed = PhotoFeed(heights: [100, 200, 50, 80, 120])
    let view = makeFeedView(feed, layout: PinterestLayout())
    let frames = (0..<5).map { view.layoutAttributesForItem(at: IndexPath(item: $0, section: 0))!.frame }
    // Column 0: 0…112, 112…174, 174…306. Column 1: 0…212, 212…304.
    #expect(frames[0] == CGRect(x: 6, y: 6, width: 138, height: 100))
    #expect(frames[1] == CGRect(x: 156, y: 6, width: 138, height: 200))
    #expect(frames[2] == CGRect(x: 6, y: 118, width: 138, height: 50))
    #expect(frames[3] == CGRect(x: 156, y: 218, width: 138, height: 80))
    #expect(frames[4] == CGRect(x: 6, y: 180, width: 138, height: 120))
    #expect(view.contentSize == CGSize(width: 300, height: 306))
  }

  @Test func theVisibleItemsAreTheOnesInTheBounds() {
    let feed = PhotoFeed(heights: (0..<40).map { CGFloat(60 + ($0 * 37) % 140) })
    let view = makeFeedView(feed, layout: PinterestLayout(), height: 300)
    let layout = view.collectionViewLayout
    for y: CGFloat in [0, 250, 900, 1700] {
      view.contentOffset = CGPoint(x: 0, y: y)
      view.layoutIfNeeded()
      let bounds = CGRect(x: 0, y: y, width: 300, height: 300)
      let expected = (0..<40).map { IndexPath(item: $0, section: 0) }
        .filter { layout.layoutAttributesForItem(at: $0)!.frame.intersects(bounds) }
      #expect(view.indexPathsForVisibleItems == expected, "at \(y)")
      #expect(view.queriedRects.last == bounds)
      for path in expected {
        #expect(view.cellForItem(at: path)?.frame == layout.layoutAttributesForItem(at: path)!.frame)
      }
    }
  }

  @Test func cellsAreCreatedOnlyWhenThePoolIsEmptyAndPreparedForReuse() {
    let feed = PhotoFeed(heights: (0..<60).map { _ in 100 })
    let view = makeFeedView(feed, layout: PinterestLayout(), height: 300)
    // 112-point rows, two columns: rows 0–2 show at the top (6 cells).
    #expect(view.createdViewCount == 6)
    view.scroll(toContentOffset: CGPoint(x: 0, y: 2000), step: 50)
    // Never more than four rows on screen: 8 cells, the rest reused.
    #expect(view.createdViewCount == 8)
    let cells = view.visibleCells.compactMap { $0 as? AnnotatedPhotoCell }
    #expect(cells.count == view.indexPathsForVisibleItems.count)
    #expect(cells.allSatisfy { $0.reuseCount > 0 })
    #expect(zip(cells, view.indexPathsForVisibleItems).allSatisfy { $0.caption == "photo \($1.item)" })
    #expect(view.problems.isEmpty, "\(view.problems)")
  }

  @Test func scrollingDoesNotPrepareAgainUnlessTheLayoutAsks() {
    let feed = PhotoFeed(heights: (0..<60).map { _ in 100 })
    let quiet = CountingLayout()
    let view = makeFeedView(feed, layout: quiet, height: 300)
    view.scroll(toContentOffset: CGPoint(x: 0, y: 1000), step: 100)
    #expect(quiet.preparations == 1)
    #expect(quiet.boundsAsked.count == 10)
    #expect(quiet.boundsAsked.last == CGRect(x: 0, y: 1000, width: 300, height: 300))

    let eager = CountingLayout()
    eager.invalidatesOnBoundsChange = true
    let other = makeFeedView(feed, layout: eager, height: 300)
    other.scroll(toContentOffset: CGPoint(x: 0, y: 1000), step: 100)
    #expect(eager.preparations == 11, "once, then at each of 10 steps")
  }

  @Test func reloadDataPreparesAgainAndAsksForTheCounts() {
    let feed = PhotoFeed(heights: [100, 100])
    let layout = CountingLayout()
    let view = makeFeedView(feed, layout: layout)
    feed.heights = [100, 100, 100]
    view.reloadData()
    view.layoutIfNeeded()
    #expect(layout.preparations == 2)
    #expect(view.numberOfItems(inSection: 0) == 3)
    #expect(view.pooledViewCount(withReuseIdentifier: "photo") == 0)
  }

  @Test func aTapSelectsTheItemThereAndTellsTheDelegate() {
    let feed = PhotoFeed(heights: [100, 200, 50])
    let view = makeFeedView(feed, layout: PinterestLayout())
    #expect(view.tap(at: CGPoint(x: 200, y: 150)) == IndexPath(item: 1, section: 0))
    #expect(view.tap(at: CGPoint(x: 20, y: 130)) == IndexPath(item: 2, section: 0))
    #expect(view.tap(at: CGPoint(x: 150, y: 3)) == nil, "the padding between cells")
    #expect(feed.selections == [IndexPath(item: 1, section: 0), IndexPath(item: 2, section: 0)])
    #expect(feed.deselections == [IndexPath(item: 1, section: 0)])
    #expect(view.indexPathsForSelectedItems == [IndexPath(item: 2, section: 0)])
    #expect(view.cellForItem(at: IndexPath(item: 2, section: 0))?.isSelected == true)
    #expect(view.cellForItem(at: IndexPath(item: 1, section: 0))?.isSelected == false)
  }
}

/// A layout that gets things wrong, one way per test.
final class FaultyLayout: UICollectionViewLayout {
  var frames: [IndexPath: CGRect] = [:]
  override var collectionViewContentSize: CGSize { CGSize(width: 300, height: 1000) }
  override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
    frames.sorted { $0.key < $1.key }.map { path, frame in
      let attributes = UICollectionViewLayoutAttributes(forCellWith: path)
      attributes.frame = frame
      return attributes
    }
  }
}

@Suite @MainActor struct CollectionViewProblemTests {
  @Test func anUnregisteredIdentifierIsNamedWithItsIndexPath() {
    let feed = PhotoFeed(heights: [100])
    feed.identifier = "photograph"
    let view = makeFeedView(feed, layout: PinterestLayout())
    #expect(view.visibleCells.count == 1, "a plain cell stands in")
    #expect(view.problems.map(\.description) == [
      "item [0, 0]: dequeued a cell with the identifier \"photograph\", which nothing was registered for; call register(_:for…ReuseIdentifier:) first"
    ])
  }

  @Test func attributesForAMissingItemOrABadFrameAreNamedAndSkipped() {
    let feed = PhotoFeed(heights: [100, 100])
    let layout = FaultyLayout()
    layout.frames = [
      IndexPath(item: 0, section: 0): CGRect(x: 0, y: 0, width: 100, height: 100),
      IndexPath(item: 1, section: 0): CGRect(x: 0, y: CGFloat(Double.nan), width: 100, height: 100),
      IndexPath(item: 5, section: 0): CGRect(x: 0, y: 0, width: 100, height: 100),
      IndexPath(item: 0, section: 2): CGRect(x: 0, y: 0, width: -4, height: 100),
    ]
    let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 400), collectionViewLayout: layout)
    view.register(AnnotatedPhotoCell.self, forCellWithReuseIdentifier: "photo")
    view.dataSource = feed
    view.layoutIfNeeded()
    #expect(view.indexPathsForVisibleItems == [IndexPath(item: 0, section: 0)])
    let messages = view.problems.map(\.description)
    #expect(messages.count == 3, "\(messages)")
    #expect(messages.contains { $0.hasPrefix("item [0, 1]: the layout gave its cell the frame") && $0.contains("not finite") })
    #expect(messages.contains("item [0, 5]: the layout gave attributes for an item that does not exist (section 0 has 2 items)"))
    #expect(messages.contains { $0.hasPrefix("item [2, 0]: the layout gave its cell the frame") })
  }

  @Test func aCellTheDataSourceMadeItselfIsNamed() {
    final class Careless: NSObject, UICollectionViewDataSource {
      func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 1 }
      func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        UICollectionViewCell(frame: .zero)
      }
    }
    let source = Careless()
    let layout = UICollectionViewFlowLayout()
    let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 400), collectionViewLayout: layout)
    view.dataSource = source
    view.layoutIfNeeded()
    #expect(view.problems == [.cellNotDequeued(indexPath: IndexPath(item: 0, section: 0))])
  }
}

@Suite @MainActor struct LayoutFileTests {
  @Test func theLayoutFileHoldsEveryFrameInIndexPathOrder() throws {
    let feed = PhotoFeed(heights: [100, 200, 50])
    let view = makeFeedView(feed, layout: PinterestLayout())
    let text = view.layoutFileText(scale: 2) { _ in "photo" }
    #expect(text == """
      {"viewport": {"width": 300, "height": 400, "scale": 2},
      "contentSize": {"width": 300, "height": 212},
      "sections": [
        {"first": 0, "count": 3}
      ],
      "frames": [
        {"index": 0, "x": 6, "y": 6, "width": 138, "height": 100, "identifier": "photo"},
        {"index": 1, "x": 156, "y": 6, "width": 138, "height": 200, "identifier": "photo"},
        {"index": 2, "x": 6, "y": 118, "width": 138, "height": 50, "identifier": "photo"}
      ]}

      """)
    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    #expect((parsed?["frames"] as? [Any])?.count == 3)
  }

  @Test func sectionsCarryTheirHeaders() {
    let grid = Grid(counts: [2, 1])
    grid.headerHeight = 30
    let layout = UICollectionViewFlowLayout()
    layout.itemSize = CGSize(width: 100, height: 50)
    let view = gridView(grid, layout)
    let text = view.layoutFileText(scale: 3)
    #expect(text.contains("{\"first\": 0, \"count\": 2, \"header\": {\"x\": 0, \"y\": 0, \"width\": 320, \"height\": 30}}"))
    #expect(text.contains("{\"first\": 2, \"count\": 1, \"header\": {\"x\": 0, \"y\": 80, \"width\": 320, \"height\": 30}}"))
  }
}

/// The app's layout drawn by Waterflow: through the layout file the collection view writes.
@Suite @MainActor struct DrawingTests {
  @Test func theLayoutFileDrawsTheCellsWhereTheLayoutPutThem() throws {
    let feed = PhotoFeed(heights: (0..<12).map { CGFloat(80 + ($0 * 53) % 120) })
    let view = makeFeedView(feed, layout: PinterestLayout(), height: 500)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uikit-draw-\(getpid())").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try view.layoutFileText(scale: 1).write(toFile: dir + "/layout.json", atomically: true, encoding: .utf8)
    let scene = try Scene(contentsOf: dir + "/layout.json")
    let controller = SceneController(scene: scene)
    controller.view.reloadData()
    _ = controller.view.layoutSubviews()
    #expect(controller.view.displayed.map(\.index).sorted() == view.indexPathsForVisibleItems.map(\.item))
    #expect(controller.view.indicesOnScreen == view.indexPathsForVisibleItems.map(\.item))
    let png = try Renderer().render(controller.view, as: .png, options: RenderOptions(scale: scene.scale))
    let image = try RGBAImage(pngData: png)
    #expect(image.width == 300 && image.height == 500)
    // Inside item 1's frame (156, 6, 138 × 192): a cell's colour; in the padding between the
    // columns: the background.
    func pixel(_ x: Int, _ y: Int) -> ArraySlice<UInt8> { image.pixels[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 4] }
    let background = pixel(150, 100)
    #expect(pixel(225, 100) != background)
    #expect(pixel(75, 50) != background)
    if let out = ProcessInfo.processInfo.environment["UIKIT_DRAWING_OUT"] {
      try Data(png).write(to: URL(fileURLWithPath: out))
    }
  }
}

/// The collection view drawn directly, at its content offset, by the renderer and templates.
@Suite @MainActor struct DirectDrawingTests {
  static let photoTemplate = CellTemplate(background: Color(red: 0.93, green: 0.95, blue: 0.98), cornerRadius: 8) {
    CellStack(.vertical, spacing: 4, padding: EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)) {
      CellText("{caption}", size: 13, weight: .semibold, lines: 1)
      CellText("{place}", size: 11, color: CellText.secondaryColor, lines: 2)
    }
  }

  @Test func aScrolledFeedDrawsItsVisibleCellsFromTheirTemplate() throws {
    let feed = PhotoFeed(heights: (0..<30).map { CGFloat(80 + ($0 * 53) % 120) })
    let view = makeFeedView(feed, layout: PinterestLayout(), height: 480)
    view.scroll(toContentOffset: CGPoint(x: 0, y: 300), step: 60)
    let places = ["海边", "Lisbon", "山顶 sunrise", "Kyoto"]
    let image = try Renderer().image(
      of: view, options: RenderOptions(scale: 1), templates: ["photo": Self.photoTemplate]
    ) { path in
      ItemData(["caption": "photo \(path.item)", "place": places[path.item % 4]])
    }
    #expect(image.width == 300 && image.height == 480)
    // The same pixels as the golden drawn through expectGolden(of: collectionView, …) below.
    let golden = try RGBAImage(contentsOfPNGFile: packageRoot + "/Golden/uikit/pinterest-scrolled.png")
    #expect(golden.pixels == image.pixels)
  }

  @Test func aCollectionViewRendersAsPNGPDFAndSVG() throws {
    let feed = PhotoFeed(heights: (0..<12).map { CGFloat(90 + ($0 * 37) % 80) })
    let view = makeFeedView(feed, layout: PinterestLayout(), height: 360)
    view.scroll(toContentOffset: CGPoint(x: 0, y: 120), step: 40)
    let renderer = try Renderer()
    let options = RenderOptions(scale: 2)
    let png = try renderer.render(view, as: .png, options: options)
    // The PNG is the pixels a golden compares, at the view's size times the scale.
    let decoded = try RGBAImage(pngData: png)
    #expect(decoded.width == 600 && decoded.height == 720)
    #expect(decoded.pixels == (try renderer.image(of: view, options: options)).pixels)
    let pdf = String(decoding: try renderer.render(view, as: .pdf, options: options), as: UTF8.self)
    #expect(pdf.hasPrefix("%PDF-"))
    #expect(pdf.contains("/MediaBox [ 0 0 300 360 ]"), "one page the view's size, in points")
    let svg = String(decoding: try renderer.render(view, as: .svg, options: options), as: UTF8.self)
    #expect(svg.contains("<svg") && svg.contains(#"width="300""#) && svg.contains(#"height="360""#))
  }

  @Test func aCellWithNoTemplateDrawsInWaterflowsLookAtItsFrame() throws {
    let feed = PhotoFeed(heights: [100, 200])
    let view = makeFeedView(feed, layout: PinterestLayout(), height: 300)
    let frame = FrameContent(collectionView: view)
    #expect(frame.cells.map(\.frame) == [Rect(x: 6, y: 6, width: 138, height: 100), Rect(x: 156, y: 6, width: 138, height: 200)])
    #expect(frame.cells.map(\.instanceID) == [0, 1])
    #expect(frame.cells.allSatisfy { $0.template == nil })
  }
}

/// Notes whose cells are drawn and sized by a template.
final class TemplatedNotes: NSObject, UICollectionViewDataSource {
  let titles: [String]
  init(titles: [String]) { self.titles = titles }
  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { titles.count }
  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
    let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "note", for: indexPath) as! TemplateCollectionViewCell
    cell.template = DirectDrawingTests.photoTemplate
    cell.data = ItemData(["caption": "note \(indexPath.item)", "place": titles[indexPath.item]])
    return cell
  }
}

@Suite @MainActor struct TemplateSizingTests {
  @Test func aTemplateCellPrefersTheHeightItsTemplateMeasures() throws {
    let titles = ["short", "a place name long enough to wrap onto a second line here", "杭州西湖"]
    let notes = TemplatedNotes(titles: titles)
    let layout = UICollectionViewFlowLayout()
    layout.estimatedItemSize = CGSize(width: 150, height: 44)
    layout.minimumInteritemSpacing = 0
    layout.minimumLineSpacing = 6
    let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: 150, height: 400), collectionViewLayout: layout)
    view.register(TemplateCollectionViewCell.self, forCellWithReuseIdentifier: "note")
    view.dataSource = notes
    view.layoutIfNeeded()
    let measurer = try CellMeasurer.shared(fontPaths: CellMeasurer.defaultFontPaths)
    let heights = titles.indices.map { i in
      measurer.height(
        of: DirectDrawingTests.photoTemplate, data: ItemData(["caption": "note \(i)", "place": titles[i]]),
        index: i, width: 150)
    }
    #expect(heights[1] > heights[0], "the long place wraps")
    let frames = (0..<3).map { frame(view, $0)! }
    #expect(frames.map { Double($0.height) } == heights)
    #expect(frames[1].minY == frames[0].maxY + 6)
    let drawn = FrameContent(collectionView: view)
    #expect(drawn.cells.map(\.data["place"]) == titles)
  }
}

@Suite @MainActor struct CollectionViewGoldenTests {
  /// The repository's golden of the Kodeco-style layout, with facts.
  @Test func theScrolledFeedMatchesItsGolden() throws {
    let feed = PhotoFeed(heights: (0..<30).map { CGFloat(80 + ($0 * 53) % 120) })
    let view = makeFeedView(feed, layout: PinterestLayout(), height: 480)
    let places = ["海边", "Lisbon", "山顶 sunrise", "Kyoto"]
    try expectGolden(
      of: view, at: CGPoint(x: 0, y: 300), step: 60, named: "uikit/pinterest-scrolled",
      templates: ["photo": DirectDrawingTests.photoTemplate]
    ) { path in ItemData(["caption": "photo \(path.item)", "place": places[path.item % 4]]) }
  }

  /// A deliberate layout change (the padding of the layout grows) fails with a layout verdict
  /// that names the cells that moved.
  @Test func aChangedLayoutFailsWithALayoutVerdict() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uikit-golden-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let feed = PhotoFeed(heights: [100, 120, 90, 140, 80, 110])
    let record = GoldenConfiguration(recordMode: .missing, artifactsDirectory: dir + "/artifacts")
    do {
      try expectGolden(of: makeFeedView(feed, layout: PinterestLayout()), named: "feed", configuration: record, goldenDirectory: dir)
    } catch { #expect(error.description.contains("recorded")) }
    let check = GoldenConfiguration(recordMode: .never, artifactsDirectory: dir + "/artifacts")
    try expectGolden(of: makeFeedView(feed, layout: PinterestLayout()), named: "feed", configuration: check, goldenDirectory: dir)

    feed.heights[1] = 160
    do {
      try expectGolden(of: makeFeedView(feed, layout: PinterestLayout()), named: "feed", configuration: check, goldenDirectory: dir)
      Issue.record("a taller item 1 passed")
    } catch {
      #expect(error.description.contains("layout changed"), "\(error)")
      #expect(error.description.contains("item [0, 1] is 40 pt taller"), "\(error)")
      // Cells 3 and 5 sit below item 1 in its column; cell 4, in the other, did not move.
      #expect(error.description.contains("cells 3, 5 moved down 40 pt"), "\(error)")
    }
  }
}

@Suite @MainActor struct CollectionViewSequenceTests {
  /// Five frames of a scroll, each laid out and drawn: goldens `uikit/pinterest-scroll.00`–`.04`.
  @Test func aScrollMatchesItsGoldenFrames() throws {
    let feed = PhotoFeed(heights: (0..<30).map { CGFloat(80 + ($0 * 53) % 120) })
    let layout = CountingLayout()
    layout.delegate = feed
    let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 320), collectionViewLayout: layout)
    // Plain cells, with no colour of their own: Waterflow's look, a colour per cell made.
    view.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "photo")
    view.dataSource = feed
    try expectGoldenSequence(of: view, from: 0, to: 400, step: 100, named: "uikit/pinterest-scroll")
    #expect(layout.preparations == 1)
    #expect(layout.boundsAsked.count == 4)
  }
}

/// A scroll animation of a collection view: the layout asked at every frame, the frames
/// written, and the trace of what each pass created and reused.
@Suite @MainActor struct CollectionViewAnimationTests {
  final class Box: @unchecked Sendable { var layouts: [CountingLayout] = [] }

  @Test func aScrollJobPlaysTheCollectionViewFrameByFrame() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uikit-scroll-\(getpid())").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let made = Box()
    var job = ScrollJob(
      frames: {
        let feed = PhotoFeed(heights: (0..<60).map { CGFloat(80 + ($0 * 53) % 120) })
        let layout = CountingLayout()
        layout.delegate = feed
        made.layouts.append(layout)
        let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 400), collectionViewLayout: layout)
        view.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "photo")
        view.dataSource = feed
        return (CollectionViewScrollSource(view), feed)
      },
      script: .scroll(from: 0, to: 900, frames: 10), output: ScrollOutput(path: dir + "/frames"),
      options: RenderOptions(scale: 1))
    job.jobs = 1
    job.trace = dir + "/trace.json"
    let summary = try job.run()
    // Ten frames, both ends included: the first at offset 0, then nine steps of 100 points.
    #expect(summary.frames == 10)
    let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/frames").filter { $0.hasSuffix(".png") }
    #expect(files.count == 10)
    // Two passes over the script (a dry run, then the drawing), each on a fresh view: prepared
    // once each, asked about the bounds at each of the 9 frames that moved.
    #expect(made.layouts.count == 2)
    #expect(made.layouts.map(\.preparations) == [1, 1])
    #expect(made.layouts.map(\.boundsAsked.count) == [9, 9])
    let trace = try String(contentsOfFile: dir + "/trace.json", encoding: .utf8)
    let records = try #require(try JSONSerialization.jsonObject(with: Data(trace.utf8)) as? [[String: Any]])
    #expect(records.count == 10)
    let created = records.map { ($0["created"] as? [Any])?.count ?? 0 }.reduce(0, +)
    let reused = records.map { ($0["reused"] as? [Any])?.count ?? 0 }.reduce(0, +)
    #expect(created > 0 && created < 12, "cells are made only when the pool is empty: \(created)")
    #expect(reused > 10, "scrolling 900 points reuses cells: \(reused)")
    let image = try RGBAImage(contentsOfPNGFile: dir + "/frames/" + files.sorted()[5])
    #expect(image.width == 300 && image.height == 400)
  }
}
