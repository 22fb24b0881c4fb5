import Cairo
import Foundation
import PNGCodec
import Synchronization
import Testing
import WaterflowRender
import WaterflowScene
import WaterflowTestSupport

/// JPEG and WebP photos, chosen by content: made at test time with ffmpeg, in flat colours so
/// that lossy compression keeps the colour within a few levels.
@Suite struct PhotoTests {
  /// The repository, for the feeds' photos.
  private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  /// Writes a 120 × 90 photo of one colour (`0xRRGGBB`) with ffmpeg.
  private func photo(_ hex: String, named name: String, codec: [String], in dir: String) throws -> String {
    try writeFlatImage(dir + "/" + name, color: hex, size: "120x90", codec: codec)
    return dir + "/" + name
  }

  private func centre(of index: Int, in scene: Scene) throws -> [Int] {
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let renderer = try Renderer()
    let image = try renderer.image(of: controller.view, options: RenderOptions(scale: 1))
    #expect(renderer.images.failures.isEmpty, "\(renderer.images.failures)")
    let f = controller.view.cell(at: index)!.frame
    let i = (Int(f.midY) * image.width + Int(f.midX)) * 4
    return image.pixels[i..<(i + 4)].map(Int.init)
  }

  private func scene(images: [String], in dir: String) throws -> Scene {
    let items = images.map { #"{"w": 120, "h": 90, "image": "\#($0)"}"# }.joined(separator: ", ")
    let json = #"{"viewport": {"width": 200, "height": 200, "scale": 1}, "columns": 2, "items": [\#(items)]}"#
    return try Scene(data: Data(json.utf8), path: dir + "/scene.json")
  }

  @Test func jpegAndWebP_cellCentreHasThePhotosColour() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-photo")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try photo("3366CC", named: "a.jpg", codec: ["-q:v", "2"], in: dir)
    _ = try photo("CC3366", named: "b.webp", codec: ["-c:v", "libwebp", "-quality", "95"], in: dir)
    let s = try scene(images: ["a.jpg", "b.webp"], in: dir)
    let jpeg = try centre(of: 0, in: s)
    let webp = try centre(of: 1, in: s)
    for (got, want) in [(jpeg, [0x33, 0x66, 0xCC, 255]), (webp, [0xCC, 0x33, 0x66, 255])] {
      #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 6 }, "\(got) vs \(want)")
    }
  }

  /// Renderers on two threads that share decodes draw every photo as a renderer alone draws it,
  /// whichever decoded it and at whatever size the other asked for it first: the notes feed at
  /// scales 1 and 3 decodes its JPEGs at different sizes, so a decode served to the wrong size,
  /// or pixels shared with the wrong stride, changes the picture.
  @Test func sharedDecodes_DrawEachPhotoAsARendererAloneDoes() throws {
    let root = Self.root
    let scene = try Scene(contentsOf: root + "/Assets/Feeds/notes.json")
    @Sendable func pixels(_ renderer: Renderer, scale: Double) throws -> [UInt8] {
      let controller = SceneController(scene: scene)
      controller.view.layoutSubviews()
      return try renderer.image(of: controller.view, options: RenderOptions(scale: scale)).pixels
    }
    let scales = [1.0, 3.0]
    let alone = try scales.map { try pixels(Renderer(), scale: $0) }
    let decodes = SharedImageDecodes()
    // Each thread draws both scales, in opposite orders, at the same time as the other.
    let drawn = Mutex<[String: [UInt8]]>([:])
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
      do {
        let renderer = try Renderer(images: ImageStore(sharing: decodes))
        for scale in thread == 0 ? scales : scales.reversed() {
          let image = try pixels(renderer, scale: scale)
          drawn.withLock { $0["\(thread)@\(scale)"] = image }
        }
        #expect(renderer.images.failures.isEmpty, "\(renderer.images.failures)")
      } catch {
        Issue.record(error)
      }
    }
    let results = drawn.withLock { $0 }
    for thread in 0..<2 {
      for (k, scale) in scales.enumerated() {
        // A Bool, not the arrays: a failing comparison of megabytes would print them.
        let same = results["\(thread)@\(scale)"] == alone[k]
        #expect(same, "thread \(thread), scale \(scale)")
      }
    }
  }

  /// A photo resized for cells of two heights, one thread each, with the same decoded size (a
  /// JPEG decoded at ½ for both): each thread draws its own size, as a renderer alone does.
  @Test func sharedDecodes_KeepEachResizedSizeApart() throws {
    let root = Self.root
    let dir = try makeTemporaryDirectory(prefix: "waterflow-photo")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    @Sendable func scene(aspectHeight: Int) throws -> Scene {
      let json = #"""
        {"viewport": {"width": 360, "height": 300, "scale": 1}, "columns": 2,
         "cells": {"p": {"content": {"image": "{cover}", "aspect": "{w}:{h}"}}},
         "items": [{"identifier": "p",
                    "data": {"cover": "\#(root)/Assets/Feeds/Photos/p01.jpg", "w": 540, "h": \#(aspectHeight)}}]}
        """#
      return try Scene(data: Data(json.utf8), path: dir + "/scene.json")
    }
    @Sendable func pixels(_ renderer: Renderer, aspectHeight: Int) throws -> [UInt8] {
      let controller = SceneController(scene: try scene(aspectHeight: aspectHeight))
      controller.view.layoutSubviews()
      return try renderer.image(of: controller.view, options: RenderOptions(scale: 1)).pixels
    }
    let heights = [720, 760]
    let alone = try heights.map { try pixels(Renderer(), aspectHeight: $0) }
    #expect(alone[0] != alone[1])
    let decodes = SharedImageDecodes()
    // One after the other: the second finds the first's decode, and must not take its copy.
    for (k, height) in heights.enumerated() {
      let image = try pixels(Renderer(images: ImageStore(sharing: decodes)), aspectHeight: height)
      let same = image == alone[k]
      #expect(same, "aspect 540:\(height)")
    }
  }

  /// A template cell's background is left out under the whole pixels an opaque photo covers,
  /// and the picture stays the same to the byte: at fractional positions and scales 1 to 3, under
  /// rounded cells and rounded photos, and never under a translucent photo, a fitted one or a
  /// missing one (whose placeholder does not cover its box).
  @Test func backgroundUnderOpaquePhotos_IsLeftOutWithoutChangingAPixel() throws {
    let root = Self.root
    let dir = try makeTemporaryDirectory(prefix: "waterflow-photo")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // A translucent photo: half-transparent stripes.
    let glass = try ImageSurface(width: 60, height: 40)
    glass.withUnsafeMutablePixels { pixels, stride in
      for y in 0..<40 {
        for x in 0..<60 {
          let value: UInt32 = (x / 6) % 2 == 0 ? 0x8040_2010 : 0xff33_6699
          pixels.storeBytes(of: value, toByteOffset: y * stride + 4 * x, as: UInt32.self)
        }
      }
    }
    try Data(glass.pngData()).write(to: URL(fileURLWithPath: dir + "/glass.png"))
    let photo = root + "/Assets/Feeds/Photos/p01.jpg"
    let json = #"""
      {"viewport": {"width": 361, "height": 500, "scale": 1}, "columns": 3,
       "margins": {"left": 5.3, "right": 5.3, "top": 3.7, "column": 6.1, "row": 5.9},
       "style": {"background": "#EEEEEE"},
       "cells": {
         "card": {"background": "#FFFFFF", "cornerRadius": 7.5,
                  "content": {"vstack": [{"image": "{cover}", "aspect": "{w}:{h}"},
                                         {"text": "{title}", "size": 12}]}},
         "rounded": {"background": "#FFEEDD", "cornerRadius": 3,
                     "content": {"vstack": [{"image": "{cover}", "aspect": "{w}:{h}", "cornerRadius": 9},
                                            {"text": "{title}", "size": 12}]}},
         "fitted": {"background": "#DDEEFF", "cornerRadius": 0,
                    "content": {"vstack": [{"image": "{cover}", "aspect": "1:1", "fit": "fit"}]}}},
       "items": [
         {"identifier": "card", "data": {"cover": "\#(photo)", "w": 540, "h": 720, "title": "one"}},
         {"identifier": "rounded", "data": {"cover": "\#(photo)", "w": 540, "h": 610, "title": "two"}},
         {"identifier": "fitted", "data": {"cover": "\#(photo)"}},
         {"identifier": "card", "data": {"cover": "glass.png", "w": 60, "h": 40, "title": "glass"}},
         {"identifier": "card", "data": {"cover": "missing.jpg", "w": 4, "h": 3, "title": "missing"}},
         {"identifier": "card", "data": {"cover": "\#(photo)", "w": 540, "h": 500, "title": "three"}}]}
      """#
    let scene = try Scene(data: Data(json.utf8), path: dir + "/scene.json")
    for scale in [1.0, 2.0, 3.0] {
      func pixels(leavingOut: Bool) throws -> (pixels: [UInt8], leftOut: Int) {
        let controller = SceneController(scene: scene)
        controller.view.layoutSubviews()
        let renderer = try Renderer()
        renderer.leavesBackgroundUnderPhotos = leavingOut
        let image = try renderer.image(of: controller.view, options: RenderOptions(scale: scale))
        return (image.pixels, renderer.backgroundsLeftOutUnderPhotos)
      }
      let drawn = try pixels(leavingOut: true)
      let filled = try pixels(leavingOut: false)
      // Three cards show the opaque photo filling its box; the others keep their background.
      #expect(drawn.leftOut == 3, "scale \(scale)")
      let same = drawn.pixels == filled.pixels
      #expect(same, "scale \(scale)")
    }
    // Drawn inside a clip of the caller's (a shot's screen): a rounded or fractional one covers
    // some pixels only in part, and nothing is left out; a whole-pixel one still lets it.
    for (clip, leavesOut) in [("rounded", false), ("fractional", false), ("whole pixels", true)] {
      func pixels(leavingOut: Bool) throws -> (pixels: [UInt8], leftOut: Int) {
        let controller = SceneController(scene: scene)
        controller.view.layoutSubviews()
        let renderer = try Renderer()
        renderer.leavesBackgroundUnderPhotos = leavingOut
        let surface = try ImageSurface(width: 722, height: 1000)
        let context = try Context(surface)
        context.scale(x: 2, y: 2)
        switch clip {
        case "rounded": context.roundedRectangle(x: 3, y: 2, width: 350, height: 480, radius: 40)
        case "fractional": context.rectangle(x: 3.3, y: 2.2, width: 350, height: 480)
        default: context.rectangle(x: 3, y: 2, width: 350, height: 480)
        }
        context.clip()
        renderer.draw(controller.view, in: context, options: RenderOptions(scale: 2))
        return (surface.withUnsafePixels { buffer, _ in Array(buffer) }, renderer.backgroundsLeftOutUnderPhotos)
      }
      let drawn = try pixels(leavingOut: true)
      let filled = try pixels(leavingOut: false)
      #expect((drawn.leftOut > 0) == leavesOut, "\(clip) clip")
      let same = drawn.pixels == filled.pixels
      #expect(same, "\(clip) clip")
    }
    // A PDF has no pixels: its backgrounds stay whole, or a viewer's scaling would show seams.
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let renderer = try Renderer()
    _ = try renderer.render(FrameContent(view: controller.view), as: .pdf)
    #expect(renderer.backgroundsLeftOutUnderPhotos == 0)
  }

  @Test func format_isChosenByContentNotExtension() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-photo")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try photo("3366CC", named: "jpeg.png", codec: ["-f", "mjpeg", "-q:v", "2"], in: dir)
    _ = try photo("CC3366", named: "webp.jpg", codec: ["-c:v", "libwebp", "-f", "webp"], in: dir)
    let s = try scene(images: ["jpeg.png", "webp.jpg"], in: dir)
    #expect(try centre(of: 0, in: s)[2] > 180)
    #expect(try centre(of: 1, in: s)[0] > 180)
  }

  @Test func decodedJPEG_isTheSameEveryTime() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-photo")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = try photo("3366CC", named: "a.jpg", codec: [], in: dir)
    let a = RGBAImage(surface: try ImageSurface(contentsOfImageFile: path))
    let b = RGBAImage(surface: try ImageSurface(contentsOfImageFile: path))
    #expect(a == b)
    #expect(a.width == 120 && a.height == 90)
  }

  @Test func unsupportedFormat_isAnErrorNamingItemPathAndFormat() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-photo")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try photo("33CC66", named: "c.gif", codec: [], in: dir)
    try Data("GIF89a but not really".utf8).write(to: URL(fileURLWithPath: dir + "/fake.png"))
    let s = try scene(images: ["a-missing.png", "c.gif", "fake.png"], in: dir)
    let controller = SceneController(scene: s)
    controller.view.layoutSubviews()
    let renderer = try Renderer()
    _ = try renderer.image(of: controller.view, options: RenderOptions(scale: 1))
    let gif = dir + "/c.gif"
    #expect(renderer.images.corrupt.contains(gif))
    #expect(
      renderer.images.failures[gif]
        == "item 1: The file '\(gif)' is a GIF image: images must be PNG, JPEG or WebP.")
    #expect(renderer.images.failures[dir + "/fake.png"]?.contains("item 2: ") == true)
    #expect(renderer.images.failures[dir + "/fake.png"]?.contains("a GIF image") == true)
    // A missing file is still a warning (a slow download), not an error.
    #expect(!renderer.images.corrupt.contains(dir + "/a-missing.png"))
  }

  @Test func brokenJPEG_isAnErrorNotACrash() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-photo")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/broken.jpg"
    try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array(repeating: 0, count: 40)).write(
      to: URL(fileURLWithPath: path))
    #expect(throws: GraphicsError.self) { try ImageSurface(contentsOfImageFile: path) }
  }

  /// Issue 16: photos had a 1-px fringe of the cell's colour where a cell's edge falls between
  /// pixels (the colour was filled under the photo, and both were blended in by coverage). The
  /// shop goldens were re-recorded without it.
  @Test func photo_AtFractionalEdges_HasNoFringeOfTheCellColour() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-photo")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try photo("0000FF", named: "blue.png", codec: [], in: dir)
    // Three columns in 201 pt: cells 60.33 pt wide at x 5, 70.33 and 135.67. The cells are pure
    // green, the photo pure blue, the background grey (r = g): at an edge, any green in excess
    // of red is the cell's colour showing.
    let json = #"""
      {"viewport": {"width": 201, "height": 120, "scale": 1}, "columns": 3,
       "margins": {"left": 5, "right": 5, "column": 5, "top": 5, "bottom": 5, "row": 5},
       "items": [{"height": 100, "image": "blue.png", "color": "#00FF00"},
                 {"height": 100, "image": "blue.png", "color": "#00FF00"},
                 {"height": 100, "image": "blue.png", "color": "#00FF00"}]}
      """#
    let scene = try Scene(data: Data(json.utf8), path: dir + "/scene.json")
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let renderer = try Renderer()
    let image = try renderer.image(of: controller.view, options: RenderOptions(scale: 1))
    #expect(renderer.images.failures.isEmpty, "\(renderer.images.failures)")
    var edges = 0
    for (_, cell) in controller.view.displayed {
      let y = Int(cell.frame.midY)
      for x in [Int(cell.frame.minX), Int(cell.frame.maxX)] where x < image.width {
        let i = (y * image.width + x) * 4
        let (r, g) = (Int(image.pixels[i]), Int(image.pixels[i + 1]))
        #expect(abs(g - r) <= 1, "x \(x): rgba \(Array(image.pixels[i..<(i + 4)]))")
        if cell.frame.minX.rounded() != cell.frame.minX { edges += 1 }
      }
    }
    #expect(edges >= 4, "the test needs fractional edges")
  }
}
