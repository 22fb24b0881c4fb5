import WaterflowCommandLine
import Cairo
import Foundation
import FileTransactions
import PNGCodec
import WaterflowRender
import WaterflowScene
import WaterflowView

extension BenchCommand {
  /// The two frames the encoder figures are taken on: the reference demo's 1500×2668 frame (flat
  /// cells and text: what the run encoder was built for) and the notes feed's first screen at
  /// scale 2, 750×1624 (photos and text).
  func benchFrames() throws -> [(kind: String, surface: ImageSurface)] {
    var scene = Self.referenceScene(scale: 4)
    scene.sections = [ItemList(count: 100, heights: Self.referenceHeights)]
    let controller = SceneController(scene: scene)
    controller.scroll(to: 600, step: 50)
    let flat = try Renderer().surface(of: controller.view, options: RenderOptions(scale: 4))
    let notesPath = "Assets/Feeds/notes.json"
    guard FileManager.default.fileExists(atPath: notesPath) else {
      warn("note: no \(notesPath) here (run bench from the repository); the photo frame is left out")
      return [("flat", flat)]
    }
    var notes = try Scene(contentsOf: notesPath)
    notes.scale = 2
    let feed = SceneController(scene: notes)
    feed.view.layoutSubviews()
    let photo = try Renderer().surface(
      of: feed.view, options: RenderOptions(scale: 2, style: notes.style))
    return [("flat", flat), ("photo", photo)]
  }

  /// Writes ``benchFrames()`` as `flat.png` and `photo.png` in `folder` (for `peers.sh`).
  func writeBenchFrames(to folder: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (kind, surface) in try benchFrames() {
      let path = folder + "/" + kind + ".png"
      try writeAtomically(surface.pngData(compression: .fast), to: path)
      emit(path)
    }
  }

  /// The frame encoder per frame kind: time, bytes, and bytes per pixel.
  func frameEncodingFigures() throws -> [(String, Double)] {
    var results: [(String, Double)] = []
    for (kind, surface) in try benchFrames() {
      results += try encodingFigures(of: surface, label: "encode_\(kind)", source: kind)
    }
    return results
  }

  /// The frame encoder on PNG files as they are: each file's pixels encoded as `scroll` encodes a
  /// frame (one thread, `PNGCompression.frames`), with the median time and the bytes, and a check
  /// that the bytes decode to the same pixels. `peers.sh` prints fpnge's and fpng's figures for the
  /// same files beside these.
  func encodingFigures(_ paths: [String]) throws -> [(String, Double)] {
    var results: [(String, Double)] = []
    for (index, path) in paths.enumerated() {
      let surface: ImageSurface
      do { surface = try ImageSurface(contentsOfPNGFile: path) } catch {
        throw CLIError("\(path): \(error)")
      }
      warn("encode\(index + 1): \(path)")
      results += try encodingFigures(of: surface, label: "encode\(index + 1)", source: path)
    }
    return results
  }

  /// One surface encoded as `scroll` encodes a frame, checked to decode to its pixels.
  private func encodingFigures(
    of surface: ImageSurface, label: String, source: String
  ) throws -> [(String, Double)] {
    let png = surface.pngDataOnThisThread(compression: .frames)
    guard try RGBAImage(pngData: png) == RGBAImage(surface: surface) else {
      throw CLIError("\(source): the frame encoder's bytes decode to other pixels")
    }
    let seconds = median(runs) { _ in
      _ = surface.pngDataOnThisThread(compression: .frames)
    }
    return [
      ("\(label)_pixels", Double(surface.width * surface.height)),
      ("\(label)_ms", seconds * 1e3),
      ("\(label)_bytes", Double(png.count)),
    ]
  }
}
