public import WaterflowGolden
/// A GitHub Actions workflow command that shows a failure on the pull request's diff.
///
/// GitHub reads `::error file=PATH,title=TITLE::MESSAGE` from a step's output. Its escaping
/// rules: in the message `%`, `\r` and `\n` become `%25`, `%0D`, `%0A`; in a property value `:`
/// and `,` also become `%3A` and `%2C`, since they separate properties.
///
/// ```swift
/// print(GitHubAnnotation(file: "Golden/shop/top.png", title: "shop/top", message: "content changed").line)
/// ```
public struct GitHubAnnotation: Hashable, Sendable {
  /// The file the annotation is attached to, relative to the repository root.
  public var file: String
  /// The annotation's title.
  public var title: String
  /// The one-line (or more) message.
  public var message: String

  /// The environment variable GitHub Actions sets to `true` in every step.
  public static let environmentVariable = "GITHUB_ACTIONS"

  /// Creates an annotation.
  public init(file: String, title: String, message: String) {
    self.file = file
    self.title = title
    self.message = message
  }

  /// True when `GITHUB_ACTIONS` is `true`, as in every GitHub Actions step.
  public static func isEnabled(_ environment: [String: String]) -> Bool {
    environment[environmentVariable] == "true"
  }

  /// The workflow command, one line.
  public var line: String {
    "::error file=\(Self.escapeProperty(file)),title=\(Self.escapeProperty(title))::\(Self.escapeData(message))"
  }

  /// Escapes a message: `%`, carriage return and line feed.
  public static func escapeData(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": out += "%25"
      case "\r": out += "%0D"
      case "\n": out += "%0A"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Escapes a property value: as a message, and `:` and `,` too.
  public static func escapeProperty(_ text: String) -> String {
    var out = ""
    for scalar in escapeData(text).unicodeScalars {
      switch scalar {
      case ":": out += "%3A"
      case ",": out += "%2C"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

extension GoldenSequenceOutcome {
  /// The annotation for a failing golden: its PNG, its name, and the one-line summary.
  public var annotation: GitHubAnnotation {
    GitHubAnnotation(file: annotatedPath, title: name, message: summary)
  }
}
