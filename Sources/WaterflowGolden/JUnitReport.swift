internal import FileTransactions
internal import SystemPackage
internal import Foundation

/// A JUnit XML report, the format CI systems show in their test tab (GitHub Actions' reporters,
/// GitLab, Jenkins, Buildkite): one `<testcase>` per golden, failures with a one-line message
/// and the details and artifact paths in the body.
///
/// No times are written, so the same results always give the same bytes.
///
/// ```swift
/// let xml = JUnitReport(name: "waterflow golden check", cases: outcomes.map(\.junitCase)).xml()
/// ```
public struct JUnitReport: Hashable, Sendable {
  /// One test case.
  public struct Case: Hashable, Sendable, Codable {
    /// The golden's name.
    public var name: String
    /// The group it is shown under: `golden.` and its folder (`golden.reference`).
    public var classname: String
    /// The golden's PNG.
    public var file: String
    /// The failure, or nil when it passed.
    public var failure: Failure?
    /// What a passed case says of itself (`unchanged (inputs identical to the last pass)`),
    /// written as its `system-out`; nil for most.
    public var note: String? = nil

    /// Creates a case.
    public init(name: String, classname: String, file: String, failure: Failure? = nil) {
      self.name = name
      self.classname = classname
      self.file = file
      self.failure = failure
    }
  }

  /// Why a case failed.
  public struct Failure: Hashable, Sendable, Codable {
    /// `missing`, `mismatch`, or the facts' verdict (`layout`, `content`, `reuse`, `drawing`).
    public var type: String
    /// The one-line summary.
    public var message: String
    /// The details and the artifact paths.
    public var body: String

    /// Creates a failure.
    public init(type: String, message: String, body: String) {
      self.type = type
      self.message = message
      self.body = body
    }
  }

  /// The suite's name.
  public var name: String
  /// The cases, in the order they are written.
  public var cases: [Case]

  /// Creates a report.
  public init(name: String, cases: [Case]) {
    self.name = name
    self.cases = cases
  }

  /// The XML document.
  public func xml() -> String {
    let failures = cases.count { $0.failure != nil }
    let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\""
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites name=\"\(Self.escape(name))\" \(counts)>\n"
    out += "  <testsuite name=\"\(Self.escape(name))\" \(counts)>\n"
    for c in cases {
      out +=
        "    <testcase name=\"\(Self.escape(c.name))\" classname=\"\(Self.escape(c.classname))\" file=\"\(Self.escape(c.file))\""
      guard let f = c.failure else {
        if let note = c.note {
          out += ">\n      <system-out>\(Self.escape(note, attribute: false))</system-out>\n    </testcase>\n"
        } else {
          out += "/>\n"
        }
        continue
      }
      out +=
        ">\n      <failure type=\"\(Self.escape(f.type))\" message=\"\(Self.escape(f.message))\">\(Self.escape(f.body, attribute: false))</failure>\n    </testcase>\n"
    }
    out += "  </testsuite>\n</testsuites>\n"
    return out
  }

  /// Writes the XML atomically.
  ///
  /// - Throws: `GoldenError` (`.file`) naming the path when it cannot be written.
  public func write(to path: String) throws(GoldenError) {
    try GoldenStore.writeFile(Array(xml().utf8), to: path)
  }

  /// Escapes text for XML; in attributes line breaks and tabs are kept as character references,
  /// which parsers would otherwise turn into spaces. Characters XML 1.0 forbids become U+FFFD.
  static func escape(_ text: String, attribute: Bool = true) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"" where attribute: out += "&quot;"
      case "\n" where attribute: out += "&#10;"
      case "\r": out += "&#13;"
      case "\t" where attribute: out += "&#9;"
      case "\n", "\t": out.unicodeScalars.append(scalar)
      default:
        let v = scalar.value
        if v < 0x20 || (0xFFFE...0xFFFF).contains(v) {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}

extension GoldenSequenceOutcome {
  /// This golden as a JUnit case: the summary as the failure's message, the details and every
  /// artifact path as its body.
  public var junitCase: JUnitReport.Case {
    let folder = FilePath(name).removingLastComponent().string
    let classname = folder.isEmpty ? "golden" : "golden." + folder.replacingOccurrences(of: "/", with: ".")
    guard isFailure else {
      var passed = JUnitReport.Case(name: name, classname: classname, file: annotatedPath)
      if isUnchanged { passed.note = GoldenOutcome.unchangedPhrase }
      return passed
    }
    let type = explainedFrame?.changes?.verdict.rawValue ?? (isMissingOnly ? "missing" : "mismatch")
    var body = details
    let paths = artifactPaths.filter { !body.contains($0) }
    if !paths.isEmpty { body += "\nartifacts:\n" + paths.map { "  " + $0 }.joined(separator: "\n") }
    return .init(
      name: name, classname: classname, file: annotatedPath,
      failure: .init(type: type, message: summary, body: body))
  }
}

/// The JUnit report `expectGolden` keeps when `WATERFLOW_JUNIT` names a file: every golden
/// checked in this process, sorted by name, rewritten (atomically) after each check.
///
/// ```sh
/// WATERFLOW_JUNIT=.build/goldens.xml swift test
/// ```
public final class GoldenJUnitLog: @unchecked Sendable {
  // `cases` is guarded by `lock`: tests check goldens in parallel.
  private let lock = NSLock()
  private var cases: [String: JUnitReport.Case] = [:]
  /// The file written.
  public let path: String

  /// The environment variable naming the file; a relative path is under the package root.
  public static let environmentVariable = "WATERFLOW_JUNIT"

  /// Creates a log that writes `path`.
  public init(path: String) { self.path = path }

  private static let sharedLock = NSLock()
  nonisolated(unsafe) private static var shared: [String: GoldenJUnitLog] = [:]

  /// The process's log for the file `WATERFLOW_JUNIT` names, or nil when it is unset.
  public static func fromEnvironment(
    _ environment: [String: String], packageRoot: String?
  ) -> GoldenJUnitLog? {
    guard var path = environment[environmentVariable], !path.isEmpty else { return nil }
    if let packageRoot, !path.hasPrefix("/") { path = packageRoot + "/" + path }
    sharedLock.lock()
    defer { sharedLock.unlock() }
    if let log = shared[path] { return log }
    let log = GoldenJUnitLog(path: path)
    shared[path] = log
    return log
  }

  /// Adds (or replaces) a golden's case and rewrites the file.
  ///
  /// - Throws: `GoldenError` (`.file`) when the file cannot be written.
  public func record(_ outcome: GoldenSequenceOutcome) throws(GoldenError) {
    lock.lock()
    defer { lock.unlock() }
    cases[outcome.name] = outcome.junitCase
    let sorted = cases.keys.sorted().map { cases[$0]! }
    try JUnitReport(name: "expectGolden", cases: sorted).write(to: path)
  }
}

extension GoldenTestContext {
  /// Adds an `expectGolden` outcome to the JUnit file `WATERFLOW_JUNIT` names, if it names one.
  func logJUnit(_ outcome: GoldenSequenceOutcome) throws(GoldenError) {
    try GoldenJUnitLog.fromEnvironment(
      ProcessInfo.processInfo.environment, packageRoot: packageRoot(containing: store.directory)
    )?.record(outcome)
  }
}
