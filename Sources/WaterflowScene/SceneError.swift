/// A problem with a scene file, naming the file and the field.
public struct SceneError: Error, CustomStringConvertible, Equatable {
  /// The file that was read.
  public var file: String
  /// The field at fault, as a path like `items[3].height`; empty for the whole file.
  public var field: String
  /// What is wrong.
  public var message: String

  public init(file: String, field: String, message: String) {
    self.file = file
    self.field = field
    self.message = message
  }

  /// The reader's error, as a scene's.
  init(_ error: JSONInputError) {
    self.init(file: error.file, field: error.field, message: error.message)
  }

  public var description: String {
    field.isEmpty ? "\(file): \(message)" : "\(file): \(field): \(message)"
  }
}
