import Foundation
import PNGCodec
import Testing
import WaterflowScene
import WaterflowShots
import WaterflowTestSupport

@Suite struct DeviceTableTests {
  @Test("the store sizes", arguments: [
    ("iphone-6.9", 440.0, 956.0, 3.0, 1320, 2868), ("iphone-6.5", 414, 896, 3, 1242, 2688),
    ("iphone-5.5", 414, 736, 3, 1242, 2208), ("ipad-13", 1032, 1376, 2, 2064, 2752),
    ("iphone-6.1", 390, 844, 3, 1170, 2532), ("iphone-4.7", 375, 667, 2, 750, 1334),
    ("ipad-12.9", 1024, 1366, 2, 2048, 2732), ("android-phone", 360, 640, 3, 1080, 1920),
  ])
  func sizes(_ name: String, _ w: Double, _ h: Double, _ scale: Double, _ pw: Int, _ ph: Int) throws {
    let device = try #require(Device.named(name))
    #expect(device.size == Size(width: w, height: h))
    #expect(device.scale == scale)
    #expect(device.pixelWidth == pw)
    #expect(device.pixelHeight == ph)
  }

  @Test func everyDeviceIsListedOnce() {
    #expect(Set(Device.names).count == Device.all.count)
    #expect(Device.named("iphone-7") == nil)
  }

  @Test("unframed and framed shots are the device's pixels", arguments: ["iphone-6.9", "ipad-13", "android-phone"])
  func shotSize(_ name: String) throws {
    for framed in [false, true] {
      let fixture = try ShotFixture(
        shotFile: """
          {"scenes": ["list.json"], "devices": ["\(name)"], "locales": {"en": "en.json"}, "frame": \(framed), "caption": "@caption"}
          """)
      let shot = try fixture.shot("en", device: name)
      let image = try fixture.image(of: shot)
      let device = Device.named(name)!
      #expect(image.width == device.pixelWidth)
      #expect(image.height == device.pixelHeight)
    }
  }
}

@Suite struct StringTableTests {
  let table = StringTable(locale: "en", strings: ["title": "Hello", "sold": "{sold} sold"], path: "en.json")

  @Test func looksUpKeys() throws {
    #expect(try table.lookUp("@title").get() == "Hello")
    #expect(try table.lookUp("plain text").get() == "plain text")
    #expect(try table.lookUp("@@handle").get() == "@handle")
    #expect(try table.lookUp("a@b").get() == "a@b")
    #expect(throws: StringTable.MissingKey(key: "nope")) { try table.lookUp("@nope").get() }
  }

  @Test func looksUpKeysInsideLongerTexts() throws {
    let table = StringTable(
      locale: "zh-Hans", strings: ["likes": "赞", "sold": "已售 {sold}", "free": "包邮"])
    #expect(try table.lookUp("{likes} {@likes}").get() == "{likes} 赞")
    #expect(try table.lookUp("{@sold} · {@free}").get() == "已售 {sold} · 包邮")
    // `{{` is a literal brace: `{{@likes}}` is the text "{@likes}", not a key.
    #expect(try table.lookUp("{{@likes}}").get() == "{{@likes}}")
    #expect(try table.lookUp("{{{@likes}").get() == "{{赞")
    #expect(try table.lookUp("mail a@b.com {x}").get() == "mail a@b.com {x}")
    #expect(throws: StringTable.MissingKey(key: "nope")) { try table.lookUp("x {@nope}").get() }
    #expect(StringTable.hasEmbeddedKey("a {@b}") && !StringTable.hasEmbeddedKey("a @b {c}"))
  }

  @Test func embeddedKeysInTemplatesAndData_AreLookedUp_AndShownAsWrittenWithoutALocale() throws {
    let fixture = try ShotFixture()
    try fixture.write(
      """
      {"viewport": {"width": 200, "height": 200}, "columns": 1,
       "cells": {"p": {"content": {"text": "{likes} {@likes.unit}", "size": 12}}},
       "items": [{"identifier": "p", "data": {"likes": "5", "tag": "{@free} · new"}}]}
      """, to: "likes.json")
    let table = StringTable(locale: "en", strings: ["likes.unit": "likes", "free": "Free shipping"])
    let plain = try Scene(contentsOf: fixture.folder + "/likes.json")
    let scene = try plain.localized(with: table)
    guard case .text(let text) = scene.cells["p"]!.content.kind else {
      Issue.record("expected a text")
      return
    }
    #expect(text.text.resolve(in: ItemData(["likes": "5"]), index: 0) == "5 likes")
    #expect(scene.item(at: 0).data?["tag"] == "Free shipping · new")
    // Not localized: the key is text, not a field the item lacks.
    guard case .text(let unlocalized) = plain.cells["p"]!.content.kind else { return }
    #expect(unlocalized.text.fields == ["likes"])
    #expect(unlocalized.text.resolve(in: ItemData(["likes": "5"]), index: 0) == "5 {@likes.unit}")
    // A key the table lacks is named with its place.
    let error = try #require(throws: SceneError.self) {
      try plain.localized(with: StringTable(locale: "en", strings: ["free": "x"], path: "en.json"))
    }
    #expect(error.description.contains("\"@likes.unit\" is not in the en strings"), "\(error)")
  }

  @Test("right-to-left locales", arguments: [("ar", true), ("ar-SA", true), ("he", true), ("fa_IR", true), ("ur", true), ("en", false), ("zh-Hans", false), ("fr", false)])
  func direction(_ locale: String, _ rtl: Bool) {
    #expect(StringTable.isRightToLeft(locale: locale) == rtl)
  }

  @Test func localizesEveryText() throws {
    let fixture = try ShotFixture()
    let scene = try Scene(contentsOf: fixture.folder + "/list.json")
    let en = try StringTable(contentsOf: fixture.folder + "/en.json", locale: "en")
    let localized = try scene.localized(with: en)
    #expect(localized.header?.text == "Inbox")
    #expect(localized.item(at: 0).data?["title"] == "Hello")
    #expect(localized.item(at: 1).data?["title"] == "@literal")
    #expect(localized.layout.direction == .leftToRight)
    let ar = try StringTable(contentsOf: fixture.folder + "/ar.json", locale: "ar")
    #expect(try scene.localized(with: ar).layout.direction == .rightToLeft)
  }

  @Test func templateTextsAreLookedUpAndKeepTheirFields() throws {
    let fixture = try ShotFixture()
    try fixture.write(
      """
      {"viewport": {"width": 200, "height": 200}, "columns": 1,
       "cells": {"p": {"content": {"text": "@sold", "size": 12}}},
       "items": [{"identifier": "p", "data": {"sold": "5"}}]}
      """, to: "sold.json")
    let scene = try Scene(contentsOf: fixture.folder + "/sold.json").localized(with: table)
    guard case .text(let text) = scene.cells["p"]!.content.kind else {
      Issue.record("expected a text")
      return
    }
    #expect(text.text.source == "{sold} sold")
    #expect(text.text.resolve(in: ItemData(["sold": "5"]), index: 0) == "5 sold")
  }

  @Test func aMissingKeyNamesThePlaceTheKeyAndTheTable() throws {
    let fixture = try ShotFixture(strings: ["header": "Inbox"])
    let scene = try Scene(contentsOf: fixture.folder + "/list.json")
    let en = try StringTable(contentsOf: fixture.folder + "/en.json", locale: "en")
    let error = try #require(throws: SceneError.self) { try scene.localized(with: en) }
    #expect(error.field == "items[0].data.title")
    #expect(error.description.contains("\"@title.1\" is not in the en strings (\(fixture.folder)/en.json)"))
  }

  @Test func aMissingTableNamesTheFile() throws {
    let fixture = try ShotFixture(
      shotFile: """
        {"scenes": ["list.json"], "devices": ["iphone-6.9"], "locales": {"de": "de.json"}}
        """)
    let file = try fixture.file()
    let error = try #require(throws: ShotSetError.self) { try ShotScenes(for: file.shots) }
    #expect(error.description.contains("de.json"))
    #expect(error.description.contains("de"))
  }

  @Test func aTableValueThatIsNotAStringIsNamed() throws {
    let fixture = try ShotFixture()
    try fixture.write(#"{"title": 3}"#, to: "bad.json")
    let error = try #require(throws: SceneError.self) {
      try StringTable(contentsOf: fixture.folder + "/bad.json", locale: "x")
    }
    #expect(error.field == "title")
    #expect(error.message.contains("expected a string"))
  }
}

@Suite struct ShotDrawingTests {
  /// The red bar sits at the cell's leading edge: left in English, right in Arabic.
  @Test func arabicMirrorsTheLayoutAndTheCells() throws {
    let fixture = try ShotFixture()
    let en = try fixture.image(of: try fixture.shot("en"))
    let ar = try fixture.image(of: try fixture.shot("ar"))
    // The first cell: below the 62-pt status bar, the 40-pt header and the 10-pt margin.
    let y = (62 + 40 + 10 + 30) * 3
    let w = en.width
    #expect(en.hasRed(x: 30..<130, y: y..<y + 3))
    #expect(!en.hasRed(x: w - 130..<w - 30, y: y..<y + 3))
    #expect(ar.hasRed(x: w - 130..<w - 30, y: y..<y + 3))
    #expect(!ar.hasRed(x: 30..<130, y: y..<y + 3))
  }

  @Test func darkUsesTheDarkVariants() throws {
    let fixture = try ShotFixture()
    let light = try fixture.image(of: try fixture.shot("en", .light))
    let dark = try fixture.image(of: try fixture.shot("en", .dark))
    // Below the last cell: the canvas.
    let y = light.height - 200
    #expect(light.pixel(20, y) == [255, 255, 255, 255])
    #expect(dark.pixel(20, y) == [0, 0, 0, 255])
  }

  @Test func sceneWithoutDarkColoursTakesTheDarkPreset() throws {
    let scene = Scene().appearing(.dark)
    #expect(scene.style == Style.dark)
    #expect(Scene().appearing(.light).style == Style.standard)
  }

  @Test func framedShotsPutTheCaptionAboveTheDeviceOnTheBackground() throws {
    let fixture = try ShotFixture(
      shotFile: """
        {"scenes": ["list.json"], "devices": ["iphone-6.9"], "locales": {"en": "en.json"},
         "frame": true, "caption": "@caption", "background": ["#2040FF", "#2040FF"]}
        """)
    let image = try fixture.image(of: try fixture.shot("en"))
    // The corners are the background.
    for (x, y) in [(0, 0), (image.width - 1, 0), (0, image.height - 1), (image.width - 1, image.height - 1)] {
      #expect(image.pixel(x, y) == [32, 64, 255, 255])
    }
    // The caption is white text on the dark blue, in the top band, centred.
    let band = 0..<Int(Double(image.height) * 0.13)
    var caption: [Int] = []
    for y in band { for x in stride(from: 0, to: image.width, by: 2) where image.pixel(x, y)[0] > 230 && image.pixel(x, y)[2] > 230 { caption.append(x) } }
    #expect(!caption.isEmpty)
    let centre = Double(caption.min()! + caption.max()!) / 2
    #expect(abs(centre - Double(image.width) / 2) < Double(image.width) * 0.05)
    // Below it, the device: its dark body in the middle column, and its screen (the scene's
    // white canvas) inside.
    let mid = image.width / 2
    let column = (band.upperBound..<image.height).map { image.pixel(mid, $0) }
    #expect(column.contains { $0[0] < 30 && $0[1] < 30 && $0[2] < 30 })
    #expect(column.contains { $0 == [255, 255, 255, 255] })
    // A caption key the table lacks is an error naming both.
    let missing = try ShotFixture(
      shotFile: """
        {"scenes": ["list.json"], "devices": ["iphone-6.9"], "locales": {"en": "en.json"},
         "frame": true, "caption": "@nope"}
        """)
    let error = try #require(throws: ShotSetError.self) { try missing.image(of: try missing.shot("en")) }
    #expect(error.description.contains("\"@nope\" is not in the en strings"))
  }
}
