import Foundation
import WaterflowGolden

/// pixelmatch's own test fixtures and expected results, copied into
/// `Fixtures/pixelmatch` beside this file (see the README there for their origin and licence).
enum OracleFixtures {
  static let directory: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("Fixtures/pixelmatch")

  static func path(_ name: String) -> String {
    directory.appendingPathComponent(name)
      .path
  }

  /// The `fixture` and `inline` cases of cases.json (v7.2.0).
  static func cases() throws -> [OracleCase] {
    let data = try Data(
      contentsOf: directory.appendingPathComponent("cases.json"))
    return try JSONDecoder().decode([OracleCase].self, from: data)
      .filter { $0.kind == "fixture" || $0.kind == "inline" }
  }
}

/// One case of cases.json; only the fields the tests use.
struct OracleCase: Decodable, Sendable, CustomStringConvertible {
  struct Options: Decodable, Sendable {
    var threshold: Double?
    var includeAA: Bool?
    var alpha: Double?
    var aaColor: [UInt8]?
    var diffColor: [UInt8]?
    var diffColorAlt: [UInt8]?
    var diffMask: Bool?
    var checkerboard: Bool?
  }

  var id: String
  var kind: String
  var a: String?
  var b: String?
  var width: Int?
  var height: Int?
  var aRGBA: [UInt8]?
  var bRGBA: [UInt8]?
  var options: Options?
  var expectedMismatch: Int?
  var expectedDiff: String?

  enum CodingKeys: String, CodingKey {
    case id, kind, a, b, width, height, options
    case aRGBA = "a_rgba"
    case bRGBA = "b_rgba"
    case expectedMismatch = "expected_mismatch"
    case expectedDiff = "expected_diff"
  }

  var description: String { id }

  /// The options as `ImageDiff.Options`; a key absent from the JSON keeps pixelmatch's default.
  var diffOptions: ImageDiff.Options {
    func color(_ c: [UInt8]?) -> DiffColor? {
      c.map { DiffColor(red: $0[0], green: $0[1], blue: $0[2]) }
    }
    let defaults = ImageDiff.Options()
    return ImageDiff.Options(
      threshold: options?.threshold ?? defaults.threshold,
      includeAA: options?.includeAA ?? defaults.includeAA,
      alpha: options?.alpha ?? defaults.alpha,
      aaColor: color(options?.aaColor) ?? defaults.aaColor,
      diffColor: color(options?.diffColor) ?? defaults.diffColor,
      diffColorAlt: color(options?.diffColorAlt),
      diffMask: options?.diffMask ?? defaults.diffMask,
      checkerboard: options?.checkerboard ?? defaults.checkerboard
    )
  }
}
