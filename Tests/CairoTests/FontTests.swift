import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowTestSupport

@Suite struct FontTests {}

// MARK: - Fixtures

/// Draws text in black on white, 24 pt, and returns the surface.
private func renderText(
  _ text: String = "Waterflow 42", fonts: FontStack = makeTestFonts(), width: Double? = nil,
  maxLines: Int = 1
) throws -> ImageSurface {
  let surface = try ImageSurface(width: 300, height: 90)
  let context = try Context(surface)
  context.setSource(red: 1, green: 1, blue: 1)
  context.paint()
  context.setSource(red: 0, green: 0, blue: 0)
  context.draw(
    TextLayout(text, fonts: fonts, size: 24, width: width, maxLines: maxLines), x: 10, y: 10)
  try context.checkStatus()
  return surface
}

/// Runs of columns with ink, left to right, with the rows their ink spans.
private func inkRuns(of surface: ImageSurface) -> [(columns: ClosedRange<Int>, rows: ClosedRange<Int>)] {
  let pixels = argbPixels(of: surface)
  let width = surface.width
  var runs: [(columns: ClosedRange<Int>, rows: ClosedRange<Int>)] = []
  var current: (columns: ClosedRange<Int>, rows: ClosedRange<Int>)?
  for x in 0..<width {
    let inked = (0..<surface.height).filter { pixels[$0 * width + x] != 0xffff_ffff }
    if let top = inked.first, let bottom = inked.last {
      if let run = current {
        current = (
          run.columns.lowerBound...x,
          min(run.rows.lowerBound, top)...max(run.rows.upperBound, bottom)
        )
      } else {
        current = (x...x, top...bottom)
      }
    } else if let run = current {
      runs.append(run)
      current = nil
    }
  }
  if let current { runs.append(current) }
  return runs
}

/// The pixels that are not white.
private func inkCount(_ surface: ImageSurface) -> Int {
  argbPixels(of: surface).filter { $0 != 0xffff_ffff }.count
}

/// The environment variable that turns `childProcess_WritesRenders` on, naming its output directory.
private let childOutputVariable = "WATERFLOW_CAIRO_TEST_CHILD_OUTPUT"

/// A fontconfig file that maps every family to DejaVu Serif and turns on full hinting,
/// subpixel rendering and no anti-aliasing: anything that listened to it would draw differently.
private let hostileFontconfig = """
  <?xml version="1.0"?>
  <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
  <fontconfig>
    <dir>/usr/share/fonts</dir>
    <match target="pattern">
      <edit name="family" mode="assign" binding="strong"><string>DejaVu Serif</string></edit>
    </match>
    <match target="font">
      <edit name="hinting" mode="assign"><bool>true</bool></edit>
      <edit name="hintstyle" mode="assign"><const>hintfull</const></edit>
      <edit name="antialias" mode="assign"><bool>false</bool></edit>
      <edit name="rgba" mode="assign"><const>rgb</const></edit>
    </match>
  </fontconfig>
  """

/// What the child process and the parent both render and compare.
private func renderEverything() throws -> (
  png: [UInt8], pdf: [UInt8], svg: [UInt8]
) {
  // Emoji too: the hostile configuration's own rules must not reach their scaling either.
  let png = try renderText("Waterflow 42 蘑菇街 مرحبا 🍓😍").pngData()
  let pdf = try PDFDocument(width: 200, height: 100)
  let pdfContext = try Context(pdf)
  pdfContext.draw(TextLayout("Waterflow 42 新品 ☕️", fonts: makeTestFonts(), size: 18), x: 10, y: 20)
  let svg = try SVGDocument(width: 200, height: 100)
  let svgContext = try Context(svg)
  svgContext.draw(TextLayout("Waterflow 42 新品 ☕️", fonts: makeTestFonts(), size: 18), x: 10, y: 20)
  return (png, try pdf.finish(), try svg.finish())
}

// MARK: - Loading

extension FontTests {
  @Test func defaultFont_LoadsDejaVuSans_WithStableHash() throws {
    #expect(testFont.familyName == "DejaVu Sans")
    #expect(testFont.path == Font.defaultPath)
    #expect(testFont.fileHash.hasPrefix("fnv1a64:"))
    #expect(testFont.fileHash.count == "fnv1a64:".count + 16)
    #expect(
      try Font(contentsOfFile: Font.defaultPath).fileHash == testFont.fileHash)
    let mono = try Font(
      contentsOfFile: "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
    #expect(mono.fileHash != testFont.fileHash)
  }

  @Test func missingFile_ThrowsNamingThePath() {
    let path = "/nonexistent/font.ttf"
    let error = #expect(throws: GraphicsError.self) {
      try Font(contentsOfFile: path)
    }
    #expect(error?.code == .fileNotReadable)
    #expect(error?.description.contains(path) == true)
  }

  @Test func notAFont_ThrowsNamingThePath() throws {
    let path = try writeTemporaryFile(
      Array("not a font".utf8), named: "bad.ttf")
    let error = #expect(throws: GraphicsError.self) {
      try Font(contentsOfFile: path)
    }
    #expect(error?.code == .invalidFont)
    #expect(error?.description.contains(path) == true)
  }

  @Test func emptyFileOrFolder_ThrowsNamingThePath() throws {
    let empty = try writeTemporaryFile([], named: "empty.ttf")
    let error = #expect(throws: GraphicsError.self) { try Font(contentsOfFile: empty) }
    #expect(error?.code == .invalidFont)
    #expect(error?.description.contains("'\(empty)' is empty") == true, "\(String(describing: error))")
    let folder = try makeTemporaryDirectory()
    let notAFile = #expect(throws: GraphicsError.self) { try Font(contentsOfFile: folder) }
    #expect(notAFile?.code == .fileNotReadable)
    #expect(notAFile?.description.contains("'\(folder)' is not readable") == true)
  }

  @Test func libraryVersions_NameEveryLibrary() {
    let versions = CairoLibrary.versions
    #expect(versions.cairo.hasPrefix("1."))
    for version in [
      versions.pixman, versions.freetype, versions.libpng, versions.libdeflate,
    ] {
      #expect(version.first?.isNumber == true, "\(versions)")
    }
  }
}

// MARK: - Drawing text

extension FontTests {
  @Test func text_DrawsInk() throws {
    let pixels = argbPixels(of: try renderText())
    let inked = pixels.filter { $0 != 0xffff_ffff }.count
    #expect(inked > 200, "only \(inked) pixels changed")
    #expect(pixels.contains(0xff00_0000), "glyph stems are solid black")
    #expect(
      pixels.contains { $0 != 0xff00_0000 && $0 != 0xffff_ffff },
      "edges are anti-aliased grey")
  }

  @Test func text_Twice_GivesIdenticalPixels() throws {
    #expect(
      argbPixels(of: try renderText()) == argbPixels(of: try renderText()))
    #expect(
      argbPixels(of: try renderText("1")) != argbPixels(of: try renderText("7"))
    )
  }

  @Test func layout_OutlivesItsStack_StillDraws() throws {
    // A layout keeps Pango's context and font map alive after the stack that made them is gone.
    var fonts: FontStack? = makeTestFonts()
    let expected = argbPixels(of: try renderText(fonts: fonts!))
    let layout = TextLayout("Waterflow 42", fonts: fonts!, size: 24)
    fonts = nil
    let surface = try ImageSurface(width: 300, height: 90)
    let context = try Context(surface)
    context.setSource(red: 1, green: 1, blue: 1)
    context.paint()
    context.setSource(red: 0, green: 0, blue: 0)
    context.draw(layout, x: 10, y: 10)
    try context.checkStatus()
    #expect(argbPixels(of: surface) == expected)
  }

  @Test func widths_AddUpAndScaleLinearly() {
    let fonts = makeTestFonts()
    let one = TextLayout("i", fonts: fonts, size: 20).width
    let four = TextLayout("iiii", fonts: fonts, size: 20).width
    #expect(one > 0)
    // Pango positions glyphs in 1/1024 pt: unhinted advances add up to that precision.
    #expect(abs(four - 4 * one) < 0.01, "\(four) vs 4 × \(one)")
    #expect(abs(TextLayout("i", fonts: fonts, size: 40).width - 2 * one) < 0.01)
  }

  /// Issue 16: text is shaped by HarfBuzz (through Pango) instead of cairo's toy text API, which
  /// did not kern or join. That moved glyphs by fractions of a pixel, so every golden with text
  /// was re-recorded then; this test and the script tests below are why.
  @Test func kerning_IsApplied() {
    // HarfBuzz applies DejaVu's kerning: "AV" is narrower than "A" and "V" side by side.
    let fonts = makeTestFonts()
    let pair = TextLayout("AV", fonts: fonts, size: 40).width
    let apart =
      TextLayout("A", fonts: fonts, size: 40).width + TextLayout("V", fonts: fonts, size: 40).width
    #expect(pair < apart - 1, "AV \(pair) vs \(apart)")
  }
}

// MARK: - Scripts, fallback and fitting (issue 16)

extension FontTests {
  @Test func chinese_TwoCharacters_GiveDifferentGlyphs() throws {
    let fonts = makeTestFonts()
    #expect(
      fonts.fonts.map(\.familyName) == ["DejaVu Sans", "WenQuanYi Micro Hei", "Noto Color Emoji"])
    let mushroom = try renderText("蘑", fonts: fonts)
    let street = try renderText("街", fonts: fonts)
    #expect(argbPixels(of: mushroom) != argbPixels(of: street), "the same box for both")
    #expect(TextLayout("蘑菇街", fonts: fonts, size: 24).unknownGlyphCount == 0)
    // DejaVu alone has no Han: Pango draws boxes, and says so.
    let latinOnly = try FontStack(paths: [Font.defaultPath])
    #expect(TextLayout("蘑菇街", fonts: latinOnly, size: 24).unknownGlyphCount == 3)
    #expect(latinOnly.missingCharacters(in: "蘑a菇") == ["蘑", "菇"])
    #expect(fonts.missingCharacters(in: "蘑a菇 ½\n") == [])
  }

  @Test func fallback_KeepsLatinInTheFirstFont() throws {
    // A CJK font first must not take "½" away from the rest of the chain, and DejaVu draws
    // Latin after a CJK run.
    let cjkFirst = try FontStack(paths: [FontStack.cjkPath, Font.defaultPath])
    #expect(cjkFirst.missingCharacters(in: "½ ¥129 蘑菇") == [])
    #expect(TextLayout("½ ¥129 蘑菇", fonts: cjkFirst, size: 24).unknownGlyphCount == 0)
  }

  @Test func arabic_IsShaped_NotDrawnAsIsolatedLetters() throws {
    let fonts = makeTestFonts()
    let word = "سلام"
    // A zero-width non-joiner between letters stops joining: each letter in its isolated form.
    let isolated = word.map(String.init).joined(separator: "\u{200C}")
    let shaped = TextLayout(word, fonts: fonts, size: 24)
    #expect(shaped.unknownGlyphCount == 0)
    #expect(shaped.isRightToLeft)
    #expect(!TextLayout("Waterflow", fonts: fonts, size: 24).isRightToLeft)
    #expect(
      argbPixels(of: try renderText(word, fonts: fonts))
        != argbPixels(of: try renderText(isolated, fonts: fonts)))
    #expect(shaped.width < TextLayout(isolated, fonts: fonts, size: 24).width)
  }

  @Test func longText_StaysInItsBox_WithAnEllipsis() throws {
    let fonts = makeTestFonts()
    let text = "Linen summer dress with a very long product name"
    let layout = TextLayout(text, fonts: fonts, size: 24, width: 150)
    #expect(layout.isTruncated)
    #expect(layout.lineCount == 1)
    #expect(layout.width <= 150)
    #expect(layout.inkBox.x + layout.inkBox.width <= 150.5)
    // The text ends in three dots: the last three runs of inked columns are small and level.
    let surface = try ImageSurface(width: 300, height: 90)
    let context = try Context(surface)
    context.setSource(red: 1, green: 1, blue: 1)
    context.paint()
    context.setSource(red: 0, green: 0, blue: 0)
    context.draw(layout, x: 10, y: 10)
    let runs = inkRuns(of: surface)
    try #require(runs.count > 3)
    let dots = runs.suffix(3)
    #expect(dots.allSatisfy { $0.rows.count <= 5 && $0.columns.count <= 5 }, "\(dots)")
    #expect(Set(dots.map(\.rows)).count == 1, "dots at one height: \(dots)")
    #expect(runs.dropLast(3).contains { $0.rows.count > 10 }, "letters before them")
    #expect(!TextLayout("Short", fonts: fonts, size: 24, width: 150).isTruncated)
  }

  @Test func newline_BreaksLines_AndExtraLinesEndInAnEllipsis() throws {
    let fonts = makeTestFonts()
    let two = TextLayout("first\nsecond", fonts: fonts, size: 20, width: 200, maxLines: 2)
    #expect(two.lineCount == 2)
    #expect(!two.isTruncated)
    #expect(two.unknownGlyphCount == 0, "\\n drawn as a box")
    #expect(abs(two.logicalBox.height - 48) < 0.01, "two lines of 1.2 × 20 pt")
    let three = TextLayout("first\nsecond\nthird", fonts: fonts, size: 20, width: 200, maxLines: 2)
    #expect(three.lineCount == 2)
    #expect(three.isTruncated)
    let one = TextLayout("first\nsecond", fonts: fonts, size: 20, width: 200)
    #expect(one.lineCount == 1)
    #expect(one.isTruncated)
    #expect(inkCount(try renderText("a\nb", maxLines: 2)) > inkCount(try renderText("a")))
  }

  @Test func chinese_WrapsBetweenCharacters() {
    let layout = TextLayout(
      "蘑菇街新品上架夏季连衣裙", fonts: makeTestFonts(), size: 20, width: 100, maxLines: 2)
    #expect(layout.lineCount == 2)
    #expect(layout.isTruncated)
    #expect(layout.width <= 100)
  }

  @Test func missingGlyph_IsReported() throws {
    let fonts = makeTestFonts()
    // Linear B: in none of DejaVu Sans, WenQuanYi Micro Hei and Noto Color Emoji.
    let text = "a\u{10000}b"
    #expect(fonts.missingCharacters(in: text) == ["\u{10000}"])
    #expect(TextLayout(text, fonts: fonts, size: 20).unknownGlyphCount == 1)
  }

  @Test func sameFamilyAsAFallback_ReplacesIt() throws {
    // --font DejaVuSans-Bold.ttf: its family is "DejaVu Sans", so it stands in for the regular
    // one instead of losing to it in fontconfig's match.
    let bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    let fonts = try FontStack(paths: [bold] + FontStack.defaultPaths)
    #expect(fonts.fonts.map(\.path) == [bold, FontStack.cjkPath, FontStack.emojiPath])
    #expect(
      argbPixels(of: try renderText(fonts: fonts)) != argbPixels(of: try renderText()))
  }
}

// MARK: - Independence from fontconfig

extension FontTests {
  /// Runs only inside the child process that the next test starts.
  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment[childOutputVariable] != nil))
  func childProcess_WritesRenders() throws {
    let directory = ProcessInfo.processInfo.environment[childOutputVariable]!
    let (png, pdf, svg) = try renderEverything()
    try writeFile(png, to: directory + "/text.png")
    try writeFile(pdf, to: directory + "/text.pdf")
    try writeFile(svg, to: directory + "/text.svg")
  }

  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment[childOutputVariable] == nil))
  func hostileFontconfig_InAnotherProcess_GivesSameBytes() throws {
    let directory = try makeTemporaryDirectory()
    let config = directory + "/fonts.conf"
    try hostileFontconfig.write(
      toFile: config, atomically: true, encoding: .utf8)
    var environment = ProcessInfo.processInfo.environment
    environment["FONTCONFIG_FILE"] = config
    environment["FONTCONFIG_PATH"] = directory
    environment[childOutputVariable] = directory
    // Re-run this test binary, selecting only the child test, with the hostile configuration.
    let child = try runProgram(
      atPath: CommandLine.arguments[0],
      [
        "--testing-library", "swift-testing", "--filter",
        "FontTests/childProcess_WritesRenders",
      ], environment: environment)
    try #require(child.status == 0, "child failed:\n\(child.output)")
    let (png, pdf, svg) = try renderEverything()
    func read(_ name: String) throws -> [UInt8] {
      try [UInt8](
        Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
    }
    #expect(try read("text.png") == png)
    #expect(try read("text.pdf") == pdf, "PDF bytes differ between processes")
    #expect(try read("text.svg") == svg)
  }
}
