import Cairo
import Foundation
import PNGCodec
import WaterflowGolden
import WaterflowMotion
import WaterflowRender
import WaterflowScene
import WaterflowShots

/// What each fuzz harness does with one input, shared by the libFuzzer harnesses
/// (Tests/Fuzz/Harnesses, built by `make fuzz`) and by FuzzRegressionTests, which replays every
/// input of Tests/Fuzz/Corpus in the ordinary test run.
///
/// A reader may reject any input with an error; it must never trap, hang or touch memory it
/// does not own. Every check goes through a reader's public entry point, so the harnesses keep
/// working whatever the reader does inside.
public enum FuzzChecks {
  /// The checks by harness name; each names its corpus folder, Tests/Fuzz/Corpus/NAME.
  public static let all: [String: @Sendable ([UInt8]) -> Void] = [
    "PNGDecoder": pngDecoder,
    "SceneReader": sceneReader,
    // The same reader (a scene file may hold frames), seeded with layout files, so that
    // mutations explore frames, sections and supplementary views rather than items.
    "LayoutFile": sceneReader,
    "ScrollScript": scrollScript,
    "GoldenManifest": goldenManifest,
    "GoldenFiles": goldenFiles,
    // One check for both (the content picks the decoder), seeded apart so that mutations
    // explore each format's headers.
    "JPEGDecoder": imageDecoder,
    "WebPDecoder": imageDecoder,
    "ShotFile": shotFile,
  ]

  /// Reads a shot file; one that loads must list its shots, each named as a path of four
  /// folder names below the output folder, and take filters and slices of them.
  public static func shotFile(_ bytes: [UInt8]) {
    guard let file = withTemporaryFile(bytes, { try? ShotFile(contentsOf: $0) }) else { return }
    let shots = file.shots
    for shot in shots.prefix(100) {
      let parts = shot.name.split(separator: "/", omittingEmptySubsequences: false)
      precondition(
        parts.count == 4 && !parts.contains { $0.isEmpty || $0 == ".." || $0 == "." },
        "shot '\(shot.name)' would be written outside its folder")
    }
    if let first = shots.first {
      _ = try? ShotFilter(parsing: "locale=\(first.locale.name),device=\(first.device.name)", for: file)
    }
    if let slice = try? ShotShard(parsing: "2/3") { _ = slice.select(shots) }
  }

  /// Decodes a PNG, as it is and with its chunk CRCs repaired (a mutation almost always breaks
  /// a CRC, and the decoder stops there); a decoded image must survive our encoder and decoder
  /// unchanged.
  public static func pngDecoder(_ bytes: [UInt8]) {
    _ = try? RGBAImage(pngData: bytes)
    guard let image = try? RGBAImage(pngData: repairingCRCs(bytes)) else { return }
    // Round-trips only small images: the encoder is not what is fuzzed here.
    guard image.width * image.height <= 1 << 16 else { return }
    let again = try? RGBAImage(pngData: image.pngData(compression: .fast))
    precondition(again == image, "a decoded PNG changed through encode and decode")
  }

  /// Reads a scene; a scene that loads must lay out and scroll without trapping.
  public static func sceneReader(_ bytes: [UInt8]) {
    guard let scene = try? Scene(data: Data(bytes), path: "fuzz.json") else { return }
    exercise(scene)
  }

  /// Reads a scroll script; one that loads must simulate (its first frames) on a small scene.
  public static func scrollScript(_ bytes: [UInt8]) {
    guard let script = withTemporaryFile(bytes, { try? ScrollScript(contentsOf: $0) })
    else { return }
    for (n, _) in zip(0..<maximumFrames, ScrollSimulation(scene: smallScene, script: script)) {
      _ = n
    }
  }

  /// Reads a golden manifest and selects its entries; every golden a manifest that loads
  /// names (one-character names, frames of sequences) must lie inside the golden folder.
  public static func goldenManifest(_ bytes: [UInt8]) {
    guard let manifest = withTemporaryFile(bytes, { try? GoldenManifest(contentsOf: $0) })
    else { return }
    _ = try? manifest.entries(matching: [])
    _ = try? manifest.entries(matching: manifest.entries.prefix(2).map(\.name))
    let store = GoldenStore(
      directory: "/golden", configuration: GoldenConfiguration(recordMode: .never, artifactsDirectory: "/artifacts"))
    for entry in manifest.entries.prefix(50) {
      for name in entry.goldenNames.prefix(50) {
        let path = store.path(for: name)
        precondition(
          path.hasPrefix("/golden/") && !path.split(separator: "/").contains(".."),
          "golden '\(name)' is written outside the golden folder, at \(path)")
        _ = GoldenStore.frameName(name, 0, count: 2)
      }
    }
  }

  /// Decodes a JPEG or WebP image (PNGs have their own harness): whole when it declares at most
  /// a megapixel, and scaled to cover 64 × 64 as cells draw photos. A decoded image has the size
  /// its header declares, or the scaled one within it.
  public static func imageDecoder(_ bytes: [UInt8]) {
    withTemporaryFile(bytes) { path in
      guard let scaled = try? ImageSurface(contentsOfImageFile: path, covering: (64, 64)) else {
        return
      }
      guard let declared = ImageFileFormat.pixelSize(ofFile: path) else { return }
      precondition(
        scaled.width <= declared.width && scaled.height <= declared.height,
        "a scaled decode is larger than the image")
      if declared.width * declared.height <= 1 << 20,
        let whole = try? ImageSurface(contentsOfImageFile: path)
      {
        precondition(
          whole.width == declared.width && whole.height == declared.height,
          "a decode differs from the declared size")
      }
    }
  }

  /// Reads what a golden folder holds beside its PNGs: facts (also carried in a snapshot's PNG
  /// text) and font-stack fingerprints (also in a snapshot's PNG text, and per golden in
  /// `fingerprint.json`). A fingerprint that loads must describe itself and compare with itself.
  public static func goldenFiles(_ bytes: [UInt8]) {
    _ = try? GoldenFacts.read(bytes, name: "fuzz.facts.json")
    guard let stack = try? FontStackFingerprint.read(bytes, file: "fingerprint.json") else {
      return
    }
    _ = stack.description
    precondition(stack.changes(since: stack).isEmpty, "a fingerprint differs from itself")
  }

  // MARK: - Helpers

  /// The bytes with every complete chunk's CRC recomputed, so that mutations reach the chunk
  /// contents, the zlib stream and the filters.
  static func repairingCRCs(_ bytes: [UInt8]) -> [UInt8] {
    var out = bytes
    var offset = 8
    while offset + 12 <= out.count {
      let length =
        Int(out[offset]) << 24 | Int(out[offset + 1]) << 16 | Int(out[offset + 2]) << 8
        | Int(out[offset + 3])
      guard length <= out.count - offset - 12 else { break }
      var crc: UInt32 = 0xffff_ffff
      for byte in out[(offset + 4)..<(offset + 8 + length)] {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
      }
      crc ^= 0xffff_ffff
      let at = offset + 8 + length
      for k in 0..<4 { out[at + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
      offset = at + 4
    }
    return out
  }

  /// Frames simulated per script: enough to cross every segment kind, few enough to stay fast.
  static let maximumFrames = 600

  /// Lays a scene out at its top, middle and end: what every CLI command does after loading.
  static func exercise(_ scene: Scene) {
    // Huge scenes are legal; laying out a million cells is slow, not wrong.
    guard scene.itemCount <= 5000 else { return }
    let controller = SceneController(scene: scene)
    let view = controller.view
    view.layoutSubviews()
    let content = view.contentSize
    let end = max(content.width, content.height)
    for fraction in [0.5, 1.0, 0.0] {
      _ = view.scroll(to: end * fraction)
    }
    // Template cells are drawn too: their layout of pieces runs only when drawing. Small
    // viewports only: a fuzzed 30000-point one would be gigabytes of pixels, legal but slow.
    if !scene.cells.isEmpty, scene.viewport.width * scene.viewport.height <= 1_000_000,
      let renderer = templateRenderer
    {
      _ = try? renderer.render(FrameContent(view: view), as: .png, options: RenderOptions(scale: 1))
    }
  }

  /// One renderer for every input: loading fonts per input would be most of the time.
  nonisolated(unsafe) static let templateRenderer = try? Renderer()

  /// A small scene for scripts to scroll.
  static let smallScene: Scene = {
    let json = """
      {"viewport": {"width": 375, "height": 667, "scale": 1}, "columns": 2, "seed": 7,
       "items": {"count": 60, "heights": [90, 110, 80]}}
      """
    return try! Scene(data: Data(json.utf8), path: "small.json")
  }()

  /// Runs a reader that takes a path on the bytes written to a file of this process's own.
  static func withTemporaryFile<T>(_ bytes: [UInt8], _ read: (String) -> T) -> T {
    let path = NSTemporaryDirectory() + "/waterflow-fuzz-\(getpid()).json"
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    defer { unlink(path) }
    return read(path)
  }
}
