import Cairo
import WaterflowRender
import PNGCodec
import Testing

@testable import WaterflowShots

@Suite struct ShotCanvasesTests {
  @Test func aKeptCanvasComesBackCleared_AndTheOldestSizeGoesPastTheBudget() throws {
    // Room for two 100 × 100 canvases (40,000 bytes each).
    let canvases = ShotCanvases(budget: 80_000)
    let first = try canvases.canvas(width: 100, height: 100)
    first.withUnsafeMutablePixels { pixels, _ in _ = pixels.initializeMemory(as: UInt8.self, repeating: 0xAB) }
    let again = try canvases.canvas(width: 100, height: 100)
    #expect(again === first, "the same size is the same canvas")
    #expect(again.withUnsafePixels { pixels, _ in pixels.allSatisfy { $0 == 0 } }, "cleared, as a new one is")
    let other = try canvases.canvas(width: 100, height: 50)
    #expect(other !== first)
    // A third size passes the budget: the least recently used (100 × 100) goes.
    _ = try canvases.canvas(width: 90, height: 100)
    #expect(try canvases.canvas(width: 100, height: 100) !== first)
  }

  @Test func shotsDrawnIntoKeptCanvases_AreThoseOfAFreshCamera() throws {
    let fixture = try ShotFixture()
    let file = try fixture.file()
    let shots = [try fixture.shot("en"), try fixture.shot("ar", .dark), try fixture.shot("en", .dark)]
    let camera = try ShotCamera(
      file: file, scenes: try ShotScenes(for: shots), renderer: Renderer(), canvases: ShotCanvases())
    for shot in shots + shots.reversed() {
      let kept = try camera.image(of: shot)
      #expect(kept == (try fixture.image(of: shot)), "\(shot.name)")
    }
  }
}
