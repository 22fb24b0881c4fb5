import Foundation
import PNGCodec
import Testing
import WaterflowRender
import WaterflowScene
import WaterflowView

/// Where the renderer puts text: badges at the leading edge, strips' text rotated, long texts
/// inside their boxes, and the fringe-free photos drawn beside them.
@Suite struct TextRenderingTests {
  private func render(_ json: String, offset: Double = 0) throws -> (Renderer, WaterflowView, RGBAImage) {
    let scene = try Scene(data: Data(json.utf8), path: "/tmp/text.json")
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    if offset != 0 { controller.view.scroll(to: offset) }
    let renderer = try Renderer()
    let image = try renderer.image(
      of: controller.view, options: RenderOptions(scale: 1, style: scene.style))
    return (renderer, controller.view, image)
  }

  private func text(_ string: String, in renderer: Renderer) throws -> DrawnText {
    try #require(renderer.drawnTexts.first { $0.text == string }, "\(renderer.drawnTexts)")
  }

  @Test func rightToLeftColumns_PutBadgesAtTheLeadingRightEdge() throws {
    let items = #""items": {"count": 12, "heights": [90, 120]}"#
    for direction in ["ltr", "rtl"] {
      let (renderer, view, _) = try render(#"{"direction": "\#(direction)", "# + items + "}")
      for (index, cell) in view.displayed where cell.frame.maxY < 600 {
        let badge = try text(String(index), in: renderer).box
        if direction == "rtl" {
          #expect(abs(badge.maxX - (cell.frame.maxX - 8)) < 0.01, "\(index): \(badge)")
        } else {
          #expect(abs(badge.minX - (cell.frame.minX + 8)) < 0.01, "\(index): \(badge)")
        }
      }
    }
  }

  @Test func horizontalFlow_DrawsStripTextRotatedAndWhole() throws {
    let (renderer, view, _) = try render(
      #"{"flow": "horizontal", "viewport": {"width": 667, "height": 375}, "header": "#
        + #"{"height": 44, "text": "Trending"}, "items": {"count": 30, "heights": [90, 150]}}"#)
    let strip = try #require(view.snapshot?.header)
    let box = try text("Trending", in: renderer).box
    // Read along the strip: taller than wide, and as long as the word is on one line (about
    // 65 pt at 15 pt), not cut to the strip's 44-pt width as it was ("rendir").
    #expect(box.height > box.width)
    #expect(box.height > 60, "\(box)")
    #expect(box.minX >= strip.minX && box.maxX <= strip.maxX, "\(box) in \(strip)")
  }

  @Test func longTexts_StayInsideTheirBars() throws {
    let long = String(repeating: "Summer sale on every dress ", count: 6)
    let (renderer, view, _) = try render(
      #"{"viewport": {"width": 320, "height": 480}, "header": {"height": 44, "text": ""#
        + long + #""}, "items": [{"height": 120, "price": ""# + long
        + #""}, {"height": 90}]}"#)
    let header = try #require(view.snapshot?.header)
    let headerText = try text(long, in: renderer).box
    #expect(headerText.minX >= header.minX + 8 - 0.01 && headerText.maxX <= header.maxX - 8 + 0.01)
    // Two lines of 18 pt fit the 44-pt bar; the rest is cut with "…".
    #expect(headerText.minY >= header.minY && headerText.maxY <= header.maxY, "\(headerText)")
    #expect(headerText.height == 36, "two lines: \(headerText)")
    let cell = try #require(view.cell(at: 0)).frame
    let price = try #require(renderer.drawnTexts.last { $0.text == long }).box
    #expect(price.minX >= cell.minX && price.maxX <= cell.maxX, "\(price) in \(cell)")
  }

  @Test func chineseHeader_IsDrawnNotBoxed() throws {
    let (renderer, _, _) = try render(
      #"{"header": {"height": 44, "text": "蘑菇街 · 新品上架"}, "items": [{"height": 90}]}"#)
    #expect(renderer.missingCharacters(in: "蘑菇街 · 新品上架 ¥129") == [])
    #expect(try text("蘑菇街 · 新品上架", in: renderer).box.width > 100)
  }
}

extension TextRenderingTests {
  @Test func overview_NotesItsTextsInCanvasPoints() throws {
    let scene = try Scene(
      data: Data(#"{"items": {"count": 60, "heights": [90, 120, 150]}}"#.utf8), path: "/tmp/o.json")
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    controller.view.scroll(to: 600, step: 50)
    let renderer = try Renderer()
    let png = try renderer.renderOverview(controller.view, as: .png, options: RenderOptions(scale: 1))
    let image = try RGBAImage(pngData: png)
    let texts = renderer.drawnTexts
    #expect(texts.contains { $0.text.hasPrefix("viewport at offset 600") }, "\(texts)")
    // Every box is on the canvas; the displayed cells' index labels are shrunk with them.
    for text in texts {
      #expect(text.box.minX >= 0 && text.box.maxX <= Double(image.width) + 0.01, "\(text)")
      #expect(text.box.minY >= 0 && text.box.maxY <= Double(image.height) + 0.01, "\(text)")
    }
    let label = try #require(texts.first { $0.text == String(controller.view.indicesOnScreen[0]) })
    #expect(label.box.height < 20, "shrunk: \(label)")
    // Drawing the viewport afterwards starts a new list.
    _ = try renderer.image(of: controller.view, options: RenderOptions(scale: 1))
    #expect(!renderer.drawnTexts.contains { $0.text.hasPrefix("viewport at offset") })
  }
}
