// Why our own HTTP server, on POSIX sockets.
//
// The review served its site with FlyingFox until issue 28 measured what that cost every other
// command: FlyingFox's proxy handler imports FoundationNetworking, so the statically linked
// Foundation pulled in libcurl and, through it, 25 more shared libraries (GnuTLS, Kerberos, LDAP,
// SSH…). Every `waterflow` process loaded 71 libraries instead of 45: `waterflow layout --help`
// took 13.2 ms instead of 7.7, and a 60-frame scroll paid the same 5 ms. A SwiftNIO-based server
// (Hummingbird 2) took 56 s to build from clean here, against FlyingFox's 8. The review needs
// little of HTTP: one user on 127.0.0.1, requests with a Content-Length body, answers with one,
// the connection closed after each; so this is that, a thread per connection, and nothing else.
internal import Foundation

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Serves a ``LocalSite`` (the review, the live preview) on 127.0.0.1, until the process ends (the listening socket is never
/// closed).
///
/// ```swift
/// let server = ReviewServer(site: site)
/// let port = try server.start(port: 0)  // any free port
/// print("Review at \(site.address)")
/// ```
public final class ReviewServer: Sendable {
  private let site: any LocalSite

  /// Creates a server for a site.
  public init(site: any LocalSite) {
    self.site = site
  }

  /// Starts listening on 127.0.0.1 (`port` 0 takes any free one) and returns the port.
  ///
  /// Each connection is answered on a thread of its own, so a page that loads several images
  /// never waits behind an accept, which the review serialises anyway.
  ///
  /// - Throws: ``ReviewServerError`` when the port cannot be bound.
  public func start(port: Int) throws(ReviewServerError) -> Int {
    func failure(_ what: String) -> ReviewServerError {
      let reason = String(cString: strerror(errno))
      return ReviewServerError(
        message: "Cannot listen on 127.0.0.1:\(port): \(what): \(reason)"
          + (port == 0 ? "" : "; is the port in use? --port 0 takes any free one."))
    }
    guard (0...65535).contains(port) else {
      throw ReviewServerError(message: "Cannot listen on 127.0.0.1:\(port): ports are 0…65535.")
    }
    #if canImport(Darwin)
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #else
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #endif
    guard fd >= 0 else { throw failure("socket") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      let error = failure("bind")
      close(fd)
      throw error
    }
    guard listen(fd, 64) == 0 else {
      let error = failure("listen")
      close(fd)
      throw error
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    let chosen = Int(UInt16(bigEndian: address.sin_port))
    site.listening(on: chosen)
    let site = self.site
    let accepting = Thread {
      while true {
        let client = accept(fd, nil, nil)
        // The listener lives as long as the process: a failed accept (a connection reset before
        // it was taken, no file descriptors left for a moment) only skips that connection.
        guard client >= 0 else {
          // Out of descriptors or memory: give the connections being served time to close,
          // rather than spinning on the same failure.
          if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(errno) { usleep(10_000) }
          continue
        }
        let serving = Thread { Self.serve(client, site: site) }
        serving.start()
      }
    }
    accepting.start()
    return chosen
  }

  /// Reads one request from `client`, answers it and closes the connection.
  private static func serve(_ client: Int32, site: any LocalSite) {
    defer { close(client) }
    // A client that stops sending holds only its own thread, and not for long (a long poll
    // answers within 25 s).
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var reader = HTTPRequestReader()
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    var outcome: HTTPRequestReader.Outcome = .needMore
    while case .needMore = outcome {
      let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      outcome = reader.add(buffer[0..<count])
    }
    let response: ReviewResponse
    var method = "GET"
    switch outcome {
    case .request(let request):
      method = request.method
      response = site.respond(to: request)
    case .refused(let refusal):
      response = refusal
    case .needMore:
      return
    }
    write(response, headOnly: method.uppercased() == "HEAD", to: client)
  }

  /// Writes the status line, the headers, a Content-Length and `Connection: close`, then the body.
  private static func write(_ response: ReviewResponse, headOnly: Bool, to client: Int32) {
    var head = "HTTP/1.1 \(response.status) \(phrase(response.status))\r\n"
    for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
    var bytes = Array(head.utf8)
    if !headOnly { bytes += response.body }
    var sent = 0
    while sent < bytes.count {
      // MSG_NOSIGNAL: a browser that closed its end gets no answer; the process gets no SIGPIPE.
      let count = bytes.withUnsafeBytes {
        send(client, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      sent += count
    }
  }

  static func phrase(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 409: "Conflict"
    case 413: "Content Too Large"
    case 415: "Unsupported Media Type"
    case 431: "Request Header Fields Too Large"
    case 501: "Not Implemented"
    default: "Internal Server Error"
    }
  }
}

/// Collects the bytes of one HTTP/1.1 request and reads its line, headers and body.
///
/// It reads what browsers send for the review's requests and refuses, with the site's
/// `{"error"}` answers, what it does not read: a chunked body, a body over 1 MiB, headers over
/// 16 KiB, two Host headers (RFC 9112 asks for a 400), a malformed line.
package struct HTTPRequestReader {
  /// What the bytes so far make.
  package enum Outcome {
    case needMore
    case request(ReviewRequest)
    case refused(ReviewResponse)
  }

  package static let maximumHead = 16 * 1024
  package static let maximumBody = 1 << 20

  private var bytes: [UInt8] = []
  /// Where the search for the head's end goes on: bytes before it were searched already, so a
  /// client sending a byte at a time costs a pass over its bytes, not one per byte.
  private var searched = 0
  /// The request once its head is read, waiting for `bodyLength` bytes of body.
  private var pending: ReviewRequest?
  private var bodyStart = 0
  private var bodyLength = 0

  package init() {}

  /// Adds bytes received; the outcome is final once it is not `needMore`.
  package mutating func add(_ received: some Collection<UInt8>) -> Outcome {
    bytes.append(contentsOf: received)
    if pending == nil {
      guard let end = Self.endOfHead(in: bytes, from: searched) else {
        searched = max(0, bytes.count - 3)
        return bytes.count > Self.maximumHead
          ? .refused(ReviewSite.error(431, "The request's headers are over \(Self.maximumHead) bytes."))
          : .needMore
      }
      switch Self.head(bytes[..<end]) {
      case .failure(let refusal): return .refused(refusal.response)
      case .success(let (request, length)):
        pending = request
        bodyStart = end + 4
        bodyLength = length
      }
    }
    guard bytes.count - bodyStart >= bodyLength, var request = pending else { return .needMore }
    request.body = Array(bytes[bodyStart..<(bodyStart + bodyLength)])
    return .request(request)
  }

  private static func endOfHead(in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for i in start...(bytes.count - 4)
    where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
      return i
    }
    return nil
  }

  private struct Refusal: Error { let response: ReviewResponse }

  /// The request line and headers, and the body's length.
  private static func head(_ bytes: ArraySlice<UInt8>) -> Result<(ReviewRequest, Int), Refusal> {
    func refuse(_ status: Int, _ message: String) -> Result<(ReviewRequest, Int), Refusal> {
      .failure(Refusal(response: ReviewSite.error(status, message)))
    }
    let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
    let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[1].hasPrefix("/"),
      parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0"
    else { return refuse(400, "The request line must be METHOD /PATH HTTP/1.1.") }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
        !line[..<colon].contains(where: { $0 == " " || $0 == "\t" })
      else { return refuse(400, "A header line must be NAME: VALUE.") }
      let name = line[..<colon].lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if headers[name] != nil {
        if name == "host" || name == "content-length" {
          return refuse(400, "The request has two \(name) headers.")
        }
        continue
      }
      headers[name] = value
    }
    if headers["transfer-encoding"] != nil {
      return refuse(501, "Send the body with a Content-Length, not a Transfer-Encoding.")
    }
    var length = 0
    if let text = headers["content-length"] {
      guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), text.utf8.count <= 9,
        let value = Int(text)
      else { return refuse(400, "Content-Length must be a number of bytes.") }
      length = value
    }
    guard length <= maximumBody else {
      return refuse(413, "The body is over \(maximumBody) bytes.")
    }
    let target = parts[1]
    let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var query: [String: String] = [:]
    if path.count == 2 {
      for pair in path[1].split(separator: "&") {
        let item = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = decoded(item[0])
        if query[name] == nil { query[name] = item.count == 2 ? decoded(item[1]) : "" }
      }
    }
    let request = ReviewRequest(
      method: String(parts[0]), path: String(path[0]), query: query, headers: headers)
    return .success((request, length))
  }

  /// A query name or value: `+` is a space, `%XX` a byte; a malformed escape is kept as sent.
  private static func decoded(_ text: Substring) -> String {
    let spaced = text.replacingOccurrences(of: "+", with: " ")
    return spaced.removingPercentEncoding ?? spaced
  }
}

/// A server that could not start.
public struct ReviewServerError: Error, CustomStringConvertible, Sendable {
  public let message: String
  public var description: String { message }
}
