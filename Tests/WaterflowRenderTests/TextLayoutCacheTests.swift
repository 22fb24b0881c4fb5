import Foundation
import PNGCodec
import Testing
import WaterflowRender
import WaterflowScene
import WaterflowTestSupport
import WaterflowView

/// The renderer keeps laid-out texts across cells and frames: the kept ones draw the same
/// pixels as texts laid out afresh, and a different text, font or width is laid out anew.
@Suite struct TextLayoutCacheTests {
  /// A scroll of the notes feed (template cells: titles, authors, counts) and of the shop (badges,
  /// prices), frame by frame, with the layouts kept and without.
  @Test(arguments: ["Assets/Feeds/notes.json", "Assets/Scenes/shop.json"])
  func keptLayouts_DrawTheSamePixels_AsFreshOnes(scene path: String) throws {
    func frames(keeping: Bool) throws -> ([[UInt8]], Int) {
      let scene = try Scene(contentsOf: packageRoot + "/" + path)
      let controller = SceneController(scene: scene)
      controller.view.layoutSubviews()
      let renderer = try Renderer()
      renderer.keepsTextLayouts = keeping
      var pngs: [[UInt8]] = []
      for offset in stride(from: 0.0, through: 900, by: 150) {
        controller.view.scroll(to: offset)
        let image = try renderer.image(of: controller.view, options: RenderOptions(scale: 1, style: scene.style))
        pngs.append(image.pngData(compression: .fast))
      }
      return (pngs, renderer.keptTextLayoutCount)
    }
    let (kept, count) = try frames(keeping: true)
    let (fresh, none) = try frames(keeping: false)
    #expect(count > 0 && none == 0)
    #expect(kept.count == fresh.count)
    for k in kept.indices { #expect(kept[k] == fresh[k], "frame \(k) of \(path)") }
  }

  /// One title in two cells of the same width is laid out once; another title, another width or
  /// another font is laid out again.
  @Test func aChangedTextWidthOrFont_MissesTheCache() throws {
    func count(_ items: String, font: String = Renderer.defaultFontPath) throws -> Int {
      let json = #"{"viewport": {"width": 300, "height": 400, "scale": 1}, "columns": COLUMNS, "style": {"indexLabels": false}, "items": [ITEMS]}"#
      let scene = try Scene(
        data: Data(json.replacingOccurrences(of: "ITEMS", with: items).replacingOccurrences(of: "COLUMNS", with: "2").utf8),
        path: "/tmp/cache.json")
      let controller = SceneController(scene: scene)
      controller.view.layoutSubviews()
      let renderer = try Renderer(fontPath: font)
      _ = try renderer.image(of: controller.view, options: RenderOptions(scale: 1, style: scene.style))
      return renderer.keptTextLayoutCount
    }
    let same = try count(#"{"height": 120, "title": "Linen shirt"}, {"height": 120, "title": "Linen shirt"}"#)
    let other = try count(#"{"height": 120, "title": "Linen shirt"}, {"height": 120, "title": "Wool coat"}"#)
    #expect(other == same + 1, "same \(same), other \(other)")
    // The same title in a narrower cell (a full-width span against a column) is another layout.
    let widths = try count(#"{"height": 120, "title": "Linen shirt"}, {"height": 120, "title": "Linen shirt", "span": 2}"#)
    #expect(widths == same + 1, "same \(same), widths \(widths)")
    // Another font: each renderer keeps its own layouts, so the same texts drawn in another font
    // are laid out in that font, not taken from the first.
    let json = #"{"viewport": {"width": 300, "height": 300, "scale": 1}, "columns": 2, "items": [{"height": 120, "title": "Linen shirt", "price": "9.90"}]}"#
    let scene = try Scene(data: Data(json.utf8), path: "/tmp/cache.json")
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let regular = try Renderer()
    let bold = try Renderer(fontPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
    let options = RenderOptions(scale: 1, style: scene.style)
    let first = try regular.image(of: controller.view, options: options)
    #expect(try bold.image(of: controller.view, options: options).pixels != first.pixels)
    #expect(try regular.image(of: controller.view, options: options).pixels == first.pixels)
  }
}
