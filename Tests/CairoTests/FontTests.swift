import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowTestSupport

@Suite struct FontTests {}

// MARK: - Fixtures

/// Draws "Waterflow 42" in black on white and returns the surface.
private func renderText(_ text: String = "Waterflow 42", font: Font = testFont)
  throws -> ImageSurface
{
  let surface = try ImageSurface(width: 240, height: 60)
  let context = try Context(surface)
  context.setSource(red: 1, green: 1, blue: 1)
  context.paint()
  context.setSource(red: 0, green: 0, blue: 0)
  context.setFont(font, size: 24)
  context.moveTo(x: 10, y: 40)
  context.showText(text)
  try context.checkStatus()
  return surface
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
  let png = try renderText().pngData()
  let pdf = try PDFDocument(width: 200, height: 100)
  let pdfContext = try Context(pdf)
  pdfContext.setFont(testFont, size: 18)
  pdfContext.moveTo(x: 10, y: 40)
  pdfContext.showText("Waterflow 42")
  let svg = try SVGDocument(width: 200, height: 100)
  let svgContext = try Context(svg)
  svgContext.setFont(testFont, size: 18)
  svgContext.moveTo(x: 10, y: 40)
  svgContext.showText("Waterflow 42")
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
  @Test func showText_DrawsInk() throws {
    let pixels = argbPixels(of: try renderText())
    let inked = pixels.filter { $0 != 0xffff_ffff }.count
    #expect(inked > 200, "only \(inked) pixels changed")
    #expect(pixels.contains(0xff00_0000), "glyph stems are solid black")
    #expect(
      pixels.contains { $0 != 0xff00_0000 && $0 != 0xffff_ffff },
      "edges are anti-aliased grey")
  }

  @Test func showText_Twice_GivesIdenticalPixels() throws {
    #expect(
      argbPixels(of: try renderText()) == argbPixels(of: try renderText()))
    #expect(
      argbPixels(of: try renderText("1")) != argbPixels(of: try renderText("7"))
    )
  }

  @Test func font_ReleasedWhileCairoStillCachesIt_KeepsWorking() throws {
    // Cairo's font cache outlives the Font object; the FreeType face must live as long.
    var font: Font? = try Font(contentsOfFile: Font.defaultPath)
    let expected = try renderText(font: font!)
    let surface = try ImageSurface(width: 240, height: 60)
    let context = try Context(surface)
    context.setSource(red: 1, green: 1, blue: 1)
    context.paint()
    context.setSource(red: 0, green: 0, blue: 0)
    context.setFont(font!, size: 24)
    font = nil
    context.moveTo(x: 10, y: 40)
    context.showText("Waterflow 42")
    try context.checkStatus()
    #expect(argbPixels(of: surface) == argbPixels(of: expected))
  }

  @Test func extents_MeasureTheText() throws {
    let surface = try ImageSurface(width: 10, height: 10)
    let context = try Context(surface)
    context.setFont(testFont, size: 20)
    let short = context.textExtents("i")
    let long = context.textExtents("iiii")
    #expect(short.width > 0 && short.height > 0 && short.yBearing < 0)
    #expect(
      abs(long.xAdvance - 4 * short.xAdvance) < 1e-9,
      "unhinted metrics add up exactly")
    let font = context.fontExtents
    #expect(font.ascent > 0 && font.descent > 0 && font.height >= font.ascent)
    context.setFont(testFont, size: 40)
    #expect(
      abs(context.textExtents("i").xAdvance - 2 * short.xAdvance) < 1e-9,
      "metrics scale linearly")
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
