import Cairo
import PNGCodec
import Foundation
import Testing

/// Compares our encoder with cairo_surface_write_to_png on the 1500×2668 test frame.
///
/// Off by default: it only prints, and asserts nothing about time. Run it in release:
///
/// ```
/// WATERFLOW_BENCHMARK=1 swift test -c release --filter PNGEncoderBenchmark
/// ```
///
/// The two encoders run alternately, so load from other processes hits both alike; it prints
/// median wall-clock times, the median of the per-pair ratios, and median process CPU time
/// (both threads of ours), which load disturbs less.
@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment["WATERFLOW_BENCHMARK"] != nil))
struct PNGEncoderBenchmark {
  private struct Sample {
    var wall: Double
    var cpu: Double
  }

  private static func measure(_ body: () throws -> Void) rethrows -> Sample {
    func cpuNow() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
      return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
    }
    let cpu = cpuNow()
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    let wall =
      Double(elapsed.components.seconds) * 1e3
      + Double(elapsed.components.attoseconds) / 1e15
    return Sample(wall: wall, cpu: cpuNow() - cpu)
  }

  private static func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
  }

  private static func format(_ value: Double) -> String {
    String(format: "%.1f", value)
  }

  @Test func encodeTestFrame() throws {
    let environment = ProcessInfo.processInfo.environment
    let runs = Int(environment["WATERFLOW_BENCHMARK_RUNS"] ?? "") ?? 11
    let levels = (environment["WATERFLOW_BENCHMARK_LEVELS"] ?? "1,3,5,6,7,9")
      .split(separator: ",").compactMap { Int($0) }
    let surface = try makeTestFrame()
    let draw = Self.median(
      try (0..<runs).map { _ in
        try Self.measure { _ = try makeTestFrame() }.wall
      })
    let cairoBytes = try surface.cairoPNGData().count
    if let directory = environment["WATERFLOW_BENCHMARK_OUTPUT"] {
      try writeFile(surface.pngData(), to: directory + "/frame-ours.png")
      try writeFile(
        surface.cairoPNGData(), to: directory + "/frame-cairo.png")
    }
    print("draw 1500×2668 test frame: \(Self.format(draw)) ms")
    for level in levels {
      let encoder = PNGEncoder(compression: PNGCompression(level: level))
      let bytes = encoder.encode(surface).count
      var ours: [Sample] = []
      var cairos: [Sample] = []
      for _ in 0..<runs {
        cairos.append(try Self.measure { _ = try surface.cairoPNGData() })
        ours.append(Self.measure { _ = encoder.encode(surface) })
      }
      let ratio = Self.median(zip(cairos, ours).map { $0.wall / $1.wall })
      let cpuRatio = Self.median(zip(cairos, ours).map { $0.cpu / $1.cpu })
      print(
        "level \(level): ours \(Self.format(Self.median(ours.map(\.wall)))) ms "
          + "(cpu \(Self.format(Self.median(ours.map(\.cpu))))), "
          + "cairo \(Self.format(Self.median(cairos.map(\.wall)))) ms "
          + "(cpu \(Self.format(Self.median(cairos.map(\.cpu))))); "
          + "ratio \(String(format: "%.2f", ratio))x wall, "
          + "\(String(format: "%.2f", cpuRatio))x cpu; "
          + "\(bytes) bytes vs cairo's \(cairoBytes) "
          + "(\(String(format: "%.3f", Double(bytes) / Double(cairoBytes))))")
    }
    let image = RGBAImage(surface: surface)
    let convert = Self.median(
      (0..<runs).map { _ in
        Self.measure { _ = RGBAImage(surface: surface) }.wall
      })
    let encode = Self.median(
      (0..<runs).map { _ in Self.measure { _ = image.pngData() }.wall })
    print(
      "RGBAImage(surface:) \(Self.format(convert)) ms; "
        + "RGBAImage.pngData() \(Self.format(encode)) ms")
  }
}
