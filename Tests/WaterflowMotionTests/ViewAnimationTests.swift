import Foundation
import PNGCodec
import Testing
import WaterflowMotion
import WaterflowRender
import WaterflowTestSupport
import WaterflowView

/// Scroll animations of a view of your own: no scene, no JSON.
@Suite struct ViewAnimationTests {
  /// One column of 120-pt cards, every third one a wide banner: a layout of its own.
  struct CardLayout: CustomWaterflowLayout {
    func frames(forItemCount count: Int, in viewport: Size) -> LayoutFrames {
      var frames: [Rect] = []
      for i in 0..<count {
        let banner = i % 3 == 0
        let y = Double(i) * 130
        frames.append(Rect(x: banner ? 0 : 20, y: y, width: banner ? 375 : 335, height: 120))
      }
      return LayoutFrames(frames: frames, contentSize: Size(width: 375, height: Double(count) * 130))
    }
  }

  final class Cards: WaterflowViewDataSource {
    var colours = SeededGenerator(seed: 9)
    func numberOfCells(in view: WaterflowView) -> Int { 40 }
    func waterflowView(_ view: WaterflowView, cellAt index: Int) -> WaterflowCell {
      if let cell = view.dequeueReusableCell(withIdentifier: "card") { return cell }
      let cell = WaterflowCell(reuseIdentifier: "card")
      cell.backgroundColor = Color.random(using: &colours)
      return cell
    }
  }

  static func makeView() -> (view: WaterflowView, owner: AnyObject?) {
    let source = Cards()
    let view = WaterflowView(bounds: Size(width: 375, height: 667))
    view.customLayout = CardLayout()
    view.dataSource = source
    return (view, source)
  }

  @Test func aCustomView_PlaysToAFolder_FrameForFrameAsItRenders() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-view-animation")
    var script = ScrollScript.scroll(from: 0, to: 400, step: 200)
    script.segments.append(.loadMore(count: 5, reload: false, anywhere: true))
    let job = ScrollJob(
      view: { ViewAnimationTests.makeView() }, script: script,
      output: ScrollOutput(path: dir + "/frames/"), options: RenderOptions(scale: 1))
    let summary = try job.run()
    #expect(summary.frames == 3)
    #expect(summary.notes.contains { $0.contains("load more skipped: the view's data source is yours") })
    // Each frame is what the renderer draws for the same view scrolled the same way.
    let (view, owner) = Self.makeView()
    let renderer = try Renderer()
    for (k, offset) in [0.0, 200, 400].enumerated() {
      view.scroll(to: offset)
      let expected = try renderer.image(of: view, options: RenderOptions(scale: 1))
      let frame = try RGBAImage(
        contentsOfPNGFile: dir + "/frames/" + ScrollJob.frameName(k + 1, total: 3))
      #expect(frame == expected, "frame \(k + 1) at offset \(offset)")
    }
    withExtendedLifetime(owner) {}
  }
}
