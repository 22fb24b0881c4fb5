import Foundation
import Testing
import WaterflowTestSupport

/// `--style FILE` on render and scroll.
@Suite struct StyleCLITests {
  @Test func styleFile_drawsAsTheSameKeysInTheScene() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let items = #""items": {"count": 20, "heights": [90, 110]}"#
    let plain = try sceneFile("{\(items)}", in: dir, named: "plain.json")
    let inline = try sceneFile(
      #"{"style": {"dark": true, "cornerRadius": 6}, "# + items + "}", in: dir, named: "inline.json")
    let style = try sceneFile(#"{"dark": true, "cornerRadius": 6}"#, in: dir, named: "style.json")
    for (arguments, out) in [
      ([plain, "--style", style], "a.png"), ([inline], "b.png"), ([plain], "c.png"),
    ] {
      let run = try waterflow(["render"] + arguments + ["--scale", "1", "-o", dir + "/" + out])
      #expect(run.status == 0, "\(run.output)")
    }
    let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png"))
    let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/b.png"))
    let c = try Data(contentsOf: URL(fileURLWithPath: dir + "/c.png"))
    #expect(a == b)
    #expect(a != c)
  }

  @Test func badStyleFile_namesTheFileAndKeyAndWritesNothing() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let style = try sceneFile(#"{"header": {"textColor": "white"}}"#, in: dir, named: "bad.json")
    for command in [["render"], ["scroll", "--to", "100", "--frames", "2"]] {
      let out = dir + "/out" + (command[0] == "render" ? ".png" : ".gif")
      let run = try waterflow(
        command + ["Assets/Scenes/reference.json", "--style", style, "-o", out])
      #expect(run.status != 0)
      #expect(
        run.stderr.contains(
          "\(style): header.textColor: expected a colour #RRGGBB or #RRGGBBAA, found \"white\""),
        "\(run.output)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
  }
}

/// `waterflow --version`.
@Suite struct VersionCLITests {
  @Test func version_printsTheVersionAndTheFontStack() throws {
    let run = try waterflow(["--version"])
    #expect(run.status == 0, "\(run.output)")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("waterflow ") == true)
    #expect(lines.contains { $0.hasPrefix("libraries: cairo ") && $0.contains("freetype ") })
    #expect(lines.contains { $0.contains("pango ") && $0.contains("harfbuzz ") }, "\(run.stdout)")
    // The whole chain, in order, each with its hash and file.
    let dejaVu = try #require(lines.firstIndex { $0.hasPrefix("  1. DejaVu Sans (fnv1a64:") })
    #expect(lines[dejaVu].hasSuffix("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
    #expect(
      lines[dejaVu + 1].hasPrefix("  2. WenQuanYi Micro Hei (fnv1a64:")
        && lines[dejaVu + 1].hasSuffix("wqy-microhei.ttc"), "\(run.stdout)")
    #expect(
      lines[dejaVu + 2].hasPrefix("  3. Noto Color Emoji (fnv1a64:")
        && lines[dejaVu + 2].hasSuffix("/NotoColorEmoji.ttf"), "\(run.stdout)")
    // The bold face, after the chain: not a fallback of its own.
    #expect(lines[dejaVu + 3] == "other faces of those families, for bold or italic text:")
    #expect(
      lines[dejaVu + 4].hasPrefix("  DejaVu Sans Bold (fnv1a64:")
        && lines[dejaVu + 4].hasSuffix("/DejaVuSans-Bold.ttf"), "\(run.stdout)")
  }
}
