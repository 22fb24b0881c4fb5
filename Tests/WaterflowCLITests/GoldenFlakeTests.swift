import Foundation
import Testing
import WaterflowTestSupport

/// `golden check --repeat`: goldens whose own renderings differ are reported as flaky, never as
/// a change of layout or content.
@Suite("Goldens: the flake detector") struct GoldenFlakeTests {
  @Test("finds an order-dependent image cache, and passes without it")
  func findsOrderDependence() throws {
    let dir = try temporaryDirectory()
    // The photo feed's shot on a small and a large screen: JPEGs decoded at two scales.
    var entries: [String] = []
    for device in ["iphone-4.7", "ipad-13"] {
      let shots =
        #"{"scenes": [{"scene": "\#(packageRoot)/Assets/Shots/notes.json"}], "devices": ["\#(device)"], "appearances": ["light"], "locales": {"en": "\#(packageRoot)/Assets/Shots/strings/en.json"}}"#
      try shots.write(toFile: "\(dir)/\(device).json", atomically: true, encoding: .utf8)
      entries.append(#"{"name": "\#(device)", "shots": "../\#(device).json"}"#)
    }
    try FileManager.default.createDirectory(atPath: dir + "/G", withIntermediateDirectories: true)
    try #"{"goldens": [\#(entries.joined(separator: ", "))]}"#
      .write(toFile: dir + "/G/manifest.json", atomically: true, encoding: .utf8)
    let manifest = dir + "/G/manifest.json"
    let record = try waterflow(["golden", "record", "--manifest", manifest], environment: ["CI": ""])
    try #require(record.status == 0, "\(record.output)")

    func check(_ environment: [String: String]) throws -> (status: Int32, lines: [[String: Any]], text: String) {
      let run = try waterflow(
        ["golden", "check", "--manifest", manifest, "--repeat", "4", "--jobs", "1", "--json",
         "--artifacts", dir + "/a"],
        environment: environment.merging(["CI": "true"]) { $1 })
      let lines = run.stdout.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
      return (run.status, lines, run.output)
    }

    let faulty = try check(["WATERFLOW_TEST_ORDER_DEPENDENT_IMAGES": "1"])
    #expect(faulty.status == 1, "\(faulty.text)")
    let flaky = faulty.lines.filter { ($0["cause"] as? [String: Any])?["verdict"] as? String == "flaky" }
    // Which one depends on which sizes the fault lets serve the other: either is a find.
    #expect(flaky.count == 1, "\(faulty.text)")
    let summary = (flaky.first?["cause"] as? [String: Any])?["summary"] as? String ?? ""
    #expect(summary.contains("first at pixel ("), "\(summary)")
    // Never a layout or content verdict for any golden.
    let verdicts = faulty.lines.compactMap { ($0["cause"] as? [String: Any])?["verdict"] as? String }
    #expect(!verdicts.contains("layout") && !verdicts.contains("content"))

    let fixed = try check([:])
    #expect(fixed.status == 0, "\(fixed.text)")
    #expect(fixed.lines.count == 2 && fixed.lines.allSatisfy { $0["status"] as? String == "passed" })
  }
}
