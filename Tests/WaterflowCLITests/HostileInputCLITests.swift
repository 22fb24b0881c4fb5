import Foundation
import Testing
import WaterflowTestSupport

/// Inputs that crashed or misled the tool: one-character golden names, names that climb out of
/// the golden folder.
@Suite struct HostileInputCLITests {
  /// A golden folder `G` with a one-character golden and a one-character sequence.
  private func oneCharacterGoldens(offset: Int = 0) throws -> String {
    let dir = try temporaryDirectory()
    _ = try sceneFile(
      #"{"viewport": {"width": 120, "height": 160}, "columns": 2, "items": {"count": 8, "heights": [40, 60]}}"#,
      in: dir, named: "s.json")
    try FileManager.default.createDirectory(atPath: dir + "/G", withIntermediateDirectories: true)
    _ = try sceneFile(
      """
      {"goldens": [{"name": "a", "scene": "../s.json", "offset": \(offset)},
                   {"name": "b", "scene": "../s.json", "sequence": {"from": 0, "to": 40, "step": 40}}]}
      """, in: dir + "/G", named: "manifest.json")
    return dir
  }

  @Test func oneCharacterNames_RecordCheckReportAndJUnit() throws {
    let dir = try oneCharacterGoldens()
    // Recording is refused in CI (CI=true): this test records on purpose, in its own folder.
    let record = try waterflow(["golden", "record", "--manifest", dir + "/G/manifest.json"], environment: ["CI": ""])
    #expect(record.status == 0, "\(record.output)")
    for file in ["a.png", "a.facts.json", "b.00.png", "b.01.png"] {
      #expect(FileManager.default.fileExists(atPath: dir + "/G/" + file), "\(file)")
    }
    let pass = try waterflow(["golden", "check", "--manifest", dir + "/G/manifest.json"])
    #expect(pass.status == 0, "\(pass.output)")
    // A change: the failure's artifacts, report and JUnit log name the one-character golden.
    _ = try sceneFile(
      #"{"goldens": [{"name": "a", "scene": "../s.json", "offset": 20}, {"name": "b", "scene": "../s.json", "sequence": {"from": 0, "to": 40, "step": 40}}]}"#,
      in: dir + "/G", named: "manifest.json")
    let fail = try waterflow([
      "golden", "check", "--manifest", dir + "/G/manifest.json", "--artifacts", dir + "/art",
      "--report", dir + "/r.html", "--junit", dir + "/j.xml",
    ])
    #expect(fail.status == 1, "\(fail.output)")
    #expect(fail.stdout.contains("FAIL      a"))
    #expect(FileManager.default.fileExists(atPath: dir + "/art/a.actual.png"))
    let report = try String(contentsOfFile: dir + "/r.html", encoding: .utf8)
    #expect(report.contains(">a<") || report.contains("\"a\""))
    let junit = try String(contentsOfFile: dir + "/j.xml", encoding: .utf8)
    #expect(junit.contains("name=\"a\""))
  }

  @Test func aNameThatClimbsOutOfTheGoldenFolder_IsRefusedAndWritesNothing() throws {
    let dir = try oneCharacterGoldens()
    _ = try sceneFile(
      #"{"goldens": [{"name": "../escape", "scene": "../s.json"}]}"#, in: dir + "/G", named: "manifest.json")
    let run = try waterflow(["golden", "record", "--manifest", dir + "/G/manifest.json"], environment: ["CI": ""])
    #expect(run.status != 0)
    #expect(run.stderr.contains("goldens[0].name"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/escape.png"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["G", "s.json"])
  }

  @Test func traceToPastTheEnd_IsClampedWithANote() throws {
    let run = try waterflow(["trace", "Assets/Scenes/reference.json", "--to", "99999", "--step", "500", "--json"])
    #expect(run.status == 0, "\(run.stderr)")
    let steps = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [[String: Any]])
    let offsets = steps.compactMap { $0["offset"] as? Double }
    // 2633 is the reference scene's last offset: the steps stop there instead of going on,
    // empty, to 99999.
    #expect(offsets.last == 2633)
    #expect(offsets.count == 7)
    #expect(run.stderr.contains("note: segment 1 (frame 1): scroll to 99999 clamped to 2633, the content's end"))
    let over = try waterflow([
      "trace", "Assets/Scenes/reference.json", "--to", "99999", "--step", "50000", "--json", "--overscroll",
    ])
    let far = try #require(try JSONSerialization.jsonObject(with: over.stdoutData) as? [[String: Any]])
    #expect(far.compactMap { $0["offset"] as? Double }.last == 99999)
  }

  /// A title cut to two lines reads, in the PDF's text, as it is drawn: up to "…".
  @Test func pdfTextOfAnEllipsizedTitle_IsTheDrawnText() throws {
    let dir = try temporaryDirectory()
    let scene = try sceneFile(
      #"{"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 1, "items": [{"w": 100, "h": 100, "title": "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa"}]}"#,
      in: dir)
    let run = try waterflow(["render", scene, "-o", dir + "/t.pdf"])
    #expect(run.status == 0, "\(run.stderr)")
    let text = try ExternalProgram.pdftotext.run([dir + "/t.pdf", "-"]).stdout
    #expect(text.contains("alpha bravo charlie delta"))
    #expect(text.contains("…"), "\(text)")
    #expect(!text.contains("papa"), "the elided words stay out of the text layer: \(text)")
  }

  /// A layout file of an upward layout written before `origin` was recorded is refused with
  /// the fix; with `origin` it reads as the scene.
  @Test func anOldUpwardLayoutFileWithoutOrigin_IsRefusedWithTheFix() throws {
    let dir = try temporaryDirectory()
    let scene = try sceneFile(
      #"{"viewport": {"width": 200, "height": 300}, "columns": 2, "origin": "bottom", "items": {"count": 20, "heights": [60, 90]}}"#,
      in: dir)
    let dump = try waterflow(["layout", scene, "--json"])
    #expect(dump.status == 0)
    #expect(dump.stdout.contains("\"origin\": \"bottom\""))
    let current = dir + "/current.json"
    try dump.stdoutData.write(to: URL(fileURLWithPath: current))
    #expect(try waterflow(["visible", current]).status == 0)
    let old = dir + "/old.json"
    try dump.stdout.replacingOccurrences(of: "\"origin\": \"bottom\",", with: "")
      .write(toFile: old, atomically: true, encoding: .utf8)
    let run = try waterflow(["visible", old])
    #expect(run.status != 0)
    #expect(run.stderr.contains("old.json: origin: missing, and the frames run upward"), "\(run.stderr)")
    #expect(run.stderr.contains("add \"origin\": \"bottom\""))
  }

  /// `layout --json` writes the stamps the frames flow round, and the file reads back.
  @Test func layoutJSON_WritesStamps() throws {
    let dir = try temporaryDirectory()
    let scene = try sceneFile(
      #"{"viewport": {"width": 375, "height": 600}, "columns": 2, "stamps": [{"x": 130, "y": 0, "width": 235, "height": 50}], "items": {"count": 10, "heights": [80, 120]}}"#,
      in: dir)
    let dump = try waterflow(["layout", scene, "--json"])
    let json = try #require(try JSONSerialization.jsonObject(with: dump.stdoutData) as? [String: Any])
    let stamps = try #require(json["stamps"] as? [[String: Double]])
    #expect(stamps == [["x": 130, "y": 10, "width": 235, "height": 50]])
    let file = dir + "/layout.json"
    try dump.stdoutData.write(to: URL(fileURLWithPath: file))
    let again = try waterflow(["layout", file, "--json"])
    #expect(again.status == 0, "\(again.stderr)")
  }

  /// A scroll to PDF streams its pages to the file: ten times the frames, about the same peak
  /// memory (it grew by the whole PDF's size before: 15 MB more at 480 frames of the shop).
  @Test func scrollToPDF_DoesNotGrowWithTheFrames() throws {
    let dir = try temporaryDirectory()
    func peakKB(frames: Int) throws -> Int {
      let run = try ExternalProgram.gnuTime.run([
        "-f", "%M", waterflowBinary, "scroll", "Assets/Scenes/shop.json", "--to", "2000",
        "--frames", "\(frames)", "--curve", "linear", "-o", dir + "/s\(frames).pdf",
      ], in: packageRoot)
      #expect(run.status == 0, "\(run.stderr)")
      return Int(run.stderr.split(separator: "\n").last.map(String.init) ?? "") ?? 0
    }
    let few = try peakKB(frames: 40)
    let many = try peakKB(frames: 400)
    #expect(few > 0 && many > 0)
    #expect(many - few < 4000, "40 frames: \(few) KB, 400 frames: \(many) KB")
    let size = try FileManager.default.attributesOfItem(atPath: dir + "/s400.pdf")[.size] as? Int ?? 0
    #expect(size > 4_000_000, "the PDF holds every page")
  }

  /// A one-section layout file loads more and refreshes as its scene does: new items repeat
  /// its frames a block further on (or at its start, the rest moving along).
  @Test func aLayoutFile_LoadsMoreAndRefreshes() throws {
    let dir = try temporaryDirectory()
    let dump = try waterflow(["layout", "Assets/Scenes/reference.json", "--json"])
    let file = dir + "/layout.json"
    try dump.stdoutData.write(to: URL(fileURLWithPath: file))
    let script = try sceneFile(
      #"[{"scroll": {"to": 2633, "step": 2633}}, {"loadMore": {"count": 10}}, {"scroll": {"to": 3500, "step": 500}}, {"jump": 0}, {"refresh": {"count": 4}}]"#,
      in: dir, named: "m.json")
    let trace = try waterflow(["trace", file, "--script", script, "--json"])
    #expect(trace.status == 0, "\(trace.stderr)")
    #expect(!trace.stderr.contains("skipped"), "\(trace.stderr)")
    let steps = try #require(try JSONSerialization.jsonObject(with: trace.stdoutData) as? [[String: Any]])
    let events = steps.compactMap { $0["event"] as? String }
    #expect(events.contains("load more 10") && events.contains("refresh 4"), "\(events)")
    // 100 items and 3300 pt of content: ten more items take 375 pt more (frames 0-9 again,
    // 10 pt below the last), so the end is 3008, not 2633.
    let offsets = steps.compactMap { $0["offset"] as? Double }
    #expect(offsets.contains(3008), "\(offsets)")
  }
}
