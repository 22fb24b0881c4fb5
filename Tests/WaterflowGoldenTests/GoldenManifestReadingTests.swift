import Foundation
import Testing
import WaterflowGolden

/// The manifest and the fingerprint read with the one JSON reader: numbers are numbers, and every
/// bad input names the file and the field.
@Suite struct GoldenManifestReadingTests {}

extension GoldenManifestReadingTests {
  /// A manifest of one entry `{"name": "g", "scene": "s.json", <extra>}`, read.
  private func entry(_ extra: String) -> Result<
    GoldenManifest.Entry, GoldenError
  > {
    Result { () throws(GoldenError) in
      let dir: String
      do {
        dir = try GoldenTestSupport.temporaryDirectory()
        try #"{"goldens": [{"name": "g", "scene": "s.json"\#(extra)}]}"#.write(
          toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
      } catch {
        throw GoldenError(.file, "\(error)")
      }
      return try GoldenManifest(contentsOf: dir + "/manifest.json").entries[0]
    }
  }

  private func message(_ extra: String) -> String? {
    if case .failure(let e) = entry(extra) { return e.description }
    return nil
  }

  // MARK: - Tolerances

  @Test func maxDiffRatio_Alone_IsTheOnlyLimit() throws {
    #expect(try entry("").get().tolerance == .exact)
    let ratio = try entry(", \"maxDiffRatio\": 0.01").get().tolerance
    #expect(ratio.maxMismatchedPixels == .max && ratio.maxMismatchedRatio == 0.01)
    let both = try entry(", \"maxDiffRatio\": 0.01, \"maxDiffPixels\": 5").get().tolerance
    #expect(both.maxMismatchedPixels == 5 && both.maxMismatchedRatio == 0.01)
  }

  // MARK: - 0 and 1

  @Test(arguments: [0, 1])
  func zeroAndOne_AreNumbersInEveryNumericKey(n: Int) throws {
    let d = Double(n)
    let e = try entry(
      ", \"offset\": \(n), \"step\": \(n), \"scale\": 1, \"threshold\": \(n), \"maxDiffPixels\": \(n), \"maxDiffRatio\": \(n), \"masks\": [[\(n), \(n), \(n), \(n)]], \"maskCells\": [\(n)]"
    ).get()
    #expect(e.position == .offset(d, step: d))
    #expect(e.options.scale == 1)
    #expect(e.diffOptions.threshold == d)
    #expect(
      e.tolerance.maxMismatchedPixels == n
        && e.tolerance.maxMismatchedRatio == d)
    #expect(e.diffOptions.masks == [PixelRect(x: n, y: n, width: n, height: n)])
    #expect(e.maskedCells == [n])
    let sequence = try entry(
      ", \"sequence\": {\"from\": \(n), \"to\": \(n + 1), \"step\": 1}"
    ).get()
    #expect(sequence.position == .sequence(from: d, to: d + 1, step: 1))
  }

  @Test(arguments: [
    (#", "scale": 0"#, "goldens[0].scale: must be at least 0.25, got 0"),
    (
      #", "sequence": {"from": 0, "to": 1, "step": 0}"#,
      "goldens[0].sequence.step: must be greater than 0, got 0"
    ),
    (
      #", "offset": true"#,
      "goldens[0].offset: expected a number, found a boolean"
    ),
    (
      #", "maxDiffPixels": false"#,
      "goldens[0].maxDiffPixels: expected a number, found a boolean"
    ),
    (
      #", "debug": 1"#,
      "goldens[0].debug: expected true or false, found a number"
    ),
    (
      #", "includeAA": 0"#,
      "goldens[0].includeAA: expected true or false, found a number"
    ),
    (
      #", "overview": "yes""#,
      #"goldens[0].overview: expected true or false, found the string "yes""#
    ),
  ])
  func zero_IsRefusedByRange_AndNumbersAndBooleansStayApart(
    extra: String, says: String
  ) {
    let m = message(extra)
    #expect(
      m?.hasSuffix("manifest.json: " + says) == true,
      "\(extra): \(String(describing: m))")
  }

  // MARK: - Bad input

  @Test(arguments: [
    (#", "step": -1"#, "goldens[0].step: must be at least 0, got -1"),
    (#", "threshold": 2"#, "goldens[0].threshold: must be at most 1, got 2"),
    (
      #", "maxDiffPixels": 2.5"#,
      "goldens[0].maxDiffPixels: expected a whole number, got 2.5"
    ),
    (
      #", "masks": [[1, 2, 3]]"#,
      "goldens[0].masks[0]: expected [x, y, width, height] in pixels"
    ),
    (
      #", "masks": [[1, 2, -3, 4]]"#,
      "goldens[0].masks[0][2]: must be at least 0, got -3"
    ),
    (
      #", "maskCells": [-1]"#,
      "goldens[0].maskCells[0]: must be at least 0, got -1"
    ),
    (
      #", "sequence": {"from": 0, "to": 10}"#,
      "goldens[0].sequence: expected {\"from\": Y0, \"to\": Y1, \"step\": S} with S > 0"
    ),
    (
      #", "sequence": {"from": 0, "to": 5000, "step": 1}"#,
      "goldens[0].sequence: more than 1000 frames; use a larger step"
    ),
    (
      #", "sequence": {"from": 0, "to": 1, "step": 1}, "offset": 0"#,
      "goldens[0]: give either offset/step or sequence, not both"
    ),
    (#", "offset": 1, "offset": 2"#, "goldens[0].offset: given twice"),
    (#", "scene": """#, "goldens[0].scene: given twice"),
    (
      #"}, {"name": "g", "scene": "t.json""#,
      "goldens[1].name: 'g' needs the golden 'g', which 'g' already uses"
    ),
    (
      #"}, {"scene": "t.json""#,
      "goldens[1].name: missing, or not a relative name of letters, digits, '-', '_', '.' and '/' such as \"reference/top\""
    ),
    (
      #"}, {"name": "h""#,
      "goldens[1].scene: missing: the scene file, relative to "
    ),
    (
      #", "offset": }"#,
      "invalid JSON at line 1, column 57: expected a value, found '}'"
    ),
    (#", "appearance": "dim""#, "goldens[0].appearance: expected \"light\" or \"dark\""),
    (#", "device": "iphone-99""#, "goldens[0].device: expected a device: iphone-6.9, iphone-6.5"),
    (
      #", "device": "iphone-4.7", "step": 10"#,
      "goldens[0].device: a golden on a device is one screen: no step, sequence, overview or debug"
    ),
    (#", "shot": "en/light/iphone-6.9/notes""#, "goldens[0].shot: a shot is chosen from a shot file: give \"shots\" too"),
  ])
  func badEntries_NameTheFileAndTheField(extra: String, says: String) {
    let m = message(extra)
    #expect(
      m?.contains("manifest.json: " + says) == true,
      "\(extra): \(String(describing: m))")
  }

  @Test func theTopLevel_IsChecked() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    for (json, says) in [
      (#"[]"#, #"manifest.json: expected an object with "goldens""#),
      (#"{"unmanaged": []}"#, "manifest.json: goldens: missing"),
      (
        #"{"goldens": [], "unmanged": []}"#,
        "manifest.json: unmanged: unknown key (expected one of: font, goldens, perStack, unmanaged)"
      ),
      (
        #"{"goldens": [], "unmanaged": [3]}"#,
        "manifest.json: unmanaged[0]: expected a string, found a number"
      ),
    ] {
      try json.write(
        toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
      let error = #expect(throws: GoldenError.self) {
        try GoldenManifest(contentsOf: dir + "/manifest.json")
      }
      #expect(
        error?.description.hasSuffix(says) == true,
        "\(json): \(String(describing: error))")
    }
  }

  // MARK: - Fingerprint

  @Test func fingerprint_RoundTrips_IgnoresNewKeys_AndNamesAMissingOne() throws
  {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let path = dir + "/fingerprint.json"
    let stack = FontStackFingerprint(
      cairo: "1.18.0", pixman: "0.42.2", freetype: "2.13.2",
      font: "DejaVuSans.ttf",
      fontHash: "fnv1a64:0")
    try Data(stack.fileContents).write(to: URL(fileURLWithPath: path))
    #expect(try FontStackFingerprint.read(from: path) == stack)
    try
      #"{"cairo": "1", "pixman": "2", "freetype": "3", "font": "f", "fontHash": "h", "harfbuzz": "8"}"#
      .write(toFile: path, atomically: true, encoding: .utf8)
    #expect(try FontStackFingerprint.read(from: path)?.freetype == "3")
    try #"{"cairo": "1", "pixman": "2", "font": "f", "fontHash": "h"}"#
      .write(toFile: path, atomically: true, encoding: .utf8)
    let error = #expect(throws: GoldenError.self) {
      try FontStackFingerprint.read(from: path)
    }
    #expect(
      error?.description.contains(
        "(freetype: missing); delete it and re-record.") == true)
    #expect(try FontStackFingerprint.read(from: dir + "/none.json") == nil)
  }
}
