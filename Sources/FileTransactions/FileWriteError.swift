/// A file or folder that could not be written, with a sentence naming it and the reason.
public struct FileWriteError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file or folder the caller asked for.
  public let path: String
  /// A sentence that names the path and what went wrong.
  public let description: String

  /// Creates an error for `path`; `description` is shown as it is.
  public init(path: String, _ description: String) {
    self.path = path
    self.description = description
  }

  /// "Cannot write 'path': reason."
  static func cannotWrite(_ path: String, _ reason: String) -> FileWriteError {
    FileWriteError(path: path, "Cannot write '\(path)': \(reason).")
  }
}
