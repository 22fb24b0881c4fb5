import Foundation
import Testing
import WaterflowTestSupport

/// A golden's bytes depend on its own inputs alone: not on what was drawn before it, the
/// number of jobs, the shard or a cache's budget.
///
/// This is a test of the rule, not of one case: every golden of the repository's manifest, and
/// a photo feed's shots on three devices (JPEGs decoded at different scales), is first recorded
/// alone in a fresh process. Then all of them are recorded together in seeded random orders on
/// one, two and four jobs, in three shards, and in one process that draws the largest first,
/// and every file of every run must be byte-identical to its fresh recording. A new cache that
/// lets one golden's drawing leak into the next fails here, whichever golden it touches.
@Suite("Goldens: the same bytes in any order") struct GoldenOrderTests {
  /// The devices the photo shots are taken on: scales 2 and 3, and the largest screen.
  static let photoDevices = ["iphone-4.7", "iphone-6.9", "ipad-13"]

  /// The harness's folder: the manifest's entries with absolute paths, the photo shot files.
  struct Harness {
    let dir: String
    /// The manifest's entries, as JSON objects, in the repository's order.
    let entries: [[String: Any]]

    init() throws {
      dir = try temporaryDirectory()
      let manifest = try #require(
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Golden/manifest.json")))
          as? [String: Any])
      var entries = try #require(manifest["goldens"] as? [[String: Any]])
      for i in entries.indices {
        for key in ["scene", "shots"] {
          if let path = entries[i][key] as? String { entries[i][key] = packageRoot + "/Golden/" + path }
        }
      }
      for device in GoldenOrderTests.photoDevices {
        let shots: [String: Any] = [
          "scenes": [["scene": packageRoot + "/Assets/Shots/notes.json"]],
          "devices": [device], "appearances": ["light"],
          "locales": ["en": packageRoot + "/Assets/Shots/strings/en.json"],
        ]
        let path = "\(dir)/photos-\(device).json"
        try JSONSerialization.data(withJSONObject: shots).write(to: URL(fileURLWithPath: path))
        entries.append(["name": "photos-\(device)", "shots": path])
      }
      self.entries = entries
    }

    /// Records the entries, in this order, into a new folder named `name`, with extra
    /// arguments; returns the golden names the run recorded.
    @discardableResult
    func record(_ entries: [[String: Any]], into name: String, _ arguments: [String] = [])
      throws -> [String]
    {
      let folder = dir + "/" + name
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let manifest = folder + "/manifest.json"
      if !FileManager.default.fileExists(atPath: manifest) {
        try JSONSerialization.data(withJSONObject: ["goldens": entries])
          .write(to: URL(fileURLWithPath: manifest))
      }
      let run = try waterflow(
        ["golden", "record", "--manifest", manifest, "--record", "all", "--json"] + arguments,
        environment: ["CI": ""])
      try #require(run.status == 0, "\(name) \(arguments): \(run.output)")
      return run.stdout.split(separator: "\n").compactMap { line in
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["name"] as? String
      }
    }

    /// Records each golden alone, in a process of its own, into one folder: two processes at a
    /// time, which share nothing but the folder (each writes its own files, and the font-stack
    /// file they both write holds the same bytes).
    func recordAlone(_ names: [String], into name: String) throws {
      let folder = dir + "/" + name
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try JSONSerialization.data(withJSONObject: ["goldens": entries])
        .write(to: URL(fileURLWithPath: folder + "/manifest.json"))
      var environment = ProcessInfo.processInfo.environment
      environment["CI"] = ""
      var running: [(String, Process)] = []
      func finishOldest() throws {
        let (golden, process) = running.removeFirst()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "recording \(golden) alone failed")
      }
      for golden in names {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: waterflowBinary)
        process.arguments = [
          "golden", "record", golden, "--manifest", folder + "/manifest.json", "--record", "all", "--jobs", "1",
        ]
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        running.append((golden, process))
        if running.count == 2 { try finishOldest() }
      }
      while !running.isEmpty { try finishOldest() }
    }

    /// Every file a run wrote, by path inside its folder, but its manifest.
    func files(in name: String) -> [String: Data] {
      let folder = dir + "/" + name
      var out: [String: Data] = [:]
      let walker = FileManager.default.enumerator(atPath: folder)
      while let relative = walker?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        guard relative != "manifest.json",
          FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isDirectory),
          !isDirectory.boolValue
        else { continue }
        out[relative] = FileManager.default.contents(atPath: folder + "/" + relative)
      }
      return out
    }
  }

  /// A seeded shuffle (SplitMix64), so a failing order can be run again.
  static func shuffled<T>(_ items: [T], seed: UInt64) -> [T] {
    var state = seed
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    var out = items
    for i in stride(from: out.count - 1, to: 0, by: -1) {
      out.swapAt(i, Int(next() % UInt64(i + 1)))
    }
    return out
  }

  @Test("every golden's files equal its fresh recording, in any order, jobs and shard")
  func orderIndependence() throws {
    let harness = try Harness()
    // The golden names, from one full run (which is itself compared below).
    let names = try harness.record(harness.entries, into: "together")
    #expect(names.count >= harness.entries.count)
    #expect(names.contains("photos-ipad-13/en/light/ipad-13/notes"))
    // Each golden alone, in a process of its own, into one folder: the reference.
    try harness.recordAlone(names, into: "fresh")
    let fresh = harness.files(in: "fresh")
    #expect(fresh.keys.filter { $0.hasSuffix(".png") }.count >= names.count)

    var runs = ["together"]
    // Seeded orders on one, two and four jobs.
    for (seed, jobs) in [(1, 1), (2, 2), (3, 4), (4, 1), (5, 2), (6, 4)] {
      let name = "order\(seed)-jobs\(jobs)"
      try harness.record(
        Self.shuffled(harness.entries, seed: UInt64(seed)), into: name, ["--jobs", "\(jobs)"])
      runs.append(name)
    }
    // Three shards of another order, one after another into one folder.
    let sharded = Self.shuffled(harness.entries, seed: 7)
    for part in 1...3 {
      try harness.record(sharded, into: "shards", ["--shard", "\(part)/3", "--jobs", "2"])
    }
    runs.append("shards")
    // One process, one thread, largest first: every cache sees the biggest images before the
    // smaller ones they could wrongly serve.
    func pixels(of entry: [String: Any]) -> Int {
      let name = entry["name"] as? String ?? ""
      return fresh.filter { $0.key.hasSuffix(".png") && ($0.key.hasPrefix(name + "/") || $0.key.hasPrefix(name + ".")) }
        .map { pngPixelCount($0.value) }.max() ?? 0
    }
    let largestFirst = harness.entries.sorted { pixels(of: $0) > pixels(of: $1) }
    #expect((largestFirst.first?["name"] as? String)?.hasPrefix("photos-ipad-13") == true)
    try harness.record(largestFirst, into: "largest-first", ["--jobs", "1"])
    runs.append("largest-first")

    for run in runs {
      let files = harness.files(in: run)
      #expect(Set(files.keys) == Set(fresh.keys), "\(run) wrote other files than the fresh runs")
      let differing = fresh.keys.sorted().filter { files[$0] != nil && files[$0] != fresh[$0] }
      #expect(differing.isEmpty, "\(run): not byte-identical to their fresh recording: \(differing)")
    }
  }

  /// The width × height a PNG's header declares.
  func pngPixelCount(_ data: Data) -> Int {
    guard data.count >= 24 else { return 0 }
    let bytes = [UInt8](data.prefix(24))
    func word(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    return word(16) * word(20)
  }
}
