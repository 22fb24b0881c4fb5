import Foundation
import PNGCodec
import Testing
import WaterflowGolden
import WaterflowPreview
import Synchronization
import WaterflowRender
import WaterflowReview
import WaterflowTestSupport

/// A pin recorded as a golden: its entry, the manifest edit, and the same pixels.
@Suite struct PreviewGoldenTests {
  @Test func aScenePinIsAnEntryInItsAppearanceAtItsScale() {
    let golden = PreviewGolden(
      pin: PreviewPin(scene: "notes", offset: 812, appearance: .dark), of: "/p/Assets/Feeds/notes.json",
      shotFile: false, manifest: "/p/Golden/manifest.json", scale: 3)
    #expect(golden.name == "preview/notes/scene-dark-812")
    #expect(
      golden.entry
        == #"{"name": "preview/notes/scene-dark-812", "scene": "../Assets/Feeds/notes.json", "offset": 812, "appearance": "dark", "scale": 3}"#)
    let onDevice = PreviewGolden(
      pin: PreviewPin(scene: "notes", offset: 0, device: "iphone-4.7", appearance: .light, locale: "ar"),
      of: "/p/Assets/Shots/shots.json", shotFile: true, manifest: "/p/Golden/manifest.json", scale: 2)
    #expect(onDevice.name == "preview/notes/iphone-4.7-light-ar-0")
    #expect(
      onDevice.entry
        == #"{"name": "preview/notes/iphone-4.7-light-ar-0", "shots": "../Assets/Shots/shots.json", "shot": "ar/light/iphone-4.7/notes", "offset": 0}"#)
  }

  @Test func theEntryGoesAfterTheLastOneAndTheRestOfTheFileStays() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-preview-golden")
    let manifest = dir + "/Golden/manifest.json"
    let golden = PreviewGolden(
      pin: PreviewPin(scene: "notes", offset: 0), of: dir + "/notes.json", shotFile: false, manifest: manifest, scale: 1)
    #expect(try golden.add(to: manifest), "made when missing")
    #expect(try String(contentsOfFile: manifest, encoding: .utf8) == "{\n  \"goldens\": [\n    \(golden.entry)\n  ]\n}\n")
    let written = """
      {
        "font": "x.ttf",
        "goldens": [
          {"name": "a", "scene": "s.json", "maskCells": [1, 2]}
        ],
        "unmanaged": ["SnapshotTesting/"]
      }

      """
    try Data(written.utf8).write(to: URL(fileURLWithPath: manifest))
    #expect(try golden.add(to: manifest))
    #expect(
      try String(contentsOfFile: manifest, encoding: .utf8)
        == written.replacingOccurrences(
          of: "[1, 2]}\n", with: "[1, 2]},\n    \(golden.entry)\n"))
    #expect(try !golden.add(to: manifest), "an entry of that name is there already")
  }

  @Test func theRecordedGoldenHasThePinsPixels() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-preview-golden")
    try FileManager.default.copyItem(atPath: packageRoot + "/Assets/Feeds", toPath: dir + "/Feeds")
    let file = dir + "/Feeds/notes.json"
    let session = try PreviewSession(file: file, lanes: 2, scale: 1)
    session.refresh(changed: nil)
    let manifest = dir + "/Golden/manifest.json"
    for (id, pin) in session.state(after: 0, waiting: 0).pins.enumerated() where id == 1 || id == 3 {
      let golden = try session.golden(ofPin: pin.id, manifest: manifest)
      try golden.add(to: manifest)
      let entry = try #require(try GoldenManifest(contentsOf: manifest).entries.first { $0.name == golden.name })
      let frame = try #require(try entry.shot().frames(with: Renderer()).first)
      #expect(frame.image.pixels == (try RGBAImage(pngData: try #require(pin.png))).pixels, "\(golden.name)")
    }
  }

  @Test func aManifestEntryTakesOneShotOfAShotFileAtAnotherOffset() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-preview-golden")
    let manifest = dir + "/manifest.json"
    let shots = packageRoot + "/Assets/Shots/shots.json"
    try Data(
      #"{"goldens": [{"name": "pin", "shots": "\#(shots)", "shot": "ar/dark/iphone-6.9/notes", "offset": 200}]}"#.utf8
    ).write(to: URL(fileURLWithPath: manifest))
    let entry = try #require(try GoldenManifest(contentsOf: manifest).entries.first)
    #expect(entry.name == "pin" && entry.screenshot?.shot.name == "ar/dark/iphone-6.9/notes")
    #expect(entry.screenshot?.shot.scene.offset == 200 && entry.options.scale == 3)
    try Data(
      #"{"goldens": [{"name": "pin", "shots": "\#(shots)", "shot": "ar/dark/iphone-4.7/notes"}]}"#.utf8
    ).write(to: URL(fileURLWithPath: manifest))
    let error = try #require(throws: GoldenError.self) { try GoldenManifest(contentsOf: manifest) }
    #expect(error.description.contains("goldens[0].shot: 'ar/dark/iphone-4.7/notes' is not a shot of"), "\(error)")
  }
}

@Suite struct ManifestPreviewTests {
  @Test func aManifestsGoldensAreItsPinsCheckedOnEverySave() throws {
    let dir = try makeTemporaryDirectory(prefix: "waterflow-preview-manifest")
    try FileManager.default.copyItem(atPath: packageRoot + "/Assets/Feeds", toPath: dir + "/Feeds")
    let scene = dir + "/Feeds/notes.json"
    let manifest = dir + "/Golden/manifest.json"
    try FileManager.default.createDirectory(atPath: dir + "/Golden", withIntermediateDirectories: true)
    try Data(
      #"""
      {"goldens": [
        {"name": "top", "scene": "../Feeds/notes.json"},
        {"name": "top-dark", "scene": "../Feeds/notes.json", "appearance": "dark"}
      ]}
      """#.utf8
    ).write(to: URL(fileURLWithPath: manifest))
    let session = try PreviewSession(file: manifest, lanes: 2)
    #expect(session.isManifest && session.pins.map(\.scene) == ["top", "top-dark"])
    session.refresh(changed: nil)
    #expect(session.state(after: 0, waiting: 0).pins.map { $0.golden?.status } == ["missing", "missing"])
    // Recorded as `golden record` records them, they pass, each beside its recording.
    let renderer = try Renderer()
    let fingerprint = FontStackFingerprint(renderer: renderer)
    let store = GoldenStore(
      directory: dir + "/Golden",
      configuration: try GoldenConfiguration.fromEnvironment([:], explicitMode: .all))
    for entry in try GoldenManifest(contentsOf: manifest).entries {
      _ = try store.check(entry, renderer: renderer, fingerprint: fingerprint)
    }
    session.refresh(changed: nil)
    let passing = session.state(after: 0, waiting: 0).pins
    #expect(passing.map { $0.golden?.status } == ["matched", "matched"])
    #expect(passing.allSatisfy { $0.golden?.expectedPNG != nil })
    // A template edit fails both, with `golden check`'s verdict.
    let text = try String(contentsOfFile: scene, encoding: .utf8)
    try Data(text.replacingOccurrences(of: "\"columns\": 2", with: "\"columns\": 3").utf8)
      .write(to: URL(fileURLWithPath: scene))
    session.refresh(changed: [scene])
    let failing = session.state(after: 0, waiting: 0).pins
    #expect(failing.map { $0.golden?.status } == ["failed", "failed"])
    #expect(failing[0].golden?.verdict.hasPrefix("layout changed") == true, "\(failing[0].golden?.verdict ?? "")")
    #expect(throws: PreviewError.self) { try session.add(PreviewPin(scene: "top", offset: 0)) }
    // A golden added to the manifest while it is previewed becomes a pin; the others keep theirs.
    let golden = PreviewGolden(name: "lower", entry: #"{"name": "lower", "scene": "../Feeds/notes.json", "offset": 400}"#)
    #expect(try golden.add(to: manifest))
    session.refresh(changed: [manifest])
    let grown = session.state(after: 0, waiting: 0).pins
    #expect(grown.map { $0.golden?.name } == ["top", "top-dark", "lower"])
    #expect(grown.map(\.id) == [0, 1, 2] && grown[2].golden?.status == "missing")

    // Accept on the page records the golden by its name: its entry is in the manifest already.
    let asked = Mutex<[PreviewGolden]>([])
    let site = PreviewSite(session: session, pollSeconds: 0, manifest: manifest) { golden in
      asked.withLock { $0.append(golden) }
      return .success("recorded")
    }
    site.listening(on: 4321)
    let token = String(site.address.split(separator: "=").last!)
    let answer = site.respond(
      to: ReviewRequest(
        method: "POST", path: "/api/accept",
        headers: ["host": "127.0.0.1:4321", "x-waterflow-token": token, "content-type": "application/json"],
        body: Array(#"{"id": 1}"#.utf8)))
    #expect(answer.status == 200, "\(answer.text)")
    #expect(asked.withLock { $0 } == [PreviewGolden(name: "top-dark", entry: "")])
    #expect(try !asked.withLock { $0 }[0].add(to: manifest), "adding it again changes nothing")
  }
}
