import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowTestSupport

@Suite struct DocumentTests {}

// MARK: - Fixtures

/// A two-page PDF: the test frame, scaled down to A4, then a page of plain text.
private func renderPDF() throws -> [UInt8] {
  let document = try PDFDocument(
    width: 595, height: 842, title: "Waterflow test")
  let context = try Context(document)
  context.withSavedState {
    context.scale(x: 0.35, y: 0.35)
    drawTestFrame(on: context, width: 1500, height: 2400, count: 12)
  }
  document.showPage()
  document.setPageSize(width: 300, height: 200)
  context.setSource(red: 0, green: 0, blue: 0)
  context.draw(
    TextLayout("Second page", fonts: makeTestFonts(), size: 20), x: 20, baselineY: 40)
  document.showPage()
  try context.checkStatus()
  return try document.finish()
}

private func renderSVG() throws -> [UInt8] {
  let document = try SVGDocument(width: 400, height: 300)
  let context = try Context(document)
  drawTestFrame(on: context, width: 400, height: 300, count: 4)
  // An image makes cairo emit more surface ids, which must not depend on earlier renders.
  let image = try makeTestFrame(width: 20, height: 30)
  context.draw(image, aspectFillX: 300, y: 200, width: 60, height: 60)
  try context.checkStatus()
  return try document.finish()
}

// MARK: - PDF

extension DocumentTests {
  @Test func pdf_TwoRenders_AreByteIdentical() throws {
    let first = try renderPDF()
    #expect(first.starts(with: Array("%PDF-".utf8)))
    #expect(try renderPDF() == first)
  }

  @Test func pdf_HasFixedDatesAndCreator_NotTheCurrentDate() throws {
    let text = String(decoding: try renderPDF(), as: UTF8.self)
    // Cairo 1.16 writes the dates without PDF's "D:" prefix (fixed in cairo 1.17.2).
    #expect(text.contains("/CreationDate (20000101000000Z)"))
    #expect(text.contains("/ModDate (20000101000000Z)"))
    #expect(text.contains("/Creator (Waterflow)"))
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyyMMdd"
    formatter.timeZone = TimeZone(identifier: "UTC")
    for day in [
      Date(), Date().addingTimeInterval(-86_400),
      Date().addingTimeInterval(86_400),
    ] {
      #expect(!text.contains("(" + formatter.string(from: day)))
      #expect(!text.contains("(D:" + formatter.string(from: day)))
    }
  }

  @Test func pdf_ContainsRealText_AndPages() throws {
    let path = try writeTemporaryFile(try renderPDF(), named: "test.pdf")
    let text = try ExternalProgram.pdftotext.run([path, "-"])
    #expect(text.status == 0)
    #expect(text.output.contains("Item 3 · caption"))
    #expect(text.output.contains("Second page"))
    let info = try ExternalProgram.pdfinfo.run([path])
    #expect(info.status == 0, "\(info.output)")
    #expect(info.output.contains("Pages:           2"))
    #expect(info.output.contains("Creator:         Waterflow"))
    #expect(info.output.contains("Title:           Waterflow test"))
  }

  @Test func pdf_DrawingAfterFinish_IsReported() throws {
    let document = try PDFDocument(width: 100, height: 100)
    let context = try Context(document)
    _ = try document.finish()
    context.paint()
    #expect(throws: CairoError.surfaceFinished) { try context.checkStatus() }
  }

  @Test func pdf_ContextOutlivingDocument_StillFinishes() throws {
    // The context keeps the document (and the buffer cairo writes into) alive.
    var context: Context? = try Context(PDFDocument(width: 50, height: 50))
    context?.paint()
    #expect(throws: Never.self) { try context?.checkStatus() }
    context = nil
  }
}

// MARK: - SVG

extension DocumentTests {
  @Test func svg_TwoRenders_AreByteIdentical() throws {
    let first = try renderSVG()
    // Create more cairo surfaces in between, which advances cairo's serial numbers.
    _ = try makeTestFrame(width: 10, height: 10)
    #expect(try renderSVG() == first)
    #expect(
      String(decoding: first, as: UTF8.self).contains("<g id=\"surface1\">"))
  }

  @Test func svg_IsValidXML_AndRendersWithRsvg() throws {
    let svg = try renderSVG()
    let path = try writeTemporaryFile(svg, named: "test.svg")
    let lint = try ExternalProgram.xmllint.run(["--noout", path])
    #expect(lint.status == 0, "\(lint.output)")
    #expect(String(decoding: svg, as: UTF8.self).contains("width=\"400px\""))
    let png = path + ".png"
    let render = try ExternalProgram.rsvgConvert.run(["-o", png, path])
    #expect(render.status == 0, "\(render.output)")
    let rendered = try ImageSurface(contentsOfPNGFile: png)
    #expect(rendered.width == 400 && rendered.height == 300)
  }
}
