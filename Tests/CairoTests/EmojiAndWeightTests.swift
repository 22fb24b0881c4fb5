@testable import Cairo
import CCairo
import Foundation
import PNGCodec
import Testing
import WaterflowTestSupport

/// Colour emoji from the stack's emoji font, and the bold face of DejaVu Sans (issue 24).
@Suite struct EmojiAndWeightTests {}

// MARK: - Fixtures

/// Feed titles as shops write them.
private let titles = ["夏日穿搭🍓✨", "Café ☕️ latte 😍", "新款连衣裙 👗 限时"]

/// Draws text in black on white at `size` points on a surface `scale` times the 300 × 60 pt
/// box, as the renderer draws at `--scale`.
private func render(
  _ text: String, fonts: FontStack = makeTestFonts(), size: Double = 13, scale: Double = 2
) throws -> ImageSurface {
  let surface = try ImageSurface(width: Int(300 * scale), height: Int(60 * scale))
  let context = try Context(surface)
  context.scale(x: scale, y: scale)
  context.setSource(red: 1, green: 1, blue: 1)
  context.paint()
  context.setSource(red: 0, green: 0, blue: 0)
  context.draw(TextLayout(text, fonts: fonts, size: size), x: 10, y: 10)
  try context.checkStatus()
  return surface
}

/// How many pixels are coloured rather than grey: black text on white gives greys only.
private func colouredCount(_ surface: ImageSurface) -> Int {
  argbPixels(of: surface).filter { pixel in
    let (r, g, b) = (Int(pixel >> 16 & 0xff), Int(pixel >> 8 & 0xff), Int(pixel & 0xff))
    return max(r, g, b) - min(r, g, b) > 40
  }.count
}

private func colouredCount(_ image: RGBAImage) -> Int {
  stride(from: 0, to: image.pixels.count, by: 4).filter { i in
    let (r, g, b) = (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
    return max(r, g, b) - min(r, g, b) > 40
  }.count
}

/// The box of pixels that are not white, in pixels; nil when there are none.
private func inkBounds(_ surface: ImageSurface) -> (width: Int, height: Int)? {
  let pixels = argbPixels(of: surface)
  var (minX, minY, maxX, maxY) = (Int.max, Int.max, -1, -1)
  for y in 0..<surface.height {
    for x in 0..<surface.width where pixels[y * surface.width + x] != 0xffff_ffff {
      (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
    }
  }
  return maxX < 0 ? nil : (maxX - minX + 1, maxY - minY + 1)
}

/// Every title, drawn once in each format.
private func renderTitles() throws -> (png: [UInt8], pdf: [UInt8], svg: [UInt8]) {
  func draw(on context: Context) {
    context.setSource(red: 0, green: 0, blue: 0)
    for (i, title) in titles.enumerated() {
      context.draw(TextLayout(title, fonts: makeTestFonts(), size: 13), x: 10, y: 10 + 20 * Double(i))
    }
  }
  let surface = try ImageSurface(width: 600, height: 160)
  let context = try Context(surface)
  context.scale(x: 2, y: 2)
  context.setSource(red: 1, green: 1, blue: 1)
  context.paint()
  draw(on: context)
  let pdf = try PDFDocument(width: 300, height: 80)
  draw(on: try Context(pdf))
  let svg = try SVGDocument(width: 300, height: 80)
  draw(on: try Context(svg))
  return (surface.pngData(), try pdf.finish(), try svg.finish())
}

/// Draws "Waterflow" as ``TextLayout`` would, with a weight asked of Pango: what templates will
/// ask for; until TextLayout takes a weight, this test asks Pango directly.
private func renderWeighted(
  _ text: String = "Waterflow 42", weight: PangoWeight, fonts: FontStack = makeTestFonts()
) throws -> [UInt32] {
  let surface = try ImageSurface(width: 300, height: 60)
  let context = try Context(surface)
  context.setSource(red: 1, green: 1, blue: 1)
  context.paint()
  context.setSource(red: 0, green: 0, blue: 0)
  let layout = pango_layout_new(fonts.pangoContext)!
  defer { waterflow_object_unref(UnsafeMutableRawPointer(layout)) }
  let description = pango_font_description_new()
  pango_font_description_set_family(description, fonts.families)
  pango_font_description_set_absolute_size(description, 24 * Double(PANGO_SCALE))
  pango_font_description_set_weight(description, weight)
  pango_layout_set_font_description(layout, description)
  pango_font_description_free(description)
  pango_layout_set_text(layout, text, -1)
  cairo_move_to(context.pointer, 10, 10)
  pango_cairo_show_layout(context.pointer, layout)
  try context.checkStatus()
  return argbPixels(of: surface)
}

private let dejaVuDirectory = (Font.defaultPath as NSString).deletingLastPathComponent

// MARK: - Emoji

extension EmojiAndWeightTests {
  @Test func defaultStack_EndsInTheEmojiFont() throws {
    let fonts = makeTestFonts()
    #expect(
      fonts.fonts.map(\.familyName) == ["DejaVu Sans", "WenQuanYi Micro Hei", "Noto Color Emoji"])
    #expect(fonts.fonts.map(\.isColor) == [false, false, true])
    for title in titles {
      #expect(fonts.missingCharacters(in: title) == [], "\(title)")
      #expect(TextLayout(title, fonts: fonts, size: 13).unknownGlyphCount == 0, "\(title)")
    }
    // Without it, the strawberry is a box and the warning names it.
    let textOnly = try FontStack(paths: [Font.defaultPath, FontStack.cjkPath])
    #expect(textOnly.missingCharacters(in: titles[0]) == ["🍓", "✨"])
    #expect(TextLayout(titles[0], fonts: textOnly, size: 13).unknownGlyphCount == 2)
  }

  /// Noto Color Emoji has bitmaps at 109 px only: without the configuration's scaling rule
  /// cairo draws them that size, whatever size was asked for (a strawberry 200 px tall).
  @Test(arguments: [(13.0, 2.0), (13, 1), (26, 1), (40, 3)])
  func emoji_DrawInColour_AtTheAskedSize(size: Double, scale: Double) throws {
    let surface = try render("🍓", size: size, scale: scale)
    #expect(colouredCount(surface) > 20, "no colour")
    let ink = try #require(inkBounds(surface))
    // Noto's strawberry is about 1.1 em tall and wide.
    let em = size * scale
    #expect(Double(ink.height) > 0.8 * em && Double(ink.height) < 1.4 * em, "\(ink) at \(em) px")
    #expect(Double(ink.width) > 0.8 * em && Double(ink.width) < 1.4 * em, "\(ink) at \(em) px")
  }

  /// DejaVu Sans has black-and-white "😍" and "☕", and comes first in the chain; emoji are
  /// still drawn in colour, as on a phone. "☺" alone is text by default, "☺️" asks for emoji.
  @Test func emojiPresentation_PrefersTheColourFont() throws {
    let dejaVu = makeTestFonts().fonts[0]
    #expect(dejaVu.hasGlyph(for: "😍") && dejaVu.hasGlyph(for: "☕"))
    for emoji in ["😍", "☕️", "☕", "☺️", "1️⃣", "👍🏽", "❤️‍🔥"] {
      #expect(colouredCount(try render(emoji)) > 20, "\(emoji) is not in colour")
    }
    #expect(colouredCount(try render("☺")) == 0, "☺ without U+FE0F is text")
    #expect(colouredCount(try render("Waterflow 42 蘑菇街")) == 0)
  }

  @Test func emoji_RenderTwice_GiveTheSameBytes_InEveryFormat() throws {
    let first = try renderTitles()
    let second = try renderTitles()
    #expect(first.png == second.png)
    #expect(first.pdf == second.pdf, "PDF bytes differ between runs")
    #expect(first.svg == second.svg, "SVG bytes differ between runs")
  }

  /// PDF and SVG carry the emoji as images, which other programs draw in colour.
  @Test func emoji_AreImages_InPDFAndSVG() throws {
    let (png, pdf, svg) = try renderTitles()
    #expect(colouredCount(try RGBAImage(pngData: png)) > 200)
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try writeFile(pdf, to: dir + "/titles.pdf")
    try writeFile(svg, to: dir + "/titles.svg")
    #expect(String(decoding: svg, as: UTF8.self).contains("<image"))
    let pdfRun = try ExternalProgram.pdftoppm.run(
      ["-r", "144", "-png", "-singlefile", dir + "/titles.pdf", dir + "/pdf"])
    try #require(pdfRun.status == 0, "\(pdfRun.output)")
    let svgRun = try ExternalProgram.rsvgConvert.run(
      ["-z", "2", dir + "/titles.svg", "-o", dir + "/svg.png"])
    try #require(svgRun.status == 0, "\(svgRun.output)")
    for file in ["pdf.png", "svg.png"] {
      #expect(colouredCount(try RGBAImage(contentsOfPNGFile: dir + "/" + file)) > 200, "\(file)")
    }
  }
}

// MARK: - The bold face

extension EmojiAndWeightTests {
  @Test func defaultStack_HoldsDejaVuSansBold_AsAFace_NotAFallback() throws {
    let fonts = makeTestFonts()
    #expect(fonts.faces.map(\.path) == [Font.defaultBoldPath])
    #expect(fonts.faces.map(\.familyName) == ["DejaVu Sans"])
    #expect(!fonts.fonts.contains { $0.path == Font.defaultBoldPath })
    // Bold mathematical letters are only in the bold face: fontconfig draws them from it.
    #expect(fonts.missingCharacters(in: "\u{1D5D4}") == [])
    let regularOnly = try FontStack(paths: FontStack.defaultPaths, faces: [])
    #expect(regularOnly.missingCharacters(in: "\u{1D5D4}") == ["\u{1D5D4}"])
  }

  @Test func boldRequest_GetsTheRealBoldFace() throws {
    // What `--font DejaVuSans-Bold.ttf` draws at the regular weight is the bold face itself.
    let boldFirst = try FontStack(paths: [Font.defaultBoldPath] + FontStack.defaultPaths)
    let realBold = try renderWeighted(weight: PANGO_WEIGHT_NORMAL, fonts: boldFirst)
    #expect(try renderWeighted(weight: PANGO_WEIGHT_BOLD) == realBold)
    #expect(try renderWeighted(weight: PANGO_WEIGHT_SEMIBOLD) == realBold, "semibold: nearest is bold")
    let regular = try renderWeighted(weight: PANGO_WEIGHT_NORMAL)
    #expect(regular != realBold)
    #expect(try renderWeighted(weight: PANGO_WEIGHT_MEDIUM) == regular, "medium: nearest is regular")
    // Without the face, a bold request gets the regular face emboldened (issue 40): bolder
    // than regular, and not the real bold face.
    let regularOnly = try FontStack(paths: FontStack.defaultPaths, faces: [])
    let synthetic = try renderWeighted(weight: PANGO_WEIGHT_BOLD, fonts: regularOnly)
    #expect(synthetic != regular && synthetic != realBold)
  }

  @Test func regularText_IsUnchangedByTheBoldFace() throws {
    let regularOnly = try FontStack(paths: FontStack.defaultPaths, faces: [])
    for text in ["Waterflow 42 ¥129", "蘑菇街 · 新品上架", "سلام", "\u{1D5D4}"] {
      let with = argbPixels(of: try render(text, scale: 1))
      let without = argbPixels(of: try render(text, fonts: regularOnly, scale: 1))
      if text == "\u{1D5D4}" {
        #expect(with != without, "the bold letter is drawn, no longer a box")
      } else {
        #expect(with == without, "\(text)")
      }
    }
  }

  /// With a bold or italic DejaVu Sans given first, the bold face would win fontconfig's match
  /// for upright text (it ranks slant above weight): it is left out, and the given font draws.
  @Test func faces_AccompanyOnlyARegularFontOfTheirFamily() throws {
    let oblique = dejaVuDirectory + "/DejaVuSans-Oblique.ttf"
    let obliqueFirst = try FontStack(paths: [oblique] + FontStack.defaultPaths)
    #expect(obliqueFirst.fonts.map(\.path) == [oblique, FontStack.cjkPath, FontStack.emojiPath])
    #expect(obliqueFirst.faces.isEmpty)
    let alone = try FontStack(paths: [oblique], faces: [])
    #expect(try renderWeighted(weight: PANGO_WEIGHT_NORMAL, fonts: obliqueFirst)
      == renderWeighted(weight: PANGO_WEIGHT_NORMAL, fonts: alone))
    // A face of a family the chain lacks is left out too.
    #expect(try FontStack(paths: [FontStack.cjkPath]).faces.isEmpty)
  }
}

// MARK: - Synthetic bold

extension EmojiAndWeightTests {
  /// Chinese in WenQuanYi Micro Hei, which has one weight, is emboldened for semibold and bold,
  /// as the bold Latin beside it is (issue 40); medium and regular keep the face as it is, and
  /// the emoji font's bitmaps are never touched.
  @Test func boldChinese_IsEmboldened_RegularAndEmojiAreNot() throws {
    func ink(_ pixels: [UInt32]) -> Int {
      pixels.reduce(0) { $0 + (255 - Int($1 & 0xff)) }
    }
    let regular = try renderWeighted("草莓奶油蛋糕", weight: PANGO_WEIGHT_NORMAL)
    let medium = try renderWeighted("草莓奶油蛋糕", weight: PANGO_WEIGHT_MEDIUM)
    let semibold = try renderWeighted("草莓奶油蛋糕", weight: PANGO_WEIGHT_SEMIBOLD)
    let bold = try renderWeighted("草莓奶油蛋糕", weight: PANGO_WEIGHT_BOLD)
    #expect(medium == regular, "one face: medium draws as regular")
    #expect(ink(semibold) > ink(regular) * 11 / 10, "\(ink(semibold)) vs \(ink(regular))")
    #expect(ink(bold) > ink(regular) * 11 / 10, "\(ink(bold)) vs \(ink(regular))")
    // Drawn again, the same bytes: FreeType's emboldening is deterministic.
    #expect(try renderWeighted("草莓奶油蛋糕", weight: PANGO_WEIGHT_BOLD) == bold)
    // The emoji font has no outlines: its bold is its regular.
    #expect(
      try renderWeighted("🍓😍", weight: PANGO_WEIGHT_BOLD)
        == renderWeighted("🍓😍", weight: PANGO_WEIGHT_NORMAL))
    #expect(FontStack.rules == "synthetic bold")
  }
}
