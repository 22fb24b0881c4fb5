/// A golden check that did not pass, or could not run; the description is the whole message.
///
/// Thrown by `expectGolden(of:at:step:named:…)` (WaterflowGolden)
/// and friends, so that a test fails in both Swift Testing and XCTest. The message names the
/// golden file, the sizes and counts, the artifacts and the command that re-records.
public struct GoldenError: Error, Sendable, CustomStringConvertible {
  /// The kind of failure; more kinds may be added.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let rawValue: String
    /// The rendered image differs from the golden beyond the tolerance.
    public static let mismatch = Code(rawValue: "mismatch")
    /// There is no golden and the record mode (or CI) does not allow recording one.
    public static let missing = Code(rawValue: "missing")
    /// A golden was written; the test fails so that a recording run never passes silently.
    public static let recorded = Code(rawValue: "recorded")
    /// A file could not be read, decoded or written.
    public static let file = Code(rawValue: "file")
    /// A manifest, option or environment variable is invalid.
    public static let configuration = Code(rawValue: "configuration")
    /// The scene could not be rendered.
    public static let render = Code(rawValue: "render")

    /// The code's name, for example `mismatch`.
    public var description: String { rawValue }
  }

  /// What went wrong.
  public let code: Code
  /// The full message.
  public let message: String

  /// Creates an error with its message.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
}
