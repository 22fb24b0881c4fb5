import WaterflowCommandLine
import FileTransactions
import Foundation
import PNGCodec
import WaterflowGolden
import WaterflowRender
import WaterflowScene

extension BenchCommand {
  /// Where `waterflow diff`'s time goes on two 750×1334 frames of the bench scene 3 points apart,
  /// drawn in this process and written to disk as `waterflow render` writes them.
  ///
  /// Each phase is a median over `runs`, measured apart:
  /// - decode: both PNG files read and decoded (on two threads, as `diff` does);
  /// - compare: the counts alone, pixelmatch without an output image;
  /// - image: drawing the diff image as well, less the counts alone;
  /// - encode: the diff image as PNG, with the frame encoder `diff` writes it with;
  /// - total: `ImageDiff.compareFiles` (decode, compare, draw) and the encode, end to end.
  func diffFigures(scene path: String = "Tests/WaterflowMotionTests/Bench/bench-scene.json")
    throws -> [(String, Double)]
  {
    guard FileManager.default.fileExists(atPath: path) else {
      warn("note: no \(path) here (run bench from the repository); the diff phases are left out")
      return []
    }
    let scene = try Scene(contentsOf: path)
    let renderer = try Renderer()
    let options = RenderOptions(scale: 2, style: scene.style)
    func frame(at offset: Double) throws -> [UInt8] {
      let controller = SceneController(scene: scene)
      controller.scroll(to: offset, step: 0)
      return try renderer.render(controller.view, as: .png, options: options)
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waterflow-bench-diff-\(getpid())"
    ).path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let a = dir + "/a.png"
    let b = dir + "/b.png"
    try writeAtomically(try frame(at: 300), to: a)
    try writeAtomically(try frame(at: 303), to: b)

    var images: (RGBAImage, RGBAImage)?
    let decode = median(runs) { _ in
      images = (try! RGBAImage(contentsOfPNGFile: a), try! RGBAImage(contentsOfPNGFile: b))
    }
    _ = images
    let decodeBoth = median(runs) { _ in
      images = try! ImageDiff.decodeBoth(a, b)
    }
    let (expected, actual) = images!
    var mismatched = 0
    let counts = median(runs) { _ in
      mismatched = ImageDiff.compare(expected, actual, diffImage: .never).mismatched
    }
    var diff: RGBAImage?
    let drawn = median(runs) { _ in
      diff = ImageDiff.compare(expected, actual, diffImage: .always).diffImage
    }
    var bytes = 0
    let encode = median(runs) { _ in
      bytes = diff!.pngData(compression: .frames).count
    }
    let total = median(runs) { _ in
      let result = try! ImageDiff.compareFiles(a, b, diffImage: .always)
      bytes = result.diffImage!.pngData(compression: .frames).count
    }
    return [
      ("diff_width", Double(expected.width)),
      ("diff_height", Double(expected.height)),
      ("diff_mismatched", Double(mismatched)),
      ("diff_decode_one_thread_ms", decode * 1e3),
      ("diff_decode_ms", decodeBoth * 1e3),
      ("diff_compare_ms", counts * 1e3),
      ("diff_image_ms", max(0, drawn - counts) * 1e3),
      ("diff_encode_ms", encode * 1e3),
      ("diff_png_bytes", Double(bytes)),
      ("diff_total_ms", total * 1e3),
    ]
  }
}
