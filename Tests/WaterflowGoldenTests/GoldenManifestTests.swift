import Foundation
import Testing
import WaterflowGolden

/// Manifest parsing, selection, shards and orphans.
@Suite struct GoldenManifestTests {}

extension GoldenManifestTests {
  // MARK: - Fixtures

  private func manifest(_ json: String, files: [String] = []) throws -> (
    GoldenManifest, String
  ) {
    let dir = try GoldenTestSupport.temporaryDirectory()
    for file in files {
      let path = dir + "/" + file
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent,
        withIntermediateDirectories: true)
      _ = FileManager.default.createFile(atPath: path, contents: Data())
    }
    try json.write(
      toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
    return (try GoldenManifest(contentsOf: dir + "/manifest.json"), dir)
  }

  private static let three = """
    {"unmanaged": ["Swift"], "goldens": [
      {"name": "a/one", "scene": "s.json"},
      {"name": "a/seq", "scene": "s.json", "sequence": {"from": 0, "to": 250, "step": 100}},
      {"name": "b", "scene": "s.json", "offset": 10, "scale": 2, "maxDiffPixels": 5}
    ]}
    """

  // MARK: - Parsing

  @Test func testManifest_Sequence_OwnsOneGoldenPerFrameIncludingTheEnd() throws
  {
    let (m, dir) = try manifest(Self.three)
    #expect(
      m.entries.map(\.goldenNames) == [
        ["a/one"], ["a/seq.00", "a/seq.01", "a/seq.02", "a/seq.03"], ["b"],
      ])
    #expect(
      m.entries[2].tolerance.maxMismatchedPixels == 5
        && m.entries[2].options.scale == 2)
    #expect(m.entries[0].scenePath == dir + "/s.json")
  }

  @Test func testManifest_UnknownKey_NamesFileEntryAndKey() throws {
    let error = #expect(throws: GoldenError.self) {
      try manifest(
        #"{"goldens": [{"name": "x", "scene": "s.json", "ofset": 3}]}"#)
    }
    #expect(
      error?.description.contains(
        "manifest.json: goldens[0].ofset: unknown key (expected one of: name, scene, offset,"
      ) == true)
  }

  @Test func testManifest_NameEscapingTheFolder_IsRejected() throws {
    let error = #expect(throws: GoldenError.self) {
      try manifest(#"{"goldens": [{"name": "../x", "scene": "s.json"}]}"#)
    }
    #expect(error?.description.contains("goldens[0].name") == true)
  }

  // MARK: - Selection and shards

  @Test func testEntries_FolderFilter_SelectsItsEntriesAndUnknownNameThrows()
    throws
  {
    let (m, _) = try manifest(Self.three)
    #expect(try m.entries(matching: ["a"]).map(\.name) == ["a/one", "a/seq"])
    #expect(try m.entries(matching: ["b"]).map(\.name) == ["b"])
    #expect(throws: GoldenError.self) { try m.entries(matching: ["c"]) }
  }

  @Test func testShard_AllParts_PartitionTheItemsInOrder() throws {
    for count in 1...6 {
      for n in 0...13 {
        let items = Array(0..<n)
        let parts = try (1...count).map {
          try GoldenShard(parsing: "\($0)/\(count)").select(items)
        }
        #expect(parts.flatMap { $0 } == items)
        let sizes = parts.map(\.count)
        #expect(sizes.max()! - sizes.min()! <= 1)
      }
    }
    #expect(throws: GoldenError.self) { try GoldenShard(parsing: "0/3") }
    #expect(throws: GoldenError.self) { try GoldenShard(parsing: "4/3") }
  }

  // MARK: - Orphans

  @Test func testOrphans_ListsUnownedGoldenFilesOnly() throws {
    let files = [
      "a/one.png", "a/one.facts.json", "a/one.inputs.json", "a/seq.00.png", "a/seq.01.png",
      "a/seq.02.png", "a/seq.03.png", "a/seq.04.png", "a/seq.facts.json", "a/seq.inputs.json",
      "b.png", "old.png", "old.facts.json", "old.inputs.json", "Swift/kept.png",
      "Swift/kept.inputs.json", "fingerprint.json", "notes.json",
    ]
    let (m, _) = try manifest(Self.three, files: files)
    // seq.04 is left over from a longer sequence; Swift/ is unmanaged; other files are not
    // goldens' own.
    #expect(m.orphans() == ["a/seq.04.png", "old.facts.json", "old.inputs.json", "old.png"])
  }
}
