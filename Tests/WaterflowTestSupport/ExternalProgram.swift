import Foundation

/// A program from outside the package that a test starts, and the Debian package that has it.
///
/// Every program a test runs is listed here and installed by the Makefile's `setup` target, so a
/// missing one is a failure that names its package, never a silently skipped check.
public struct ExternalProgram: Sendable, Hashable, CustomStringConvertible {
  /// The command's name, as found on `PATH`.
  public var name: String
  /// The Debian package that installs it.
  public var debianPackage: String
  /// The PyPI packages a Python program imports, which `make setup` installs with pip.
  public var pipPackages: [String]

  public var description: String { name }

  public init(name: String, debianPackage: String, pipPackages: [String] = []) {
    self.name = name
    self.debianPackage = debianPackage
    self.pipPackages = pipPackages
  }

  public static let pdfinfo = ExternalProgram(name: "pdfinfo", debianPackage: "poppler-utils")
  public static let pdftotext = ExternalProgram(name: "pdftotext", debianPackage: "poppler-utils")
  public static let pdftoppm = ExternalProgram(name: "pdftoppm", debianPackage: "poppler-utils")
  public static let pngcheck = ExternalProgram(name: "pngcheck", debianPackage: "pngcheck")
  public static let rsvgConvert = ExternalProgram(name: "rsvg-convert", debianPackage: "librsvg2-bin")
  public static let xmllint = ExternalProgram(name: "xmllint", debianPackage: "libxml2-utils")
  public static let ffmpeg = ExternalProgram(name: "ffmpeg", debianPackage: "ffmpeg")
  public static let ffprobe = ExternalProgram(name: "ffprobe", debianPackage: "ffmpeg")
  public static let chromium = ExternalProgram(name: "chromium", debianPackage: "chromium")
  /// GNU time, for peak memory (`-f %M`); the shell's `time` keyword cannot report it.
  public static let gnuTime = ExternalProgram(name: "time", debianPackage: "time")

  /// Python with junitparser, the JUnit reader CI plugins are built on: it reads our reports back.
  public static let pythonJUnit = ExternalProgram(
    name: "python3", debianPackage: "python3", pipPackages: ["junitparser"])

  /// Python with selenium, which drives Chromium through the review page as a user would.
  public static let pythonSelenium = ExternalProgram(
    name: "python3", debianPackage: "python3", pipPackages: ["selenium"])
  /// The WebDriver server selenium talks to, the one built for Debian's Chromium.
  public static let chromedriver = ExternalProgram(name: "chromedriver", debianPackage: "chromium-driver")

  /// Every program the tests start; the Makefile must install each one's package.
  public static let all: [ExternalProgram] = [
    .pdfinfo, .pdftotext, .pdftoppm, .pngcheck, .rsvgConvert, .xmllint, .ffmpeg, .ffprobe,
    .chromium, .gnuTime, .pythonJUnit, .pythonSelenium, .chromedriver,
  ]

  /// The program's absolute path on `PATH`.
  ///
  /// - Throws: ``MissingProgram``, whose message names the Debian package to install.
  public func path() throws -> String {
    let search = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in search.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw MissingProgram(program: self)
  }

  /// Runs the program and waits for it.
  ///
  /// - Throws: ``MissingProgram`` if it is not installed, or the error that stopped it starting.
  @discardableResult
  public func run(
    _ arguments: [String], environment: [String: String]? = nil,
    in directory: String? = nil
  ) throws -> ProgramRun {
    try runProgram(atPath: path(), arguments, environment: environment, in: directory)
  }
}

/// A test needs a program that is not installed.
public struct MissingProgram: Error, CustomStringConvertible {
  public var program: ExternalProgram

  public var description: String {
    "\(program.name) is not installed: it comes with Debian's \(program.debianPackage) package, "
      + "which `make test` installs (or: apt-get install \(program.debianPackage))"
      + (program.pipPackages.isEmpty
        ? "" : ", with \(program.pipPackages.joined(separator: ", ")) from PyPI (pip install)")
  }
}

/// What one run of a program did.
public struct ProgramRun: Sendable {
  public var status: Int32
  public var stdoutData: Data
  public var stderrData: Data

  public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
  public var stderr: String { String(decoding: stderrData, as: UTF8.self) }
  /// Standard output followed by standard error, for failure messages.
  public var output: String { stdout + stderr }
}

/// Runs the executable at `path` and waits for it, reading both pipes to the end.
public func runProgram(
  atPath path: String, _ arguments: [String], environment: [String: String]? = nil,
  in directory: String? = nil
) throws -> ProgramRun {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  if let environment { process.environment = environment }
  if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  // Read stderr on another thread while this one reads stdout: a child that fills one pipe while
  // we block on the other would never finish.
  let errData = DataBox()
  let group = DispatchGroup()
  DispatchQueue.global().async(group: group) {
    errData.data = err.fileHandleForReading.readDataToEndOfFile()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  process.waitUntilExit()
  return ProgramRun(
    status: process.terminationStatus, stdoutData: outData, stderrData: errData.data)
}

private final class DataBox: @unchecked Sendable {
  var data = Data()
}

/// Writes an image of one colour (`0xRRGGBB`) and a size (`120x90`) with ffmpeg, in the format
/// the file name or `codec` asks for; the photos of photo and image-bomb tests.
///
/// - Throws: ``MissingProgram`` without ffmpeg, or ``ProgramFailed`` when ffmpeg fails.
public func writeFlatImage(
  _ path: String, color hex: String, size: String, codec: [String] = []
) throws {
  let run = try ExternalProgram.ffmpeg.run(
    ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x\(hex):s=\(size)", "-frames:v", "1"]
      + codec + [path])
  guard run.status == 0 else { throw ProgramFailed(program: .ffmpeg, output: run.output) }
}

/// A program that ran and failed, with what it printed.
public struct ProgramFailed: Error, CustomStringConvertible {
  public var program: ExternalProgram
  public var output: String
  public var description: String { "\(program.name) failed: \(output)" }
}
