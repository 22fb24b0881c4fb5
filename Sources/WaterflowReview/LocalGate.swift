internal import Foundation
internal import Synchronization

/// A site that ``ReviewServer`` serves on 127.0.0.1: the golden review, or the live preview.
public protocol LocalSite: AnyObject, Sendable {
  /// Tells the site the port it is served on.
  func listening(on port: Int)
  /// Answers one request; it may wait (a long poll), since each connection has its own thread.
  func respond(to request: ReviewRequest) -> ReviewResponse
}

/// The rules every page Waterflow serves on 127.0.0.1 keeps, whatever it shows: a random token
/// per run, given once in the page's address and then kept in an HttpOnly cookie, and a Host of
/// 127.0.0.1 or localhost at the server's port, so that no other site, and no name rebound to
/// 127.0.0.1, can read the answers or act on them.
public final class LocalGate: Sendable {
  /// The random token of this run: 128 bits, in hex.
  public let token: String
  /// The name of the token's cookie.
  public let cookieName: String
  /// The command that printed the address, for the refusal of a page opened without the token.
  private let command: String
  /// The header that carries the token.
  public static let tokenHeader = "x-waterflow-token"
  private let port = Atomic<Int>(0)

  /// Creates the gate of a run.
  ///
  /// - Parameters:
  ///   - cookieName: The token's cookie.
  ///   - command: The command whose printed address opens the page (`waterflow golden review`).
  ///   - token: The token; a random one by default.
  public init(cookieName: String, command: String, token: String = LocalGate.randomToken()) {
    self.cookieName = cookieName
    self.command = command
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

  /// Tells the gate the port it is served on: the Host header must name it.
  public func listening(on port: Int) {
    self.port.store(port, ordering: .releasing)
  }

  /// The address that opens the page: `http://127.0.0.1:PORT/?token=TOKEN`.
  public var address: String {
    "http://127.0.0.1:\(port.load(ordering: .acquiring))/?token=\(token)"
  }

  /// Whether a request is for the page itself: the one place the token may come in the URL.
  public static func isPage(_ request: ReviewRequest) -> Bool {
    request.path == "/" || request.path == "/index.html"
  }

  /// The refusal of a request that breaks the rules, or nil when it may be answered.
  public func refusal(of request: ReviewRequest) -> ReviewResponse? {
    guard hostIsAllowed(request.headers["host"]) else {
      return Self.error(403, "This page answers only at 127.0.0.1:\(port.load(ordering: .acquiring)) or localhost.")
    }
    if Self.isPage(request) {
      let method = request.method.uppercased()
      guard method == "GET" || method == "HEAD" else { return Self.error(405, "Use GET.") }
      let fromURL = request.query["token"].map(matches) ?? false
      guard fromURL || hasToken(request) else {
        return Self.error(403, "Open the address `\(command)` printed: it carries this run's token.")
      }
      return nil
    }
    guard hasToken(request) else {
      return Self.error(403, "Missing or wrong token: send the X-Waterflow-Token header, or open the page from the address `\(command)` printed.")
    }
    return nil
  }

  /// The page, with the token's cookie and the headers that keep it to itself.
  public func page(_ html: String) -> ReviewResponse {
    var response = ReviewResponse(
      status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(html.utf8))
    response.headers.append(("Set-Cookie", "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"))
    response.headers += Self.pageHeaders
    return response
  }

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
      if parts.count == 2, parts[0] == cookieName { return matches(parts[1]) }
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

  /// A JSON answer, never cached.
  public static func json(_ status: Int, _ value: some Encodable) -> ReviewResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let body = (try? encoder.encode(value)).map { Array($0) } ?? Array("{}".utf8)
    return ReviewResponse(
      status: status,
      headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")],
      body: body + [0x0A])
  }

  /// A refusal, `{"error": message}`: also the server's, for requests it cannot read.
  public static func error(_ status: Int, _ message: String) -> ReviewResponse {
    json(status, ["error": message])
  }

  /// A PNG, never cached.
  public static func png(_ bytes: [UInt8]) -> ReviewResponse {
    ReviewResponse(
      status: 200,
      headers: [("Content-Type", "image/png"), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")],
      body: bytes)
  }
}
