import Foundation
import Testing
import WaterflowScene

@testable import WaterflowMotion

@Suite struct ScrollScriptTests {}

/// Parses a script from JSON text, written to a file as the CLI reads it.
private func parse(_ json: String) throws -> ScrollScript {
  let dir = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(atPath: dir) }
  let path = "\(dir)/script.json"
  try Data(json.utf8).write(to: URL(fileURLWithPath: path))
  return try ScrollScript(contentsOf: path)
}

// MARK: - Fling

extension ScrollScriptTests {
  @Test func fling_BounceKey_TurnsOnTheBounce() throws {
    let script = try parse(
      #"[{"fling": {"velocity": 3000, "bounce": true}}, {"fling": {"velocity": -3000}}]"#
    )
    #expect(
      script.segments == [
        .fling(Deceleration(velocity: 3000, bounces: true)),
        .fling(Deceleration(velocity: -3000, bounces: false)),
      ])
  }

  @Test(arguments: [#"1"#, #""yes""#, #"null"#])
  func fling_BounceThatIsNotABoolean_NamesTheField(value: String) throws {
    let error = #expect(throws: ScrollScriptError.self) {
      try parse(
        #"{"segments": [{"fling": {"velocity": 3000, "bounce": \#(value)}}]}"#)
    }
    #expect(error?.field == "segments[0].fling.bounce")
    #expect(error?.message.hasPrefix("expected true or false, found ") == true)
    #expect(
      error?.description.contains(
        "script.json: segments[0].fling.bounce: expected true or false") == true
    )
  }
}
