internal import Foundation
public import WaterflowGoldenReport
internal import Synchronization

/// An HTTP request as the review site sees it, whatever server read it.
public struct ReviewRequest: Sendable {
  public var method: String
  /// The path without the query, as sent (still percent-encoded).
  public var path: String
  public var query: [String: String]
  /// Header names in lower case.
  public var headers: [String: String]
  public var body: [UInt8]

  /// Creates a request.
  public init(
    method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
    body: [UInt8] = []
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    self.body = body
  }
}

/// What the review site answers.
public struct ReviewResponse: Sendable {
  public var status: Int
  public var headers: [(name: String, value: String)]
  public var body: [UInt8]

  /// The body as text, for tests and messages.
  public var text: String { String(decoding: body, as: UTF8.self) }
}

/// The review page and its JSON API, as a function from request to response: the server is a
/// thin layer over it, and the rules (token, Host, files, status codes) are tested without one.
///
/// - `GET /?token=T`: the page; it sets the token's cookie (HttpOnly, SameSite=Strict).
/// - `GET /api/goldens`: `{"goldens": [{"name", "status", "verdict", "summary", …}], "groups":
///   [{"cause", "verdict", "names"}], "canUndo"}`.
/// - `POST /api/accept` with `{"names": [...]}`: writes those goldens, as `golden record` does.
/// - `POST /api/undo`: puts back the goldens of the last accept.
/// - `GET /files/KEY`: an image of a failure, from the artifacts folder.
///
/// Every request needs the token (the `X-Waterflow-Token` header or the cookie) and a Host of
/// 127.0.0.1 or localhost at the server's port, so that no other site, and no name rebound to
/// 127.0.0.1, can read or accept goldens. No CORS headers are sent, so browsers keep other
/// origins out of the answers too.
public final class ReviewSite: Sendable {
  /// The random token of this run: 128 bits, in hex.
  public let token: String
  /// The name of the token's cookie.
  public static let cookieName = "waterflow-review"
  /// The header that carries the token.
  public static let tokenHeader = "x-waterflow-token"

  private let review: GoldenReview
  /// The image files the page may load, by key: the failures' artifacts, nothing else.
  private let images: [String: String]
  private let title: String
  private let port = Atomic<Int>(0)

  /// Creates the site of a review.
  ///
  /// - Parameters:
  ///   - review: The failures, and how to accept them.
  ///   - images: The file of each image key the items name.
  ///   - title: What the page's heading says (the manifest, for example).
  ///   - token: The token; a random one by default.
  public init(
    review: GoldenReview, images: [String: String], title: String,
    token: String = ReviewSite.randomToken()
  ) {
    self.review = review
    self.images = images
    self.title = title
    self.token = token
  }

  /// 32 hex digits from the system's random source.
  public static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<2).map { _ in
      let hex = String(generator.next() as UInt64, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }

  /// Tells the site the port it is served on: the Host header must name it.
  public func listening(on port: Int) {
    self.port.store(port, ordering: .releasing)
  }

  /// The address that opens the page: `http://127.0.0.1:PORT/?token=TOKEN`.
  public var address: String {
    "http://127.0.0.1:\(port.load(ordering: .acquiring))/?token=\(token)"
  }

  /// Answers one request.
  public func respond(to request: ReviewRequest) -> ReviewResponse {
    guard hostIsAllowed(request.headers["host"]) else {
      return Self.error(403, "This review answers only at 127.0.0.1:\(port.load(ordering: .acquiring)) or localhost.")
    }
    let method = request.method.uppercased()
    // The page is the one place the token may come in the URL; it then lives in a cookie.
    if request.path == "/" || request.path == "/index.html" {
      guard method == "GET" || method == "HEAD" else { return Self.error(405, "Use GET.") }
      let fromURL = request.query["token"].map(matches) ?? false
      guard fromURL || hasToken(request) else {
        return Self.error(403, "Open the address `waterflow golden review` printed: it carries this run's token.")
      }
      var response = ReviewResponse(
        status: 200, headers: [("Content-Type", "text/html; charset=utf-8")],
        body: Array(ReviewPage.html(title: title).utf8))
      response.headers.append(("Set-Cookie", "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"))
      response.headers += Self.pageHeaders
      return response
    }
    guard hasToken(request) else {
      return Self.error(403, "Missing or wrong token: send the X-Waterflow-Token header, or open the page from the address the review printed.")
    }
    switch (method, request.path) {
    case ("GET", "/api/goldens"), ("HEAD", "/api/goldens"):
      return Self.json(200, goldens())
    case ("POST", "/api/accept"):
      guard request.headers["content-type"]?.lowercased().hasPrefix("application/json") == true else {
        return Self.error(415, "Send the names as JSON (Content-Type: application/json): {\"names\": [\"NAME\", …]}.")
      }
      guard let names = Self.names(in: request.body) else {
        return Self.error(400, "The body must be {\"names\": [\"NAME\", …]}: a JSON object whose \"names\" is a list of golden names.")
      }
      do {
        let accepted = try review.accept(names)
        return Self.json(200, ["accepted": accepted])
      } catch {
        return Self.error(Self.status(of: error), error.message)
      }
    case ("POST", "/api/undo"):
      do {
        let restored = try review.undo()
        return Self.json(200, ["restored": restored])
      } catch {
        return Self.error(Self.status(of: error), error.message)
      }
    case (_, "/api/goldens"), (_, "/api/accept"), (_, "/api/undo"):
      return Self.error(405, "\(method) is not allowed on \(request.path).")
    default:
      break
    }
    if request.path.hasPrefix("/files/"), method == "GET" || method == "HEAD" {
      // Only the keys the items name are served, looked up as given: no path is built from
      // the request, so `..` or an encoded slash finds nothing.
      let key = String(request.path.dropFirst("/files/".count)).removingPercentEncoding ?? ""
      guard let file = images[key], let bytes = FileManager.default.contents(atPath: file) else {
        return Self.error(404, "No image '\(key)' in this review.")
      }
      return ReviewResponse(
        status: 200,
        headers: [("Content-Type", "image/png"), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")],
        body: Array(bytes))
    }
    return Self.error(404, "Nothing at \(request.path).")
  }

  // MARK: - Rules

  /// 127.0.0.1 or localhost at our port: a page of another name that resolves to 127.0.0.1
  /// (DNS rebinding) sends its own name.
  private func hostIsAllowed(_ host: String?) -> Bool {
    guard let host else { return false }
    let port = self.port.load(ordering: .acquiring)
    return host == "127.0.0.1:\(port)" || host.lowercased() == "localhost:\(port)"
  }

  private func hasToken(_ request: ReviewRequest) -> Bool {
    if let header = request.headers[Self.tokenHeader] { return matches(header) }
    for pair in (request.headers["cookie"] ?? "").split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      if parts.count == 2, parts[0] == Self.cookieName { return matches(parts[1]) }
    }
    return false
  }

  /// Compares in time independent of where the strings differ.
  private func matches(_ candidate: String) -> Bool {
    let a = Array(candidate.utf8)
    let b = Array(token.utf8)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in a.indices { difference |= a[i] ^ b[i] }
    return difference == 0
  }

  /// The names of an accept's body, or nil when it is not `{"names": [String, …]}`.
  static func names(in body: [UInt8]) -> [String]? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
      object.count == 1
    else { return nil }
    return object["names"] as? [String]
  }

  private static func status(of error: GoldenReviewError) -> Int {
    switch error.kind {
    case .invalid: 400
    case .conflict: 409
    case .failed: 500
    }
  }

  /// No framing, no sniffing, and nothing loaded from elsewhere: the page works offline, and a
  /// compromised item text could not reach out either.
  static let pageHeaders: [(name: String, value: String)] = [
    ("Cache-Control", "no-store"),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    (
      "Content-Security-Policy",
      "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
  ]

  // MARK: - JSON

  private struct Golden: Encodable {
    var name: String
    var status: String
    var verdict: String
    var summary: String
    var message: String
    var frames: Int
    var frame: Int
    var group: Int
    var images: [String: String]
  }

  private struct Group: Encodable {
    var cause: String
    var verdict: String
    var names: [String]
  }

  private struct Goldens: Encodable {
    var goldens: [Golden]
    var groups: [Group]
    var canUndo: Bool
  }

  private func goldens() -> Goldens {
    let items = review.items
    let accepted = review.accepted
    let groups = review.groups
    var groupOf: [String: Int] = [:]
    for (g, group) in groups.enumerated() { for name in group.names { groupOf[name] = g } }
    func url(_ key: String?) -> String? {
      key.map { "/files/" + ($0.addingPercentEncoding(withAllowedCharacters: Self.pathCharacters) ?? $0) }
    }
    return Goldens(
      goldens: items.map { item in
        var images: [String: String] = [:]
        images["expected"] = url(item.expected)
        images["actual"] = url(item.actual)
        images["diff"] = url(item.diff)
        return Golden(
          name: item.name, status: accepted.contains(item.name) ? "accepted" : item.status,
          verdict: item.cause.verdict, summary: item.cause.summary, message: item.message,
          frames: item.frames, frame: item.frame, group: groupOf[item.name] ?? 0, images: images)
      },
      groups: groups.map { Group(cause: $0.cause.summary, verdict: $0.cause.verdict, names: $0.names) },
      canUndo: review.canUndo)
  }

  private static let pathCharacters: CharacterSet = {
    var set = CharacterSet.urlPathAllowed
    set.remove(charactersIn: "?#%")
    return set
  }()

  private static func json(_ status: Int, _ value: some Encodable) -> ReviewResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let body = (try? encoder.encode(value)).map { Array($0) } ?? Array("{}".utf8)
    return ReviewResponse(
      status: status,
      headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")],
      body: body + [0x0A])
  }

  /// The site's answer to a refused request, `{"error": message}`: also the server's, for
  /// requests it cannot read.
  package static func error(_ status: Int, _ message: String) -> ReviewResponse {
    json(status, ["error": message])
  }
}
