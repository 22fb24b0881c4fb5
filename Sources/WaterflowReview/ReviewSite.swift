internal import Foundation
public import WaterflowGoldenReport

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
public final class ReviewSite: LocalSite {
  /// The random token of this run: 128 bits, in hex.
  public var token: String { gate.token }
  /// The name of the token's cookie.
  public static let cookieName = "waterflow-review"
  /// The header that carries the token.
  public static let tokenHeader = LocalGate.tokenHeader
  /// The token, the Host rule and the page's headers, shared with the live preview.
  private let gate: LocalGate

  private let review: GoldenReview
  /// The image files the page may load, by key: the failures' artifacts, nothing else.
  private let images: [String: String]
  private let title: String

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
    self.gate = LocalGate(cookieName: Self.cookieName, command: "waterflow golden review", token: token)
  }

  /// 32 hex digits from the system's random source.
  public static func randomToken() -> String { LocalGate.randomToken() }

  /// Tells the site the port it is served on: the Host header must name it.
  public func listening(on port: Int) { gate.listening(on: port) }

  /// The address that opens the page: `http://127.0.0.1:PORT/?token=TOKEN`.
  public var address: String { gate.address }

  /// Answers one request.
  public func respond(to request: ReviewRequest) -> ReviewResponse {
    if let refusal = gate.refusal(of: request) { return refusal }
    if LocalGate.isPage(request) { return gate.page(ReviewPage.html(title: title)) }
    let method = request.method.uppercased()
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
      return LocalGate.png(Array(bytes))
    }
    return Self.error(404, "Nothing at \(request.path).")
  }

  // MARK: - Rules

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
    LocalGate.json(status, value)
  }

  /// The site's answer to a refused request, `{"error": message}`: also the server's, for
  /// requests it cannot read.
  package static func error(_ status: Int, _ message: String) -> ReviewResponse {
    LocalGate.error(status, message)
  }
}
