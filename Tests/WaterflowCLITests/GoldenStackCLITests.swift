import Foundation
import Testing
import WaterflowTestSupport

/// `waterflow golden` across font stacks: the one line for a golden recorded on another stack,
/// and `--per-stack` folders.
@Suite struct GoldenStackCLITests {
  /// A golden folder `G` with the reference scene at 300, recorded on this machine.
  static func recorded(perStack: Bool = false) throws -> String {
    let dir = try temporaryDirectory()
    let scene = try String(contentsOfFile: packageRoot + "/Assets/Scenes/reference.json", encoding: .utf8)
    try scene.write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: dir + "/G", withIntermediateDirectories: true)
    try #"{"goldens": [{"name": "ref", "scene": "../scene.json", "offset": 300, "step": 50}]}"#
      .write(toFile: dir + "/G/manifest.json", atomically: true, encoding: .utf8)
    let r = try waterflow(
      ["golden", "record", "--manifest", dir + "/G/manifest.json"] + (perStack ? ["--per-stack"] : []),
      environment: ["CI": ""])
    #expect(r.status == 0, "\(r.stderr)")
    return dir
  }

  @Test func check_OnAnotherStack_SaysHowInOneLine() throws {
    let dir = try Self.recorded()
    let path = dir + "/G/fingerprint.json"
    let mine = try String(contentsOfFile: path, encoding: .utf8)
    let version = try #require(
      mine.split(separator: "\n").first { $0.contains("\"cairo\"") }?.split(separator: "\"")[3])
    try mine.replacingOccurrences(of: "\"cairo\" : \"\(version)\"", with: "\"cairo\" : \"0.9.9\"")
      .write(toFile: path, atomically: true, encoding: .utf8)
    let facts = try String(contentsOfFile: dir + "/G/ref.facts.json", encoding: .utf8)
    let texts = facts.components(separatedBy: "{\"text\": ").count - 1
    #expect(texts > 10)

    let check = try waterflow([
      "golden", "check", "--manifest", dir + "/G/manifest.json", "--artifacts", dir + "/a",
    ])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(
      check.stdout.hasPrefix(
        "ok        ref  font stack differs (cairo 0.9.9 → \(version)): \(texts) text boxes checked by content, pixels elsewhere exact\n"
      ), "\(check.stdout)")
    #expect(check.stderr.contains("note: the font stack differs from \(dir)/G/fingerprint.json: cairo 0.9.9 → \(version)."))

    let json = try waterflow([
      "golden", "check", "--manifest", dir + "/G/manifest.json", "--artifacts", dir + "/a", "--json",
    ])
    let line = try JSONSerialization.jsonObject(with: json.stdoutData) as! [String: Any]
    #expect((line["fontStack"] as? String)?.hasPrefix("font stack differs (cairo 0.9.9 → ") == true)
  }

  @Test func perStack_RecordsIntoTheStacksFolder_AndChecksThere() throws {
    let dir = try Self.recorded(perStack: true)
    let stacks = try FileManager.default.contentsOfDirectory(atPath: dir + "/G/stacks")
    #expect(stacks.count == 1)
    let folder = dir + "/G/stacks/" + stacks[0]
    #expect(stacks[0].hasPrefix("cairo-"))
    for file in ["ref.png", "ref.facts.json", "fingerprint.json"] {
      #expect(FileManager.default.fileExists(atPath: folder + "/" + file), "\(file)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir + "/G/ref.png"))

    let check = try waterflow([
      "golden", "check", "--manifest", dir + "/G/manifest.json", "--per-stack", "--artifacts", dir + "/a",
    ])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(check.stdout.hasPrefix("ok        ref  Identical (375×667)\n"), "\(check.stdout)")
    #expect(check.stderr.contains("note: goldens are kept per font stack; this stack's are in \(folder)"))

    // The manifest key does what the flag does; without either, the golden folder is used.
    try #"{"perStack": true, "goldens": [{"name": "ref", "scene": "../scene.json", "offset": 300, "step": 50}]}"#
      .write(toFile: dir + "/G/keyed.json", atomically: true, encoding: .utf8)
    let keyed = try waterflow([
      "golden", "check", "--manifest", dir + "/G/keyed.json", "--artifacts", dir + "/a",
    ])
    #expect(keyed.status == 0, "\(keyed.stdout)\(keyed.stderr)")
    let plain = try waterflow([
      "golden", "check", "--manifest", dir + "/G/manifest.json", "--artifacts", dir + "/a",
    ])
    #expect(plain.status == 1)
    #expect(plain.stdout.hasPrefix("MISSING   ref  no golden at \(dir)/G/ref.png"), "\(plain.stdout)")
    let prune = try waterflow(["golden", "prune", "--manifest", dir + "/G/manifest.json"])
    #expect(prune.status == 0, "\(prune.stdout)")
  }
}
