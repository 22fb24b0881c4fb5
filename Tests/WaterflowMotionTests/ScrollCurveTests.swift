import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowScene

@testable import WaterflowMotion

@Suite struct ScrollCurveTests {}

// MARK: - Timed curves

extension ScrollCurveTests {
  @Test func linearScroll_FramesIncludeBothEnds_EvenlySpacedInOffsetAndTime() {
    let frames = Array(
      ScrollSimulation(
        scene: referenceScene(),
        script: .scroll(from: 0, to: 300, frames: 4, fps: 30)))
    #expect(frames.map(\.number) == [1, 2, 3, 4])
    #expect(frames.map(\.offset) == [0, 100, 200, 300])
    let times: [Double] = [0, 1.0 / 30, 2.0 / 30, 3.0 / 30]
    #expect(frames.map(\.time) == times)
  }

  @Test func easeInOut_IsSymmetricAboutTheMiddle() {
    for k in 0...200 {
      let p = Double(k) / 200
      #expect(
        abs(
          ScrollCurve.easeInOut.progress(p)
            + ScrollCurve.easeInOut.progress(1 - p) - 1) < 1e-12)
    }
    let offsets = ScrollSimulation(
      scene: referenceScene(),
      script: .scroll(from: 100, to: 1300, frames: 31, curve: .easeInOut)
    ).map(\.offset)
    #expect(offsets.count == 31)
    #expect(offsets.first == 100 && offsets.last == 1300)
    for k in 0..<31 {
      #expect(abs((offsets[k] - 100) - (1300 - offsets[30 - k])) < 1e-9)
    }
    // Slow at the ends, fast in the middle: unlike linear.
    #expect(offsets[1] - offsets[0] < 40 && offsets[16] - offsets[15] > 40)
  }
}

// MARK: - Deceleration

extension ScrollCurveTests {
  @Test func fling_EndsAtRest_WhereTheExponentialDecayPredicts() {
    let scene = referenceScene(count: 2000)
    let frames = Array(
      ScrollSimulation(
        scene: scene,
        script: .fling(from: 0, velocity: 2000, rate: .normal, fps: 60)))
    let offsets = frames.map(\.offset)
    let last = offsets.count - 1
    #expect(frames[last].time == Double(last) / 60)
    // At rest: the speed at the last frame is under half a point per frame, at the one before at least that.
    func speed(_ frame: Int) -> Double {
      2000 * pow(0.998, 1000 * frames[frame].time) / 60
    }
    #expect(speed(last) < 0.5 && speed(last - 1) >= 0.5)
    #expect(offsets[last] - offsets[last - 1] < 0.55)
    // 2000 pt/s at 0.998 per ms glides 2000 / 1000 / −ln 0.998 ≈ 999 pt; at rest it is within a few points.
    let distance = Deceleration(velocity: 2000).distance
    #expect(abs(distance - 999.0) < 1)
    #expect(offsets[last] < distance && distance - offsets[last] < 30)
    #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 < $1 })
  }

  @Test func fastRate_StopsSoonerThanNormal() {
    let normal = Deceleration(velocity: 3000, rate: .normal).offsets(
      from: 0, fps: 30, bounds: 0...1e9)
    let fast = Deceleration(velocity: 3000, rate: .fast).offsets(
      from: 0, fps: 30, bounds: 0...1e9)
    #expect(fast.count < normal.count)
    #expect(fast.last! < normal.last!)
  }

  @Test(arguments: [(0.0, 50_000.0), (1000.0, -50_000.0), (1000.0, 40_000.0)])
  func fling_ClampsAtTheContentEdges(start: Double, velocity: Double) {
    let simulation = ScrollSimulation(
      scene: referenceScene(), script: .fling(from: start, velocity: velocity))
    let offsets = simulation.map(\.offset)
    let end = simulation.maximumOffset
    #expect(end > 0)
    #expect(offsets.allSatisfy { $0 >= 0 && $0 <= end })
    #expect(offsets.last == (velocity > 0 ? end : 0))
    // It stops when it hits the edge: no frames pile up there.
    #expect(offsets.dropLast().allSatisfy { $0 != offsets.last })
  }
}

// MARK: - Bounce

extension ScrollCurveTests {
  @Test(arguments: [(2000.0, 3000.0), (500.0, -3000.0), (2000.0, 30_000.0)])
  func bounceFling_OvershootsTheEdge_AndComesToRestExactlyOnIt(
    start: Double, velocity: Double
  ) {
    let scene = referenceScene()
    let simulation = ScrollSimulation(
      scene: scene,
      script: .fling(from: start, velocity: velocity, bounces: true))
    let offsets = simulation.map(\.offset)
    let end = simulation.maximumOffset
    let edge = velocity > 0 ? end : 0
    // How far each frame is past the edge, along the fling's direction.
    let beyond = offsets.map { velocity > 0 ? $0 - end : -$0 }
    let peak = beyond.firstIndex(of: beyond.max()!)!
    #expect(beyond[peak] > 1, "no frame overshoots the edge")
    #expect(beyond[peak] <= 667 / 4, "overshoot \(beyond[peak])")
    #expect(offsets.allSatisfy { velocity > 0 ? $0 >= 0 : $0 <= end })
    // At rest exactly on the edge, after springing back without crossing it again.
    #expect(offsets.last == edge)
    #expect(abs(offsets[offsets.count - 2] - edge) < 1)
    let back = beyond[peak...]
    #expect(zip(back, back.dropFirst()).allSatisfy { $0 > $1 && $1 >= 0 })
    // Up to the edge it is the same deceleration as without bouncing.
    let clamped = ScrollSimulation(
      scene: scene, script: .fling(from: start, velocity: velocity)
    ).map(\.offset)
    let before = offsets.prefix { velocity > 0 ? $0 < end : $0 > 0 }
    #expect(Array(before) == Array(clamped.dropLast()))
  }

  @Test func bounceOvershoot_IsCappedAtAQuarterOfTheViewport() {
    let limit = 0.25 * 667
    let offsets = Deceleration(velocity: -50_000, bounces: true).offsets(
      from: 100, fps: 60, bounds: 0...3000, viewportLength: 667)
    let deepest = -offsets.min()!
    #expect(deepest <= limit && deepest > 0.95 * limit, "overshoot \(deepest)")
    #expect(offsets.last == 0)
  }

  @Test func bounceFling_ContentShorterThanTheViewport_DoesNotMove() {
    let offsets = Deceleration(velocity: 3000, bounces: true).offsets(
      from: 0, fps: 30, bounds: 0...0, viewportLength: 667)
    #expect(offsets == [0])
  }

  @Test func bounceFrame_ShowsTheBackgroundAboveTheContent() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let script = ScrollScript.fling(from: 500, velocity: -3000, bounces: true)
    let frames = Array(
      ScrollSimulation(scene: referenceScene(), script: script))
    let peak = frames.min { $0.offset < $1.offset }!
    // The first row of cells starts 10 points below the content's top, here 50 below the view's.
    #expect(peak.offset < -40)
    var job = ScrollJob(
      scene: referenceScene(), script: script, output: .folder(dir))
    job.jobs = 2
    _ = try job.run()
    func pixel(_ frame: SimulatedFrame, y: Int) throws -> [UInt8] {
      let image = try RGBAImage(
        contentsOfPNGFile: "\(dir)/"
          + ScrollJob.frameName(frame.number, total: frames.count))
      let i = (y * image.width + 60) * 4
      return Array(image.pixels[i..<(i + 3)])
    }
    // Palette.background (0.95, 0.95, 0.96) as cairo stores it: 16 bits, then the high byte.
    let background: [UInt8] = [243, 243, 245]
    let abovePeak = try pixel(peak, y: 40)
    #expect(abovePeak == background, "\(abovePeak)")
    #expect(try pixel(frames.last!, y: 40) != background)
  }
}

// MARK: - Fixtures

func referenceScene(count: Int = 100) -> Scene {
  var scene = Scene()
  scene.viewport = Size(width: 375, height: 667)
  scene.scale = 1
  scene.seed = 1
  scene.layout = WaterflowLayout(
    sections: [
      Section(
        margins: Margins(
          top: 10, bottom: 10, left: 10, right: 10, column: 5, row: 5))
    ])
  scene.sections = [ItemList(count: count, heights: [90, 110, 80])]
  return scene
}
