import WaterflowCommandLine
import Foundation
import PNGCodec
import Synchronization
import WaterflowGolden
import WaterflowGoldenReport
import WaterflowMotion
import WaterflowRender
import WaterflowView

extension GoldenRunOptions {
  /// Draws every golden `passes` times, the first pass in manifest order and each other in a
  /// seeded random order, on `jobs` workers whose renderers draw golden after golden (as a check
  /// does), and returns the goldens whose renderings differ from their first.
  ///
  /// The first rendering of each frame is kept compressed (the fast frame encoding, a few
  /// hundred kilobytes at most) and compared by pixels, so that a difference can name its first
  /// pixel; nothing is compared with the goldens on disk. A golden that cannot be drawn is left
  /// to the check, which reports why.
  func findFlakes(
    in entries: [GoldenManifest.Entry], fontPath: String, jobs: Int, passes: Int
  ) throws -> [String: GoldenFlake] {
    let firsts = Mutex<[String: [[UInt8]]]>([:])
    let flakes = Mutex<[String: GoldenFlake]>([:])
    for pass in 0..<passes {
      var generator = SeededGenerator(seed: UInt64(pass))
      let order = pass == 0 ? entries : entries.shuffled(using: &generator)
      let pipeline = OrderedPipeline<GoldenManifest.Entry, Void>(jobs: jobs, window: 2 * jobs)
      try pipeline.run(
        makeWorker: {
          let renderer: Renderer
          do { renderer = try Renderer(fontPath: fontPath) } catch { throw CLIError("\(error)") }
          return { entry in
            guard flakes.withLock({ $0[entry.name] == nil }),
              let frames = try? entry.shot().frames(with: renderer)
            else { return }
            if pass == 0 {
              let encoded = frames.map {
                $0.image.pngData(compression: GoldenStore.artifactEncoding)
              }
              firsts.withLock { $0[entry.name] = encoded }
              return
            }
            guard let first = firsts.withLock({ $0[entry.name] }) else { return }
            for (k, frame) in frames.enumerated() {
              let expected = k < first.count ? try? RGBAImage(pngData: first[k]) : nil
              guard let found = Self.difference(expected, frame.image) else { continue }
              let flake = GoldenFlake(
                name: entry.name, frame: k, passes: (0, pass), pixel: found.pixel,
                differing: found.count)
              flakes.withLock { $0[entry.name] = flake }
              break
            }
          }
        },
        produce: { emit in for entry in order { try emit(entry) } },
        consume: { _, _ in })
    }
    return flakes.withLock { $0 }
  }

  /// The first differing pixel and the count of differing pixels; nil when the images are
  /// equal. A missing image, or one of another size, differs everywhere.
  static func difference(_ a: RGBAImage?, _ b: RGBAImage) -> (pixel: (x: Int, y: Int)?, count: Int)? {
    guard let a, a.width == b.width, a.height == b.height else {
      return (nil, b.width * b.height)
    }
    guard a != b else { return nil }
    var first: Int?
    var count = 0
    a.pixels.withUnsafeBufferPointer { p in
      b.pixels.withUnsafeBufferPointer { q in
        var i = 0
        while i < p.count {
          if p[i] != q[i] || p[i + 1] != q[i + 1] || p[i + 2] != q[i + 2] || p[i + 3] != q[i + 3] {
            if first == nil { first = i / 4 }
            count += 1
          }
          i += 4
        }
      }
    }
    return (first.map { ($0 % b.width, $0 / b.width) }, count)
  }
}
