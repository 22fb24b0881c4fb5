// WaterflowView.docc, "Your Own Layout": a layout type of your own, a data source and a
// golden, compiled and run here against the committed golden.
import Testing
// doc: custom-layout begin
import WaterflowGolden  // expectGolden
import WaterflowRender  // Renderer
import WaterflowView    // WaterflowView, CustomWaterflowLayout, LayoutFrames

// doc: custom-layout end

// doc: custom-layout begin
/// Two columns, with a full-width banner every 10 items.
struct BannerLayout: CustomWaterflowLayout {
  var margin = 10.0
  var gap = 8.0

  func frames(forItemCount count: Int, in viewport: Size) -> LayoutFrames {
    let width = (viewport.width - 2 * margin - gap) / 2
    var bottoms = [margin, margin]  // where the next item goes in each column
    var frames: [Rect] = []
    for i in 0..<count {
      if i % 10 == 0 {
        // A banner starts below both columns and spans them.
        let y = bottoms.max()!
        frames.append(Rect(x: margin, y: y, width: viewport.width - 2 * margin, height: 120))
        bottoms = [y + 120 + gap, y + 120 + gap]
      } else {
        let column = bottoms[0] <= bottoms[1] ? 0 : 1  // the shorter column
        let height = [140.0, 190, 110, 160][i % 4]
        let x = margin + Double(column) * (width + gap)
        frames.append(Rect(x: x, y: bottoms[column], width: width, height: height))
        bottoms[column] += height + gap
      }
    }
    return LayoutFrames(
      frames: frames,
      contentSize: Size(width: viewport.width, height: bottoms.max()! - gap + margin))
  }
}

/// Cells from the reuse pool, coloured once when created, as the reference demo does.
final class FeedSource: WaterflowViewDataSource {
  private var colours = SeededGenerator(seed: 7)

  func numberOfCells(in view: WaterflowView) -> Int { 60 }

  func waterflowView(_ view: WaterflowView, cellAt index: Int) -> WaterflowCell {
    let cell =
      view.dequeueReusableCell(withIdentifier: "card")
      ?? WaterflowCell(reuseIdentifier: "card")
    if cell.backgroundColor == nil { cell.backgroundColor = Color.random(using: &colours) }
    cell.price = index % 10 == 0 ? nil : "¥\(19 + index)"
    return cell
  }
}

// doc: custom-layout end

@Suite struct CustomLayoutSnippetTests {
  @Test func bannerLayout_MatchesItsGolden() throws {
    // doc: custom-layout begin
    let source = FeedSource()
    let view = WaterflowView(bounds: Size(width: 375, height: 667))
    view.customLayout = BannerLayout()
    view.dataSource = source
    try expectGolden(of: view, at: 600, step: 50, named: "custom/banner")
    let png = try Renderer().render(view, as: .png)  // the same picture, as PNG bytes
    // doc: custom-layout end
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    // Banners span both columns; the items between them alternate columns by height.
    let frames = try #require(view.snapshot).frames
    #expect(frames[10].width == 355 && frames[10].minY > frames[9].minY)
    #expect(frames[1].minX == 10 && frames[2].minX == 191.5)
    // Scrolled in 50-pt steps to 600, the view recycled cells on the way: it created no more
    // cells than it ever displayed at once, far fewer than the items it passed.
    #expect(view.createdCellCount == view.displayedCells.count + view.reusePool.count)
    #expect(view.createdCellCount < 16, "\(view.createdCellCount) cells created")
  }
}
