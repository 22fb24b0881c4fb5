import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowRender
import WaterflowScene

@Suite struct RendererTests {}

// MARK: - Fixtures

/// The package root, found from this file's path.
private let root: String = {
  var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(3)
  return parts.joined(separator: "/")
}()

private func referenceScene() throws -> Scene {
  try Scene(contentsOf: root + "/Assets/Scenes/reference.json")
}

/// A scene whose cells have prices but no images, so the bar sits on the cell's own colour.
private func priceScene() throws -> Scene {
  let json = """
    {"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 2, "seed": 3,
     "items": [{"height": 150, "price": "39.00"}, {"height": 120, "price": "9.90"}, {"height": 100}]}
    """
  return try Scene(data: Data(json.utf8), path: "/tmp/price.json")
}

/// The RGBA of a pixel.
private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [Int] {
  let i = (y * image.width + x) * 4
  return image.pixels[i..<(i + 4)].map(Int.init)
}

/// A colour as 8-bit RGBA, as cairo stores an opaque fill.
private func rgba(_ c: Color) -> [Int] {
  [
    Int((c.red * 255).rounded()), Int((c.green * 255).rounded()),
    Int((c.blue * 255).rounded()), 255,
  ]
}

private func close(_ a: [Int], _ b: [Int], within tolerance: Int = 1) -> Bool {
  zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
}

extension RendererTests {
  // MARK: - Cells

  @Test func cellCentre_showsTheCellsColour() throws {
    let scene = try referenceScene()
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let image = try Renderer().image(
      of: controller.view, options: RenderOptions(scale: 1))
    #expect(image.width == 375 && image.height == 667)
    for (index, cell) in controller.view.displayed where cell.frame.maxY < 660 {
      let centre = pixel(image, Int(cell.frame.midX), Int(cell.frame.midY))
      #expect(centre == rgba(cell.backgroundColor!), "cell \(index)")
    }
  }

  @Test func priceBar_isADarkerStripOfTheCellsColour() throws {
    let scene = try priceScene()
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let image = try Renderer().image(
      of: controller.view, options: RenderOptions(scale: 1))
    let cell = controller.view.cell(at: 0)!
    let colour = rgba(cell.backgroundColor!)
    let f = cell.frame
    // Just inside the bar's left end (no text there) and just above the bar.
    let inBar = pixel(image, Int(f.minX) + 2, Int(f.maxY) - 3)
    let aboveBar = pixel(image, Int(f.minX) + 2, Int(f.maxY) - 27)
    let darkened =
      colour.prefix(3).map { Int((Double($0) * 0.7).rounded()) } + [255]
    #expect(aboveBar == colour)
    #expect(close(inBar, darkened), "bar pixel \(inBar), expected \(darkened)")
    // The bar is 25 points high: its top row is darkened, the row above is not.
    #expect(close(pixel(image, Int(f.minX) + 2, Int(f.maxY) - 25), darkened))
    #expect(pixel(image, Int(f.minX) + 2, Int(f.maxY) - 26) == colour)
    // White text in the middle of the bar.
    let row = Int(f.maxY) - 12
    let brightest = (Int(f.minX)..<Int(f.maxX)).map { pixel(image, $0, row)[0] }
      .max()!
    #expect(brightest > 200)
    // The item without a price has no bar.
    let plain = controller.view.cell(at: 2)!
    #expect(
      pixel(image, Int(plain.frame.minX) + 2, Int(plain.frame.maxY) - 3)
        == rgba(plain.backgroundColor!))
  }

  @Test func indexLabel_putsInkInTheTopLeftCorner() throws {
    let scene = try referenceScene()
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let image = try Renderer().image(
      of: controller.view, options: RenderOptions(scale: 1))
    let f = controller.view.cell(at: 14)!.frame
    // Inside the light label tag, only the digits are dark.
    var dark = 0
    for y in Int(f.minY) + 5..<Int(f.minY) + 19 {
      for x in Int(f.minX) + 5..<Int(f.minX) + 24
      where pixel(image, x, y).prefix(3).allSatisfy({ $0 < 110 }) { dark += 1 }
    }
    #expect(dark > 12, "the label's digits leave dark pixels (\(dark))")
    // The tag itself is light: its left edge is near white.
    #expect(
      pixel(image, Int(f.minX) + 5, Int(f.minY) + 10).prefix(3).allSatisfy {
        $0 > 180
      })
  }

  @Test func cellsCrossingTheEdges_areClippedToTheViewport() throws {
    let scene = try referenceScene()
    let controller = SceneController(scene: scene)
    controller.view.scroll(to: 50)
    let image = try Renderer().image(
      of: controller.view, options: RenderOptions(scale: 2))
    #expect(image.height == 667 * 2)
    // Cell 0 spans y 10…100: at offset 50 its lower half is at the top of the viewport.
    let top = controller.view.cell(at: 0)!
    #expect(
      pixel(image, Int(top.frame.midX * 2), 1) == rgba(top.backgroundColor!))
    // A cell crossing the bottom edge fills the last row.
    let bottom = controller.view.displayed.first {
      $0.cell.frame.minY < 50 + 667 && $0.cell.frame.maxY > 50 + 667
    }!
    #expect(
      pixel(image, Int(bottom.cell.frame.midX * 2), image.height - 1)
        == rgba(bottom.cell.backgroundColor!))
  }

  @Test func recycledCell_keepsItsColourAtANewIndex() throws {
    let scene = try referenceScene()
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    var firstIndex: [Int: Int] = [:]
    for (index, cell) in controller.view.displayed {
      firstIndex[cell.instanceID] = index
    }
    var y = 0.0
    while y < 600 {
      y += 50
      for created in controller.view.scroll(to: y).created {
        firstIndex[created.cell] = created.index
      }
    }
    let image = try Renderer().image(
      of: controller.view, options: RenderOptions(scale: 1))
    let recycled = controller.view.displayed.filter {
      $0.cell.reuseCount > 0 && $0.cell.frame.minY > y
        && $0.cell.frame.maxY < y + 667
    }
    #expect(!recycled.isEmpty)
    for (index, cell) in recycled {
      #expect(firstIndex[cell.instanceID]! != index)
      let expected = rgba(
        SceneController.colour(ofCell: cell.instanceID, seed: scene.seed))
      #expect(
        pixel(image, Int(cell.frame.midX), Int(cell.frame.midY - y))
          == expected, "cell #\(cell.instanceID) at \(index)")
    }
  }

  // MARK: - Views and formats

  @Test func emptyScene_showsTheEmptyTextBetweenHeaderAndFooter() throws {
    let scene = try Scene(contentsOf: root + "/Assets/Scenes/empty.json")
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let image = try Renderer().image(
      of: controller.view, options: RenderOptions(scale: 1))
    let header = controller.view.snapshot!.header!
    // The header bar is lighter than the background, and the empty text leaves grey ink mid-screen.
    #expect(
      pixel(image, 5, Int(header.midY))[0]
        > pixel(image, 5, Int(header.maxY) + 20)[0])
    let mid = Int(controller.view.snapshot!.emptyView!.midY)
    let ink = (0..<375).filter { pixel(image, $0, mid)[0] < 180 }.count
    #expect(ink > 5)
  }

  @Test func sameViewTwice_givesIdenticalPNGBytes() throws {
    let scene = try referenceScene()
    let a = SceneController(scene: scene)
    a.view.scroll(to: 300)
    let b = SceneController(scene: scene)
    b.view.scroll(to: 300)
    let first = try Renderer().render(a.view, as: .png)
    let second = try Renderer().render(b.view, as: .png)
    #expect(first == second)
    #expect(
      Array(first.prefix(8)) == [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A,
      ])
  }

  @Test func pdfAndSVG_areDeterministicAndOfTheirFormat() throws {
    let scene = try referenceScene()
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let renderer = try Renderer()
    let pdf = try renderer.render(controller.view, as: .pdf)
    #expect(try renderer.render(controller.view, as: .pdf) == pdf)
    #expect(String(decoding: pdf.prefix(5), as: UTF8.self) == "%PDF-")
    let svg = try renderer.render(controller.view, as: .svg)
    #expect(try renderer.render(controller.view, as: .svg) == svg)
    #expect(String(decoding: svg, as: UTF8.self).contains("<svg"))
  }

  @Test func outputFormat_comesFromTheExtension() {
    #expect(OutputFormat(path: "a/b.PNG") == .png)
    #expect(OutputFormat(path: "x.pdf") == .pdf)
    #expect(OutputFormat(path: "x.svg") == .svg)
    #expect(OutputFormat(path: "x.jpg") == nil)
    #expect(OutputFormat(path: "dir.png/file") == nil)
  }

  @Test func debugOverlay_growsTheCanvasByTheBuffer() throws {
    var scene = try referenceScene()
    scene.buffer = 100
    let controller = SceneController(scene: scene)
    controller.view.scroll(to: 300)
    let renderer = try Renderer()
    let size = renderer.canvasSize(
      of: controller.view, options: RenderOptions(scale: 1, debug: true))
    #expect(size == Size(width: 375, height: 867))
    let image = try renderer.image(
      of: controller.view,
      options: RenderOptions(scale: 1, debug: true))
    // The viewport outline is red at the top edge of the viewport (y = buffer).
    let p = pixel(image, 187, 101)
    #expect(p[0] > 180 && p[1] < 90 && p[2] < 90, "viewport outline pixel \(p)")
  }

  @Test func missingImage_drawsAPlaceholderAndIsReported() throws {
    let json = """
      {"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 1,
       "items": [{"w": 100, "h": 100, "image": "does-not-exist.png"}]}
      """
    let scene = try Scene(
      data: Data(json.utf8), path: "/tmp/missing-image.json")
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let renderer = try Renderer()
    let image = try renderer.image(
      of: controller.view, options: RenderOptions(scale: 1))
    #expect(renderer.images.failures.keys.contains("/tmp/does-not-exist.png"))
    #expect(renderer.images.corrupt.isEmpty)
    let f = controller.view.cell(at: 0)!.frame
    // Palette.placeholder (0.86, 0.86, 0.88) as cairo stores it: 16-bit, then the high byte.
    #expect(
      pixel(image, Int(f.minX) + 3, Int(f.maxY) - 3) == [220, 220, 225, 255])
  }

  @Test func surfaceBeyondCairosLimit_isAClearError() throws {
    var scene = try referenceScene()
    scene.buffer = 9000
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    #expect {
      _ = try Renderer().render(
        controller.view, as: .png,
        options: RenderOptions(scale: 2, debug: true))
    } throws: { error in
      "\(error)".contains("32767")
    }
  }
}

// MARK: - Reused surfaces

extension RendererTests {
  @Test(arguments: [1.0, 1.5, 1.3])
  func reusedSurface_GivesTheSamePixelsAsAFreshOne(scale: Double) throws {
    // At 1.5 and 1.3 the 375×667 pt canvas ends mid-pixel, so the last row and column are only
    // partly covered by the background and would blend with whatever the surface held.
    let scene = try referenceScene()
    let controller = SceneController(scene: scene)
    let renderer = try Renderer()
    let options = RenderOptions(scale: scale)
    controller.view.layoutSubviews()
    let reused = try renderer.surface(
      of: FrameContent(view: controller.view), options: options)
    // Something other than the next frame's edge in every pixel, as an earlier frame could leave.
    reused.withUnsafeMutablePixels { buffer, _ in
      _ = buffer.initializeMemory(as: UInt8.self, repeating: 0x7f)
    }
    controller.view.scroll(to: 450)
    let next = FrameContent(view: controller.view)
    let again = try renderer.surface(
      of: next, options: options, reusing: reused)
    #expect(again === reused, "the surface was reused")
    let fresh = try renderer.surface(of: next, options: options)
    let same = RGBAImage(surface: again) == RGBAImage(surface: fresh)
    #expect(same, "scale \(scale): \(fresh.width)×\(fresh.height) px")
  }
}
