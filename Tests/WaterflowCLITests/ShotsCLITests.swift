import Foundation
import Testing
import WaterflowTestSupport

/// `waterflow shots`: the output folder, determinism, atomicity, slices and messages.
@Suite struct ShotsCLITests {
  /// A set of 1 scene × 2 locales × 2 appearances × 1 device, unframed.
  func makeSet(in dir: String, locales: String = #"{"en": "en.json", "zh": "zh.json"}"#) throws -> String {
    _ = try sceneFile(
      """
      {"viewport": {"width": 300, "height": 400}, "columns": 2,
       "header": {"height": 40, "text": "@title"},
       "items": {"count": 12, "heights": [80, 120, 100]}}
      """, in: dir, named: "grid.json")
    _ = try sceneFile(#"{"title": "Grid"}"#, in: dir, named: "en.json")
    _ = try sceneFile(#"{"title": "网格"}"#, in: dir, named: "zh.json")
    return try sceneFile(
      """
      {"scenes": ["grid.json"], "devices": ["iphone-4.7"], "appearances": ["light", "dark"],
       "locales": \(locales)}
      """, in: dir, named: "set.json")
  }

  func contents(of dir: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: dir)!
    while let name = enumerator.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: dir + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue {
        files[name] = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))
      }
    }
    return files
  }

  @Test func writesEveryShotAContactSheetAndTheSameBytesTwice() throws {
    let dir = try temporaryDirectory()
    let set = try makeSet(in: dir)
    let first = try waterflow(["shots", set, "-o", dir + "/out", "--jobs", "2"])
    #expect(first.status == 0, "\(first.stderr)")
    let files = try contents(of: dir + "/out")
    #expect(Set(files.keys) == [
      "shots.json", "index.html", "en/light/iphone-4.7/grid.png", "en/dark/iphone-4.7/grid.png",
      "zh/light/iphone-4.7/grid.png", "zh/dark/iphone-4.7/grid.png",
    ])
    let html = String(decoding: files["index.html"]!, as: UTF8.self)
    #expect(html.contains("<h2>en</h2>") && html.contains("<h2>zh</h2>"))
    #expect(html.contains("src=\"zh/dark/iphone-4.7/grid.png\""))
    let png = files["en/light/iphone-4.7/grid.png"]!
    // 750 × 1334: the IHDR's width and height.
    #expect(Array(png[16..<24]) == [0, 0, 0x02, 0xEE, 0, 0, 0x05, 0x36])
    #expect(files["en/light/iphone-4.7/grid.png"] != files["zh/light/iphone-4.7/grid.png"])
    #expect(files["en/light/iphone-4.7/grid.png"] != files["en/dark/iphone-4.7/grid.png"])

    let second = try waterflow(["shots", set, "-o", dir + "/again", "--jobs", "1"])
    #expect(second.status == 0)
    let again = try contents(of: dir + "/again")
    for (name, data) in files where name.hasSuffix(".png") { #expect(again[name] == data, "\(name)") }
  }

  @Test func aFailedRunLeavesThePreviousSetAsItWas() throws {
    let dir = try temporaryDirectory()
    let set = try makeSet(in: dir)
    #expect(try waterflow(["shots", set, "-o", dir + "/out"]).status == 0)
    let before = try contents(of: dir + "/out")
    // The Chinese table loses its key: the run fails before any image is drawn.
    _ = try sceneFile(#"{"other": "x"}"#, in: dir, named: "zh.json")
    let run = try waterflow(["shots", set, "-o", dir + "/out"])
    #expect(run.status != 0)
    #expect(run.stderr.contains("header.text: \"@title\" is not in the zh strings (\(dir)/zh.json)"))
    #expect(try contents(of: dir + "/out") == before)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  @Test func slicesMergeIntoTheWholeSet() throws {
    let dir = try temporaryDirectory()
    let set = try makeSet(in: dir)
    #expect(try waterflow(["shots", set, "-o", dir + "/whole"]).status == 0)
    for i in 1...3 { #expect(try waterflow(["shots", set, "-o", dir + "/s\(i)", "--shard", "\(i)/3"]).status == 0) }
    let sliceCounts = try (1...3).map { try contents(of: dir + "/s\($0)").keys.filter { $0.hasSuffix(".png") }.count }
    #expect(sliceCounts.reduce(0, +) == 4)
    let merge = try waterflow(["shots", "merge", dir + "/s3", dir + "/s1", dir + "/s2", "-o", dir + "/merged"])
    #expect(merge.status == 0, "\(merge.stderr)")
    let whole = try contents(of: dir + "/whole")
    let merged = try contents(of: dir + "/merged")
    #expect(Set(merged.keys) == Set(whole.keys))
    for (name, data) in whole where name.hasSuffix(".png") { #expect(merged[name] == data) }
    #expect(merged["index.html"] == whole["index.html"])
    // Two copies of one slice are refused.
    let twice = try waterflow(["shots", "merge", dir + "/s1", dir + "/s1", "-o", dir + "/bad"])
    #expect(twice.status != 0)
    #expect(twice.stderr.contains("is in both"))
  }

  @Test func onlyPicksShotsAndNamesWhatItDoesNotKnow() throws {
    let dir = try temporaryDirectory()
    let set = try makeSet(in: dir)
    let run = try waterflow(["shots", set, "-o", dir + "/out", "--only", "locale=zh,appearance=dark"])
    #expect(run.status == 0)
    #expect(try contents(of: dir + "/out").keys.filter { $0.hasSuffix(".png") } == ["zh/dark/iphone-4.7/grid.png"])
    let unknown = try waterflow(["shots", set, "-o", dir + "/x", "--only", "locale=fr"])
    #expect(unknown.status != 0)
    #expect(unknown.stderr.contains("has no locale \"fr\" (its locales: en, zh)"))
    let key = try waterflow(["shots", set, "-o", dir + "/x", "--only", "lang=fr"])
    #expect(key.stderr.contains("keys: locale, appearance, device, scene") || key.stderr.contains("with a key of locale, appearance, device, scene"))
  }

  @Test func badShotFilesNameTheField() throws {
    let dir = try temporaryDirectory()
    _ = try makeSet(in: dir)
    let cases: [(String, String)] = [
      (#"{"scenes": ["grid.json"], "devices": ["iphone-7"]}"#, "devices[0]: unknown device \"iphone-7\" (devices are: iphone-6.9"),
      (#"{"scenes": ["grid.json"]}"#, "devices: missing"),
      (#"{"scenes": ["grid.json"], "devices": ["ipad-13"], "appearances": ["dim"]}"#, "appearances[0]"),
      (#"{"scenes": ["grid.json", "sub/grid.json"], "devices": ["ipad-13"]}"#, "scenes[1]: \"grid\" is also the name of scenes[0]"),
      (#"{"scenes": ["grid.json"], "devices": ["ipad-13"], "locales": {"../x": "en.json"}}"#, "locales.../x"),
      (##"{"scenes": ["grid.json"], "devices": ["ipad-13"], "background": ["#FFF000"]}"##, "background"),
    ]
    for (json, message) in cases {
      let set = try sceneFile(json, in: dir, named: "bad.json")
      let run = try waterflow(["shots", set, "-o", dir + "/out"])
      #expect(run.status != 0)
      #expect(run.stderr.contains("bad.json: \(message)") || run.stderr.contains(message), "\(run.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
  }
}
