import Foundation
import Testing
import WaterflowTestSupport

/// `waterflow golden review` as a user runs it: the address first, CI refused, results folders,
/// a signal in the middle of an accept, and Chromium walking the page with its keys.
@Suite(.serialized) struct GoldenReviewCommandTests {
  /// A running review: its address, and its standard error to read progress from.
  final class Review {
    let process = Process()
    let stderr: FileHandle
    let address: String
    let port: Int
    let token: String
    private var seen = ""

    init(_ arguments: [String], pauseAt point: String? = nil) throws {
      process.executableURL = URL(fileURLWithPath: waterflowBinary)
      process.arguments = ["golden", "review", "--no-open", "--port", "0"] + arguments
      var environment = ProcessInfo.processInfo.environment
      environment["CI"] = nil
      environment["DISPLAY"] = nil
      if let point { environment["WATERFLOW_PAUSE_AT"] = point }
      process.environment = environment
      let out = Pipe()
      let err = Pipe()
      process.standardOutput = out
      process.standardError = err
      stderr = err.fileHandleForReading
      try process.run()
      let first = firstLine(of: out)
      let match = try #require(
        first.wholeMatch(of: #/Review at (http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32}))/#),
        "first line: \(first)")
      address = String(match.output.1)
      port = Int(match.output.2)!
      token = String(match.output.3)
    }

    /// Reads standard error until it has printed `text`.
    func wait(for text: String) throws {
      while !seen.contains(text) {
        let data = stderr.availableData
        try #require(!data.isEmpty, "the review ended before printing \(text): \(seen)")
        seen += String(decoding: data, as: UTF8.self)
      }
    }

    func request(_ method: String, _ path: String, body: String? = nil) throws -> String {
      var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Waterflow-Token: \(token)\r\nConnection: close\r\n"
      if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
      return try sendHTTPRequest(port: port, text + "\r\n" + (body ?? ""))
    }

    /// Sends a signal and waits for the review to end; its status and the rest of its messages.
    func stop(_ signal: Int32) -> (status: Int32, stderr: String) {
      kill(process.processIdentifier, signal)
      let rest = stderr.readDataToEndOfFile()
      process.waitUntilExit()
      return (process.terminationStatus, seen + String(decoding: rest, as: UTF8.self))
    }

    deinit { if process.isRunning { process.terminate() } }
  }

  @Test func underCI_TheReviewRefusesToStart() throws {
    let goldens = try SixGoldens()
    let run = try waterflow(["golden", "review", "--manifest", goldens.manifest, "--no-open"], environment: ["CI": "true"])
    #expect(run.status == 2)
    #expect(run.stderr.contains("Refusing to start the review: CI is set (CI=true)"), "\(run.stderr)")
    #expect(run.stdout.isEmpty)
  }

  @Test func withChanged_UnchangedGoldensAreNotDrawn() throws {
    let goldens = try SixGoldens(failing: false)
    let run = try waterflow(
      ["golden", "review", "--changed", "--manifest", goldens.manifest, "--no-open", "--artifacts", goldens.dir + "/a"],
      environment: ["CI": ""])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.stdout == "All 6 goldens pass: nothing to review.\n")
    #expect(run.stderr.components(separatedBy: "unchanged (inputs identical to the last pass)").count == 7, "\(run.stderr)")
  }

  @Test func withNothingFailing_ThereIsNothingToReview() throws {
    let goldens = try SixGoldens(failing: false)
    let run = try waterflow(["golden", "review", "--manifest", goldens.manifest, "--no-open", "--artifacts", goldens.dir + "/a"], environment: ["CI": ""])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "All 6 goldens pass: nothing to review.\n")
  }

  /// SIGTERM while an accept is writing: the accept finishes (the golden is whole and passes),
  /// no temporary file stays, and the review exits 0 naming what was accepted.
  @Test(arguments: [SIGTERM, SIGINT])
  func aSignalMidAccept_LetsTheAcceptFinish(signal: Int32) throws {
    let goldens = try SixGoldens()
    let before = goldens.pngs()
    let review = try Review(["--manifest", goldens.manifest, "--artifacts", goldens.dir + "/a"], pauseAt: "accept:shop")
    try review.wait(for: "6 failures of 6 goldens in 2 causes")
    let port = review.port
    let post = "POST /api/accept HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Waterflow-Token: \(review.token)\r\nContent-Type: application/json\r\nContent-Length: 19\r\nConnection: close\r\n\r\n{\"names\": [\"shop\"]}"
    // The answer may never come: the review exits once the accept is written.
    let request = Thread { _ = try? sendHTTPRequest(port: port, post) }
    request.start()
    try review.wait(for: "paused at accept:shop")
    let (status, stderr) = review.stop(signal)
    #expect(status == 0, "\(stderr)")
    #expect(stderr.contains("Review stopped: shop accepted."), "\(stderr)")
    let after = goldens.pngs()
    #expect(after["shop"] != before["shop"])
    for name in SixGoldens.names where name != "shop" { #expect(after[name] == before[name], "\(name)") }
    #expect(goldens.temporaries().isEmpty, "\(goldens.temporaries())")
    #expect(try goldens.passing() == ["shop"])
  }

  /// A review of what sharded checks saved: the same failures, accepted through the API.
  @Test func aReviewOfResultsFolders_AcceptsAGroup() throws {
    let goldens = try SixGoldens()
    for part in ["1/2", "2/2"] {
      let check = try waterflow([
        "golden", "check", "--manifest", goldens.manifest, "--shard", part,
        "--artifacts", goldens.dir + "/a\(part.first!)", "--results", goldens.dir + "/r\(part.first!)",
      ])
      #expect(check.status == 1, "\(check.output)")
    }
    let before = goldens.pngs()
    let review = try Review(["--results", goldens.dir + "/r1", "--results", goldens.dir + "/r2"])
    let listed = try review.request("GET", "/api/goldens")
    #expect(listed.hasPrefix("HTTP/1.1 200"), "\(listed)")
    #expect(listed.contains(#"{"cause":"cells moved down 6 pt","names":["grid/at0","grid/at100","grid/at200","grid/at300","grid/at400"],"verdict":"layout"}"#), "\(listed)")
    // The images come from the folders the shards wrote.
    let image = try review.request("GET", "/files/shop.diff.png")
    #expect(image.hasPrefix("HTTP/1.1 200") && image.contains("Content-Type: image/png"), "\(image.prefix(300))")
    let grid = SixGoldens.names.filter { $0.hasPrefix("grid/") }
    let body = #"{"names": ["# + grid.map { "\"\($0)\"" }.joined(separator: ", ") + "]}"
    let accepted = try review.request("POST", "/api/accept", body: body)
    #expect(accepted.hasPrefix("HTTP/1.1 200"), "\(accepted)")
    let (status, stderr) = review.stop(SIGINT)
    #expect(status == 0, "\(stderr)")
    let after = goldens.pngs()
    #expect(after["shop"] == before["shop"])
    #expect(try goldens.passing() == Set(grid))
  }

  /// Chromium opens the page and a user's keys accept one golden, then its group, skip the last
  /// and undo the group: the files on disk follow each step.
  @Test func chromium_WalksThePageWithItsKeys() throws {
    let goldens = try SixGoldens()
    let before = goldens.pngs()
    let review = try Review(["--manifest", goldens.manifest, "--artifacts", goldens.dir + "/a"])
    let script = goldens.dir + "/walk.py"
    try Self.walk.write(toFile: script, atomically: true, encoding: .utf8)
    let screenshot = goldens.dir + "/review.png"
    let walk = try ExternalProgram.pythonSelenium.run([
      script, review.address, try ExternalProgram.chromium.path(), try ExternalProgram.chromedriver.path(), screenshot,
    ])
    #expect(walk.status == 0, "\(walk.output)")
    let steps = walk.stdout.split(separator: "\n").map(String.init)
    #expect(
      steps == [
        "start: 0 of 6 reviewed, current grid/at0",
        "j: current grid/at100",
        "a: 1 of 6 reviewed, grid/at100 accepted, current grid/at200",
        "g: 5 of 6 reviewed, current shop",
        "s: 6 of 6 reviewed",
        "u: 2 of 6 reviewed, grid/at0 failed",
        "views: side slider blink diff",
        "zoom: 400 then 600",
        "?: help shown",
      ], "\(walk.output)")
    let (status, stderr) = review.stop(SIGTERM)
    #expect(status == 0, "\(stderr)")
    #expect(stderr.contains("Review stopped: grid/at100 accepted."), "\(stderr)")
    let after = goldens.pngs()
    #expect(after["grid/at100"] != before["grid/at100"])
    for name in SixGoldens.names where name != "grid/at100" { #expect(after[name] == before[name], "\(name)") }
    #expect(try goldens.passing() == ["grid/at100"])
    #expect(FileManager.default.fileExists(atPath: screenshot))
  }

  /// The walk: selenium with Debian's chromedriver, every wait on what the page shows.
  static let walk = seleniumPrelude + #"""

    def text(css):
        return driver.find_element(By.CSS_SELECTOR, css).text

    def current():
        return driver.find_element(By.CSS_SELECTOR, "nav li.current").get_attribute("data-name")

    def press(key):
        ActionChains(driver).send_keys(key).perform()

    def until(check):
        wait.until(lambda _: check())

    def state(name):
        return driver.find_element(By.CSS_SELECTOR, f'nav li[data-name="{name}"]').get_attribute("class").split()[0]

    try:
        driver.get(address)
        until(lambda: text("#progress") == "0 of 6 reviewed")
        print(f"start: {text('#progress')}, current {current()}")
        press("j"); until(lambda: current() == "grid/at100")
        print(f"j: current {current()}")
        press("a"); until(lambda: text("#progress") == "1 of 6 reviewed" and current() == "grid/at200")
        print(f"a: {text('#progress')}, grid/at100 {state('grid/at100')}, current {current()}")
        press("g"); until(lambda: text("#progress") == "5 of 6 reviewed" and current() == "shop")
        print(f"g: {text('#progress')}, current {current()}")
        press("s"); until(lambda: text("#progress") == "6 of 6 reviewed")
        print(f"s: {text('#progress')}")
        press("u"); until(lambda: text("#progress") == "2 of 6 reviewed")
        print(f"u: {text('#progress')}, grid/at0 {state('grid/at0')}")
        seen = []
        for key in "1234":
            press(key)
            until(lambda: driver.find_element(By.ID, "view").get_attribute("data-view") == ["side", "slider", "blink", "diff"][int(key) - 1])
            seen.append(driver.find_element(By.ID, "view").get_attribute("data-view"))
        print("views: " + " ".join(seen))
        press("1")
        # A 200-pixel golden fits at twice its size; + shows it three times as large.
        width = lambda: driver.find_element(By.CSS_SELECTOR, "#view img").size["width"]
        until(lambda: width() >= 400)
        fit = width()
        press("+"); until(lambda: width() > fit)
        print(f"zoom: {fit} then {width()}")
        press("0")
        press("?"); until(lambda: driver.find_element(By.ID, "help").is_displayed())
        print("?: help shown")
        press("?")
        driver.save_screenshot(screenshot)
    finally:
        driver.quit()
        # chromedriver ignores SIGTERM.
        driver_process.kill()
        browser.terminate()
        browser.wait(30)
        driver_process.wait(30)
    """#
}
