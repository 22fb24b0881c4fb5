#if ReviewServer
internal import FlyingFox
internal import FlyingSocks
internal import Foundation
internal import Synchronization

/// Serves a ``ReviewSite`` on 127.0.0.1 with FlyingFox, until the process ends.
///
/// ```swift
/// let server = ReviewServer(site: site)
/// let port = try server.start(port: 0)  // any free port
/// print("Review at \(site.address)")
/// ```
public final class ReviewServer: Sendable {
  /// Whether this build has the server (the `ReviewServer` trait).
  public static let isAvailable = true

  private let site: ReviewSite

  /// Creates a server for a site.
  public init(site: ReviewSite) {
    self.site = site
  }

  /// Starts listening on 127.0.0.1 (`port` 0 takes any free one) and returns the port.
  ///
  /// - Throws: ``ReviewServerError`` when the port cannot be bound.
  public func start(port: Int) throws(ReviewServerError) -> Int {
    let site = self.site
    let address: sockaddr_in
    do { address = try .inet(ip4: "127.0.0.1", port: UInt16(port)) } catch {
      throw ReviewServerError(message: "Cannot listen on 127.0.0.1:\(port): \(error)")
    }
    let http = HTTPServer(address: address, timeout: 60, logger: .disabled, handler: SiteHandler(site: site))
    let started = Started()
    // The task that runs the server keeps it alive for as long as the process.
    Task {
      do { try await http.run() } catch { started.fail(with: "\(error)") }
    }
    Task {
      do {
        try await http.waitUntilListening(timeout: 10)
        if case .ip4(_, let port) = await http.listeningAddress {
          started.succeed(port: Int(port))
        } else {
          started.fail(with: "no address")
        }
      } catch { started.fail(with: "\(error)") }
    }
    switch started.wait() {
    case .success(let port):
      site.listening(on: port)
      return port
    case .failure(let message):
      throw ReviewServerError(
        message: "Cannot listen on 127.0.0.1:\(port): \(message)\(port == 0 ? "" : "; is the port in use? --port 0 takes any free one.")")
    }
  }
}


/// The start's outcome, handed from the server's tasks to the thread that waits for it: the
/// first one settles it.
private final class Started: Sendable {
  enum Outcome { case success(Int), failure(String) }
  private let outcome = Mutex<Outcome?>(nil)
  private let settled = DispatchSemaphore(value: 0)

  func succeed(port: Int) { settle(.success(port)) }
  func fail(with message: String) { settle(.failure(message)) }

  private func settle(_ value: Outcome) {
    let first = outcome.withLock { current in
      guard current == nil else { return false }
      current = value
      return true
    }
    if first { settled.signal() }
  }

  func wait() -> Outcome {
    settled.wait()
    return outcome.withLock { $0! }
  }
}

/// Hands every request to the site: its rules apply to all paths alike.
private struct SiteHandler: HTTPHandler {
  let site: ReviewSite

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    var headers: [String: String] = [:]
    for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
    var query: [String: String] = [:]
    for item in request.query where query[item.name] == nil { query[item.name] = item.value }
    let body = Array(try await request.bodyData)
    let asked = ReviewRequest(
      method: request.method.rawValue, path: request.path, query: query, headers: headers, body: body)
    // Accepting renders and writes files: off the server's own tasks, on queues of the site's
    // own. Not the global queue, whose few threads other work may hold: a page would wait.
    let queue = asked.method.uppercased() == "POST" ? Self.writes : Self.reads
    let answer = await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: site.respond(to: asked)) }
    }
    var out = HTTPHeaders()
    for (name, value) in answer.headers { out.addValue(value, for: HTTPHeader(name)) }
    return HTTPResponse(statusCode: HTTPStatusCode(answer.status, phrase: Self.phrase(answer.status)), headers: out, body: Data(answer.body))
  }

  /// Serial queues get a thread of their own: reads (the page, its list and images) are not held
  /// up behind an accept, which the review serialises anyway.
  static let reads = DispatchQueue(label: "waterflow.review.reads")
  static let writes = DispatchQueue(label: "waterflow.review.writes")

  static func phrase(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 409: "Conflict"
    case 415: "Unsupported Media Type"
    default: "Internal Server Error"
    }
  }
}

#else
/// Without the `ReviewServer` trait this build has no server; `waterflow golden review` says so.
public final class ReviewServer: Sendable {
  /// Whether this build has the server (the `ReviewServer` trait).
  public static let isAvailable = false

  public init(site: ReviewSite) {}

  /// Always fails: the build has no server.
  public func start(port: Int) throws(ReviewServerError) -> Int {
    throw ReviewServerError(message: ReviewServerError.unavailable)
  }
}

#endif

/// A server that could not start.
public struct ReviewServerError: Error, CustomStringConvertible, Sendable {
  public let message: String
  public var description: String { message }

  /// What a build without the `ReviewServer` trait says when asked for the server.
  public static let unavailable =
    "This waterflow was built without the review server: build it with `make release`, or `swift build --traits ReviewServer`."
}
