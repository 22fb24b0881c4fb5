import Foundation
import Testing
import WaterflowTestSupport

/// Texts the fonts cannot draw, and the Chinese shop demo.
@Suite struct TextCLITests {
  @Test func missingGlyph_WarnsNamingTheItem_AndStillRenders() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // Linear B (U+10000) is in none of the fonts; Chinese and emoji are.
    let scene = try sceneFile(
      (#"{"header": {"height": 44, "text": "新品上架"}, "items": [{"height": 100}, "#
        + #"{"height": 100, "title": "Amphora \u10000"}, {"height": 90, "price": "¥12"}, "#
        + #"{"height": 90, "title": "夏日穿搭🍓✨"}]}"#)
        .replacingOccurrences(of: "\\u10000", with: "\u{10000}"),
      in: dir)
    for command in [["render"], ["scroll", "--to", "50", "--frames", "2"]] {
      let out = dir + "/out" + (command[0] == "render" ? ".png" : ".gif")
      let run = try waterflow(command + [scene, "--scale", "1", "-o", out])
      #expect(run.status == 0, "\(run.output)")
      #expect(
        run.stderr.contains(
          "warning: item 1's title \"Amphora \u{10000}\" has a character no font draws: U+10000"),
        "\(run.output)")
      #expect(
        run.stderr.contains("The fonts are DejaVu Sans, WenQuanYi Micro Hei, Noto Color Emoji;"),
        "\(run.output)")
      #expect(!run.stderr.contains("item 3"), "emoji are drawn: \(run.output)")
      #expect(!run.stderr.contains("header"), "Chinese is drawn: \(run.output)")
      #expect(FileManager.default.fileExists(atPath: out))
    }
  }

  /// Feed titles with emoji draw them in colour, in every format, and warn about nothing.
  @Test func emojiTitles_RenderWithoutWarnings() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let scene = try sceneFile(
      #"{"style": {"indexLabels": false}, "items": [{"height": 100, "title": "夏日穿搭🍓✨ 👗"}, "#
        + #"{"height": 100, "title": "Café ☕️ latte 😍"}]}"#, in: dir)
    for format in ["png", "pdf", "svg"] {
      let run = try waterflow(["render", scene, "--scale", "2", "-o", dir + "/emoji." + format])
      #expect(run.status == 0, "\(run.output)")
      #expect(run.stderr.isEmpty, "\(run.output)")
    }
  }

  @Test func chineseShop_RendersWithoutWarnings() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let run = try waterflow(
      ["render", "Assets/Scenes/shop-zh.json", "--scale", "1", "-o", dir + "/zh.png"])
    #expect(run.status == 0, "\(run.output)")
    #expect(!run.stderr.contains("warning"), "\(run.output)")
    let layout = try waterflow(["layout", "Assets/Scenes/shop-zh.json", "--json"])
    #expect(layout.stdout.contains("蘑菇街 · 新品上架"), "\(layout.output)")
    #expect(layout.stdout.contains("¥"), "\(layout.output)")
  }
}

/// A layout file written from a feed of nested API data draws what the feed draws: templates,
/// data, overlays, repeats, and the locale its counts are formatted in.
@Suite struct TemplateLayoutFileCLITests {
  @Test(arguments: ["notes", "products"])
  func layoutFileOfANestedFeed_DrawsTheSamePixels(feed: String) throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // The frames' image paths are relative to the layout file, as to the feed.
    try FileManager.default.copyItem(
      atPath: packageRoot + "/Assets/Feeds/Photos", toPath: dir + "/Photos")
    let layout = try waterflow(["layout", "Assets/Feeds/\(feed).json", "--json"])
    #expect(layout.status == 0, "\(layout.output)")
    #expect(layout.stdout.contains(#""locale": "zh-Hans""#))
    try layout.stdout.write(toFile: dir + "/layout.json", atomically: true, encoding: .utf8)
    let fromFeed = try waterflow(["render", "Assets/Feeds/\(feed).json", "--offset", "400", "-o", dir + "/feed.png"])
    let fromFile = try waterflow(["render", dir + "/layout.json", "--offset", "400", "-o", dir + "/file.png"])
    #expect(fromFeed.status == 0 && fromFile.status == 0, "\(fromFeed.output)\(fromFile.output)")
    let diff = try waterflow(["diff", dir + "/feed.png", dir + "/file.png"])
    #expect(diff.status == 0, "\(diff.output)")
  }
}
