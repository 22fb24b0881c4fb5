import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowTestSupport

@Suite struct ImageSurfaceTests {}

extension ImageSurfaceTests {
  @Test func init_TooLarge_ThrowsNamingTheSizeAndLimit() {
    do {
      _ = try ImageSurface(width: 40_000, height: 10)
      Issue.record("expected an error")
    } catch let error as GraphicsError {
      #expect(error.code == .surfaceTooLarge)
      #expect(error.description.contains("40000×10"))
      #expect(error.description.contains("32767"))
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test(arguments: [(0, 10), (10, -1)])
  func init_EmptyOrNegative_ThrowsInvalidSize(width: Int, height: Int) {
    #expect(throws: GraphicsError.self) {
      try ImageSurface(width: width, height: height)
    }
    let error = #expect(throws: GraphicsError.self) {
      try ImageSurface(width: width, height: height)
    }
    #expect(error?.code == .invalidSize)
  }

  @Test func init_AtTheLimit_Succeeds() throws {
    let surface = try ImageSurface(width: ImageSurface.maximumSide, height: 1)
    #expect(surface.width == 32767 && surface.stride >= 32767 * 4)
  }

  @Test func newSurface_IsTransparentBlack() throws {
    let surface = try ImageSurface(width: 4, height: 4)
    #expect(argbPixels(of: surface).allSatisfy { $0 == 0 })
  }

  @Test func mutablePixels_AreSeenByCairo() throws {
    // Writing pixels then drawing the surface elsewhere must see the write (mark_dirty).
    let source = try ImageSurface(width: 2, height: 2)
    _ = argbPixels(of: source)
    source.withUnsafeMutablePixels { buffer, _ in
      buffer.bindMemory(to: UInt32.self).update(repeating: 0xff00_ff00)
    }
    let target = try ImageSurface(width: 2, height: 2)
    let context = try Context(target)
    context.draw(source, aspectFillX: 0, y: 0, width: 2, height: 2)
    #expect(
      argbPixels(of: target) == [UInt32](repeating: 0xff00_ff00, count: 4))
  }

  @Test func loadPNG_MissingFile_ThrowsNamingTheFile() {
    let path = "/nonexistent/dir/missing.png"
    let error = #expect(throws: GraphicsError.self) {
      try ImageSurface(contentsOfPNGFile: path)
    }
    #expect(error?.code == .fileNotReadable)
    #expect(error?.path == path)
    #expect(error?.description.contains(path) == true)
  }

  @Test func loadPNG_CorruptFile_ThrowsNamingTheFile() throws {
    var png = try makeTestFrame(width: 40, height: 40).pngData()
    png.removeLast(png.count / 2)
    let path = try writeTemporaryFile(png, named: "truncated.png")
    let error = #expect(throws: GraphicsError.self) {
      try ImageSurface(contentsOfPNGFile: path)
    }
    #expect(error?.code == .invalidPNG)
    #expect(error?.description.contains(path) == true)
    let notPNG = try writeTemporaryFile(Array("hello".utf8), named: "text.png")
    let error2 = #expect(throws: GraphicsError.self) {
      try ImageSurface(contentsOfPNGFile: notPNG)
    }
    #expect(error2?.description.contains(notPNG) == true)
  }

  @Test func drawImage_AspectFill_CoversAndCentres() throws {
    // A 20×10 image, left half red, right half blue, filling a 40×40 square at (1, 1): scaled
    // by 4 to 80×40 and centred, only image columns 5 to 15 show.
    let image = try ImageSurface(width: 20, height: 10)
    setPixels(of: image) { x, _ in x < 10 ? 0xffff_0000 : 0xff00_00ff }
    let target = try ImageSurface(width: 42, height: 42)
    let context = try Context(target)
    context.draw(image, aspectFillX: 1, y: 1, width: 40, height: 40)
    let pixels = argbPixels(of: target)
    func pixel(_ x: Int, _ y: Int) -> UInt32 { pixels[y * 42 + x] }
    #expect(
      pixel(0, 0) == 0 && pixel(41, 20) == 0 && pixel(20, 41) == 0,
      "clipped to the rectangle")
    #expect(pixel(1, 1) == 0xffff_0000, "corners covered, not faded")
    #expect(pixel(40, 40) == 0xff00_00ff)
    #expect(pixel(3, 20) == 0xffff_0000, "image column 5.6 is red")
    #expect(pixel(38, 20) == 0xff00_00ff, "image column 14.4 is blue")
  }
}

extension ImageSurfaceTests {
  @Test func shrunk_AveragesEachBlock_RoundingEachChannel_DroppingCutBlocks() throws {
    // 5 × 4 pixels: two whole 2 × 2 blocks a row of blocks; the fifth column is dropped.
    let source = try ImageSurface(width: 5, height: 4)
    source.withUnsafeMutablePixels { buffer, stride in
      for y in 0..<4 {
        let row = (buffer.baseAddress! + y * stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<5 {
          // Premultiplied: every channel at most its alpha (0xff).
          let v = UInt32(x * 40 + y * 3)
          row[x] = 0xff00_0000 | v << 16 | (255 - v) << 8 | UInt32(y * 60)
        }
      }
    }
    let shrunk = try source.shrunk(by: 2)
    #expect(shrunk.width == 2 && shrunk.height == 2)
    let pixels = argbPixels(of: shrunk)
    func mean(_ xs: [Int]) -> UInt32 { UInt32((xs.reduce(0, +) + 2) / 4) }
    for by in 0..<2 {
      for bx in 0..<2 {
        let vs = [(0, 0), (1, 0), (0, 1), (1, 1)].map { (bx * 2 + $0.0) * 40 + (by * 2 + $0.1) * 3 }
        let blues = [0, 0, 1, 1].map { (by * 2 + $0) * 60 }
        let expected = 0xff00_0000 | mean(vs) << 16 | mean(vs.map { 255 - $0 }) << 8 | mean(blues)
        #expect(pixels[by * 2 + bx] == expected, "block (\(bx), \(by))")
      }
    }
    // A factor of 1 is a copy.
    #expect(argbPixels(of: try source.shrunk(by: 1)) == argbPixels(of: source))
  }
}

extension ImageSurfaceTests {
  /// Opacity is checked two pixels at a time, then the odd last pixel: one translucent pixel
  /// anywhere, at every width and in either pixel of a pair, makes a surface translucent.
  @Test func isOpaque_FindsOneTranslucentPixelAnywhere() throws {
    for width in 1...9 {
      let surface = try ImageSurface(width: width, height: 3)
      setPixels(of: surface) { _, _ in 0xff12_3456 }
      #expect(surface.isOpaque, "width \(width), all opaque")
      for x in 0..<width {
        for y in 0..<3 {
          setPixels(of: surface) { px, py in px == x && py == y ? 0xfe12_3456 : 0xff12_3456 }
          #expect(!surface.isOpaque, "width \(width): pixel (\(x), \(y)) is translucent")
        }
      }
    }
  }
}
