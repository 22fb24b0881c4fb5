import Cairo
import Foundation
import Testing

/// Compares our encoder with cairo_surface_write_to_png on the 1500×2668 test frame.
///
/// Off by default: it only prints. Run it in release, where the numbers mean something:
///
/// ```
/// WATERFLOW_BENCHMARK=1 swift test -c release --filter PNGEncoderBenchmark
/// ```
@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment["WATERFLOW_BENCHMARK"] != nil))
struct PNGEncoderBenchmark {
  @Test func encodeTestFrame() throws {
    let surface = try makeTestFrame()
    let runs =
      Int(ProcessInfo.processInfo.environment["WATERFLOW_BENCHMARK_RUNS"] ?? "")
      ?? 7
    func median(_ body: () throws -> Void) rethrows -> Double {
      var times: [Double] = []
      for _ in 0..<runs {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        times.append(
          Double(elapsed.components.attoseconds) / 1e15 + Double(
            elapsed.components.seconds) * 1e3)
      }
      return times.sorted()[runs / 2]
    }
    func median1(_ body: () throws -> Void) rethrows -> Double {
      let start = ContinuousClock.now
      try body()
      let elapsed = ContinuousClock.now - start
      return Double(elapsed.components.attoseconds) / 1e15 + Double(
        elapsed.components.seconds) * 1e3
    }
    var drawSurface = try ImageSurface(width: 1500, height: 2668)
    let draw = try median {
      drawSurface = try makeTestFrame()
    }
    _ = drawSurface
    if let directory = ProcessInfo.processInfo.environment[
      "WATERFLOW_BENCHMARK_OUTPUT"]
    {
      try writeAtomically(surface.pngData(), to: directory + "/frame-ours.png")
      try writeAtomically(
        surface.cairoPNGData(), to: directory + "/frame-cairo.png")
    }
    let cairoBytes = try surface.cairoPNGData().count
    let cairo = try median { _ = try surface.cairoPNGData() }
    print("draw: \(String(format: "%.2f", draw)) ms")
    print(
      "cairo_surface_write_to_png: \(String(format: "%.2f", cairo)) ms, \(cairoBytes) bytes"
    )
    let levels =
      (ProcessInfo.processInfo.environment["WATERFLOW_BENCHMARK_LEVELS"]
      ?? "1,3,5,6,7,9")
      .split(separator: ",").compactMap { Int($0) }
    for level in levels {
      let encoder = PNGEncoder(compression: PNGCompression(level: level))
      let bytes = encoder.encode(surface).count
      // Interleave the two encoders so that load from other processes hits both alike, and
      // report the median of the per-pair ratios as well as the median times.
      var ours: [Double] = []
      var theirs: [Double] = []
      var ratios: [Double] = []
      for _ in 0..<runs {
        let c = try median1 { _ = try surface.cairoPNGData() }
        let o = median1 { _ = encoder.encode(surface) }
        theirs.append(c)
        ours.append(o)
        ratios.append(c / o)
      }
      func mid(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
      }
      print(
        "libdeflate level \(level): \(String(format: "%.2f", mid(ours))) ms vs cairo \(String(format: "%.2f", mid(theirs))) ms; "
          + "median ratio \(String(format: "%.2f", mid(ratios)))x; \(bytes) bytes vs \(cairoBytes) (\(String(format: "%.3f", Double(bytes) / Double(cairoBytes))))"
      )
    }
    let rgba = RGBAImage(surface: surface)
    let convert = median { _ = RGBAImage(surface: surface) }
    let fromImage = median { _ = rgba.pngData() }
    print(
      "RGBAImage(surface:): \(String(format: "%.2f", convert)) ms; RGBAImage.pngData(): \(String(format: "%.2f", fromImage)) ms"
    )
  }
}
