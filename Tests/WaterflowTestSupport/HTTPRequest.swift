import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Sends one raw HTTP request to 127.0.0.1:`port` on a new connection and returns the answer:
/// raw, so that a test controls every header (a forged Host), which URLSession would not let it.
///
/// Reads until the server closes or the body reaches its Content-Length.
///
/// - Throws: ``HTTPRequestFailed`` when the connection cannot be made or the request sent.
public func sendHTTPRequest(port: Int, _ text: String) throws -> String {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { throw HTTPRequestFailed(message: "socket: errno \(errno)") }
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else { throw HTTPRequestFailed(message: "connect to port \(port): errno \(errno)") }
  let bytes = Array(text.utf8)
  var sent = 0
  while sent < bytes.count {
    let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard n > 0 else { throw HTTPRequestFailed(message: "send: errno \(errno)") }
    sent += n
  }
  var answer: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65536)
  while !isComplete(answer) {
    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if n <= 0 { break }
    answer += buffer[..<n]
  }
  return String(decoding: answer, as: UTF8.self)
}

/// Whether the answer holds its headers and as many body bytes as its Content-Length says: the
/// server may keep the connection open after it.
private func isComplete(_ answer: [UInt8]) -> Bool {
  let separator: [UInt8] = [13, 10, 13, 10]
  guard let end = answer.indices.first(where: { answer[$0...].starts(with: separator) }) else { return false }
  let head = String(decoding: answer[..<end], as: UTF8.self)
  let length = head.split(separator: "\r\n")
    .first { $0.lowercased().hasPrefix("content-length:") }
    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
  return answer.count >= end + 4 + length
}

/// A raw HTTP request that could not be made.
public struct HTTPRequestFailed: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}
