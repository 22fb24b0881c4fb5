/// Where a value sits in an item's data: `title`, `user.nickname`, `cover.width`, `tags[0]`.
///
/// A path is a field name followed by `.name` steps into objects and `[n]` steps into lists.
/// Data whose own field names hold dots (`"cover.width"`, flattened by a script) keeps working:
/// when the steps find nothing, ``ItemData`` looks the whole path up as one name.
public struct DataPath: Hashable, Sendable, CustomStringConvertible {
  /// One step of a path.
  public enum Step: Hashable, Sendable {
    /// A field of an object.
    case key(String)
    /// An entry of a list, from 0.
    case index(Int)
  }

  /// The path as written.
  public let source: String
  /// The steps, the first always a ``Step/key(_:)``.
  public let steps: [Step]

  /// The field the path starts at: `user` in `user.nickname`.
  public var root: String {
    if case .key(let k) = steps[0] { return k }
    return source
  }

  /// Parses a path; the error says what is wrong and at which character (from 1).
  public static func parse(_ source: String) -> Result<DataPath, DataPathError> {
    // Most paths are names joined by dots: split on the bytes, without a list of characters.
    let utf8 = source.utf8
    if !utf8.isEmpty, !utf8.contains(UInt8(ascii: "[")), !utf8.contains(UInt8(ascii: "]")),
      utf8.first != UInt8(ascii: "."), utf8.last != UInt8(ascii: ".")
    {
      let parts = utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
      if !parts.contains(where: \.isEmpty) {
        return .success(
          DataPath(source: source, steps: parts.map { .key(String(Substring($0))) }))
      }
    }
    var steps: [Step] = []
    var name = ""
    var column = 0
    var chars = Array(source).makeIterator()
    var afterIndex = false
    func failure(_ message: String) -> Result<DataPath, DataPathError> {
      .failure(DataPathError(message: message, column: max(1, column)))
    }
    while let c = chars.next() {
      column += 1
      switch c {
      case ".":
        if name.isEmpty && !afterIndex { return failure("a \".\" with no field name before it") }
        if !name.isEmpty { steps.append(.key(name)) }
        name = ""
        afterIndex = false
      case "[":
        if name.isEmpty && steps.isEmpty { return failure("a \"[\" with no field before it") }
        if !name.isEmpty { steps.append(.key(name)) }
        name = ""
        var digits = ""
        var closed = false
        while let d = chars.next() {
          column += 1
          if d == "]" {
            closed = true
            break
          }
          guard d.isASCII, d.isNumber else {
            return failure("expected a list index such as [0], found \"\(d)\" inside [ ]")
          }
          digits.append(d)
        }
        guard closed else { return failure("\"[\" is not closed") }
        guard let index = Int(digits) else { return failure("\"[]\" gives no index") }
        steps.append(.index(index))
        afterIndex = true
      case "]":
        return failure("\"]\" has no \"[\"")
      default:
        if afterIndex { return failure("expected \".\" or \"[\" after \"]\"") }
        name.append(c)
      }
    }
    if !name.isEmpty {
      steps.append(.key(name))
    } else if !afterIndex {
      return failure(steps.isEmpty ? "names no field" : "ends in \".\" with no field name after it")
    }
    return .success(DataPath(source: source, steps: steps))
  }

  private init(source: String, steps: [Step]) {
    self.source = source
    self.steps = steps
  }

  /// A path of one field name, taken whole (dots and brackets in it are part of the name).
  public init(field name: String) {
    self.init(source: name, steps: [.key(name)])
  }

  /// The path, parsed; one that does not parse is a single field of that name.
  public init(_ source: String) {
    self = (try? Self.parse(source).get()) ?? DataPath(field: source)
  }

  public var description: String { source }
}

/// Why a data path could not be read, and the character (from 1) where it went wrong.
public struct DataPathError: Error, Hashable, Sendable {
  public var message: String
  public var column: Int
}

extension DataPath: ExpressibleByStringLiteral {
  /// A path written in Swift: `"user.nickname"`.
  public init(stringLiteral value: String) { self.init(value) }
}
