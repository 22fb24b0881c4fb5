import Foundation
import Testing
import WaterflowCells
import WaterflowScene
import WaterflowView

/// Templates over data as an API gives it: nested paths, conditions, attributes from data,
/// overlays and repeats, laid out with the fixed-width stand-in of ``TemplateHeightTests``.
@Suite struct TemplateDataTests {
  static func engine(_ values: [String: DataValue], locale: String = "en") -> CellLayoutEngine {
    let e = TemplateHeightTests.engine()
    e.data = ItemData(values: values)
    e.formatting = DataFormatting(locale: locale)
    return e
  }

  static let note: [String: DataValue] = [
    "type": "video", "cover": ["url": "a.jpg", "width": 300, "height": 400],
    "video": ["duration": "1:24"], "interact": ["liked": true, "likedCount": 12345],
    "tags": [["name": "旅行"], ["name": "日落"], ["name": "海边"]],
  ]
}

extension TemplateDataTests {
  // MARK: - Overlays

  @Test func overlaysSitAtTheirPlaces_AndTheBaseGivesTheSize() {
    let template = CellTemplate {
      CellZStack {
        CellImage("{cover.url}", aspect: .fields(width: "cover.width", height: "cover.height"))
        CellIcon("play", size: 20).placed(.topTrailing, x: -8, y: 8).when("{type} == 'video'")
        CellBadge("{video.duration}", size: 10).placed(.bottomTrailing, x: -6, y: -6)
        CellText("abc", size: 10)  // the stack's own alignment: centred
      }
    }
    let engine = Self.engine(Self.note)
    // 150 wide at 3 : 4 is 200 high; nothing over the base adds to it.
    #expect(engine.height(of: template, width: 150) == 200)
    let pieces = engine.pieces(of: template, in: Rect(x: 10, y: 20, width: 150, height: 200))
    #expect(pieces.count == 4)
    guard pieces.count == 4 else { return }
    #expect(pieces[0] == .image(path: "a.jpg", frame: Rect(x: 10, y: 20, width: 150, height: 200), fit: .fill, cornerRadius: 0))
    // Top trailing, 8 pt in from each edge: x = 10 + 150 − 20 − 8.
    #expect(pieces[1] == .icon(name: "play", color: CellText.secondaryColor, frame: Rect(x: 132, y: 28, width: 20, height: 20)))
    // The badge: "1:24" is 40 pt + 2 × 5 padding wide, 12 + 2 × 1.5 high.
    guard case .badge(let text, _, _, _, let frame) = pieces[2] else {
      Issue.record("\(pieces[2])")
      return
    }
    #expect(text == "1:24")
    #expect(frame == Rect(x: 10 + 150 - 50 - 6, y: 20 + 200 - 15 - 6, width: 50, height: 15))
    // A text overlay takes its natural width (3 × 10) and one line (12), centred.
    guard case .text(_, _, _, let textFrame) = pieces[3] else { return }
    #expect(textFrame == Rect(x: 10 + 60, y: 20 + 94, width: 30, height: 12))
    // Without the condition, no icon.
    var photo = Self.note
    photo["type"] = "normal"
    #expect(Self.engine(photo).pieces(of: template, in: Rect(x: 0, y: 0, width: 150, height: 200)).count == 3)
  }

  @Test func aRibbonIsAZStackSpanningTheBaseAtItsBottom() {
    let template = CellTemplate {
      CellZStack {
        CellImage("{cover.url}", aspect: .ratio(1))
        CellZStack {
          CellRect(height: 20, color: Color(red: 0, green: 0, blue: 0))
          CellText("SOLD OUT", size: 10)
        }.placed(.bottom)
      }
    }
    let pieces = Self.engine(Self.note).pieces(of: template, in: Rect(x: 0, y: 0, width: 100, height: 100))
    #expect(pieces.count == 3)
    guard pieces.count == 3, case .rect(_, _, let band) = pieces[1], case .text(_, _, _, let label) = pieces[2] else {
      return
    }
    #expect(band == Rect(x: 0, y: 80, width: 100, height: 20))
    #expect(label == Rect(x: 10, y: 84, width: 80, height: 12))
  }

  // MARK: - Repeats

  @Test func foreachDrawsOneElementPerEntry_UpToItsLimit() {
    let row = CellStack(.horizontal, spacing: 4, foreach: "tags", limit: 2) {
      CellBadge("#{item.name}", size: 10)
    }
    let template = CellTemplate { row }
    let pieces = Self.engine(Self.note).pieces(of: template, in: Rect(x: 0, y: 0, width: 300, height: 15))
    let texts = pieces.compactMap { if case .badge(let t, _, _, _, _) = $0 { t } else { nil } }
    #expect(texts == ["#旅行", "#日落"])
    // An empty or missing list draws nothing and takes no room.
    let column = CellTemplate {
      CellText("x", size: 10)
      row
    }
    #expect(Self.engine([:]).height(of: column, width: 100) == 12)
    #expect(Self.engine(Self.note).height(of: column, width: 100) == 12 + 15)
  }

  // MARK: - Attributes from data and formats

  @Test func iconsAndColoursComeFromData() {
    let heart = CellIcon("heart", size: 12)
      .from(.icon, FieldText(choosing: "{interact.liked}", then: "heart.fill", else: "heart"))
      .from(.color, FieldText(choosing: "{interact.liked}", then: "#FF2442", else: "#888888"))
    let template = CellTemplate { heart }
    let liked = Self.engine(Self.note).pieces(of: template, in: Rect(x: 0, y: 0, width: 12, height: 12))
    #expect(liked == [.icon(name: "heart.fill", color: Color(hexString: "#FF2442")!, frame: Rect(x: 0, y: 0, width: 12, height: 12))])
    var other = Self.note
    other["interact"] = ["liked": false]
    let unliked = Self.engine(other).pieces(of: template, in: Rect(x: 0, y: 0, width: 12, height: 12))
    #expect(unliked == [.icon(name: "heart", color: Color(hexString: "#888888")!, frame: Rect(x: 0, y: 0, width: 12, height: 12))])
  }

  @Test(arguments: [("zh-Hans", "1.2万"), ("en", "12.3k"), ("ar", "١٢٫٣\u{00A0}ألف")])
  func formatsFollowTheTemplatesLocale(locale: String, expected: String) {
    var template = CellTemplate { CellText("{interact.likedCount|compact}", size: 10) }
    template.formatting = DataFormatting(locale: locale)
    let pieces = Self.engine(Self.note).pieces(of: template, in: Rect(x: 0, y: 0, width: 100, height: 12))
    guard case .text(let text, _, _, _)? = pieces.first else {
      Issue.record("\(pieces)")
      return
    }
    #expect(text == expected)
  }
}

// MARK: - Scene files

extension TemplateDataTests {
  static func message(template: String, items: String) -> String {
    TemplateReadingTests.message(template: template, items: items)
  }

  @Test func scenesReadNestedData_Conditions_Overlays_AndRepeats() throws {
    let scene = try TemplateReadingTests.scene(
      template: ##"""
        {"content": {"vstack": [
          {"zstack": [
            {"image": "{cover.url}", "aspect": "{cover.width}:{cover.height}"},
            {"icon": "play", "position": "topTrailing", "offset": {"x": -8, "y": 8}, "when": "{type} == 'video'"}
          ], "align": "bottom"},
          {"hstack": [{"badge": "{item}"}], "foreach": "{tags}", "limit": 2},
          {"icon": {"if": "{liked}", "then": "heart.fill", "else": "heart"}, "color": "{tint}"}
        ]}}
        """##,
      items: ##"[{"identifier": "note", "data": {"type": "video", "cover": {"url": "a.jpg", "width": 3, "height": 4}, "tags": ["a", "b", "c"], "liked": true, "tint": "#FF0000", "gone": null}}]"##
    ).get()
    let template = try #require(scene.cells["note"])
    guard case .stack(let column) = template.content.kind, case .zstack(let z) = column.children[0].kind,
      case .stack(let row) = column.children[1].kind
    else {
      Issue.record("\(template.content)")
      return
    }
    #expect(z.alignment == .bottom)
    #expect(z.children[1].placement == OverlayPlacement(.topTrailing, x: -8, y: 8))
    #expect(z.children[1].when == "{type} == 'video'")
    #expect(row.foreach == "tags" && row.limit == 2)
    #expect(column.children[2].fromData[.icon]?.choice?.then == "heart.fill")
    #expect(column.children[2].fromData[.color] == "{tint}")
    let data = try #require(scene.item(at: 0).data)
    #expect(data["cover.width"] == "3" && data["tags[2]"] == "c" && data["liked"] == "true")
    #expect(data.values["gone"] == nil)
  }

  @Test(arguments: [
    // A condition that is no condition names the column.
    (#"{"content": {"text": "x", "when": "{type} = 'video'"}}"#, #"{"type": "video"}"#,
     #"feed.json: cells.note.content.when: unexpected "= 'video'" (compare with ==), at character 8 of "{type} = 'video'" (conditions: {field}, !, ==, !=, <, <=, >, >=, &&, ||, parentheses; texts in quotes)"#),
    // A field compared as a number that is none.
    (#"{"content": {"text": "x", "when": "{likes} > 100"}}"#, #"{"likes": "many"}"#,
     #"feed.json: items[0]: field "likes" is "many", which cells.note.content.text.when reads as a number: give a finite number"#),
    // A formatted field that is no number.
    (#"{"content": {"text": "{likes|compact}"}}"#, #"{"likes": true}"#,
     #"feed.json: items[0]: field "likes" is true, which cells.note.content.text reads as a number: give a finite number"#),
    // A relative date that is no date.
    (#"{"content": {"text": "{time|relative}"}}"#, #"{"time": "yesterday"}"#,
     #"feed.json: items[0]: field "time" is "yesterday", which cells.note.content.text reads as a date: give an ISO 8601 date ("2026-11-24T08:30:00Z") or a Unix time"#),
    // An icon and a colour chosen through data that are neither.
    (#"{"content": {"icon": "{name}"}}"#, #"{"name": "hart"}"#,
     #"feed.json: items[0]: cells.note.content.icon.icon takes "hart" from the data (field "name") as an icon (icons are: bookmark, bookmark.fill, cart, checkmark, comment, eye, flame, heart, heart.fill, location, person, play, plus, share, star, star.fill)"#),
    (#"{"content": {"badge": "x", "background": "{tint}"}}"#, #"{"tint": "red"}"#,
     #"feed.json: items[0]: cells.note.content.badge.background takes "red" from the data (field "tint") as a colour: give #RRGGBB or #RRGGBBAA"#),
    // A fixed choice is checked as it is read.
    (#"{"content": {"icon": {"if": "{liked}", "then": "heart.full"}}}"#, #"{"liked": true}"#,
     #"feed.json: cells.note.content.icon: unknown icon "heart.full" (icons are: bookmark, bookmark.fill, cart, checkmark, comment, eye, flame, heart, heart.fill, location, person, play, plus, share, star, star.fill)"#),
    // Overlay keys outside a zstack, and a limit without a list.
    (#"{"content": {"vstack": [{"text": "x", "position": "top"}]}}"#, #"{}"#,
     #"feed.json: cells.note.content.vstack[0]: position and offset place an overlay: give them to the elements of a zstack after the first"#),
    (#"{"content": {"hstack": [{"text": "x"}], "limit": 2}}"#, #"{}"#,
     #"feed.json: cells.note.content.limit: limits a foreach: give the list as "foreach": "{tags}""#),
    // A nested field mistyped gets the nearest path.
    (#"{"content": {"text": "{user.nickame}"}}"#, #"{"user": {"nickname": "Mia"}}"#,
     #"feed.json: items[0]: has no field "user.nickame" (did you mean "user.nickname"?), which cells.note.content.text reads; give it in the item's data, or show the element only "when": "{user.nickame}""#),
  ])
  func mistakesNameTheirPlace(template: String, data: String, expected: String) {
    let message = Self.message(template: template, items: #"[{"identifier": "note", "data": "# + data + "}]")
    #expect(message == expected)
  }

  @Test func aJSONFileOfItemsUnderAPath_NamesRowsByTheirPath() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waterflow-data-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let feed = #"{"code": 0, "data": {"items": [{"t": "a", "n": 1}, {"t": "b", "n": "x"}], "more": true}}"#
    try Data(feed.utf8).write(to: folder.appendingPathComponent("feed.json"))
    func load(_ items: String) -> String {
      let json = #"{"columns": 2, "cells": {"note": {"content": {"text": "{t} {n|compact}"}}}, "items": "# + items + "}"
      let path = folder.appendingPathComponent("scene.json").path
      try? Data(json.utf8).write(to: URL(fileURLWithPath: path))
      do { return try Scene(contentsOf: path).itemCount.description } catch { return "\(error)" }
    }
    let file = folder.appendingPathComponent("feed.json").path
    #expect(
      load(#"{"import": "feed.json", "path": "data.items", "identifier": "note"}"#)
        == #"\#(file): data.items[1]: field "n" is "x", which \#(folder.path)/scene.json: cells.note.content.text reads as a number: give a finite number"#)
    #expect(
      load(#"{"import": "feed.json", "path": "data.list", "identifier": "note"}"#)
        == #"\#(file): data: has no key "list" (the import's path is "data.list")"#)
    #expect(
      load(#"{"import": "feed.json", "path": "code", "identifier": "note"}"#)
        == #"\#(file): code: expected the array of items at "code", found a number"#)
    try Data(#"{"data": {"items": [{"t": "a", "n": 12345}]}}"#.utf8).write(to: folder.appendingPathComponent("feed.json"))
    #expect(load(#"{"import": "feed.json", "path": "data.items", "identifier": "note"}"#) == "1")
  }
}

extension TemplateDataTests {
  /// JSON lines are read a megabyte at a time: rows that straddle two reads are whole, and
  /// lines are counted across them.
  @Test func jsonLinesLongerThanOneRead_AreReadWhole_AndCountedAcrossReads() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waterflow-lines-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // 12,000 rows of about 130 bytes: 1.5 MB, so some row crosses the 1 MiB mark.
    var text = ""
    for i in 0..<12_000 {
      text += #"{"t": "row \#(i) \#(String(repeating: "x", count: 90))", "n": \#(i)}"# + "\n"
      if i == 9_000 { text += "\n" }  // a blank line, still counted
    }
    text += #"{"t": "last, without a newline", "n": "many"}"#
    try Data(text.utf8).write(to: folder.appendingPathComponent("rows.jsonl"))
    let scene = #"{"columns": 2, "cells": {"note": {"content": {"text": "{t} {n|grouped}"}}}, "items": {"import": "rows.jsonl", "identifier": "note"}}"#
    let path = folder.appendingPathComponent("scene.json").path
    try Data(scene.utf8).write(to: URL(fileURLWithPath: path))
    do {
      _ = try Scene(contentsOf: path)
      Issue.record("the last row's bad number was taken")
    } catch {
      // 12,000 rows and one blank line before it: the last row is line 12,002.
      #expect("\(error)".hasPrefix(folder.appendingPathComponent("rows.jsonl").path + #":12002: field "n" is "many""#), "\(error)")
    }
    text = String(text.dropLast(#"{"t": "last, without a newline", "n": "many"}"#.count))
    try Data(text.utf8).write(to: folder.appendingPathComponent("rows.jsonl"))
    let read = try Scene(contentsOf: path)
    #expect(read.itemCount == 12_000)
    // Every row whole, the one that crosses the first megabyte too.
    let wrong = (0..<12_000).filter { read.item(at: $0).data?["n"] != String($0) }
    #expect(wrong.isEmpty, "rows read wrong: \(wrong.prefix(5))")
    #expect(read.item(at: 8_070).data?["t"]?.hasPrefix("row 8070 xxx") == true)
  }
}
