import Foundation
import Testing
import WaterflowTestSupport

/// `golden check --changed`: a golden is skipped exactly when its inputs hash as they did at
/// its last pass, and a golden that runs says which input changed.
@Suite("Goldens: exact incremental checks") struct GoldenChangedTests {
  /// A copy of the sample feeds and shots, with a manifest of three goldens: a self-sized
  /// template feed (scene, JSON-lines data, photos), a shot of it in English (a string table),
  /// and a plain grid that reads no file but its scene.
  struct Project {
    let dir: String
    var manifest: String { dir + "/Golden/manifest.json" }

    init() throws {
      dir = try temporaryDirectory()
      let fm = FileManager.default
      for folder in ["Feeds", "Shots"] {
        try fm.copyItem(atPath: packageRoot + "/Assets/" + folder, toPath: dir + "/Assets/" + folder)
      }
      try fm.createDirectory(atPath: dir + "/Golden", withIntermediateDirectories: true)
      try write(
        #"{"scenes": [{"scene": "notes.json", "caption": "@caption.notes"}], "devices": ["iphone-4.7"], "appearances": ["light"], "locales": {"en": "strings/en.json"}}"#,
        "Assets/Shots/one.json")
      try write(
        #"{"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 2, "items": {"count": 30, "heights": [60, 90]}}"#,
        "grid.json")
      try write(
        #"{"goldens": [{"name": "notes", "scene": "../Assets/Feeds/notes.json"}, {"name": "shot", "shots": "../Assets/Shots/one.json"}, {"name": "grid", "scene": "../grid.json", "offset": 40}]}"#,
        "Golden/manifest.json")
    }

    func write(_ text: String, _ name: String) throws {
      try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
    }

    func edit(_ name: String, _ old: String, _ new: String) throws {
      let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
      #expect(text.contains(old), "\(name) has no \(old)")
      try write(text.replacingOccurrences(of: old, with: new), name)
    }

    /// Runs a golden command in the project's folder, outside CI.
    func run(_ arguments: [String]) throws -> ProgramRun {
      try runProgram(
        atPath: waterflowBinary, ["golden"] + arguments + ["--artifacts", dir + "/artifacts"],
        environment: ProcessInfo.processInfo.environment.merging(["CI": "", "XDG_CACHE_HOME": dir + "/cache"]) { $1 },
        in: dir)
    }

    /// `check --changed --json`: each golden's status, and the inputs it names as changed
    /// (nil when it was skipped).
    func changed(_ extra: [String] = []) throws -> [String: (status: String, changes: [String]?)] {
      let run = try run(["check", "--changed", "--json"] + extra)
      var out: [String: (String, [String]?)] = [:]
      for line in run.stdout.split(separator: "\n") {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let name = object["name"] as? String, let status = object["status"] as? String
        else { continue }
        let skipped = object["skipped"] as? String == "unchanged (inputs identical to the last pass)"
        out[name] = (status, skipped ? nil : (object["changedInputs"] as? [String] ?? []))
      }
      return out
    }
  }

  static let shot = "shot/en/light/iphone-4.7/notes"

  @Test("skips what did not change, and checks what did, naming the input")
  func skipsExactly() throws {
    let project = try Project()
    let record = try project.run(["record"])
    try #require(record.status == 0, "\(record.output)")
    #expect(FileManager.default.fileExists(atPath: project.dir + "/Golden/notes.inputs.json"))

    // Nothing changed: nothing is drawn, and the text says so.
    var result = try project.changed()
    #expect(result.count == 3)
    #expect(result.values.allSatisfy { $0.status == "passed" && $0.changes == nil })
    let text = try project.run(["check", "--changed"])
    #expect(text.stdout.contains("unchanged (inputs identical to the last pass)"))
    #expect(text.stdout.contains("3 of the passed unchanged"))
    // Without --changed, everything is drawn.
    let full = try project.run(["check", "--json"])
    #expect(!full.stdout.contains("skipped"))

    // A data row: the feed and its shot read that file; the grid does not.
    try project.edit("Assets/Feeds/notes.jsonl", #""likedCount": 1237"#, #""likedCount": 1337"#)
    result = try project.changed()
    #expect(result["notes"]?.status == "failed")
    #expect(result["notes"]?.changes == ["file ../Assets/Feeds/notes.jsonl: line 2 interact.likedCount"])
    #expect(result["grid"]?.changes == nil)
    #expect(result[Self.shot]?.changes == nil, "the shot reads Shots/notes.jsonl, not Feeds/")
    // A failed golden is checked again, even with nothing changed since.
    result = try project.changed()
    #expect(result["notes"]?.status == "failed")
    #expect(result["notes"]?.changes != nil)
    try project.edit("Assets/Feeds/notes.jsonl", #""likedCount": 1337"#, #""likedCount": 1237"#)
    result = try project.changed()
    #expect(result["notes"]?.status == "passed")
    // Its inputs are those of its last pass again, but it failed since: checked all the same.
    #expect(result["notes"]?.changes == ["it failed last time"])
    #expect(try project.changed()["notes"]?.changes == nil)

    // An image's bytes, a string table, a scene (the template lives in it), the entry.
    let photo = project.dir + "/Assets/Feeds/Photos/p01.jpg"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: photo))
    bytes.append(0)  // after the JPEG's end: the same pixels, other bytes
    try bytes.write(to: URL(fileURLWithPath: photo))
    result = try project.changed()
    #expect(result["notes"]?.changes == ["file ../Assets/Feeds/Photos/p01.jpg"])
    #expect(result[Self.shot]?.changes == ["file ../Assets/Feeds/Photos/p01.jpg"])
    #expect(result["grid"]?.changes == nil)

    try project.edit("Assets/Shots/strings/en.json", "Sunset by the sea", "Sunrise by the sea")
    result = try project.changed()
    #expect(result[Self.shot]?.status == "failed")
    #expect(result[Self.shot]?.changes == ["file ../Assets/Shots/strings/en.json: note.1"])
    #expect(result["notes"]?.changes == nil)

    try project.edit("Assets/Shots/strings/en.json", "Sunrise by the sea", "Sunset by the sea")
    #expect(try project.changed()[Self.shot]?.status == "passed")

    // The shot file, read with the manifest: framed now.
    try project.edit("Assets/Shots/one.json", #""appearances": ["light"]"#, #""appearances": ["light"], "frame": true"#)
    result = try project.changed()
    #expect(result[Self.shot]?.changes == ["file ../Assets/Shots/one.json: frame"])
    #expect(result["notes"]?.changes == nil)

    try project.edit("grid.json", #""count": 30"#, #""count": 31"#)
    result = try project.changed()
    #expect(result["grid"]?.changes == ["file ../grid.json: items.count"])
    #expect(result["notes"]?.changes == nil)

    try project.edit("Golden/manifest.json", #""offset": 40"#, #""offset": 40, "maxDiffPixels": 5"#)
    result = try project.changed()
    #expect(result["grid"]?.changes == ["entry"])

    // A missing input is a check, not a skip.
    try FileManager.default.removeItem(atPath: project.dir + "/Assets/Feeds/Photos/face1.jpg")
    result = try project.changed()
    #expect(result["notes"]?.changes?.contains("file ../Assets/Feeds/Photos/face1.jpg (no longer read)") == true
      || result["notes"]?.changes?.contains("file ../Assets/Feeds/Photos/face1.jpg (missing)") == true)

    // --record missing records a new golden and skips the unchanged ones.
    try project.edit(
      "Golden/manifest.json", #"{"name": "grid", "#, #"{"name": "grid2", "scene": "../grid.json", "offset": 80}, {"name": "grid", "#)
    result = try project.changed(["--record", "missing"])
    #expect(result["grid2"]?.status == "recorded")
    #expect(result["grid"]?.changes == nil)
    #expect(try project.changed()["grid2"]?.changes == nil)

    // A hand-edited inputs file is not trusted.
    try project.edit("Golden/grid.inputs.json", "renderer revision", "renderer  revision")
    #expect(try project.changed()["grid"]?.changes != nil)
  }

  @Test("another font stack: the golden runs, and says why")
  func fontStack() throws {
    let project = try Project()
    try #require(try project.run(["record", "grid"]).status == 0)
    #expect(try project.changed(["grid"])["grid"]?.changes == nil)
    // The oblique face first: another font file in the stack.
    let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf"
    let result = try project.changed(["grid", "--font", font])
    let changes = try #require(result["grid"]?.changes)
    #expect(changes.contains("font DejaVuSans-Oblique.ttf (new)"))
    #expect(changes.contains("options"))
  }
}

extension GoldenChangedTests {
  /// The repository's own goldens, checked in a copy elsewhere: a pass rewrites no inputs file's
  /// entry, files, options or binary, so what is committed is what a check writes. A change to
  /// what a golden's inputs hash (a new manifest field, say) must come with the files it
  /// rewrites, or `--changed` in a CI with the hashes committed runs every golden; and a clone at
  /// another path must hash the same. The fonts' and libraries' lines belong to the machine (a
  /// newer Debian differs), so they are left out of the comparison.
  @Test("the committed inputs files are the ones a check writes")
  func committedInputs_AreWhatACheckWrites() throws {
    let dir = try temporaryDirectory()
    let fm = FileManager.default
    try fm.copyItem(atPath: packageRoot + "/Golden", toPath: dir + "/Golden")
    try fm.createSymbolicLink(atPath: dir + "/Assets", withDestinationPath: packageRoot + "/Assets")
    func inputsFiles() throws -> [String: [String]] {
      var files: [String: [String]] = [:]
      for case let path as String in fm.enumerator(atPath: dir + "/Golden")!
      where path.hasSuffix(".inputs.json") {
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/Golden/" + path))
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let inputs = try #require(object["inputs"] as? [[String]], "\(path): inputs")
        files[path] = inputs.filter { !$0[0].hasPrefix("font ") && $0[0] != "libraries" }
          .map { $0.joined(separator: " = ") }
      }
      return files
    }
    let before = try inputsFiles()
    #expect(!before.isEmpty, "the repository has inputs files")
    let run = try runProgram(
      atPath: waterflowBinary,
      ["golden", "check", "--manifest", dir + "/Golden/manifest.json", "--artifacts", dir + "/artifacts"],
      environment: ProcessInfo.processInfo.environment.merging(["CI": "", "XDG_CACHE_HOME": dir + "/cache"]) { $1 },
      in: dir)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let after = try inputsFiles()
    let rewritten = before.keys.filter { before[$0] != after[$0] }.sorted()
    #expect(
      rewritten.isEmpty,
      "stale Golden/*.inputs.json; commit what `waterflow golden check` writes: \(rewritten)")
  }
}
