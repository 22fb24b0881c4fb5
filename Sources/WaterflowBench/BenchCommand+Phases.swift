import WaterflowCommandLine
import Cairo
import Foundation
import PNGCodec
import WaterflowRender
import WaterflowScene
import WaterflowView

extension BenchCommand {
  /// Where a scroll frame's time goes, phase by phase, on the notes feed (template cells with
  /// photos and titles) at scale 2: what `waterflow scroll` does for each frame.
  ///
  /// The phases are measured apart, each a median over the frames of a 900-point scroll:
  /// - layout: the layout pass and the reuse that move the view to the next offset;
  /// - text: shaping the frame's texts, drawn with the renderer's kept layouts turned off less
  ///   drawn with them (what the text cache saves each frame);
  /// - images: decoding the frame's photos at their drawn size, a first drawing by a new renderer
  ///   less one without kept texts but with the photos kept (paid once, then shared);
  /// - raster: drawing the frame with texts and photos kept, as every frame after the first does;
  /// - encode: the PNG frame encoder `scroll` writes folders with.
  func phaseFigures(scene path: String = "Assets/Feeds/notes.json") throws -> [(String, Double)] {
    guard FileManager.default.fileExists(atPath: path) else {
      warn("note: no \(path) here (run bench from the repository); the frame phases are left out")
      return []
    }
    var scene = try Scene(contentsOf: path)
    scene.scale = 2
    let controller = SceneController(scene: scene)
    controller.view.layoutSubviews()
    let offsets = stride(from: 0.0, through: 900, by: 30).map { $0 }
    let options = RenderOptions(scale: 2, style: scene.style)

    var layout: [Double] = []
    for offset in offsets {
      let start = DispatchTime.now().uptimeNanoseconds
      controller.view.scroll(to: offset)
      layout.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    // Each frame drawn by a warm renderer (texts and photos kept), by one without kept texts,
    // and by a renderer with an empty image store (photos decoded afresh).
    let kept = try Renderer()
    let surface = try kept.surface(of: controller.view, options: options)
    let fresh = try Renderer(images: kept.images)
    fresh.keepsTextLayouts = false
    var raster: [Double] = []
    var unkeptText: [Double] = []
    var cold: [Double] = []
    var encode: [Double] = []
    func draw(_ renderer: Renderer) -> Double {
      let start = DispatchTime.now().uptimeNanoseconds
      let context = try! Context(surface)
      context.scale(x: 2, y: 2)
      renderer.draw(controller.view, in: context, options: options)
      return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
    controller.view.scroll(to: 0)
    for offset in offsets {
      controller.view.scroll(to: offset)
      let coldRenderer = try Renderer()
      cold.append(draw(coldRenderer))
      _ = draw(kept)  // warm the kept layouts for this frame's texts
      raster.append(draw(kept))
      unkeptText.append(draw(fresh))
      let start = DispatchTime.now().uptimeNanoseconds
      _ = surface.pngDataOnThisThread(compression: .frames)
      encode.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    func mid(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let rasterMs = mid(raster) * 1e3
    let frame = mid(layout) * 1e3 + rasterMs + mid(encode) * 1e3
    return [
      ("phase_frames", Double(offsets.count)),
      ("phase_layout_ms", mid(layout) * 1e3),
      ("phase_text_ms", max(0, mid(unkeptText) - mid(raster)) * 1e3),
      ("phase_images_first_ms", max(0, mid(cold) - mid(unkeptText)) * 1e3),
      ("phase_raster_ms", rasterMs),
      ("phase_encode_ms", mid(encode) * 1e3),
      ("phase_frame_ms", frame),
    ]
  }
}
