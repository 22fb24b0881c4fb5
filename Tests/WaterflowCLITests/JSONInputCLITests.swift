import Foundation
import Testing

/// Every JSON input through the command line: bad input is one message naming the file and the
/// field (or the line and column), with a non-zero exit; large outputs are streamed whole.
@Suite struct JSONInputCLITests {}

extension JSONInputCLITests {
  @Test func manifest_OffsetZeroAndOne_AreNumbers() throws {
    let dir = try temporaryDirectory()
    let manifest = try sceneFile(
      #"{"goldens": [{"name": "a", "scene": "s.json", "offset": 0, "step": 1, "scale": 1}, {"name": "b", "scene": "s.json", "offset": 1}]}"#,
      in: dir, named: "manifest.json")
    let r = try waterflow(["golden", "prune", "--manifest", manifest])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("2 entries"), "\(r.stdout)")
    let bad = try sceneFile(
      #"{"goldens": [{"name": "a", "scene": "s.json", "offset": true}]}"#,
      in: dir,
      named: "bad.json")
    let refused = try waterflow(["golden", "prune", "--manifest", bad])
    #expect(refused.status != 0)
    #expect(
      refused.stderr.contains(
        "\(bad): goldens[0].offset: expected a number, found a boolean"))
  }

  @Test func badScripts_NameTheFileAndTheField() throws {
    let dir = try temporaryDirectory()
    let trace = try sceneFile(
      #"[{"append": 1}, {"offset": "top"}]"#, in: dir, named: "t.json")
    let r = try waterflow([
      "trace", "Assets/Scenes/reference.json", "--script", trace,
    ])
    #expect(r.status != 0)
    #expect(
      r.stderr.contains(
        "\(trace): [1].offset: expected a number, found the string \"top\""))
    #expect(r.stdout.isEmpty)
    let scroll = try sceneFile(
      #"{"segments": [{"pause": true}]}"#, in: dir, named: "s.json")
    let s = try waterflow([
      "scroll", "Assets/Scenes/reference.json", "-o", dir + "/out/", "--script",
      scroll,
    ])
    #expect(s.status != 0)
    #expect(
      s.stderr.contains(
        "\(scroll): segments[0].pause: expected a number, found a boolean"))
  }

  @Test func syntaxErrors_GiveTheLineAndColumn() throws {
    let dir = try temporaryDirectory()
    let path = try sceneFile(
      "{\n  \"columns\": 3,\n  \"items\": [1, 2,]\n}", in: dir)
    let r = try waterflow(["layout", path])
    #expect(r.status != 0)
    #expect(
      r.stderr.contains(
        "\(path): invalid JSON at line 3, column 18: expected a value, found ']'"
      ), "\(r.stderr)")
  }

  @Test func layoutAndTrace_StreamEveryRecord() throws {
    let dir = try temporaryDirectory()
    let n = 30_000
    let items = (0..<n).map {
      "{\"w\": \(100 + $0 % 7), \"h\": \(100 + $0 % 11), \"price\": \"\($0)\"}"
    }
    let path = try sceneFile(
      "{\"columns\": 2, \"items\": [" + items.joined(separator: ",\n") + "]}",
      in: dir)
    let layout = try waterflow(["layout", path, "--json"])
    #expect(layout.status == 0, "\(layout.stderr)")
    let json =
      try JSONSerialization.jsonObject(with: layout.stdoutData)
      as! [String: Any]
    let frames = json["frames"] as! [[String: Any]]
    #expect(frames.count == n)
    #expect(
      frames.enumerated().allSatisfy {
        $0.element["index"] as? Int == $0.offset
      })
    #expect(layout.stdout.hasSuffix("}\n]}\n"))
    let trace = try waterflow([
      "trace", path, "--to", "200000", "--step", "50", "--json",
    ])
    #expect(trace.status == 0, "\(trace.stderr)")
    let records =
      try JSONSerialization.jsonObject(with: trace.stdoutData)
      as! [[String: Any]]
    #expect(records.count == 4001)
    #expect(records.last?["offset"] as? Double == 200_000)
  }
}
