import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowTestSupport
import WaterflowGolden
import WaterflowGoldenReport

/// The HTML report is one self-contained page that a real browser renders.
@Suite struct GoldenReportTests {}

extension GoldenReportTests {
  // MARK: - Fixtures

  /// 60×40 light grey frames; `changed` paints a 20×10 dark block, which the diff shows in red.
  private static func frame(changed: Bool) -> RGBAImage {
    var image = RGBAImage(
      width: 60, height: 40, filledWith: (230, 230, 230, 255))
    if changed {
      for y in 10..<20 {
        for x in 20..<40 {
          image.pixels.replaceSubrange(
            (y * 60 + x) * 4..<(y * 60 + x) * 4 + 3, with: [20, 20, 20])
        }
      }
    }
    return image
  }

  /// A sequence of four frames whose frames 1 and 3 fail, plus a passing single golden.
  private func failingRun() throws -> [GoldenSequenceOutcome] {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let stack = FontStackFingerprint(
      cairo: "1", pixman: "1", freetype: "1", font: "f.ttf",
      fontHash: "fnv1a64:0")
    let record = GoldenStore(
      directory: dir + "/Golden",
      configuration: .init(recordMode: .all, artifactsDirectory: dir + "/a"))
    let check = GoldenStore(
      directory: dir + "/Golden",
      configuration: .init(recordMode: .never, artifactsDirectory: dir + "/a"))
    let plain = (0..<4).map {
      GoldenFrame(offset: Double($0) * 100, image: Self.frame(changed: false))
    }
    _ = try record.checkSequence(
      plain, named: "demo/scroll", fingerprint: stack)
    _ = try record.check(
      Self.frame(changed: false), named: "demo/still", fingerprint: stack)
    let broken = (0..<4).map {
      GoldenFrame(
        offset: Double($0) * 100, image: Self.frame(changed: $0 == 1 || $0 == 3)
      )
    }
    return [
      try check.checkSequence(broken, named: "demo/scroll", fingerprint: stack),
      GoldenSequenceOutcome(
        name: "demo/still", offsets: [0],
        frames: [
          try check.check(
            Self.frame(changed: false), named: "demo/still", fingerprint: stack)
        ], isSequence: false),
    ]
  }

  /// Runs headless Chromium and returns its standard output.
  private func runChromium(_ arguments: [String]) throws -> Data {
    try ExternalProgram.chromium.run(
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--force-device-scale-factor=1",
      ] + arguments
    ).stdoutData
  }

  // MARK: - Contents

  @Test func testHTML_FailingSequence_InlinesImagesAndNamesFirstFailingFrame()
    throws
  {
    let html = GoldenReport(
      title: "test", outcomes: try failingRun(), fontStack: "stack",
      fontStackChanges: ["freetype 1 → 2"]
    ).html()
    #expect(html.contains("<h1>1 of 2 goldens failed</h1>"))
    #expect(
      html.contains(
        "First failing frame: <b>1</b> (offset 100); failing frames: <b>2</b> of 4."
      ))
    #expect(
      html.contains(
        "The font stack differs from the one the goldens were recorded with:</b> freetype 1 → 2"
      ))
    // Self-contained: images are data URIs, nothing is fetched. Each file is embedded once
    // (the diff panel, and expected and actual, which the slider shows) however often it is shown.
    let keys = html.components(separatedBy: "data-img=\"").dropFirst().map {
      String($0.prefix { $0 != "\"" })
    }
    #expect(Set(keys).count == 6, "2 failing frames × expected, actual, diff: \(Set(keys))")
    #expect(html.components(separatedBy: "data:image/png;base64,").count - 1 == 6)
    for key in Set(keys) {
      #expect(html.components(separatedBy: "\"\(key)\":\"data:image/png;base64,").count - 1 == 1)
    }
    #expect(
      !html.contains("src=\"http") && !html.contains("src=\"file")
        && !html.contains("<link"))
    // Expected, actual and diff for each of the two failing frames, and a slider for each.
    #expect(
      html.components(separatedBy: "<figcaption>diff: red counted").count - 1
        == 2)
    #expect(html.components(separatedBy: "type=\"range\"").count - 1 == 2)
    #expect(html.contains("<button class=\"bad\" data-f=\"3\""))
    #expect(html.contains("<button class=\"ok\" data-f=\"2\""))
  }

  @Test func testHTML_ListsFailuresFirst_WithAStatusFilter() throws {
    let html = GoldenReport(
      title: "test", outcomes: try failingRun().reversed(), fontStack: "stack"
    ).html()
    let failing = try #require(html.range(of: "<a href=\"#golden-demo/scroll\">demo/scroll</a>"))
    let passing = try #require(html.range(of: "<td>demo/still</td>"))
    #expect(failing.lowerBound < passing.lowerBound)
    #expect(html.contains("<input type=\"checkbox\" id=\"show-failed\" checked> failed (1)"))
    #expect(html.contains("<input type=\"checkbox\" id=\"show-passed\" checked> passed (1)"))
    #expect(html.contains("body:has(#show-passed:not(:checked)) .st-passed"))
    #expect(html.contains("<tr class=\"ok st-passed\">"))
  }

  /// Above the inline limit the images go to a folder beside the page, and the page stays small.
  @Test func testWrite_AboveTheInlineLimit_CopiesImagesToAFolder() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let outcomes = try failingRun()
    var report = GoldenReport(title: "test", outcomes: outcomes, fontStack: "stack")
    let inline = try report.write(to: dir + "/small.html") { $0 }
    #expect(inline == nil)
    report.inlineLimit = 0
    let folder = try report.write(to: dir + "/big.html") { $0 }
    #expect(folder == dir + "/big-images")
    let html = try String(contentsOfFile: dir + "/big.html", encoding: .utf8)
    #expect(!html.contains("data:image/png"))
    #expect(html.contains("\":\"big-images/00000.png\""))
    let pngs = try FileManager.default.contentsOfDirectory(atPath: dir + "/big-images")
      .filter { $0.hasSuffix(".png") }
    #expect(pngs.count == 6)
    let small = try FileManager.default.attributesOfItem(atPath: dir + "/small.html")[.size] as! Int
    #expect(html.utf8.count < small)
  }

  // MARK: - Chromium

  /// Ticking failures builds the record command for exactly those, in a real browser.
  @Test func testChromium_TickedFailures_GiveTheirRecordCommand() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    var report = GoldenReport(title: "test", outcomes: try failingRun(), fontStack: "stack")
    report.recordCommand = "waterflow golden record --manifest G/m.json"
    let html = report.html()
    #expect(html.contains("class=\"pick\" value=\"demo/scroll\""))
    #expect(!html.contains("value=\"demo/still\""), "passing goldens have no box")
    // A click on "all failures", as a user would, then the DOM.
    let page = dir + "/report.html"
    try html.replacingOccurrences(
      of: "</body></html>", with: "<script>document.getElementById('pick-all').click();</script></body></html>"
    ).write(toFile: page, atomically: true, encoding: .utf8)
    let dom = String(decoding: try runChromium(["--dump-dom", "file://" + page]), as: UTF8.self)
    #expect(dom.contains("<code id=\"record-command\">waterflow golden record --manifest G/m.json demo/scroll</code>"), "\(dom.suffix(600))")
    #expect(dom.contains("<button id=\"copy-record\">"), "the button is enabled once a golden is ticked")
  }

  @Test func testChromium_FailingReport_RendersHeaderImagesAndTimeline() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let page = dir + "/report.html"
    try GoldenReport(
      title: "test", outcomes: try failingRun(), fontStack: "stack"
    ).html()
      .write(toFile: page, atomically: true, encoding: .utf8)

    // The DOM after scripts ran: the timeline selected the first failing frame.
    let dom = String(
      decoding: try runChromium(["--dump-dom", "file://" + page]), as: UTF8.self
    )
    #expect(dom.contains("data-ready=\"1\""), "the report's script did not run")
    #expect(dom.contains("Showing frame 1."))
    #expect(dom.contains("<button class=\"bad sel\" data-f=\"1\""))

    // The pixels: a screenshot of the window, with the red header and the diff image's red.
    let shot = dir + "/shot.png"
    _ = try runChromium([
      "--window-size=800,600", "--screenshot=" + shot, "file://" + page,
    ])
    let image = try RGBAImage(contentsOfPNGFile: shot)
    #expect(image.width == 800 && image.height == 600)
    var header = 0
    var diffRed = 0
    var colours = Set<UInt32>()
    for i in stride(from: 0, to: image.pixels.count, by: 4) {
      let (r, g, b) = (
        image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]
      )
      colours.insert(UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b))
      if (r, g, b) == (179, 38, 30) { header += 1 }
      if (r, g, b) == (255, 0, 0) { diffRed += 1 }
    }
    #expect(colours.count > 50, "the page looks blank")
    #expect(header > 800 * 40, "the failure header is missing")
    // The 20×10 changed block appears as pure red in the (inlined) diff image.
    #expect(diffRed >= 20 * 10)
  }
}
