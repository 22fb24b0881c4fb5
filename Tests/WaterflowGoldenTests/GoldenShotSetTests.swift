import Foundation
import Testing
import WaterflowGolden
import WaterflowRender

/// Manifest entries that name a shot file: one golden per shot, with facts placed where the
/// screen lands in the framed picture.
@Suite struct GoldenShotSetTests {
  private func manifest(_ entry: String) throws -> GoldenManifest {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let shots = GoldenTestSupport.root + "/Assets/Shots/golden-shots.json"
    try #"{"goldens": [\#(entry.replacingOccurrences(of: "SHOTS", with: shots))]}"#.write(
      toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
    return try GoldenManifest(contentsOf: dir + "/manifest.json")
  }

  @Test func aShotFileBecomesOneGoldenPerShot() throws {
    let named = try manifest(#"{"name": "store", "shots": "SHOTS", "maxDiffPixels": 3}"#)
    #expect(named.entries.map(\.name) == [
      "store/en/light/iphone-4.7/notes", "store/en/dark/iphone-4.7/notes",
      "store/ar/light/iphone-4.7/notes", "store/ar/dark/iphone-4.7/notes",
    ])
    #expect(named.entries.allSatisfy { $0.tolerance.maxMismatchedPixels == 3 && !$0.isSequence })
    #expect(named.entries[0].options.scale == 2)
    // Without a name, the shot file's own names them.
    let unnamed = try manifest(#"{"shots": "SHOTS"}"#)
    #expect(unnamed.entries[0].name == "golden-shots/en/light/iphone-4.7/notes")
  }

  @Test func aShotFileEntryTakesNoSceneKeysAndNamesABadShotFile() throws {
    let scene = #expect(throws: GoldenError.self) {
      try manifest(#"{"name": "s", "shots": "SHOTS", "offset": 100}"#)
    }
    #expect(scene?.description.contains("goldens[0].offset: a shot file's entry takes no offset") == true)
    let missing = #expect(throws: GoldenError.self) {
      try manifest(#"{"name": "s", "shots": "nope.json"}"#)
    }
    #expect(missing?.description.contains("goldens[0].shots:") == true)
    #expect(missing?.description.contains("nope.json") == true)
  }

  /// Facts find the cells in the framed picture: masking cell 0 hides exactly the pixels a
  /// change to its title makes, and nothing else.
  @Test func factsAndMasksPointAtTheScreenInsideTheFrame() throws {
    let entries = try GoldenManifest(contentsOf: GoldenTestSupport.goldenDirectory + "/manifest.json")
      .entries.filter { $0.screenshot != nil }
    #expect(entries.count == 4)
    let entry = try #require(entries.first)
    var shot = try entry.shot()
    shot.maskedCells = [0]
    let renderer = try Renderer()
    let frame = try #require(try shot.frames(with: renderer).first)
    let mask = try #require(frame.masks.first)
    let facts = try #require(frame.facts)
    let cell = try #require(facts.cells.first { $0.index == 0 })
    // Cell 0 is the first in the left column: inside the phone's screen, below the caption
    // and the status bar, left of the middle.
    #expect(mask.x > 0 && mask.x + mask.width < frame.image.width / 2)
    #expect(mask.y > frame.image.height / 5 && mask.y < frame.image.height / 2)
    #expect(Double(mask.width) == (cell.frame.width * facts.pixelScale).rounded(.up) || abs(Double(mask.width) - cell.frame.width * facts.pixelScale) <= 2)
    // The title's text box lies inside the cell's pixels.
    let title = try #require(facts.texts?.first { $0.text.hasPrefix("Sunset") })
    let tx = title.box.minX * facts.pixelScale
    let ty = title.box.minY * facts.pixelScale
    #expect(tx >= Double(mask.x) && tx <= Double(mask.x + mask.width))
    #expect(ty >= Double(mask.y) && ty <= Double(mask.y + mask.height))
  }

  /// Every golden of the repository's manifest, shots included, matches what is drawn now.
  @Test func everyManifestGoldenPasses() throws {
    let manifest = try GoldenManifest(contentsOf: GoldenTestSupport.goldenDirectory + "/manifest.json")
    let renderer = try Renderer(fontPath: manifest.fontPath ?? Renderer.defaultFontPath)
    let store = GoldenStore(
      directory: GoldenTestSupport.goldenDirectory,
      configuration: GoldenTestSupport.checking(artifacts: try GoldenTestSupport.temporaryDirectory()))
    for entry in manifest.entries {
      let outcome = try store.check(entry, renderer: renderer, fingerprint: GoldenTestSupport.fingerprint(renderer))
      // Only the verdict and message on failure: the outcome itself holds every pixel.
      let failed = outcome.isFailure
      let message = outcome.message
      #expect(!failed, "\(entry.name): \(message)")
    }
  }
}
