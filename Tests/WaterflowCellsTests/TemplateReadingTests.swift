import Foundation
import Testing
import WaterflowCells
import WaterflowScene
import WaterflowTestSupport

/// Scene files with `cells`: what they read into, and one clear message per mistake.
@Suite struct TemplateReadingTests {
  /// A scene of one template and the given items, read from text.
  static func scene(template: String, items: String = #"[{"identifier": "note", "data": {"t": "x"}}]"#)
    -> Result<Scene, SceneError>
  {
    let json = #"{"columns": 2, "cells": {"note": "# + template + #"}, "items": "# + items + "}"
    return Result { () throws(SceneError) in
      try Scene(data: Data(json.utf8), path: "feed.json")
    }
  }

  static func message(template: String, items: String = #"[{"identifier": "note", "data": {"t": "x"}}]"#)
    -> String
  {
    switch scene(template: template, items: items) {
    case .success: "loaded"
    case .failure(let error): error.description
    }
  }
}

extension TemplateReadingTests {
  // MARK: - Reading

  @Test func template_ReadsIntoTheModel() throws {
    let scene = try Self.scene(
      template: ##"""
        {"background": "#FFFFFF", "cornerRadius": 8, "padding": {"top": 2, "bottom": 4},
         "content": {"vstack": [
           {"image": "{cover}", "aspect": "{w}:{h}", "cornerRadius": 6},
           {"text": "{t} likes", "size": 13, "weight": "semibold", "lines": 2},
           {"badge": "{tag}", "when": "{tag}"}
         ], "spacing": 6, "align": "center"}}
        """##,
      items: #"[{"identifier": "note", "data": {"t": "x", "cover": "a.jpg", "w": 3, "h": 4}}]"#
    ).get()
    let template = try #require(scene.cells["note"])
    #expect(template.cornerRadius == 8)
    #expect(template.padding == EdgeInsets(top: 2, left: 0, bottom: 4, right: 0))
    guard case .stack(let stack) = template.content.kind else {
      Issue.record("content is not a stack")
      return
    }
    #expect(stack.axis == .vertical && stack.spacing == 6 && stack.alignment == .center)
    #expect(stack.children.count == 3)
    guard case .image(let image) = stack.children[0].kind else { return }
    #expect(image.aspect == .fields(width: "w", height: "h"))
    guard case .text(let text) = stack.children[1].kind else { return }
    #expect(text.lines == 2 && text.weight == .semibold && text.text.fields == ["t"])
    #expect(stack.children[2].when?.fields == ["tag"])
    // Numbers in data are kept as written.
    #expect(scene.item(at: 0).data?["w"] == "3")
  }

  @Test func baselineAlignment_IsARowsOnly() throws {
    let scene = try Self.scene(
      template: #"{"content": {"hstack": [{"text": "{t}"}, {"text": "{t}", "size": 20}], "align": "baseline"}}"#
    ).get()
    let template = try #require(scene.cells["note"])
    guard case .stack(let stack) = template.content.kind else {
      Issue.record("content is not a stack")
      return
    }
    #expect(stack.axis == .horizontal && stack.alignment == .firstBaseline)
    let message = Self.message(
      template: #"{"content": {"vstack": [{"text": "{t}"}], "align": "baseline"}}"#)
    #expect(message.hasPrefix("feed.json: cells.note.content.align: "), "\(message)")
    #expect(message.contains("leading"), "the choices are listed: \(message)")
  }

  @Test(arguments: ["tall", "0", "-3", "nan", "inf", ""])
  func aspectField_ThatIsNotAPositiveNumber_IsNamed(value: String) {
    let template = #"{"content": {"vstack": [{"image": "{c}", "aspect": "{w}:{h}"}, {"text": "{t}"}]}}"#
    let message = Self.message(
      template: template,
      items: #"[{"identifier": "note", "data": {"t": "x", "c": "a.jpg", "w": 3, "h": 4}}, "#
        + #"{"identifier": "note", "data": {"t": "y", "c": "b.jpg", "w": "1,080", "h": "\#(value)"}}]"#)
    #expect(
      message
        == #"feed.json: items[1]: field "h" is "\#(value)", which cells.note.content.vstack[0].image.aspect reads as a number: give a finite number above 0"#,
      "\(message)")
  }

  @Test func aspectField_GuardedAndMissing_IsNoError_AndNumbersWithGroupingRead() {
    let template = #"{"content": {"vstack": [{"image": "{c}", "aspect": "{w}:{h}", "when": "{h}"}, {"text": "{t}"}]}}"#
    #expect(
      Self.message(
        template: template,
        items: #"[{"identifier": "note", "data": {"t": "x", "c": "a.jpg"}}, "#
          + #"{"identifier": "note", "data": {"t": "y", "c": "b.jpg", "w": "1,080", "h": " 720 "}}]"#)
        == "loaded")
  }

  @Test func itemWithoutHeight_IsSizedByItsTemplate() throws {
    let scene = try Self.scene(template: #"{"content": {"rect": {}, "height": 37}}"#).get()
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    #expect(controller.view.snapshot?.frame(at: 0).height == 37)
  }

  @Test func itemWithAHeight_KeepsIt() throws {
    let scene = try Self.scene(
      template: #"{"content": {"rect": {}, "height": 37}}"#,
      items: #"[{"identifier": "note", "height": 90}]"#
    ).get()
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    #expect(controller.view.snapshot?.frame(at: 0).height == 90)
  }

  // MARK: - Bad templates, by path

  @Test func unknownElement_NamesItsPath() {
    let message = Self.message(
      template: #"{"content": {"vstack": [{"text": "{t}"}, {"txt": "{t}"}]}}"#)
    #expect(
      message.hasPrefix(
        #"feed.json: cells.note.content.vstack[1]: unknown element "txt" (elements are: vstack"#),
      "\(message)")
  }

  @Test func attributeOfAnotherKind_IsRefused() {
    let message = Self.message(template: #"{"content": {"image": "{c}", "lines": 2}}"#)
    #expect(message.hasPrefix("feed.json: cells.note.content.lines: image takes no lines"), "\(message)")
  }

  @Test func twoKinds_AreRefused() {
    let message = Self.message(template: #"{"content": {"image": "{c}", "text": "x"}}"#)
    #expect(message.contains("give either image or text, not both"), "\(message)")
  }

  @Test func missingField_NamesTheItemAndTheField() {
    let message = Self.message(
      template: #"{"content": {"vstack": [{"text": "{t}"}, {"text": "{likes} likes"}]}}"#)
    #expect(
      message
        == #"feed.json: items[0]: has no field "likes", which cells.note.content.vstack[1].text reads; give it in the item's data, or show the element only "when": "{likes}""#,
      "\(message)")
  }

  @Test func guardedField_MayBeMissing() {
    let message = Self.message(
      template: #"{"content": {"vstack": [{"text": "{t}"}, {"badge": "{tag}", "when": "{tag}"}]}}"#)
    #expect(message == "loaded")
  }

  @Test(arguments: [
    (#"{"content": {"text": "{t}", "size": 0}}"#, "cells.note.content.size"),
    (#"{"content": {"text": "{t}", "size": -3}}"#, "cells.note.content.size"),
    (#"{"content": {"icon": "heart", "size": 0}}"#, "cells.note.content.size"),
    (#"{"content": {"rect": {}, "height": 0}}"#, "cells.note.content.height"),
    (#"{"content": {"image": "{t}", "aspect": 0}}"#, "cells.note.content.aspect"),
    (#"{"content": {"image": "{t}", "aspect": "0:4"}}"#, "cells.note.content.aspect"),
    (#"{"cornerRadius": -1, "content": {"text": "{t}"}}"#, "cells.note.cornerRadius"),
  ])
  func zeroOrNegativeSizes_AreRefused(template: String, field: String) {
    let message = Self.message(template: template)
    #expect(message.hasPrefix("feed.json: \(field): "), "\(message)")
  }

  @Test func unknownIcon_ListsTheIcons() {
    let message = Self.message(template: #"{"content": {"icon": "hart"}}"#)
    #expect(message.contains(#"unknown icon "hart" (icons are: "#), "\(message)")
    #expect(message.contains("heart"))
  }

  @Test func brokenFieldText_IsRefused() {
    let message = Self.message(template: #"{"content": {"text": "{t"}}"#)
    #expect(message.hasPrefix(#"feed.json: cells.note.content.text: "{" is not closed"#), "\(message)")
  }

  @Test func templateWithoutContent_IsRefused() {
    #expect(
      Self.message(template: ##"{"background": "#FFFFFF"}"##)
        .hasPrefix("feed.json: cells.note.content: missing"))
  }

  @Test func selfSizingItemWithoutTemplate_SaysWhatIsMissing() {
    let message = Self.message(
      template: #"{"content": {"text": "{t}"}}"#, items: #"[{"identifier": "ad"}]"#)
    #expect(
      message.hasPrefix(
        #"feed.json: items[0]: needs a height, an image size {w, h}, or a template for its identifier "ad""#),
      "\(message)")
  }

  @Test func aListOrObjectShownAsText_IsRefused_NamingItsParts() {
    let list = Self.message(
      template: #"{"content": {"text": "{t}"}}"#,
      items: #"[{"identifier": "note", "data": {"t": ["x"]}}]"#)
    #expect(
      list
        == #"feed.json: items[0]: field "t" is a list, which cells.note.content.text shows as a text; read one entry, {t[0]}, or repeat an element over it with "foreach": "{t}""#
    )
    let object = Self.message(
      template: #"{"content": {"text": "{cover}"}}"#,
      items: #"[{"identifier": "note", "data": {"cover": {"url": "a.jpg", "width": 3}}}]"#)
    #expect(
      object
        == #"feed.json: items[0]: field "cover" is an object, which cells.note.content.text shows as a text; read one of its fields: {cover.url}, {cover.width}"#
    )
  }

  // MARK: - Data files

  /// A data file's row that lacks a field, or gives a bad number, is named by the file and its
  /// line (JSON lines, blank lines counted) or row (CSV, the header being row 1), with the
  /// scene's template and the nearest field the row has.
  @Test func dataFileErrors_NameTheFileAndLine_AndTheNearestField() throws {
    let folder = try makeTemporaryDirectory()
    try (#"{"t": "one", "nickname": "a"}"# + "\n\n" + #"{"t": "two", "nickame": "b"}"# + "\n")
      .write(toFile: folder + "/feed.jsonl", atomically: true, encoding: .utf8)
    try "t,w,h\nx,3,4\ny,3,tall\n".write(
      toFile: folder + "/feed.csv", atomically: true, encoding: .utf8)
    func load(_ items: String, _ cell: String) throws -> String {
      try #"{"cells": {"n": {"content": \#(cell)}}, "items": \#(items)}"#.write(
        toFile: folder + "/scene.json", atomically: true, encoding: .utf8)
      do {
        _ = try Scene(contentsOf: folder + "/scene.json")
        return "loaded"
      } catch { return error.description }
    }
    let missing = try load(
      #"{"import": "feed.jsonl", "identifier": "n"}"#,
      #"{"vstack": [{"text": "{t}"}, {"text": "{nickname}"}]}"#)
    #expect(
      missing
        == folder + "/feed.jsonl:3: has no field \"nickname\" (did you mean \"nickame\"?), which "
        + folder + "/scene.json: cells.n.content.vstack[1].text reads; give it in the item's "
        + "data, or show the element only \"when\": \"{nickname}\"", "\(missing)")
    let number = try load(
      #"{"import": "feed.csv", "identifier": "n"}"#,
      #"{"vstack": [{"image": "a.jpg", "aspect": "{w}:{h}"}, {"text": "{t}"}]}"#)
    #expect(
      number
        == folder + "/feed.csv: row 3: field \"h\" is \"tall\", which " + folder
        + "/scene.json: cells.n.content.vstack[0].image.aspect reads as a number: give a finite "
        + "number above 0", "\(number)")
    // No field near the name: no guess.
    let far = try load(
      #"{"import": "feed.jsonl", "identifier": "n"}"#, #"{"text": "{description}"}"#)
    #expect(far.contains(#"has no field "description", which"#), "\(far)")
  }

  @Test func csvAndJSONLines_BecomeItems() throws {
    let folder = try makeTemporaryDirectory()
    try #"""
      photo,title,sold,tag
      a.jpg,"Tea, green",1000+,包邮
      b.jpg,"A ""quoted"" title","1,000+",
      """#.write(toFile: folder + "/feed.csv", atomically: true, encoding: .utf8)
    try #"{"t": "one", "n": 3}"# .appending("\n\n" + #"{"t": "two"}"#)
      .write(toFile: folder + "/feed.jsonl", atomically: true, encoding: .utf8)
    let json = #"""
      {"cells": {"p": {"content": {"text": "{title}"}}, "n": {"content": {"text": "{t}"}}},
       "sections": [{"items": {"import": "feed.csv", "identifier": "p"}},
                    {"items": [{"import": "feed.jsonl", "identifier": "n"}, {"height": 40}]}]}
      """#
    try json.write(toFile: folder + "/scene.json", atomically: true, encoding: .utf8)
    let scene = try Scene(contentsOf: folder + "/scene.json")
    #expect(scene.itemCount == 5)
    #expect(scene.item(at: 0).data?["title"] == "Tea, green")
    #expect(scene.item(at: 1).data?["title"] == #"A "quoted" title"#)
    #expect(scene.item(at: 1).data?["sold"] == "1,000+")
    // An empty cell is a field left out.
    #expect(scene.item(at: 1).data?["tag"] == nil)
    #expect(scene.item(at: 2).data?["n"] == "3")
    #expect(scene.item(at: 3).identifier == "n")
    #expect(scene.item(at: 4).data == nil)
    // Image paths in the data are relative to the data file.
    #expect(scene.item(at: 0).data?.resolvePath("a.jpg") == folder + "/a.jpg")
  }

  @Test func csvRowWithTooFewFields_NamesTheRow() throws {
    let folder = try makeTemporaryDirectory()
    try "a,b\n1,2\n3\n".write(toFile: folder + "/f.csv", atomically: true, encoding: .utf8)
    try #"{"cells": {"cell": {"content": {"text": "{a}"}}}, "items": {"import": "f.csv"}}"#
      .write(toFile: folder + "/s.json", atomically: true, encoding: .utf8)
    #expect(throws: SceneError.self) { try Scene(contentsOf: folder + "/s.json") }
    do {
      _ = try Scene(contentsOf: folder + "/s.json")
    } catch {
      #expect(error.description == "\(folder)/f.csv: row 3: has 1 fields, but the header names 2")
    }
  }
}
