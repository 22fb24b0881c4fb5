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

/// The error a script gives, or nil when it parses.
private func failure(_ json: String) -> ScrollScriptError? {
  do {
    _ = try parse(json)
    return nil
  } catch let e as ScrollScriptError {
    return e
  } catch {
    Issue.record("unexpected \(error)")
    return nil
  }
}

// MARK: - 0 and 1 are numbers

extension ScrollScriptTests {
  @Test(arguments: [0, 1])
  func zeroAndOne_AreNumbersInEveryNumericField(n: Int) throws {
    let d = Double(n)
    let script = try parse(
      """
      {"fps": 30, "from": \(n), "segments": [
        {"scroll": {"to": \(n), "duration": \(n)}}, {"scroll": {"by": \(n), "frames": 1}},
        {"pause": \(n)}, {"fling": {"velocity": \(n)}}, {"loadMore": \(n)}, {"refresh": \(n)},
        {"loadMore": {"count": \(n)}}, {"refresh": {"count": \(n), "reload": false}},
        {"rotate": {"width": 1, "height": 1, "columns": 1}}, {"jump": \(n)}]}
      """)
    #expect(script.from == d)
    #expect(
      script.segments == [
        .scroll(to: .offset(d), frames: 1 + 29 * n, curve: .easeInOut),
        .scroll(to: .distance(d), frames: 1, curve: .easeInOut),
        .pause(frames: 30 * n), .fling(Deceleration(velocity: d)),
        .loadMore(count: n, reload: true), .refresh(count: n, reload: true),
        .loadMore(count: n, reload: true), .refresh(count: n, reload: false),
        .rotate(Size(width: 1, height: 1), columns: 1), .jump(d),
      ])
    #expect(try parse(#"{"fps": 1, "segments": []}"#).fps == 1)
  }

  @Test(arguments: [
    (#"{"fps": 0, "segments": []}"#, "fps", "must be at least 1, got 0"),
    (
      #"[{"scroll": {"to": 5, "frames": 0}}]"#, "[0].scroll.frames",
      "must be at least 1, got 0"
    ),
    (
      #"[{"rotate": {"width": 0, "height": 1}}]"#, "[0].rotate.width",
      "must be at least 1, got 0"
    ),
    (
      #"[{"rotate": {"width": 1, "height": 0}}]"#, "[0].rotate.height",
      "must be at least 1, got 0"
    ),
    (
      #"[{"rotate": {"width": 1, "height": 1, "columns": 0}}]"#,
      "[0].rotate.columns", "must be at least 1, got 0"
    ),
    (
      #"[{"fling": {"velocity": 1, "rate": 0}}]"#, "[0].fling.rate",
      "expected \"normal\" (0.998), \"fast\" (0.99) or a number between 0 and 1"
    ),
    (
      #"[{"fling": {"velocity": 1, "rate": 1}}]"#, "[0].fling.rate",
      "expected \"normal\" (0.998), \"fast\" (0.99) or a number between 0 and 1"
    ),
    (#"[{"jump": true}]"#, "[0].jump", "expected a number, found a boolean"),
    (
      #"{"from": false, "segments": []}"#, "from",
      "expected a number, found a boolean"
    ),
    (
      #"[{"loadMore": {"count": 1, "reload": 1}}]"#, "[0].loadMore.reload",
      "expected true or false, found a number"
    ),
    (#"[{"pause": "1"}]"#, "[0].pause", #"expected a number, found the string "1""#),
  ])
  func zero_IsRefusedByRange_AndBooleansAreNotNumbers(
    json: String, field: String, says: String
  ) {
    let e = failure(json)
    #expect(e?.field == field, "\(json): \(String(describing: e))")
    #expect(e?.message == says, "\(json): \(String(describing: e))")
  }
}

// MARK: - Bad input

extension ScrollScriptTests {
  @Test(arguments: [
    (
      #"{"segments": [{"scroll": {"to": 5, "duration": 1, "frames": 3}}]}"#, "segments[0].scroll",
      "give one of \"duration\" (seconds), \"frames\" or \"step\" (points)"
    ),
    (
      #"[{"scroll": {"frames": 5}}]"#, "[0].scroll",
      "give one of \"to\" (an offset) or \"by\" (a distance)"
    ),
    (
      #"[{"scroll": {"to": 5, "by": 5, "frames": 5}}]"#, "[0].scroll",
      "give one of \"to\" (an offset) or \"by\" (a distance)"
    ),
    (
      #"[{"scroll": {"to": 5, "frames": 2, "curve": "bouncy"}}]"#,
      "[0].scroll.curve",
      "expected \"linear\" or \"ease-in-out\" (use a fling segment to decelerate)"
    ),
    (
      #"[{"scroll": {"to": 5, "frames": 2, "crve": "linear"}}]"#,
      "[0].scroll.crve",
      "unknown key (expected one of: by, curve, duration, frames, step, to)"
    ),
    (#"[{"fling": {}}]"#, "[0].fling.velocity", "missing"),
    (
      #"[{"wobble": 3}]"#, "[0].wobble",
      "unknown segment (expected scroll, pause, fling, loadMore, refresh, rotate or jump)"
    ),
    (
      #"[{"pause": 1, "jump": 2}]"#, "[0]",
      "a segment has exactly one of: scroll, pause, fling, loadMore, refresh, rotate, jump"
    ),
    (
      #"[{}]"#, "[0]",
      "a segment has exactly one of: scroll, pause, fling, loadMore, refresh, rotate, jump"
    ),
    (#"{"fps": 30}"#, "segments", "expected an array of segments"),
    (
      #"{"fps": 30, "segments": [], "sgements": []}"#, "sgements",
      "unknown key (expected one of: fps, from, segments, steps)"
    ),
    (
      #"3"#, "", "expected an object with \"segments\", or an array of segments"
    ),
    (
      #"[{"jump": 2e9}]"#, "[0].jump",
      "must be at most 1000000000, got 2000000000"
    ),
    (
      "{\"segments\": [\n  {\"pause\": 1},\n  {\"pause\" 1}\n]}", "",
      "invalid JSON at line 3, column 12: expected ':' after the key, found '1'"
    ),
  ])
  func badScripts_NameTheFileAndTheField(
    json: String, field: String, says: String
  ) {
    let e = failure(json)
    #expect(e?.file.hasSuffix("script.json") == true)
    #expect(e?.field == field, "\(json): \(String(describing: e))")
    #expect(e?.message == says, "\(json): \(String(describing: e))")
  }

  @Test func fps_AfterTheSegments_StillTurnsSecondsIntoFrames() throws {
    let script = try parse(#"{"segments": [{"pause": 1}], "fps": 10}"#)
    #expect(script.fps == 10 && script.segments == [.pause(frames: 10)])
  }
}
