import FileTransactions
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The video formats ffmpeg encodes, chosen by the output's extension.
public enum VideoFormat: String, Hashable, Sendable, CaseIterable {
  case gif, apng, mp4, webm

  /// The highest frame rate a GIF plays as written: 50 fps, a delay of 2/100 s.
  public static let maximumGIFRate = 50.0

  /// The arguments after the input: codec, filters and muxer for this format.
  ///
  /// - Parameter pad: The colour (`0xRRGGBB`) of the pixel row or column that makes odd sides
  ///   even for yuv420p: the canvas background, never ffmpeg's default black.
  func arguments(fps: Double, pad: String = "0xF5F3F3") -> [String] {
    switch self {
    case .gif:
      // ffmpeg's palettegen keeps every frame's histogram until the end of the stream in its
      // default stats_mode=full, so memory grows with the frame count. stats_mode=single emits a
      // palette for each frame at once, and paletteuse new=1 applies each frame's own palette:
      // nothing is buffered, memory stays flat, and colours stay exact (a frame of flat cells has
      // far fewer than 256 colours, so a per-frame palette loses nothing).
      // GIF delays are whole hundredths of a second, and players stretch delays under 2 to 10:
      // above 50 fps, ffmpeg's fps filter drops frames to 50 (2/100 s each), so the file plays
      // for the requested time.
      let rate = fps > Self.maximumGIFRate ? "fps=\(JSONNumber.format(Self.maximumGIFRate))," : ""
      return [
        "-filter_complex",
        "[0:v]\(rate)split[a][b];[a]palettegen=stats_mode=single:reserve_transparent=0[p];[b][p]paletteuse=new=1:dither=none",
        "-loop", "0", "-f", "gif",
      ]
    case .apng:
      return ["-pix_fmt", "rgb24", "-plays", "0", "-f", "apng"]
    case .mp4:
      // yuv420p needs even sides; pad by one pixel of background rather than scaling the frame.
      return [
        "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2:color=\(pad)", "-c:v", "libx264", "-preset",
        "veryfast", "-crf", "18",
        "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4",
      ]
    case .webm:
      return [
        "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2:color=\(pad)", "-c:v", "libvpx-vp9", "-b:v",
        "0", "-crf", "32",
        "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1", "-pix_fmt",
        "yuv420p", "-f", "webm",
      ]
    }
  }
}

extension VideoEncoder {
  /// `0xRRGGBB` for ffmpeg, from the B, G, R, A bytes of one of our pixels.
  static func hexColor(bgra: [UInt8]) -> String {
    func hex(_ b: UInt8) -> String { (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true) }
    return "0x" + hex(bgra[2]) + hex(bgra[1]) + hex(bgra[0])
  }
}

/// A problem running ffmpeg: missing, or failed with its last lines of output.
public struct VideoEncoderError: Error, CustomStringConvertible, Sendable {
  public var description: String
}

/// Pipes raw frames into ffmpeg, which writes a temporary file renamed over the output at the end.
///
/// Frames go to ffmpeg's standard input as raw BGRA (cairo's little-endian ARGB32 byte order), so
/// no image file is ever written; a reader sees either the old output or the whole new one.
final class VideoEncoder {
  let output: String
  private let file: AtomicFile
  private let process: Process
  private let input: Int32
  private let log: LogTail
  private var finished = false

  /// The ffmpeg executable on PATH, or nil.
  static func locate() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
      let candidate = "\(dir)/ffmpeg"
      if FileManager.default.isExecutableFile(atPath: candidate) {
        return candidate
      }
    }
    return nil
  }

  /// The error for a video output when ffmpeg is missing.
  static func missing(for output: String) -> VideoEncoderError {
    VideoEncoderError(
      description:
        "Writing '\(output)' needs ffmpeg, which is not on PATH. Install the Debian package 'ffmpeg' "
        + "(apt-get install ffmpeg), or write PNG frames (-o a folder) or a PDF (-o file.pdf), which need no ffmpeg."
    )
  }

  /// Starts ffmpeg for frames of `width` × `height` pixels at `fps`.
  init(
    output: String, format: VideoFormat, width: Int, height: Int, fps: Double,
    background: [UInt8] = [245, 243, 243, 255]
  ) throws {
    guard let ffmpeg = Self.locate() else { throw Self.missing(for: output) }
    // ffmpeg writes the atomic file's temporary (-y overwrites the empty file made for it): a
    // name the next run can sweep, and one an interruption removes after stopping ffmpeg.
    let file = try AtomicFile(path: output)
    // A dead ffmpeg must make write() fail with EPIPE, not kill us with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ffmpeg)
    process.arguments =
      [
        "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
        "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(width)x\(height)",
        "-framerate", JSONNumber.format(fps), "-i", "pipe:0",
      ]
      + format.arguments(fps: fps, pad: Self.hexColor(bgra: background)) + [file.temporaryPath]
    let stdin = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardError = stderr
    process.standardOutput = FileHandle.nullDevice
    // Read ffmpeg's messages as they come, so a chatty ffmpeg never blocks on a full pipe.
    let log = LogTail()
    stderr.fileHandleForReading.readabilityHandler = { handle in
      let data = handle.availableData
      if !data.isEmpty { log.append(data) }
    }
    do { try ChildProcesses.start(process, writing: output) } catch let error as FileWriteError {
      throw error
    } catch {
      throw VideoEncoderError(
        description: "Cannot start ffmpeg (\(ffmpeg)): \(error)")
    }
    self.output = output
    self.file = file
    self.process = process
    self.log = log
    input = stdin.fileHandleForWriting.fileDescriptor
    stdinHandle = stdin.fileHandleForWriting
    stderrHandle = stderr.fileHandleForReading
  }

  private let stdinHandle: FileHandle
  private let stderrHandle: FileHandle

  /// Writes one frame's pixels (width × height × 4 bytes, BGRA).
  func write(_ pixels: [UInt8]) throws {
    var written = 0
    let failed: Int32? = pixels.withUnsafeBytes { buffer in
      while written < buffer.count {
        // The C library's write(2) (Glibc, Musl or Darwin), not this type's write(_:).
        let n = systemWrite(
          input, buffer.baseAddress! + written, buffer.count - written)
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        written += n
      }
      return nil
    }
    if failed != nil {
      try? stdinHandle.close()
      process.waitUntilExit()
      ChildProcesses.exited(process)
      throw failure()
    }
  }

  /// Closes ffmpeg's input, waits for it, and renames its file over the output.
  func finish() throws {
    finished = true
    try? stdinHandle.close()
    process.waitUntilExit()
    ChildProcesses.exited(process)
    stderrHandle.readabilityHandler = nil
    guard process.terminationStatus == 0 else { throw failure() }
    try file.commit()
  }

  private func failure() -> VideoEncoderError {
    file.discard()
    let text = log.text.trimmingCharacters(in: .whitespacesAndNewlines)
    return VideoEncoderError(
      description:
        "ffmpeg failed writing '\(output)' (exit \(process.terminationStatus))"
        + (text.isEmpty ? "." : ":\n\(text)"))
  }

  deinit {
    if !finished {
      // An abandoned encode (an error elsewhere): stop ffmpeg and leave no temporary file.
      try? stdinHandle.close()
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
      ChildProcesses.exited(process)
      file.discard()
    }
  }
}

/// The last few kilobytes of a stream, kept for error messages.
private final class LogTail: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()

  func append(_ more: Data) {
    lock.lock()
    data.append(more)
    if data.count > 8192 { data = data.suffix(4096) }
    lock.unlock()
  }

  var text: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: data, as: UTF8.self)
  }
}

/// write(2), named apart from `VideoEncoder.write(_:)` so that either C library provides it.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}

extension ChildProcesses {
  /// Starts `process` unless interrupted (see ``ChildProcesses/start(writing:_:)``).
  static func start(_ process: Process, writing output: String) throws {
    try start(writing: output) {
      try process.run()
      return process.processIdentifier
    }
  }

  /// Forgets `process` once it has exited.
  static func exited(_ process: Process) {
    exited(processIdentifier: process.processIdentifier)
  }
}
