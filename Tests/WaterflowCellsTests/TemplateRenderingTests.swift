import Foundation
import Testing
import WaterflowCells
import WaterflowRender
import WaterflowScene
import WaterflowTestSupport

/// Templates built in Swift: measured by the layout, drawn by the renderer, the same both ways.
@Suite struct TemplateRenderingTests {
  /// The README's template.
  static let note = CellTemplate(background: Color(red: 1, green: 1, blue: 1), cornerRadius: 6) {
    CellImage("{cover}", aspect: .fields(width: "w", height: "h"))
    CellStack(.vertical, spacing: 8, padding: EdgeInsets(top: 8, left: 8, bottom: 10, right: 8)) {
      CellText("{title}", size: 13, weight: .medium, lines: 2)
      CellStack(.horizontal, spacing: 4) {
        CellAvatar("{face}", size: 16, name: "{author}")
        CellText("{author}", size: 11, color: CellText.secondaryColor)
        CellSpacer()
        CellIcon("heart", size: 13)
        CellBadge("{tag}").when("{tag}")
      }
    }
  }

  static let title = "夏日穿搭 a long title that needs two lines in a narrow column, or three"

  static func scene() throws -> Scene {
    var scene = Scene()
    scene.cells = ["note": note]
    scene.sections = [
      ItemList([
        Item(
          length: .fixed(0), identifier: "note",
          data: ItemData(
            ["cover": "p03.jpg", "w": "3", "h": "4", "title": title, "author": "Mia"],
            folder: packageRoot + "/Assets/Feeds/Photos"),
          isSelfSizing: true),
        Item(length: .fixed(120)),
      ])
    ]
    try scene.bindCells()
    return scene
  }
}

extension TemplateRenderingTests {
  @Test func measuredHeight_IsTheLayoutsHeight() throws {
    let scene = try Self.scene()
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let frame = try #require(controller.view.snapshot?.frame(at: 0))
    let measurer = try CellMeasurer.shared(fontPaths: CellMeasurer.defaultFontPaths)
    let data = try #require(scene.item(at: 0).data)
    let measured = measurer.height(of: Self.note, data: data, index: 0, width: frame.width)
    #expect(abs(frame.height - measured) < 0.5 / scene.scale + 1e-9)
    // Image 4/3 of the width, two 15.6-pt lines, a 16-pt row, 8 + 8 + 10 of spacing and padding.
    #expect(abs(measured - (frame.width * 4 / 3 + 2 * 15.6 + 16 + 26)) < 0.1)
  }

  @Test func drawnTitle_HasTheMeasuredLines() throws {
    let controller = SceneController(scene: try Self.scene())
    controller.view.layoutSubviews()
    let renderer = try Renderer()
    _ = try renderer.render(FrameContent(view: controller.view), as: .png)
    let drawn = try #require(renderer.drawnTexts.first { $0.text == Self.title })
    // Two lines of 1.2 × 13 pt (to Pango units): the measure's lines, not a third.
    #expect(abs(drawn.box.height - 31.2) < 0.1)
    #expect(renderer.drawnTexts.contains { $0.text == "Mia" })
    // No tag: the badge is hidden, so its text is not drawn.
    #expect(!renderer.drawnTexts.contains { $0.text.isEmpty })
  }

  @Test func templateCells_AreByteIdenticalRunToRun() throws {
    let controller = SceneController(scene: try Self.scene())
    controller.view.layoutSubviews()
    for format in [OutputFormat.png, .pdf, .svg] {
      let a = try Renderer().render(FrameContent(view: controller.view), as: format)
      let b = try Renderer().render(FrameContent(view: controller.view), as: format)
      #expect(a == b, "\(format)")
    }
  }

  @Test func reusedCell_ShowsItsNewItemsData() throws {
    var scene = Scene()
    scene.viewport = Size(width: 200, height: 100)
    scene.layout.sections = [Section(columns: .count(1))]
    scene.cells = ["row": CellTemplate { CellText("{name}", size: 12) }]
    scene.sections = [
      ItemList(
        (0..<20).map { i in
          Item(length: .fixed(40), identifier: "row", data: ItemData(["name": "row \(i)"]))
        })
    ]
    try scene.bindCells()
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    controller.view.scroll(to: 400)
    let frame = FrameContent(view: controller.view)
    #expect(controller.view.createdCellCount < 20)
    for cell in frame.cells {
      #expect(cell.data["name"] == "row \(cell.index)")
    }
  }
}
