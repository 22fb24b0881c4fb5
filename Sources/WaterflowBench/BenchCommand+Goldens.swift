import WaterflowCommandLine
import Cairo
import Foundation
import PNGCodec
import WaterflowGolden

extension BenchCommand {
  /// The encodings a golden could be written with, by the name the figures use.
  ///
  /// Every libdeflate level with the adaptive filters goldens use today, two with Up only, and
  /// the run encoder scroll frames use: what `GoldenStore.encoding` was chosen from.
  static let goldenEncodings: [(String, PNGCompression)] =
    (1...12).map { ("level\($0)", PNGCompression(level: $0)) } + [
      ("up_level1", PNGCompression(level: 1, filtering: .up)),
      ("up_level6", PNGCompression(level: 6, filtering: .up)),
      ("runs", .frames),
    ]

  /// Every PNG a manifest's entries own, decoded, then encoded with each of ``goldenEncodings``:
  /// the total bytes and the median time to encode them all, against the files as they are;
  /// then what fingerprinting the font stack costs.
  ///
  /// Decoding is done once, outside the timing: a golden is encoded from pixels the renderer
  /// just drew. Each encoding runs on the calling thread as `golden record` calls it.
  func goldenEncodingFigures(_ manifestPath: String) throws -> [(String, Double)] {
    let manifest: GoldenManifest
    do { manifest = try GoldenManifest(contentsOf: manifestPath) } catch {
      throw CLIError(error.description)
    }
    let folder = manifest.goldenDirectory
    var images: [RGBAImage] = []
    var fileBytes = 0
    for name in manifest.entries.flatMap(\.goldenNames) {
      let path = folder + "/" + name + ".png"
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
        let image = try? RGBAImage(contentsOfPNGFile: path)
      else { continue }
      fileBytes += (attributes[.size] as? Int) ?? 0
      images.append(image)
    }
    guard !images.isEmpty else {
      throw CLIError("No golden of \(manifestPath) is on disk: record them first.")
    }
    var results: [(String, Double)] = [
      ("goldens", Double(images.count)), ("files_bytes", Double(fileBytes)),
    ]
    for (label, compression) in Self.goldenEncodings {
      let bytes = images.reduce(0) { $0 + $1.pngData(compression: compression).count }
      let seconds = median(runs) { _ in
        for image in images { _ = image.pngData(compression: compression) }
      }
      results.append(("\(label)_bytes", Double(bytes)))
      results.append(("\(label)_size_ratio", Double(bytes) / Double(fileBytes)))
      results.append(("\(label)_ms_per_golden", seconds * 1e3 / Double(images.count)))
    }
    return results + (try fontDigestFigures())
  }

  /// What fingerprinting the default font stack costs a process: hashing every file, as each
  /// process did, against digests read from a cache folder (a fresh cache value each run, so
  /// nothing is remembered in memory between runs).
  func fontDigestFigures() throws -> [(String, Double)] {
    let stack = try FontStack(paths: FontStack.defaultPaths)
    let files = stack.fonts + stack.faces
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waterflow-bench-digests-\(getpid())"
    ).path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    _ = FontDigests(directory: folder).digests(of: files)
    let hashing = median(runs) { _ in _ = FontDigests(directory: nil).digests(of: files) }
    let cached = median(runs) { _ in _ = FontDigests(directory: folder).digests(of: files) }
    return [
      ("font_files", Double(files.count)),
      ("font_bytes", Double(files.reduce(0) { $0 + Int($1.fileStamp.size) })),
      ("font_hashing_ms", hashing * 1e3), ("font_digests_cached_ms", cached * 1e3),
    ]
  }
}
