/// A problem with a JSON input, naming the file and the field at fault (`items[3].h`).
public struct JSONInputError: Error, CustomStringConvertible, Hashable, Sendable
{
  /// The file that was read.
  public var file: String
  /// The field at fault, as a path like `items[3].h`; empty for the whole file and for syntax
  /// errors, whose message gives the line and column instead.
  public var field: String
  /// What is wrong.
  public var message: String

  public init(file: String, field: String, message: String) {
    self.file = file
    self.field = field
    self.message = message
  }

  /// `file: field: message`, or `file: message` without a field.
  public var description: String {
    field.isEmpty ? "\(file): \(message)" : "\(file): \(field): \(message)"
  }
}
