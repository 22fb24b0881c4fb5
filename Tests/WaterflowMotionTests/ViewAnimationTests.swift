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

/// Videos need even sides; the extra row and column are the canvas background, not black.
@Suite struct VideoEdgeTests {
  @Test func anOddSizedVideo_IsPaddedWithTheBackground() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-video-edge")
    // 375×667 at scale 1: both sides odd, so ffmpeg adds a column and a row.
    let run = try runCLI([
      "scroll", referencePath, "-o", dir + "/odd.mp4", "--to", "100", "--frames", "2",
      "--scale", "1",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let still = try ExternalProgram.ffmpeg.run([
      "-v", "error", "-i", dir + "/odd.mp4", "-frames:v", "1", dir + "/first.png",
    ])
    #expect(still.status == 0, "\(still.output)")
    let frame = try RGBAImage(contentsOfPNGFile: dir + "/first.png")
    #expect(frame.width == 376 && frame.height == 668)
    // The background is (243, 243, 245). yuv420p shares colour between 2×2 pixels, so the pad
    // takes some hue from the cell beside it; its brightness stays the background's (black: 0).
    for (x, y) in [(375, 300), (100, 667), (375, 667)] {
      let i = (y * frame.width + x) * 4
      let (r, g, b) = (Double(frame.pixels[i]), Double(frame.pixels[i + 1]), Double(frame.pixels[i + 2]))
      let luma = 0.299 * r + 0.587 * g + 0.114 * b
      #expect(luma > 225, "(\(x), \(y)): \(r), \(g), \(b)")
    }
  }
}

/// Scrolls past the content's ends stop there with a note, unless overscroll is asked for.
@Suite struct ScrollClampTests {
  @Test func scrollsPastTheEnd_StopAtTheEnd_UnlessOverscroll() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-clamp")
    func lastOffset(_ extra: [String]) throws -> (Double, String) {
      let out = dir + "/\(extra.count)/"
      let run = try runCLI(
        ["scroll", referencePath, "--to", "99999", "--frames", "3", "--scale", "1", "-o", out] + extra)
      #expect(run.status == 0, "\(run.stderr)")
      let data = try Data(contentsOf: URL(fileURLWithPath: out + "frames.json"))
      let json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
      let frames = json["frames"] as! [[String: Any]]
      return (frames.last!["offset"] as! Double, run.stderr)
    }
    // reference.json is 3,300 pt tall in a 667-pt viewport: the last offset is 2,633.
    let (clamped, warning) = try lastOffset([])
    #expect(clamped == 2633)
    #expect(warning.contains("scroll to 99999 clamped to 2633, the content's end"), "\(warning)")
    let (free, quiet) = try lastOffset(["--overscroll"])
    #expect(free == 99999 && !quiet.contains("clamped"))
  }
}

/// `render --step` makes its steps one at a time: memory does not grow with their number.
@Suite struct StepMemoryTests {
  @Test func renderInTinySteps_KeepsMemoryFlat() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-steps")
    func peak(_ step: String) throws -> Int {
      let run = try ExternalProgram.gnuTime.run([
        "-f", "maxrss=%M", waterflowBinary, "render", referencePath, "--offset", "600",
        "--step", step, "--scale", "1", "-o", dir + "/s\(step).png",
      ])
      #expect(run.status == 0, "\(run.stderr)")
      let line = run.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss=") }!
      return Int(line.dropFirst(7))!
    }
    let few = try peak("1")  // 600 steps
    let many = try peak("0.01")  // 60,000 steps
    // Keeping every step's pass (as before) grew about 330 bytes a step: some 20 MB here.
    #expect(many - few < 8_000, "peak \(few) KB for 600 steps, \(many) KB for 60,000")
  }
}
