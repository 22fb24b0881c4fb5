import Foundation
import PNGCodec
import Testing
@testable import WaterflowRender
import WaterflowScene

/// Each style key, seen in the pixels it changes; and the standard style, byte for byte today's.
@Suite struct StyleTests {
  /// A 200 × 300 scene at scale 1 with two columns of 90-pt-wide cells (margins 10), with a
  /// `style` and items given as JSON.
  private func render(
    style: String = "{}", items: String = ##"[{"height": 100}, {"height": 120}, {"height": 80}]"##,
    extra: String = ""
  ) throws -> (RGBAImage, SceneController) {
    let json = """
      {"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 2, "seed": 3,
       \(extra) "style": \(style), "items": \(items)}
      """
    let scene = try Scene(data: Data(json.utf8), path: "/tmp/style.json")
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let image = try Renderer().image(
      of: controller.view, options: RenderOptions(scale: 1, style: scene.style))
    return (image, controller)
  }

  private func pixel(_ image: RGBAImage, _ x: Double, _ y: Double) -> [Int] {
    let i = (Int(y) * image.width + Int(x)) * 4
    return image.pixels[i..<(i + 4)].map(Int.init)
  }

  private func rgba(_ hex: String) -> [Int] {
    let c = Color(hexString: hex)!
    return [c.red, c.green, c.blue].map { Int(($0 * 255).rounded()) } + [255]
  }

  private func close(_ a: [Int], _ b: [Int], within tolerance: Int = 2) -> Bool {
    zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
  }

  /// Whether any pixel of a rectangle is within `tolerance` of a colour.
  private func contains(
    _ image: RGBAImage, _ r: Rect, _ colour: [Int], within tolerance: Int = 40
  ) -> Bool {
    for y in Int(r.minY)..<Int(r.maxY) {
      for x in Int(r.minX)..<Int(r.maxX) where close(pixel(image, Double(x), Double(y)), colour, within: tolerance) {
        return true
      }
    }
    return false
  }

  private func frame(_ controller: SceneController, _ index: Int) -> Rect {
    controller.view.cell(at: index)!.frame
  }

  @Test func background_fillsTheCanvas() throws {
    let (image, _) = try render(style: ##"{"background": "#123456"}"##)
    #expect(pixel(image, 100, 295) == rgba("#123456"))
  }

  @Test func cornerRadius_roundsTheCells() throws {
    let (square, c) = try render(style: ##"{"indexLabels": false, "cellColors": ["#FF0000"]}"##)
    let (round, _) = try render(
      style: ##"{"indexLabels": false, "cellColors": ["#FF0000"], "cornerRadius": 12}"##)
    let f = frame(c, 0)
    #expect(pixel(square, f.minX + 1, f.minY + 1) == rgba("#FF0000"))
    // The corner shows the canvas, as an empty spot at the bottom does.
    #expect(pixel(round, f.minX + 1, f.minY + 1) == pixel(round, 100, 295))
    #expect(pixel(round, f.midX, f.midY) == rgba("#FF0000"))
  }

  @Test func cellColors_paletteGoesToCreatedCellsInTurn() throws {
    let (image, c) = try render(style: ##"{"cellColors": ["#FF0000", "#00FF00"]}"##)
    for (index, hex) in [(0, "#FF0000"), (1, "#00FF00"), (2, "#FF0000")] {
      let f = frame(c, index)
      #expect(pixel(image, f.midX, f.midY) == rgba(hex), "cell \(index)")
    }
  }

  @Test func cellColors_paletteFollowsTheCellThroughReuse() throws {
    // 40 cells of 100 pt scrolled through: the cells on screen at the end were recycled, and
    // each shows the palette colour of the instance it is, not of its index.
    let json = """
      {"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 2,
       "style": {"cellColors": ["#FF0000", "#00FF00", "#0000FF"]},
       "items": {"count": 40, "heights": [100]}}
      """
    let controller = SceneController(scene: try Scene(data: Data(json.utf8), path: "/tmp/p.json"))
    controller.view.layoutSubviews()
    controller.view.scroll(to: 1500, step: 50)
    let palette = ["#FF0000", "#00FF00", "#0000FF"].map { Color(hexString: $0)! }
    for (_, cell) in controller.view.displayed {
      #expect(cell.backgroundColor == palette[(cell.instanceID - 1) % 3])
    }
    #expect(controller.view.displayed.contains { $0.cell.reuseCount > 0 })
  }

  @Test func itemColor_overridesTheCellsColour() throws {
    let (image, c) = try render(
      items: ##"[{"height": 100, "color": "#0000FF"}, {"height": 120}, {"height": 80, "color": "#00FF0080"}]"##)
    let f = frame(c, 0)
    #expect(pixel(image, f.midX, f.midY) == rgba("#0000FF"))
    // A translucent colour lets the canvas show through: half green over #F2F2F5.
    let g = frame(c, 2)
    #expect(close(pixel(image, g.midX, g.midY), [121, 248, 122, 255]))
  }

  @Test func indexLabels_falseHidesTheBadges() throws {
    let (shown, c) = try render(style: ##"{"cellColors": ["#FF0000"]}"##)
    let (hidden, _) = try render(style: ##"{"cellColors": ["#FF0000"], "indexLabels": false}"##)
    let badge = Rect(x: frame(c, 0).minX + 4, y: frame(c, 0).minY + 4, width: 12, height: 16)
    #expect(contains(shown, badge, [255, 255, 255, 255], within: 60))
    #expect(!contains(hidden, badge, [255, 255, 255, 255], within: 60))
    #expect(pixel(hidden, badge.midX, badge.midY) == rgba("#FF0000"))
  }

  @Test func priceBar_heightColourTextColourAndSize() throws {
    let items = ##"[{"height": 150, "price": "39.00"}, {"height": 120}]"##
    let (image, c) = try render(
      style: ##"{"cellColors": ["#FFFFFF"], "priceBar": {"height": 40, "color": "#FF0000", "textColor": "#00FF00", "fontSize": 20}}"##,
      items: items)
    let f = frame(c, 0)
    #expect(pixel(image, f.minX + 2, f.maxY - 38) == rgba("#FF0000"))
    #expect(pixel(image, f.minX + 2, f.maxY - 42) == rgba("#FFFFFF"))
    let bar = Rect(x: f.minX, y: f.maxY - 40, width: f.width, height: 40)
    #expect(contains(image, bar, rgba("#00FF00"), within: 10))
    // The text's ink at 20 pt is taller than 13 pt's.
    let inkRows = (Int(bar.minY)..<Int(bar.maxY)).filter { y in
      (Int(bar.minX)..<Int(bar.maxX)).contains { close(pixel(image, Double($0), Double(y)), rgba("#00FF00"), within: 60) }
    }
    #expect(inkRows.count >= 13)
  }

  @Test func headerFooterAndSectionColours() throws {
    let (image, c) = try render(
      style: ##"{"header": {"color": "#FF0000", "textColor": "#0000FF"}, "footer": {"color": "#00FF00", "textColor": "#FF00FF"}}"##,
      extra: ##""header": {"height": 40, "text": "Top"}, "footer": {"height": 30, "text": "End"},"##)
    #expect(pixel(image, 2, 2) == rgba("#FF0000"))
    #expect(contains(image, Rect(x: 60, y: 5, width: 80, height: 30), rgba("#0000FF"), within: 10))
    let footerTop = c.view.snapshot!.footer!.minY
    #expect(pixel(image, 2, footerTop + 10) == rgba("#00FF00"))
    #expect(
      contains(image, Rect(x: 60, y: footerTop + 3, width: 80, height: 24), rgba("#FF00FF"), within: 10))
  }

  @Test func emptyColours() throws {
    let (image, _) = try render(
      style: ##"{"empty": {"color": "#FFFF00", "textColor": "#0000FF"}}"##, items: "[]")
    #expect(pixel(image, 5, 5) == rgba("#FFFF00"))
    #expect(contains(image, Rect(x: 40, y: 130, width: 120, height: 40), rgba("#0000FF"), within: 10))
  }

  @Test func dark_presetDarkensCanvasAndBars() throws {
    let (image, _) = try render(
      style: ##"{"dark": true}"##, extra: ##""header": {"height": 40, "text": "Top"},"##)
    #expect(pixel(image, 100, 295) == rgba("#000000"))
    #expect(pixel(image, 2, 2) == rgba("#1C1C1E"))
  }

  @Test func dark_keysGivenBeforeItStillWin() throws {
    let (image, _) = try render(style: ##"{"background": "#334455", "dark": true}"##)
    #expect(pixel(image, 100, 295) == rgba("#334455"))
  }

  @Test func title_drawsABandUnderTheImageWithTheText() throws {
    let (image, c) = try render(
      style: ##"{"cellColors": ["#FF0000"], "title": {"color": "#FFFF00", "textColor": "#0000FF"}}"##,
      items: ##"[{"height": 150, "title": "Linen summer dress in sage green, hand-made in a small workshop"}]"##)
    let f = frame(c, 0)
    let band = Style.standard.title.bandHeight
    #expect(pixel(image, f.maxX - 2, f.maxY - 2) == rgba("#FFFF00"))
    #expect(pixel(image, f.maxX - 2, f.maxY - band - 2) == rgba("#FF0000"))
    // Two lines of text: ink in the upper and the lower half of the band.
    let top = Rect(x: f.minX, y: f.maxY - band, width: f.width, height: band / 2)
    let bottom = Rect(x: f.minX, y: f.maxY - band / 2, width: f.width, height: band / 2)
    #expect(contains(image, top, rgba("#0000FF"), within: 40))
    #expect(contains(image, bottom, rgba("#0000FF"), within: 40))
  }

  @Test func standardStyle_isByteIdenticalToTheGoldens() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    for (scene, golden) in [
      ("reference.json", "reference/top.png"), ("shop.json", "shop/top.png"), ("empty.json", "empty.png"),
    ] {
      let scene = try Scene(contentsOf: root + "/Assets/Scenes/" + scene)
      #expect(scene.style == .standard)
      let controller = SceneController(scene: scene)
      controller.view.layoutSubviews()
      let image = try Renderer().image(
        of: controller.view, options: RenderOptions(scale: 1, style: .standard))
      let expected = try RGBAImage(contentsOfPNGFile: root + "/Golden/" + golden)
      #expect(image == expected, "\(golden)")
    }
  }
}
