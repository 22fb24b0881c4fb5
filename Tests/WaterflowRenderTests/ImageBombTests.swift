import Cairo
import Foundation
import Testing
import WaterflowRender
import WaterflowScene
import WaterflowTestSupport

/// Images whose headers claim far more pixels than their bytes hold, and real photos far
/// larger than the cells they fill.
@Suite struct ImageBombTests {
  /// A small image of `size` pixels in one colour, written by ffmpeg.
  private func image(_ name: String, size: String, codec: [String] = [], in dir: String) throws -> String {
    try writeFlatImage(dir + "/" + name, color: "3366CC", size: size, codec: codec)
    return dir + "/" + name
  }

  private func patch(_ path: String, _ body: (inout [UInt8]) -> Void) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    body(&bytes)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// A JPEG of 16 × 16 pixels whose frame header (SOF) says 30000 × 30000.
  private func jpegBomb(in dir: String) throws -> String {
    let path = try image("bomb.jpg", size: "16x16", in: dir)
    try patch(path) { bytes in
      let sof = (0..<bytes.count - 9).first { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2) }!
      // FF C0, length (2), precision (1), height (2), width (2), big-endian.
      for offset in [sof + 5, sof + 7] {
        bytes[offset] = UInt8(30000 >> 8)
        bytes[offset + 1] = UInt8(30000 & 0xFF)
      }
    }
    return path
  }

  /// A lossy WebP of 16 × 16 whose VP8 frame says 16383 × 16383 (its largest).
  private func webpBomb(in dir: String) throws -> String {
    let path = try image("bomb.webp", size: "16x16", codec: ["-c:v", "libwebp"], in: dir)
    try patch(path) { bytes in
      let start = (0..<bytes.count - 3).first { bytes[$0] == 0x9D && bytes[$0 + 1] == 0x01 && bytes[$0 + 2] == 0x2A }!
      for offset in [start + 3, start + 5] {
        bytes[offset] = 0xFF
        bytes[offset + 1] = 0x3F
      }
    }
    return path
  }

  /// A PNG whose header says 30000 × 30000 (its CRC is not even checked: the size is refused first).
  private func pngBomb(in dir: String) throws -> String {
    let path = try image("bomb.png", size: "16x16", in: dir)
    try patch(path) { bytes in
      for offset in [16, 20] {
        bytes[offset..<offset + 4] = [0, 0, UInt8(30000 >> 8), UInt8(30000 & 0xFF)]
      }
    }
    return path
  }

  @Test func bombsAreRefusedBeforeAllocatingWithTheirSizeAndTheLimit() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-bomb")
    for (path, size) in [
      (try jpegBomb(in: dir), "30000×30000 pixels (900.0 megapixels)"),
      (try webpBomb(in: dir), "16383×16383 pixels (268.4 megapixels)"),
      (try pngBomb(in: dir), "30000×30000 pixels (900.0 megapixels)"),
    ] {
      // Refused from the header: no surface of that size is ever made (cairo would fail or the
      // process would take gigabytes, as it did before).
      let error = try #require(throws: GraphicsError.self) { try ImageSurface(contentsOfImageFile: path) }
      #expect(error.code == .imageTooLarge)
      #expect(error.description.contains(path))
      #expect(error.description.contains(size), "\(error)")
      #expect(error.description.contains("the limit of 64 megapixels"))
    }
  }

  @Test func aBombInAScene_IsAnErrorNamingTheItem() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-bomb")
    _ = try jpegBomb(in: dir)
    let json = #"{"viewport": {"width": 200, "height": 200, "scale": 1}, "columns": 2, "items": [{"w": 1, "h": 1, "image": "bomb.jpg"}]}"#
    let controller = SceneController(scene: try Scene(data: Data(json.utf8), path: dir + "/scene.json"))
    controller.view.layoutSubviews()
    let renderer = try Renderer()
    _ = try renderer.image(of: controller.view, options: RenderOptions(scale: 1))
    #expect(renderer.images.corrupt == [dir + "/bomb.jpg"])
    #expect(renderer.images.failures[dir + "/bomb.jpg"]?.hasPrefix("item 0: The image") == true)
  }

  /// A 6000 × 4000 JPEG drawn 510 pixels wide is decoded at 1/8 (750 × 500): 1.5 MB, not 96.
  @Test func bigPhotosAreDecodedAtTheSmallestScaleThatCoversTheirCell() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-bigphoto")
    let jpeg = try image("big.jpg", size: "6000x4000", in: dir)
    let small = try ImageSurface(contentsOfImageFile: jpeg, covering: (510, 340))
    #expect(small.width == 750 && small.height == 500)
    // 2/8 is the smallest that covers 1000 × 600; the whole image when nothing smaller does.
    let medium = try ImageSurface(contentsOfImageFile: jpeg, covering: (1000, 600))
    #expect(medium.width == 1500 && medium.height == 1000)
    let whole = try ImageSurface(contentsOfImageFile: jpeg)
    #expect(whole.width == 6000 && whole.height == 4000)
    #expect(try ImageSurface(contentsOfImageFile: jpeg, covering: (7000, 10)).width == 6000)

    let webp = try image("big.webp", size: "1200x800", codec: ["-c:v", "libwebp"], in: dir)
    let scaled = try ImageSurface(contentsOfImageFile: webp, covering: (300, 100))
    #expect(scaled.width == 300 && scaled.height == 200)
    // The colour survives the scaling.
    let centre = scaled.withUnsafePixels { buffer, stride in
      Array(buffer[(100 * stride + 150 * 4)..<(100 * stride + 150 * 4 + 4)])
    }
    #expect(abs(Int(centre[0]) - 0xCC) < 8 && abs(Int(centre[2]) - 0x33) < 8, "\(centre)")
  }
}
