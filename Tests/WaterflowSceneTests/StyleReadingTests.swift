import Foundation
import Testing
import WaterflowScene

/// Reading `style` objects in scenes, layout files and style files.
@Suite struct StyleReadingTests {
  private func scene(_ json: String) throws(SceneError) -> Scene {
    try Scene(data: Data(json.utf8), path: "s.json")
  }

  private func error(_ json: String) -> String {
    do { _ = try scene(json) } catch { return error.description }
    return "no error"
  }

  @Test func noStyle_isTheStandardStyle() throws {
    #expect(try scene(##"{"items": []}"##).style == .standard)
    #expect(try scene(##"{"items": [], "style": {}}"##).style == .standard)
  }

  @Test func everyKeyIsRead() throws {
    let s = try scene(
      ###"""
      {"items": [], "style": {"background": "#102030", "cornerRadius": 6, "indexLabels": false,
       "cellColors": ["#FF0000", "#00ff0080"],
       "priceBar": {"height": 30, "color": "#00000080", "textColor": "#FFEE00", "fontSize": 15},
       "header": {"color": "#010203", "textColor": "#040506"}, "footer": {"color": "#070809"},
       "section": {"textColor": "#0A0B0C"}, "empty": {"textColor": "#0D0E0F"},
       "title": {"color": "#111111", "textColor": "#222222", "fontSize": 14}}}
      """###
    ).style
    #expect(s.background == Color(hex: 0x102030))
    #expect(s.cornerRadius == 6)
    #expect(s.indexLabels == false)
    #expect(
      s.cellColors == .palette([Color(hex: 0xFF0000), Color(red: 0, green: 1, blue: 0, alpha: 128.0 / 255)]))
    #expect(s.priceBar.height == 30 && s.priceBar.fontSize == 15)
    #expect(s.priceBar.textColor == Color(hex: 0xFFEE00))
    #expect(s.header == Style.Bar(color: Color(hex: 0x010203), textColor: Color(hex: 0x040506)))
    #expect(s.footer.color == Color(hex: 0x070809))
    #expect(s.section.textColor == Color(hex: 0x0A0B0C))
    #expect(s.empty.textColor == Color(hex: 0x0D0E0F))
    #expect(s.title.fontSize == 14 && s.title.color == Color(hex: 0x111111))
  }

  @Test func dark_isThePresetUnderTheOtherKeys() throws {
    #expect(try scene(##"{"items": [], "style": {"dark": true}}"##).style == .dark)
    let s = try scene(##"{"items": [], "style": {"cornerRadius": 4, "dark": true}}"##).style
    #expect(s.background == Style.dark.background && s.cornerRadius == 4)
  }

  @Test func itemColorAndTitle() throws {
    let s = try scene(##"{"items": [{"height": 10, "color": "#ABCDEF", "title": "Scarf"}]}"##)
    #expect(s.item(at: 0).color == Color(hex: 0xABCDEF))
    #expect(s.item(at: 0).title == "Scarf")
  }

  @Test func layoutFile_readsStyleAndItemKeys() throws {
    let s = try scene(
      ##"{"style": {"dark": true}, "frames": [{"x": 0, "y": 0, "width": 10, "height": 10, "color": "#FF0000", "title": "A"}]}"##)
    #expect(s.style == .dark)
    #expect(s.item(at: 0).color == Color(hex: 0xFF0000) && s.item(at: 0).title == "A")
  }

  @Test func badValues_nameTheKey() {
    #expect(
      error(##"{"items": [], "style": {"background": "red"}}"##)
        == ##"s.json: style.background: expected a colour #RRGGBB or #RRGGBBAA, found "red""##)
    #expect(
      error(##"{"items": [], "style": {"priceBar": {"color": "#12345"}}}"##)
        == ##"s.json: style.priceBar.color: expected a colour #RRGGBB or #RRGGBBAA, found "#12345""##)
    #expect(error(##"{"items": [{"height": 1, "color": "#GG0000"}]}"##).hasPrefix("s.json: items[0].color: expected a colour"))
    #expect(error(##"{"items": [], "style": {"cornerRadius": -1}}"##).hasPrefix("s.json: style.cornerRadius:"))
    #expect(error(##"{"items": [], "style": {"cellColors": []}}"##).hasPrefix("s.json: style.cellColors: needs at least one colour"))
    #expect(error(##"{"items": [], "style": {"cellColors": "rainbow"}}"##).hasPrefix("s.json: style.cellColors:"))
    #expect(error(##"{"items": [], "style": {"theme": "dark"}}"##).hasPrefix("s.json: style.theme:"))
    #expect(error(##"{"items": [], "style": {"header": {"colour": "#000000"}}}"##).hasPrefix("s.json: style.header.colour:"))
  }

  @Test func styleFile_isLaidOverTheScenesStyle() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("style-\(getpid()).json").path
    try Data(#"{"dark": true, "cornerRadius": 9}"#.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    var s = try scene(#"{"items": [], "style": {"cornerRadius": 3, "indexLabels": false}}"#)
    s.apply(try StyleSheet(contentsOf: path))
    #expect(s.style.background == Style.dark.background)
    #expect(s.style.cornerRadius == 9)
    #expect(s.style.indexLabels == false)
  }

  @Test func styleFile_errorsNameTheFileAndKey() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-style-\(getpid()).json").path
    try Data(#"{"priceBar": {"height": "tall"}}"#.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: SceneError.self) { try StyleSheet(contentsOf: path) }
    do { _ = try StyleSheet(contentsOf: path) } catch {
      #expect(error.description.hasPrefix("\(path): priceBar.height:"))
    }
  }
}
