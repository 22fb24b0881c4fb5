import Cairo
import PNGCodec
import Foundation
import Testing
import WaterflowGolden
import WaterflowRender
import WaterflowScene

/// Paths and helpers shared by the golden tests.
enum GoldenTestSupport {
  /// The package root, found from this file's path.
  static let root = packageRoot(containing: #filePath)!
  /// The committed goldens.
  static let goldenDirectory = root + "/Golden"

  static func scene(_ name: String) throws -> Scene {
    try Scene(contentsOf: root + "/Assets/Scenes/\(name).json")
  }

  /// A fresh folder under the system's temporary directory.
  static func temporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("waterflow-golden-tests-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// A configuration that never records and leaves artifacts in `artifacts`.
  static func checking(artifacts: String) -> GoldenConfiguration {
    GoldenConfiguration(
      recordMode: .never, isCI: false, artifactsDirectory: artifacts)
  }

  static func fingerprint(_ renderer: Renderer) -> FontStackFingerprint {
    FontStackFingerprint(renderer: renderer)
  }

  static func files(in directory: String) -> [String] {
    (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String]
      ?? []).sorted()
  }
}
