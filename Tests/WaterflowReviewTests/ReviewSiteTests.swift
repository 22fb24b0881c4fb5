import Foundation
import Testing
import WaterflowGolden
import WaterflowGoldenReport
import WaterflowRender
import WaterflowReview
import WaterflowTestSupport

/// Two goldens recorded, then both scenes changed: a review of the two failures, and its site.
struct ReviewFixture {
  let dir: String
  let review: GoldenReview
  let site: ReviewSite
  static let port = 4321
  var port: Int { Self.port }

  init() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("waterflow-review-\(UUID().uuidString)").path
    self.dir = dir
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let scene = #"{"viewport": {"width": 120, "height": 160, "scale": 1}, "columns": 2, "margins": {"top": TOP}, "items": [{"height": 60, "price": "PRICE"}, {"height": 80}]}"#
    func write(top: Int, price: String) throws {
      try scene.replacingOccurrences(of: "TOP", with: "\(top)").replacingOccurrences(of: "PRICE", with: price)
        .write(toFile: dir + "/a.json", atomically: true, encoding: .utf8)
    }
    try write(top: 0, price: "1.00")
    try FileManager.default.createDirectory(atPath: dir + "/G", withIntermediateDirectories: true)
    try #"{"goldens": [{"name": "one", "scene": "../a.json"}, {"name": "two", "scene": "../a.json", "offset": 10}]}"#
      .write(toFile: dir + "/G/manifest.json", atomically: true, encoding: .utf8)
    let manifest = try GoldenManifest(contentsOf: dir + "/G/manifest.json")
    let renderer = try Renderer()
    let fingerprint = FontStackFingerprint(renderer: renderer)
    let recording = GoldenStore(directory: dir + "/G", configuration: .init(recordMode: .all, artifactsDirectory: dir + "/art"))
    for entry in manifest.entries { _ = try recording.check(entry, renderer: renderer, fingerprint: fingerprint) }
    try write(top: 4, price: "1.00")
    let store = GoldenStore(directory: dir + "/G", configuration: .init(recordMode: .never, artifactsDirectory: dir + "/art"))
    var items: [GoldenReviewItem] = []
    let root = dir + "/art/"
    for entry in manifest.entries {
      let outcome = try store.check(entry, renderer: renderer, fingerprint: fingerprint)
      items += [GoldenReviewItem(outcome, digest: store.digest(of: entry.name)) { String($0.dropFirst(root.count)) }].compactMap(\.self)
    }
    review = GoldenReview(
      items: items, manifest: manifest, store: store, renderer: renderer, fingerprint: fingerprint,
      imageFile: { root + $0 })
    var images: [String: String] = [:]
    for item in items { for key in item.images { images[key] = root + key } }
    site = ReviewSite(review: review, images: images, title: "G/manifest.json", token: String(repeating: "ab", count: 16))
    site.listening(on: Self.port)
  }

  var host: String { "127.0.0.1:\(port)" }

  /// A request with the Host and token a page of this review sends.
  func request(
    _ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]
  ) -> ReviewRequest {
    var all = ["Host": host, "X-Waterflow-Token": site.token]
    if body != nil { all["Content-Type"] = "application/json" }
    all.merge(headers) { _, new in new }
    return ReviewRequest(method: method, path: path, headers: all.filter { !$0.value.isEmpty }, body: Array((body ?? "").utf8))
  }

  func send(_ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]) -> ReviewResponse {
    site.respond(to: request(method, path, body: body, headers: headers))
  }

  func golden(_ name: String) -> Data? { FileManager.default.contents(atPath: dir + "/G/\(name).png") }

  func goldens() -> [String: Data] {
    var all: [String: Data] = [:]
    for name in ["one.png", "one.facts.json", "two.png", "two.facts.json", "fingerprint.json"] {
      all[name] = FileManager.default.contents(atPath: dir + "/G/" + name)
    }
    return all
  }
}

func json(_ response: ReviewResponse) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
}

@Suite struct ReviewSiteTests {
  @Test func thePage_NeedsTheToken_AndSetsItsCookie() throws {
    let f = try ReviewFixture()
    let bare = f.site.respond(to: ReviewRequest(method: "GET", path: "/", headers: ["Host": f.host]))
    #expect(bare.status == 403)
    let page = f.site.respond(
      to: ReviewRequest(method: "GET", path: "/", query: ["token": f.site.token], headers: ["Host": f.host]))
    #expect(page.status == 200)
    let cookie = try #require(page.headers.first { $0.name == "Set-Cookie" }?.value)
    #expect(cookie == "\(ReviewSite.cookieName)=\(f.site.token); Path=/; HttpOnly; SameSite=Strict")
    let policy = try #require(page.headers.first { $0.name == "Content-Security-Policy" }?.value)
    #expect(policy.contains("default-src 'none'") && policy.contains("connect-src 'self'"))
    // Offline: nothing in the page comes from another origin.
    #expect(!page.text.contains("http://") && !page.text.contains("https://") && !page.text.contains("src=\"//"))
    #expect(page.text.contains("G/manifest.json"))
    let wrong = f.site.respond(
      to: ReviewRequest(method: "GET", path: "/", query: ["token": "0" + f.site.token.dropFirst()], headers: ["Host": f.host]))
    #expect(wrong.status == 403)
  }

  @Test(arguments: [
    ["X-Waterflow-Token": ""],
    ["X-Waterflow-Token": "abab"],
    ["X-Waterflow-Token": "", "Cookie": "\(ReviewSite.cookieName)=nope"],
  ])
  func theAPI_WithoutTheRightToken_Is403(headers: [String: String]) throws {
    let f = try ReviewFixture()
    let before = f.goldens()
    #expect(f.send("GET", "/api/goldens", headers: headers).status == 403)
    #expect(f.send("POST", "/api/accept", body: #"{"names": ["one"]}"#, headers: headers).status == 403)
    #expect(f.send("GET", "/files/one.actual.png", headers: headers).status == 403)
    #expect(f.goldens() == before)
  }

  @Test func theTokenCookie_IsEnough() throws {
    let f = try ReviewFixture()
    let response = f.send("GET", "/api/goldens", headers: ["X-Waterflow-Token": "", "Cookie": "theme=dark; \(ReviewSite.cookieName)=\(f.site.token)"])
    #expect(response.status == 200)
  }

  @Test(arguments: ["evil.example:4321", "127.0.0.1:80", "127.0.0.1.nip.io:4321", ""])
  func anotherHost_Is403(host: String) throws {
    let f = try ReviewFixture()
    let response = f.send("GET", "/api/goldens", headers: ["Host": host])
    #expect(response.status == 403)
    #expect(response.text.contains("answers only at 127.0.0.1:4321"))
    #expect(f.send("GET", "/api/goldens", headers: ["Host": "localhost:4321"]).status == 200)
  }

  @Test func noAnswer_CarriesCORSHeaders() throws {
    let f = try ReviewFixture()
    for response in [
      f.send("GET", "/api/goldens", headers: ["Origin": "https://evil.example"]),
      f.send("OPTIONS", "/api/accept", headers: ["Origin": "https://evil.example"]),
      f.send("POST", "/api/accept", body: #"{"names": ["one"]}"#, headers: ["Origin": "https://evil.example"]),
    ] {
      #expect(!response.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
    }
  }

  @Test func goldens_ListsFailuresAndGroups() throws {
    let f = try ReviewFixture()
    let body = try json(f.send("GET", "/api/goldens"))
    let goldens = try #require(body["goldens"] as? [[String: Any]])
    #expect(goldens.map { $0["name"] as? String } == ["one", "two"])
    for golden in goldens {
      #expect(golden["status"] as? String == "failed")
      #expect(golden["verdict"] as? String == "layout")
      #expect((golden["summary"] as? String)?.contains("moved down 4 pt") == true, "\(golden)")
      let images = try #require(golden["images"] as? [String: String])
      #expect(images["diff"] == "/files/\(golden["name"]!).diff.png")
    }
    let groups = try #require(body["groups"] as? [[String: Any]])
    #expect(groups.count == 1)
    #expect(groups[0]["names"] as? [String] == ["one", "two"])
    #expect(groups[0]["verdict"] as? String == "layout")
    #expect((groups[0]["cause"] as? String)?.contains("moved down 4 pt") == true)
    #expect(body["canUndo"] as? Bool == false)
  }

  @Test func accept_WritesExactlyThoseGoldens_AndUndoPutsThemBack() throws {
    let f = try ReviewFixture()
    let before = f.goldens()
    let response = f.send("POST", "/api/accept", body: #"{"names": ["two"]}"#)
    #expect(response.status == 200)
    #expect(try json(response)["accepted"] as? [String] == ["two"])
    let after = f.goldens()
    #expect(after["one.png"] == before["one.png"] && after["one.facts.json"] == before["one.facts.json"])
    #expect(after["two.png"] != before["two.png"] && after["two.facts.json"] != before["two.facts.json"])
    let listed = try json(f.send("GET", "/api/goldens"))
    #expect((listed["goldens"] as? [[String: Any]])?.map { $0["status"] as? String } == ["failed", "accepted"])
    #expect(listed["canUndo"] as? Bool == true)
    let undo = f.send("POST", "/api/undo")
    #expect(undo.status == 200)
    #expect(try json(undo)["restored"] as? [String] == ["two"])
    #expect(f.goldens() == before)
    #expect(f.send("POST", "/api/undo").status == 400)
  }

  @Test(arguments: [
    (#"{"names": ["nope"]}"#, 400, "not a golden of the manifest"),
    (#"{"names": ["../G/one"]}"#, 400, "not a golden of the manifest"),
    (#"{"names": ["one", "/etc/passwd"]}"#, 400, "not a golden of the manifest"),
    (#"{"names": "one"}"#, 400, "must be {\"names\""),
    (#"{"names": [1]}"#, 400, "must be {\"names\""),
    (#"{"names": ["one"], "force": true}"#, 400, "must be {\"names\""),
    (#"["one"]"#, 400, "must be {\"names\""),
    ("names=one", 400, "must be {\"names\""),
    (#"{"names": []}"#, 400, "No names given"),
  ])
  func aBadAccept_Is400_AndWritesNothing(body: String, status: Int, message: String) throws {
    let f = try ReviewFixture()
    let before = f.goldens()
    let response = f.send("POST", "/api/accept", body: body)
    #expect(response.status == status)
    #expect((try json(response)["error"] as? String)?.contains(message) == true, "\(response.text)")
    #expect(f.goldens() == before)
  }

  @Test func anAcceptThatIsNotJSON_Is415() throws {
    let f = try ReviewFixture()
    let response = f.send("POST", "/api/accept", body: #"{"names": ["one"]}"#, headers: ["Content-Type": "application/x-www-form-urlencoded"])
    #expect(response.status == 415)
    #expect(f.send("GET", "/api/accept").status == 405)
  }

  @Test func aGoldenChangedSinceTheCheck_Is409() throws {
    let f = try ReviewFixture()
    try Data("someone else".utf8).write(to: URL(fileURLWithPath: f.dir + "/G/one.png"))
    let before = f.goldens()
    let response = f.send("POST", "/api/accept", body: #"{"names": ["two", "one"]}"#)
    #expect(response.status == 409)
    #expect((try json(response)["error"] as? String)?.contains("'one' changed on disk since the check") == true)
    #expect(f.goldens() == before)
  }

  @Test(arguments: [
    "/files/../G/one.png", "/files/..%2FG%2Fone.png", "/files/%2e%2e/G/one.png", "/files//etc/passwd",
    "/files/" + "one.png", "/files/G/one.png", "/files/one.actual.png/..", "/G/one.png", "/files/",
  ])
  func files_ComeOnlyFromTheReviewsImages(path: String) throws {
    let f = try ReviewFixture()
    let response = f.send("GET", path)
    #expect(response.status == 404, "\(path)")
    #expect(!response.headers.contains { $0.value == "image/png" })
  }

  @Test func anImageOfAFailure_IsServed() throws {
    let f = try ReviewFixture()
    let response = f.send("GET", "/files/one.diff.png")
    #expect(response.status == 200)
    #expect(Data(response.body) == FileManager.default.contents(atPath: f.dir + "/art/one.diff.png"))
    #expect(response.headers.contains { $0 == ("Content-Type", "image/png") })
  }
}

/// The same site over a real socket: the server on 127.0.0.1, a port of its own choosing.
@Suite
struct ReviewServerTests {
  @Test func theServer_AnswersOnLoopback_WithTheSitesRules() throws {
    let f = try ReviewFixture()
    let server = ReviewServer(site: f.site)
    let port = try server.start(port: 0)
    #expect(port > 0)
    #expect(f.site.address == "http://127.0.0.1:\(port)/?token=\(f.site.token)")
    let host = "127.0.0.1:\(port)"
    let listed = try sendHTTPRequest(port: port, "GET /api/goldens HTTP/1.1\r\nHost: \(host)\r\nX-Waterflow-Token: \(f.site.token)\r\nConnection: close\r\n\r\n")
    #expect(listed.hasPrefix("HTTP/1.1 200"), "\(listed)")
    #expect(listed.contains("\"groups\""))
    let rebound = try sendHTTPRequest(port: port, "GET /api/goldens HTTP/1.1\r\nHost: attacker.example:\(port)\r\nX-Waterflow-Token: \(f.site.token)\r\nConnection: close\r\n\r\n")
    #expect(rebound.hasPrefix("HTTP/1.1 403"), "\(rebound)")
    let body = #"{"names": ["one"]}"#
    let accepted = try sendHTTPRequest(
      port: port,
      "POST /api/accept HTTP/1.1\r\nHost: \(host)\r\nX-Waterflow-Token: \(f.site.token)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
    #expect(accepted.hasPrefix("HTTP/1.1 200"), "\(accepted)")
    #expect(f.review.accepted == ["one"])
  }
}
