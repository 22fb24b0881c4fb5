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

  /// Checks that README.md shows each `// README: NAME begin` … `end` region of a test file as
  /// it is there (dedented), so the README's Swift examples are code that compiles and runs.
  static func expectREADMEShows(_ regions: [String], of file: String) throws {
    let source = try String(contentsOfFile: file, encoding: .utf8)
    let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
    for region in regions {
      let begin = try #require(source.range(of: "// README: \(region) begin\n"))
      let end = try #require(source.range(of: "// README: \(region) end"))
      let lines = source[begin.upperBound..<end.lowerBound].split(
        separator: "\n", omittingEmptySubsequences: false
      ).dropLast()
      let indent = lines.first { !$0.isEmpty }?.prefix { $0 == " " }.count ?? 0
      let text = lines.map { $0.dropFirst(min(indent, $0.prefix { $0 == " " }.count)) }
        .joined(separator: "\n")
      #expect(readme.contains(text), "README.md does not show the \(region) region of \(file) as it is")
    }
  }

  static func files(in directory: String) -> [String] {
    (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String]
      ?? []).sorted()
  }
}
