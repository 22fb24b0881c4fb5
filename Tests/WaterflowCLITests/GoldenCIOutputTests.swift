import Foundation
import Testing
import WaterflowTestSupport

/// What CI systems read from a golden run: JUnit XML, GitHub annotations, and shards merged
/// into one run's outputs. Each output is read back by what a CI system would use.
@Suite struct GoldenCIOutputTests {
  /// Seven goldens of two small scenes, recorded, then changed: a price (content), a 3-pt top
  /// margin (layout: four goldens, one a sequence) and a deleted golden (missing); two pass.
  static func fixture() throws -> String {
    let dir = try temporaryDirectory()
    func scene(top: Int, price: String) -> String {
      let items = (0..<30).map { i in
        #"{"height": \#(60 + (i * 17) % 50), "price": "\#(i == 3 ? price : "\(10 + i).00")"}"#
      }
      return #"""
        {"viewport": {"width": 200, "height": 240, "scale": 1}, "columns": 2, "seed": 3,
         "margins": {"top": \#(top), "bottom": 5, "left": 5, "right": 5, "column": 5, "row": 5},
         "items": [\#(items.joined(separator: ", "))]}
        """#
    }
    _ = try sceneFile(scene(top: 5, price: "21.90"), in: dir, named: "a.json")
    _ = try sceneFile(scene(top: 5, price: "21.90"), in: dir, named: "b.json")
    try FileManager.default.createDirectory(atPath: dir + "/G", withIntermediateDirectories: true)
    _ = try sceneFile(
      """
      {"goldens": [
        {"name": "a/top", "scene": "../a.json"},
        {"name": "a/mid", "scene": "../a.json", "offset": 200, "step": 50},
        {"name": "b/top", "scene": "../b.json"},
        {"name": "b/seq", "scene": "../b.json", "sequence": {"from": 0, "to": 300, "step": 100}},
        {"name": "b/gone", "scene": "../b.json", "offset": 100},
        {"name": "b/low", "scene": "../b.json", "offset": 400, "step": 100},
        {"name": "a/low", "scene": "../a.json", "offset": 500, "step": 100}
      ]}
      """, in: dir + "/G", named: "manifest.json")
    let record = try run(["golden", "record"], in: dir, environment: ["CI": ""])
    #expect(record.status == 0, "\(record.output)")
    _ = try sceneFile(scene(top: 5, price: "99.00"), in: dir, named: "a.json")
    _ = try sceneFile(scene(top: 8, price: "21.90"), in: dir, named: "b.json")
    try FileManager.default.removeItem(atPath: dir + "/G/b/gone.png")
    return dir
  }

  /// Runs `waterflow golden …` in `dir` with the fixture's manifest and artifacts folder, with
  /// relative paths, so every run's messages name the same files.
  static func run(
    _ arguments: [String], in dir: String, environment: [String: String] = [:]
  ) throws -> ProgramRun {
    var env = ProcessInfo.processInfo.environment
    env["GITHUB_ACTIONS"] = nil
    for (k, v) in environment { env[k] = v }
    var args = arguments
    if args.count >= 2, ["check", "record"].contains(args[1]) {
      args += ["--manifest", "G/manifest.json", "--artifacts", "A"]
    }
    return try runProgram(atPath: waterflowBinary, args, environment: env, in: dir)
  }

  static func bytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }

  @Test func merge_OfThreeShards_EqualsTheUnshardedRun() throws {
    let dir = try Self.fixture()
    let whole = try Self.run(
      ["golden", "check", "--json", "--junit", "u.xml", "--report", "u.html", "--jobs", "2"], in: dir)
    #expect(whole.status == 1, "\(whole.stderr)")
    let names = whole.stdout.split(separator: "\n").map {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["name"] as? String
    }
    #expect(names == ["a/top", "a/mid", "b/top", "b/seq", "b/gone", "b/low", "a/low"])
    // One job gives the same lines as two: parallel output stays in manifest order.
    let serial = try Self.run(["golden", "check", "--json", "--jobs", "1"], in: dir)
    #expect(serial.stdout == whole.stdout)

    for i in 1...3 {
      let shard = try Self.run(
        ["golden", "check", "--json", "--shard", "\(i)/3", "--results", "S\(i)", "--jobs", "\(i)"], in: dir)
      #expect(shard.status == (i == 3 ? 1 : 1), "\(shard.stderr)")
    }
    // Folders in any order; the merge puts goldens back in manifest order.
    let merged = try Self.run(
      ["golden", "merge", "S3", "S1", "S2", "--json", "--junit", "m.xml", "--report", "m.html"], in: dir)
    #expect(merged.status == 1, "a failing golden must fail the merge: \(merged.stderr)")
    #expect(merged.stdout == whole.stdout)
    #expect(try Self.bytes(dir + "/m.xml") == Self.bytes(dir + "/u.xml"))
    #expect(try Self.bytes(dir + "/m.html") == Self.bytes(dir + "/u.html"))

    // The text output too, summary line included.
    let text = try Self.run(["golden", "check"], in: dir)
    let mergedText = try Self.run(["golden", "merge", "S1", "S2", "S3"], in: dir)
    #expect(mergedText.stdout == text.stdout)
    // CI=true adds ", CI" inside the parentheses.
    #expect(text.stdout.contains("7 goldens: 2 passed, 5 failed (record mode never"))
    #expect(text.stdout.contains("). Artifacts in A."))
  }

  @Test func merge_WithAShardMissingOrTwice_OrADamagedFile_FailsNamingIt() throws {
    let dir = try Self.fixture()
    for i in 1...3 {
      _ = try Self.run(["golden", "check", "--shard", "\(i)/3", "--results", "S\(i)"], in: dir)
    }
    let missing = try Self.run(["golden", "merge", "S1", "S3"], in: dir)
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("Missing shard 2/3"), "\(missing.stderr)")
    let twice = try Self.run(["golden", "merge", "S1", "S1", "S2", "S3"], in: dir)
    #expect(twice.status == 2 && twice.stderr.contains("S1/run.json: shard: 1/3 was already given"), "\(twice.stderr)")
    let file = dir + "/S2/goldens/00002.json"
    let damaged = try String(contentsOfFile: file, encoding: .utf8)
      .replacingOccurrences(of: "\"label\":", with: "\"lable\":")
    try damaged.write(toFile: file, atomically: true, encoding: .utf8)
    let bad = try Self.run(["golden", "merge", "S1", "S2", "S3"], in: dir)
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("S2/goldens/00002.json: label: missing"), "\(bad.stderr)")
    #expect(bad.stdout.isEmpty)
  }

  /// Sharded in CI: each failure is annotated once, by the merge, not also by its shard.
  @Test func shardsAndMerge_AnnotateEachFailureOnce() throws {
    let dir = try Self.fixture()
    let github = ["GITHUB_ACTIONS": "true"]
    var shardLines: [Substring] = []
    for i in 1...3 {
      let run = try Self.run(
        ["golden", "check", "--shard", "\(i)/3", "--results", "S\(i)"], in: dir, environment: github)
      shardLines += (run.stdout + run.stderr).split(separator: "\n").filter { $0.hasPrefix("::error") }
      #expect(run.stderr.contains("note: GitHub annotations are left to `waterflow golden merge`"))
    }
    #expect(shardLines.isEmpty, "\(shardLines)")
    let merge = try Self.run(["golden", "merge", "S1", "S2", "S3"], in: dir, environment: github)
    let annotations = (merge.stdout + merge.stderr).split(separator: "\n").filter { $0.hasPrefix("::error") }
    #expect(annotations.count == 5)
    #expect(Set(annotations).count == 5)
  }

  /// One top-margin change and one price change fail six goldens: five share one cause (and
  /// one command accepts them), the price stands alone.
  @Test func failures_AreGroupedByCause() throws {
    let goldens = try SixGoldens()
    let dir = goldens.dir
    let run = try waterflow(["golden", "check", "--manifest", dir + "/G/manifest.json", "--artifacts", dir + "/a"])
    #expect(run.status == 1)
    let text = run.stdout
    #expect(text.contains("Failures by cause:"), "\(text)")
    #expect(text.contains("  layout: cells moved down 6 pt (5 goldens)"), "\(text)")
    #expect(
      text.contains(
        "    accept with: waterflow golden record grid/at0 grid/at100 grid/at200 grid/at300 grid/at400 --manifest \(dir)/G/manifest.json"),
      "\(text)")
    #expect(text.contains("  content: item 2 price 1.40 → 2.50 (1 golden)"))
    // The JSON lines carry each golden's cause.
    let json = try waterflow(["golden", "check", "--manifest", dir + "/G/manifest.json", "--artifacts", dir + "/a", "--json"])
    let causes = json.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["cause"] as? [String: String]
    }
    #expect(causes.count == 6)
    #expect(Set(causes.map { $0["verdict"] ?? "" }) == ["layout", "content"])
  }

  /// junitparser, the library CI plugins are built on, reads the report as we mean it.
  @Test func junit_IsReadBackByJunitparser() throws {
    let dir = try Self.fixture()
    // A file that cannot be written is an error (2), named, after the results are printed.
    let run = try Self.run(["golden", "check", "--junit", "a.json/j.xml"], in: dir)
    #expect(run.status == 2 && run.stderr.contains("a.json/j.xml"), "\(run.stderr)")
    let check = try Self.run(["golden", "check", "--junit", "out/j.xml"], in: dir)
    #expect(check.status == 1)
    let script = """
      import json, sys
      from junitparser import JUnitXml, Failure
      xml = JUnitXml.fromfile(sys.argv[1])
      out = {"tests": xml.tests, "failures": xml.failures, "cases": []}
      for suite in xml:
          for case in suite:
              results = [{"type": r.type, "message": r.message, "text": r.text} for r in case.result if isinstance(r, Failure)]
              out["cases"].append({"name": case.name, "classname": case.classname, "file": case._elem.get("file"), "failures": results})
      print(json.dumps(out))
      """
    try script.write(toFile: dir + "/read.py", atomically: true, encoding: .utf8)
    let read = try ExternalProgram.pythonJUnit.run(["read.py", "out/j.xml"], in: dir)
    #expect(read.status == 0, "\(read.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: read.stdoutData) as? [String: Any])
    #expect(report["tests"] as? Int == 7 && report["failures"] as? Int == 5)
    let cases = try #require(report["cases"] as? [[String: Any]])
    #expect(cases.map { $0["name"] as? String } == ["a/top", "a/mid", "b/top", "b/seq", "b/gone", "b/low", "a/low"])
    func failure(_ name: String) -> [String: Any]? {
      (cases.first { $0["name"] as? String == name }?["failures"] as? [[String: Any]])?.first
    }
    let price = try #require(failure("a/top"))
    #expect(price["type"] as? String == "content")
    #expect(price["message"] as? String == "content changed: item 3 price 21.90 → 99.00")
    let body = price["text"] as? String ?? ""
    #expect(body.contains("53 of 48000 pixels differ") && body.contains("A/a/top.diff.png"), "\(body)")
    #expect(failure("b/gone")?["type"] as? String == "missing")
    #expect(failure("b/seq")?["message"] as? String == "frame 0: layout changed: 7 cells moved (4 of 4 frames fail)")
    // The other frames' artifacts are listed too, not only the first failing frame's.
    let text = failure("b/seq")?["text"] as? String ?? ""
    #expect(text.contains("A/b/seq.03.diff.png"), "\(text)")
    #expect(failure("a/mid") == nil && failure("a/low") == nil)
    #expect(cases.first?["classname"] as? String == "golden.a")
    #expect(cases.first?["file"] as? String == "G/a/top.png")
  }

  /// `::error file=…,title=…::…` as GitHub's runner parses it: properties split at `,` and `=`,
  /// the message after `::`, each unescaped.
  @Test func annotations_FollowGitHubsLineFormat() throws {
    let dir = try Self.fixture()
    let json = try Self.run(["golden", "check", "--json"], in: dir)
    let lines = json.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(!json.stdout.contains("::error"), "annotations only with GITHUB_ACTIONS=true")
    let text = try Self.run(["golden", "check"], in: dir, environment: ["GITHUB_ACTIONS": "true"])
    let commands = text.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
    #expect(commands.count == 5)
    func unescape(_ s: Substring) -> String {
      s.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
        .replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ",")
        .replacingOccurrences(of: "%25", with: "%")
    }
    let failing = lines.filter { $0["status"] as? String == "failed" }.map { $0["name"] as! String }
    var titles: [String] = []
    for command in commands {
      let body = command.dropFirst(2)
      let head = try #require(body.range(of: "::"))
      let (verb, properties) = try #require(
        body[..<head.lowerBound].split(separator: " ", maxSplits: 1).first.map {
          ($0, body[body.index($0.endIndex, offsetBy: 1)..<head.lowerBound])
        })
      #expect(verb == "error")
      var values: [String: String] = [:]
      for property in properties.split(separator: ",") {
        let pair = property.split(separator: "=", maxSplits: 1)
        values[String(pair[0])] = unescape(pair[1])
      }
      let message = unescape(body[head.upperBound...])
      let title = try #require(values["title"])
      titles.append(title)
      #expect(values["file"] == "G/" + title + (title == "b/seq" ? ".00.png" : ".png"))
      // The message is the one-line summary, as on the text line.
      let line = text.stdout.split(separator: "\n").first {
        $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first == Substring(title)
      }
      #expect(line?.hasSuffix("  " + message) == true, "\(message) vs \(line ?? "")")
    }
    #expect(titles == failing)
    // With --json the commands go to standard error, so the JSON lines stay parseable.
    let both = try Self.run(["golden", "check", "--json"], in: dir, environment: ["GITHUB_ACTIONS": "true"])
    #expect(both.stdout == json.stdout)
    #expect(both.stderr.split(separator: "\n").filter { $0.hasPrefix("::error ") }.count == 5)
  }

  /// A passing run removes what an earlier failure of the same golden left behind.
  @Test func artifactsOfEarlierFailures_AreClearedWhenAGoldenPasses() throws {
    let dir = try Self.fixture()
    _ = try Self.run(["golden", "check", "a/top"], in: dir)
    let diff = dir + "/A/a/top.diff.png"
    #expect(FileManager.default.fileExists(atPath: diff))
    let scene = try String(contentsOfFile: dir + "/a.json", encoding: .utf8)
    try scene.replacingOccurrences(of: "99.00", with: "21.90")
      .write(toFile: dir + "/a.json", atomically: true, encoding: .utf8)
    let pass = try Self.run(["golden", "check", "a/top"], in: dir)
    #expect(pass.status == 0, "\(pass.stdout)")
    #expect(!FileManager.default.fileExists(atPath: diff))
    #expect(!FileManager.default.fileExists(atPath: dir + "/A/a/top.actual.png"))
    // Other goldens' artifacts are not this run's business.
    _ = try Self.run(["golden", "check", "b/top"], in: dir)
    _ = try Self.run(["golden", "check", "a/top"], in: dir)
    #expect(FileManager.default.fileExists(atPath: dir + "/A/b/top.diff.png"))
  }
}
