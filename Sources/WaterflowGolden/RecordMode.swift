internal import Foundation

/// When a golden check may write the golden file instead of (or after) comparing.
///
/// The names and meanings follow swift-snapshot-testing's `SnapshotTestingConfiguration.Record`.
/// Whatever the mode, nothing is recorded when ``GoldenConfiguration/isCI`` is true.
public enum RecordMode: String, CaseIterable, Hashable, Sendable,
  CustomStringConvertible
{
  /// Never write goldens: a missing golden is a failure. What CI gets, whatever is asked for.
  case never
  /// Record goldens that do not exist yet; compare the others.
  case missing
  /// Record goldens that do not exist or do not match; the check still reports what it replaced.
  case failed
  /// Record every golden without comparing.
  case all

  /// The environment variable that chooses the mode: `WATERFLOW_RECORD=missing`.
  public static let environmentVariable = "WATERFLOW_RECORD"

  /// The mode's name, as accepted by `WATERFLOW_RECORD` and `--record`.
  public var description: String { rawValue }

  /// Reads a mode from its name, or throws a message that quotes the value and lists the names.
  ///
  /// - Parameters:
  ///   - text: The name, for example `"missing"`.
  ///   - source: Where the value came from, for the message, such as `"WATERFLOW_RECORD"`.
  /// - Throws: `GoldenError` with code `.configuration`.
  public init(parsing text: String, from source: String) throws(GoldenError) {
    guard let mode = RecordMode(rawValue: text.lowercased()) else {
      throw GoldenError(
        .configuration,
        "The value '\(text)' is invalid for \(source): use never, missing, failed or all."
      )
    }
    self = mode
  }
}

/// How golden checks run: record mode, CI lock, artifacts folder, diff options and tolerance.
///
/// ```swift
/// var configuration = try GoldenConfiguration.fromEnvironment()
/// configuration.tolerance = .pixels(20)
/// ```
public struct GoldenConfiguration: Sendable {
  /// The record mode asked for; see ``effectiveRecordMode`` for the one that applies.
  public var recordMode: RecordMode
  /// True when running in CI (`CI` is set and not `false` or `0`): then nothing is ever recorded.
  public var isCI: Bool
  /// Where a failing check writes `NAME.expected.png`, `NAME.actual.png` and `NAME.diff.png`.
  public var artifactsDirectory: String
  /// How pixels are compared (pixelmatch options and masks).
  public var diffOptions: ImageDiff.Options
  /// How many differing pixels still pass.
  public var tolerance: DiffTolerance
  /// What a failure message suggests to re-record a golden, given its name.
  public var recordHint: @Sendable (_ name: String) -> String
  /// Whether checking a golden first removes the artifacts an earlier failure of it left. The
  /// review turns it off: a golden it accepts keeps showing what was accepted, and an undo
  /// brings back a failure whose images are still there.
  public var clearsArtifacts = true

  /// The environment variable that overrides the artifacts folder.
  public static let artifactsVariable = "WATERFLOW_GOLDEN_ARTIFACTS"
  /// The default artifacts folder, relative to the package root.
  public static let defaultArtifactsDirectory = ".build/golden-artifacts"

  /// Creates a configuration; the defaults compare with pixelmatch's defaults and no tolerance.
  public init(
    recordMode: RecordMode = .never, isCI: Bool = false,
    artifactsDirectory: String = GoldenConfiguration.defaultArtifactsDirectory,
    diffOptions: ImageDiff.Options = .init(), tolerance: DiffTolerance = .exact,
    recordHint: @escaping @Sendable (_ name: String) -> String = { _ in
      "WATERFLOW_RECORD=failed swift test"
    }
  ) {
    self.recordMode = recordMode
    self.isCI = isCI
    self.artifactsDirectory = artifactsDirectory
    self.diffOptions = diffOptions
    self.tolerance = tolerance
    self.recordHint = recordHint
  }

  /// The mode that applies: ``recordMode``, or `.never` in CI.
  public var effectiveRecordMode: RecordMode { isCI ? .never : recordMode }

  /// Reads `WATERFLOW_RECORD`, `CI` and `WATERFLOW_GOLDEN_ARTIFACTS`.
  ///
  /// - Parameters:
  ///   - environment: The variables, by default the process's.
  ///   - explicitMode: A mode given in code or on the command line; it wins over the variable.
  ///   - defaultMode: The mode when neither is given.
  ///   - packageRoot: Relative artifacts folders are resolved against it, when given.
  /// - Returns: The configuration.
  /// - Throws: `GoldenError` when `WATERFLOW_RECORD` is not a mode name.
  public static func fromEnvironment(
    _ environment: [String: String], explicitMode: RecordMode? = nil,
    defaultMode: RecordMode = .missing, packageRoot: String? = nil
  ) throws(GoldenError) -> GoldenConfiguration {
    var mode = defaultMode
    if let explicitMode {
      mode = explicitMode
    } else if let text = environment[RecordMode.environmentVariable],
      !text.isEmpty
    {
      mode = try RecordMode(parsing: text, from: RecordMode.environmentVariable)
    }
    var artifacts =
      environment[artifactsVariable].flatMap { $0.isEmpty ? nil : $0 }
      ?? defaultArtifactsDirectory
    if let packageRoot, !artifacts.hasPrefix("/") {
      artifacts = packageRoot + "/" + artifacts
    }
    return GoldenConfiguration(
      recordMode: mode, isCI: isCIEnvironment(environment),
      artifactsDirectory: artifacts)
  }

  /// Reads `WATERFLOW_RECORD`, `CI` and `WATERFLOW_GOLDEN_ARTIFACTS` from this process's
  /// environment; see ``fromEnvironment(_:explicitMode:defaultMode:packageRoot:)``.
  public static func fromEnvironment(
    explicitMode: RecordMode? = nil, defaultMode: RecordMode = .missing,
    packageRoot: String? = nil
  ) throws(GoldenError) -> GoldenConfiguration {
    try fromEnvironment(
      ProcessInfo.processInfo.environment, explicitMode: explicitMode,
      defaultMode: defaultMode, packageRoot: packageRoot)
  }

  /// True when `CI` is set to anything but empty, `false` or `0` (GitHub Actions, GitLab and
  /// most others set `CI=true`).
  public static func isCIEnvironment(_ environment: [String: String]) -> Bool {
    guard let value = environment["CI"]?.lowercased() else { return false }
    return !["", "false", "0", "no"].contains(value)
  }
}
