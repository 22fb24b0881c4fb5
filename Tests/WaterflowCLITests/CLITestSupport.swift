import Foundation
import Testing
import WaterflowTestSupport

/// Runs the built binary with arguments, in the package root, and waits for it.
func waterflow(_ arguments: [String], environment: [String: String] = [:])
  throws -> ProgramRun
{
  var env = ProcessInfo.processInfo.environment
  for (k, v) in environment { env[k] = v }
  return try runProgram(atPath: waterflowBinary, arguments, environment: env, in: packageRoot)
}

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> String {
  try makeTemporaryDirectory(prefix: "waterflow-cli")
}

/// Writes a scene file and returns its path.
func sceneFile(
  _ json: String, in dir: String, named name: String = "scene.json"
) throws -> String {
  let path = dir + "/" + name
  try Data(json.utf8).write(to: URL(fileURLWithPath: path))
  return path
}

/// The six-golden example: a top-margin change fails five goldens with one cause, a price
/// change one with another (the grouping and review tests).
struct SixGoldens {
  let dir: String
  var manifest: String { dir + "/G/manifest.json" }
  static let names = ["grid/at0", "grid/at100", "grid/at200", "grid/at300", "grid/at400", "shop"]

  init(failing: Bool = true) throws {
    dir = try temporaryDirectory()
    let grid = #"{"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 2, "margins": {"top": TOP, "left": 10, "right": 10, "bottom": 10, "column": 5, "row": 5}, "items": {"count": 40, "heights": [60, 90]}}"#
    let shop = #"{"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 2, "items": [{"height": 80, "price": "1.00"}, {"height": 80, "price": "1.20"}, {"height": 80, "price": "PRICE"}]}"#
    try write(grid.replacingOccurrences(of: "TOP", with: "10"), "grid.json")
    try write(shop.replacingOccurrences(of: "PRICE", with: "1.40"), "shop.json")
    try FileManager.default.createDirectory(atPath: dir + "/G", withIntermediateDirectories: true)
    let entries = [0, 100, 200, 300, 400].map { #"{"name": "grid/at\#($0)", "scene": "../grid.json", "offset": \#($0)}"# }
      + [#"{"name": "shop", "scene": "../shop.json"}"#]
    try write(#"{"goldens": [\#(entries.joined(separator: ", "))]}"#, "G/manifest.json")
    let record = try waterflow(["golden", "record", "--manifest", manifest], environment: ["CI": ""])
    try #require(record.status == 0, "\(record.output)")
    if failing {
      try write(grid.replacingOccurrences(of: "TOP", with: "16"), "grid.json")
      try write(shop.replacingOccurrences(of: "PRICE", with: "2.50"), "shop.json")
    }
  }

  func write(_ text: String, _ name: String) throws {
    try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
  }

  /// Each golden's PNG bytes.
  func pngs() -> [String: Data] {
    var all: [String: Data] = [:]
    for name in Self.names { all[name] = FileManager.default.contents(atPath: "\(dir)/G/\(name).png") }
    return all
  }

  /// The goldens that a fresh check passes.
  func passing() throws -> Set<String> {
    let run = try waterflow(["golden", "check", "--manifest", manifest, "--artifacts", dir + "/again", "--json"])
    return Set(run.stdout.split(separator: "\n").compactMap { line in
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return object?["status"] as? String == "passed" ? object?["name"] as? String : nil
    })
  }

  func temporaries() -> [String] {
    (FileManager.default.enumerator(atPath: dir + "/G")?.allObjects as? [String] ?? [])
      .filter { $0.contains(".waterflow-tmp-") }
  }
}
