// WaterflowCells.docc, "Cells: Your App's Templates": a template built in Swift, compiled and
// run here.
import Testing
// doc: templates begin
import WaterflowScene
// doc: templates end

@Suite struct TemplateSnippetTests {
  @Test func aTemplateInSwift_SizesItsItem() throws {
    // doc: templates begin

    let note = CellTemplate(background: Color(red: 1, green: 1, blue: 1), cornerRadius: 6) {
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
    var scene = Scene()
    scene.cells = ["note": note]
    scene.sections = [ItemList([Item(length: .fixed(0), identifier: "note",
      data: ItemData(["cover": "a.jpg", "w": "3", "h": "4", "title": "夏日穿搭", "author": "Mia"]),
      isSelfSizing: true)])]
    try scene.bindCells()  // checks the fields, and sizes the items by their template
    // doc: templates end
    #expect(scene.itemCount == 1)
  }
}
