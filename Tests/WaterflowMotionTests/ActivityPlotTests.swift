import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowRender
import WaterflowScene

@testable import WaterflowMotion

@Suite struct ActivityPlotTests {}

/// A colour component as cairo stores it in an 8-bit surface: to 16 bits, then the high byte.
private func cairoByte(_ v: Double) -> UInt8 {
  UInt8(Int(v * 65535 + 0.5) >> 8)
}

extension ActivityPlotTests {
  @Test func plot_DrawsEverySeriesAndItsLegend() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // 30 frames to 1500 points: cells are created, reused, pooled and shown throughout.
    var job = ScrollJob(
      scene: referenceScene(),
      script: .scroll(from: 0, to: 1500, frames: 30),
      output: .pdf("\(dir)/a.pdf"))
    job.plot = "\(dir)/plot.png"
    _ = try job.run()
    let image = try RGBAImage(contentsOfPNGFile: "\(dir)/plot.png")
    // 900 × 480 points at 2 pixels a point.
    #expect(image.width == 1800 && image.height == 960)

    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
      let i = (y * image.width + x) * 4
      return Array(image.pixels[i..<(i + 3)])
    }
    for (s, (r, g, b)) in ActivityPlot.colors.enumerated() {
      let colour = [cairoByte(r), cairoByte(g), cairoByte(b)]
      // The plot area is 60...700 × 40...430 points; the legend starts at 720.
      var inPlot = 0
      for y in 80..<860 {
        for x in 120..<1400 where pixel(x, y) == colour { inPlot += 1 }
      }
      #expect(
        inPlot > 200, "\(ActivityPlot.names[s]): \(inPlot) pixels of its colour"
      )
      // The legend swatch: 18 × 4 points at (720, 44 + 22 s).
      let top = (44 + 22 * s) * 2
      #expect(
        (top..<(top + 8)).allSatisfy { y in
          (1440..<1476).allSatisfy { pixel($0, y) == colour }
        }, "legend swatch of \(ActivityPlot.names[s])")
    }
  }
}
