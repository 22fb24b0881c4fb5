import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowRender
import WaterflowScene

@testable import WaterflowMotion

@Suite struct ContactSheetTests {}

// MARK: - Grid

extension ContactSheetTests {
  // Thumbnails are 150 points wide with an 18-point label, 8 points apart, at most 8 a row and
  // 48 in all (every ⌈n / 48⌉-th frame); the sheet is drawn at 2 pixels a point.
  // 375 × 667 thumbnails are 150 × 267 (0.4 × 667, rounded up); 667 × 375 ones are 150 × 85.
  @Test(arguments: [
    // 3 thumbnails in one row: 8 + 3 × 158 = 482 wide, 8 + 267 + 18 + 8 = 301 high.
    (3, Size(width: 375, height: 667), 964, 602),
    // 10 thumbnails: 8 a row, 2 rows of 293 points.
    (10, Size(width: 375, height: 667), 2544, 1188),
    // Every 3rd of 100 frames: 34 thumbnails in 5 rows.
    (100, Size(width: 375, height: 667), 2544, 2946),
    // Every 21st of 1000 frames: 48 thumbnails in 6 rows.
    (1000, Size(width: 375, height: 667), 2544, 3532),
    // Landscape: 8 + 85 + 18 + 8 = 119 points high.
    (3, Size(width: 667, height: 375), 964, 238),
  ])
  func sheetSize_FollowsTheGrid(
    frames: Int, canvas: Size, width: Int, height: Int
  ) throws {
    let sheet = try ContactSheet(
      frameCount: frames, canvas: canvas, renderer: try Renderer())
    let image = try RGBAImage(pngData: try sheet.pngData())
    #expect(image.width == width && image.height == height)
  }
}

extension ContactSheetTests {
  /// Sampling every 21st of 1000 frames would skip an event at frame 500: it gets its own slot.
  @Test func eventFrames_AreAlwaysOnTheSheet() throws {
    let plain = try ContactSheet(
      frameCount: 1000, canvas: Size(width: 375, height: 667), renderer: try Renderer())
    let withEvents = try ContactSheet(
      frameCount: 1000, canvas: Size(width: 375, height: 667), renderer: try Renderer(),
      eventFrames: [500, 22])
    #expect(!plain.includes(500) && withEvents.includes(500))
    #expect(withEvents.includes(22) && plain.includes(22), "22 is sampled anyway")
    #expect(!withEvents.includes(501))
    // 48 sampled + 1 event = 49 thumbnails: a seventh row (8 columns).
    let a = try RGBAImage(pngData: try plain.pngData())
    let b = try RGBAImage(pngData: try withEvents.pngData())
    #expect(a.width == b.width && b.height > a.height)
  }
}

// MARK: - Thumbnails

/// The pixels of a `width` × `height` rectangle of an image, row by row.
private func crop(_ image: RGBAImage, x: Int, y: Int, width: Int, height: Int)
  -> [UInt8]
{
  var bytes: [UInt8] = []
  for row in y..<(y + height) {
    let start = (row * image.width + x) * 4
    bytes += image.pixels[start..<(start + width * 4)]
  }
  return bytes
}

/// The mean difference per channel (0 to 255) of two equally long pixel lists, ignoring alpha.
private func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
  var sum = 0
  for i in a.indices where i % 4 != 3 { sum += abs(Int(a[i]) - Int(b[i])) }
  return Double(sum) / Double(a.count / 4 * 3)
}

extension ContactSheetTests {
  /// Slot `k` of a sheet of 375 × 667 frames: its thumbnail and its label, in pixels.
  private func slot(_ k: Int) -> (x: Int, y: Int, label: Int) {
    let x = (8 + (k % 8) * 158) * 2
    let y = (8 + (k / 8) * (267 + 18 + 8)) * 2
    return (x, y, y + 267 * 2)
  }

  @Test func thumbnails_ShowTheirFrames_WithNumberedLabels() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // Frames 1 to 5 scroll to 600, frames 6 to 8 hold there.
    let script = ScrollScript(segments: [
      .scroll(to: .offset(600), frames: 4, curve: .linear), .pause(frames: 3),
    ])
    var job = ScrollJob(
      scene: referenceScene(), script: script, output: .pdf("\(dir)/a.pdf"))
    job.contactSheet = "\(dir)/sheet.png"
    job.jobs = 2
    _ = try job.run()
    let sheet = try RGBAImage(
      contentsOfPNGFile: "\(dir)/sheet.png")
    #expect(sheet.width == 2544 && sheet.height == 602)

    // Each thumbnail is its frame drawn at 0.4 × 2 = 0.8 pixels a point (the last, partly
    // covered row left out); another frame differs by far more than antialiasing does.
    let renderer = try Renderer()
    let frames = Array(
      ScrollSimulation(scene: referenceScene(), script: script))
    let renders = try frames.map {
      crop(
        RGBAImage(
          surface: try renderer.surface(
            of: $0.content, options: RenderOptions(scale: 0.8))),
        x: 0, y: 0, width: 300, height: 533)
    }
    let tiles = (0..<8).map {
      crop(sheet, x: slot($0).x, y: slot($0).y, width: 300, height: 533)
    }
    for k in 0..<8 {
      #expect(meanDifference(tiles[k], renders[k]) < 2, "thumbnail \(k + 1)")
    }
    #expect(meanDifference(tiles[0], renders[4]) > 20)
    #expect(
      meanDifference(tiles[5], tiles[7]) == 0,
      "frames 6 and 8 are the same pause")
    #expect(meanDifference(tiles[0], tiles[7]) > 20)

    // Labels are dark text on white, and differ with the frame number even where frames do not.
    let labels = (0..<8).map {
      crop(sheet, x: slot($0).x, y: slot($0).label, width: 300, height: 36)
    }
    for (k, label) in labels.enumerated() {
      let ink = stride(from: 0, to: label.count, by: 4).filter {
        label[$0] < 100 && label[$0 + 1] < 100 && label[$0 + 2] < 100
      }.count
      #expect(ink > 100, "label \(k + 1) has \(ink) dark pixels")
    }
    #expect(meanDifference(labels[5], labels[7]) > 0)
  }

  @Test func longSequence_SamplesEveryNthFrame() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // 100 frames, 20 points apart: thumbnails show frames 1, 4, 7, …, 100.
    let script = ScrollScript.scroll(
      from: 0, to: 1980, frames: 100, curve: .linear)
    var job = ScrollJob(
      scene: referenceScene(), script: script, output: .pdf("\(dir)/a.pdf"))
    job.contactSheet = "\(dir)/sheet.png"
    job.jobs = 2
    _ = try job.run()
    let sheet = try RGBAImage(contentsOfPNGFile: "\(dir)/sheet.png")
    let renderer = try Renderer()
    let frames = Array(
      ScrollSimulation(scene: referenceScene(), script: script))
    func render(_ number: Int) throws -> [UInt8] {
      crop(
        RGBAImage(
          surface: try renderer.surface(
            of: frames[number - 1].content, options: RenderOptions(scale: 0.8))),
        x: 0, y: 0, width: 300, height: 533)
    }
    for (k, number) in [(1, 4), (20, 61), (33, 100)] {
      let tile = crop(
        sheet, x: slot(k).x, y: slot(k).y, width: 300, height: 533)
      #expect(
        meanDifference(tile, try render(number)) < 2, "thumbnail \(k + 1)")
      #expect(meanDifference(tile, try render(number - 1)) > 10)
    }
  }
}
