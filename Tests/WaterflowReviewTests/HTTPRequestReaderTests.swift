import Foundation
import Testing
import WaterflowReview
import WaterflowTestSupport

/// The review server's reading of requests, without a socket.
@Suite struct HTTPRequestReaderTests {
  static let post =
    "POST /api/accept?token=a%2Bb+c&token=second&flag HTTP/1.1\r\nHost: 127.0.0.1:4321\r\nX-Waterflow-Token: T\r\n"
    + "Content-Type: application/json\r\nContent-Length: 18\r\n\r\n{\"names\": [\"one\"]}"

  @Test func aRequest_ReadWhole_OrAByteAtATime_IsTheSame() throws {
    var whole = HTTPRequestReader()
    guard case .request(let request) = whole.add(Array(Self.post.utf8)) else {
      Issue.record("not read whole")
      return
    }
    #expect(request.method == "POST")
    #expect(request.path == "/api/accept")
    #expect(request.query == ["token": "a+b c", "flag": ""], "the first of two values; + is a space")
    #expect(request.headers["host"] == "127.0.0.1:4321")
    #expect(request.headers["x-waterflow-token"] == "T")
    #expect(String(decoding: request.body, as: UTF8.self) == "{\"names\": [\"one\"]}")

    var pieces = HTTPRequestReader()
    var outcome: HTTPRequestReader.Outcome = .needMore
    let bytes = Array(Self.post.utf8)
    for (i, byte) in bytes.enumerated() {
      outcome = pieces.add([byte])
      if case .needMore = outcome { continue }
      #expect(i == bytes.count - 1, "finished before the last byte, at \(i)")
    }
    guard case .request(let again) = outcome else {
      Issue.record("not read a byte at a time")
      return
    }
    #expect(again.body == request.body && again.headers == request.headers && again.query == request.query)
  }

  @Test(arguments: [
    ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2097152\r\n\r\n", 413),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
    ("GET /\r\nHost: a\r\n\r\n", 400),
    ("GET api HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ("GET / HTTP/2\r\nHost: a\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nno colon here\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", 400),
  ])
  func aRequestItCannotRead_IsRefused_WithTheSitesErrorBody(text: String, status: Int) throws {
    var reader = HTTPRequestReader()
    guard case .refused(let response) = reader.add(Array(text.utf8)) else {
      Issue.record("read \(text.debugDescription)")
      return
    }
    #expect(response.status == status, "\(text.debugDescription): \(response.text)")
    #expect(response.text.hasPrefix("{\"error\":"), "\(response.text)")
  }

  @Test func headersThatNeverEnd_AreRefused_OnceOverTheLimit() {
    var reader = HTTPRequestReader()
    var outcome = reader.add(Array("GET / HTTP/1.1\r\n".utf8))
    var sent = 0
    while case .needMore = outcome, sent <= 2 * HTTPRequestReader.maximumHead {
      outcome = reader.add(Array("X-Filler: \(String(repeating: "x", count: 1000))\r\n".utf8))
      sent += 1012
    }
    guard case .refused(let response) = outcome else {
      Issue.record("still reading after \(sent) bytes")
      return
    }
    #expect(response.status == 431)
    #expect(sent <= HTTPRequestReader.maximumHead + 1012)
  }
}

/// The server's own framing, over a real socket.
@Suite struct ReviewServerFramingTests {
  @Test func aHEADRequest_GetsTheHeaders_WithoutTheBody() throws {
    let f = try ReviewFixture()
    let port = try ReviewServer(site: f.site).start(port: 0)
    let get = try sendHTTPRequest(
      port: port, "GET /api/goldens HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Waterflow-Token: \(f.site.token)\r\n\r\n")
    let head = try sendHTTPRequest(
      port: port, "HEAD /api/goldens HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Waterflow-Token: \(f.site.token)\r\n\r\n")
    let getParts = get.components(separatedBy: "\r\n\r\n")
    #expect(get.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(get)")
    #expect(getParts.count == 2 && getParts[1].contains("\"goldens\""))
    #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(head)")
    #expect(head.hasSuffix("\r\n\r\n"), "a HEAD answer has no body: \(head)")
    #expect(head.contains("Content-Length: \(getParts[1].utf8.count)\r\n"), "\(head)")
    #expect(head.contains("Connection: close\r\n"))
  }

  @Test func aRequestItCannotRead_GetsAnAnswer_AndTheSiteIsNotAsked() throws {
    let f = try ReviewFixture()
    let port = try ReviewServer(site: f.site).start(port: 0)
    let body = #"{"names": ["one"]}"#
    let chunked = try sendHTTPRequest(
      port: port,
      "POST /api/accept HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Waterflow-Token: \(f.site.token)\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n\(String(body.utf8.count, radix: 16))\r\n\(body)\r\n0\r\n\r\n")
    #expect(chunked.hasPrefix("HTTP/1.1 501 Not Implemented\r\n"), "\(chunked)")
    #expect(f.review.accepted.isEmpty, "nothing accepted from a body the server did not read")
  }

  @Test func aPortInUse_IsAClearError() throws {
    let f = try ReviewFixture()
    let port = try ReviewServer(site: f.site).start(port: 0)
    #expect {
      _ = try ReviewServer(site: f.site).start(port: port)
    } throws: { error in
      "\(error)".hasPrefix("Cannot listen on 127.0.0.1:\(port): bind: ") && "\(error)".contains("--port 0")
    }
  }
}
