// The one mechanical rewrite that `@objc` code needs to compile on Linux, where there is no
// Objective-C runtime and the compiler refuses `@objc` (the UIKit module's page describes it).
//
// Line-based, not a syntax tree: swift-syntax would make the `waterflow` binary take minutes
// longer to build for every user, for a rewrite whose shapes are few and fixed (attributes,
// `optional` requirements, `?(` calls). A shape it cannot rewrite safely (an `optional var`, a
// `#selector`, `responds(to:)`) is listed for a hand edit and left as it is.

/// A line of a Swift file that the `@objc` rewrite concerns.
public struct ObjCRewriteFinding: Hashable, Sendable, CustomStringConvertible {
  /// The line's number, from 1.
  public var line: Int
  /// What the rewrite does there, or what must be done by hand.
  public var message: String
  /// Whether the rewrite makes the change itself; false for a hand edit.
  public var isFixed: Bool

  /// `12: message`, with `(by hand)` for what the rewrite does not change.
  public var description: String { "\(line): \(message)\(isFixed ? "" : " (by hand)")" }
}

/// A Swift file's `@objc` rewrite: what it finds, line by line, and the rewritten text.
///
/// - `@objc`, `@objc(name)`, `@objcMembers` and `dynamic` are dropped;
/// - `@objc optional func f(…) -> T` becomes `func f(…) -> T?`, with a default returning `nil`
///   (an empty body for a method without a result) in an extension after the protocol;
/// - a call `delegate?.f?(…)` of such a method becomes `delegate?.f(…)`.
///
/// ```swift
/// let rewrite = ObjCRewrite(source: text)
/// for finding in rewrite.findings { print("FeedLayout.swift:\(finding)") }
/// let fixed = rewrite.rewritten
/// ```
public struct ObjCRewrite: Sendable {
  /// What the rewrite found, in line order.
  public private(set) var findings: [ObjCRewriteFinding] = []
  /// The file after the rewrite; the source itself when nothing needed it.
  public private(set) var rewritten: String

  /// Rewrites a file's text.
  ///
  /// - Parameters:
  ///   - source: The Swift file.
  ///   - optionalMethods: Names of `optional` methods declared in other files, whose `?(` calls
  ///     this file rewrites too (see ``optionalMethodNames(in:)``).
  public init(source: String, optionalMethods: Set<String> = []) {
    var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var findings: [ObjCRewriteFinding] = []
    var names = optionalMethods.union(Self.optionalMethodNames(in: source))
    names.remove("")
    // Lines that held nothing but an attribute, removed at the end.
    var emptied: Set<Int> = []
    // The extensions to insert: after which line, and their text.
    var insertions: [(after: Int, text: [String])] = []
    var protocolName: String?
    var protocolAccess = ""
    var protocolDepth = 0
    var defaults: [String] = []
    var depth = 0
    var index = 0
    while index < lines.count {
      var line = lines[index]
      let number = index + 1
      let code = Self.code(of: line)
      if protocolName == nil, let (name, access) = Self.protocolDeclaration(code) {
        protocolName = name
        protocolAccess = access
        protocolDepth = depth
        defaults = []
      }
      // Attributes and modifiers that need the Objective-C runtime.
      for attribute in Self.objcAttributes(in: code) {
        line = Self.removing(attribute, from: line)
        if line.isEmpty { emptied.insert(index) }
        findings.append(ObjCRewriteFinding(line: number, message: "drop \(attribute)", isFixed: true))
      }
      if protocolName != nil, let range = Self.word("optional", in: line) {
        let rest = line[range.upperBound...].drop { $0 == " " }
        if rest.hasPrefix("func ") {
          line.removeSubrange(range.lowerBound..<line.index(range.upperBound, offsetBy: 1))
          // The declaration runs until its parameters close and nothing continues it.
          var end = index
          var text = line
          while !Self.isComplete(text), end + 1 < lines.count {
            end += 1
            text += "\n" + lines[end]
          }
          lines[index] = line
          let name = Self.functionName(text)
          let (declaration, body) = Self.optionalResult(text)
          let declared = declaration.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
          for (offset, part) in declared.enumerated() { lines[index + offset] = part }
          let indent = Self.indentation(of: declared[0])
          let access = protocolAccess.isEmpty ? "" : protocolAccess + " "
          for (offset, part) in declared.enumerated() {
            let trimmed = part.hasPrefix(indent) ? String(part.dropFirst(indent.count)) : part
            let text = (offset == 0 ? access : "") + trimmed
            defaults.append("  " + text + (offset == declared.count - 1 ? " " + body : ""))
          }
          findings.append(
            ObjCRewriteFinding(
              line: number,
              message: "optional func \(name): a requirement returning an optional, with a default in an extension",
              isFixed: true))
          depth += Self.braceBalance(Self.code(of: text))
          index = end + 1
          continue
        } else {
          findings.append(
            ObjCRewriteFinding(
              line: number,
              message: "an optional property: make it a requirement with a default in an extension",
              isFixed: false))
        }
      }
      // Calls of optional methods: `.f?(` becomes `.f(`.
      for name in names.sorted() {
        let call = "." + name + "?("
        if line.contains(call) {
          line = line.replacing(call, with: "." + name + "(")
          findings.append(ObjCRewriteFinding(line: number, message: "call \(name)(…) without `?`", isFixed: true))
        }
      }
      for runtimeOnly in ["#selector(", "responds(to:", "perform(#selector"] where code.contains(runtimeOnly) {
        findings.append(
          ObjCRewriteFinding(
            line: number, message: "\(runtimeOnly.prefix { $0 != "(" }) needs the Objective-C runtime",
            isFixed: false))
        break
      }
      lines[index] = line
      depth += Self.braceBalance(code)
      if let name = protocolName, depth <= protocolDepth, code.contains("}") {
        if !defaults.isEmpty {
          insertions.append(
            (after: index, text: [""] + ["extension \(name) {"] + defaults + ["}"]))
        }
        protocolName = nil
      }
      index += 1
    }
    // Emptied lines are removed first, so the insertions' places are counted without them.
    for index in emptied.sorted(by: >) {
      lines.remove(at: index)
      for i in insertions.indices where insertions[i].after > index { insertions[i].after -= 1 }
    }
    for insertion in insertions.reversed() {
      lines.insert(contentsOf: insertion.text, at: insertion.after + 1)
    }
    self.findings = findings
    self.rewritten = findings.contains(where: \.isFixed) ? lines.joined(separator: "\n") : source
  }

  /// The names of the methods a file declares `optional` in its protocols: the calls other files
  /// make of them (`delegate?.f?(…)`) need the rewrite too.
  ///
  /// - Complexity: O(*n*) in the length of the source.
  public static func optionalMethodNames(in source: String) -> Set<String> {
    var names: Set<String> = []
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    for line in lines {
      let code = Self.code(of: String(line))
      guard let range = word("optional", in: code) else { continue }
      let rest = code[range.upperBound...].drop { $0 == " " }
      guard rest.hasPrefix("func ") else { continue }
      names.insert(functionName(String(rest)))
    }
    return names
  }

  // MARK: - Lines

  /// The line without a `//` comment or the contents of string literals, for looking at code.
  static func code(of line: String) -> String {
    var result = ""
    var inString = false
    var previous: Character = " "
    for character in line {
      if inString {
        if character == "\"" && previous != "\\" { inString = false; result.append("\"") }
      } else if character == "\"" {
        inString = true
        result.append("\"")
      } else if character == "/" && previous == "/" {
        result.removeLast()
        break
      } else {
        result.append(character)
      }
      previous = character
    }
    return result
  }

  /// `{` minus `}` in code.
  static func braceBalance(_ code: String) -> Int {
    code.reduce(0) { $0 + ($1 == "{" ? 1 : $1 == "}" ? -1 : 0) }
  }

  /// The leading spaces and tabs of a line.
  static func indentation(of line: String) -> String {
    String(line.prefix { $0 == " " || $0 == "\t" })
  }

  /// The range of `word` standing alone (not part of a longer identifier), if the code has it.
  static func word(_ word: String, in line: String) -> Range<String.Index>? {
    var start = line.startIndex
    while let range = line[start...].firstRange(of: word) {
      let before = range.lowerBound == line.startIndex ? " " : line[line.index(before: range.lowerBound)]
      let after = range.upperBound == line.endIndex ? " " : line[range.upperBound]
      if !isIdentifier(before) && !isIdentifier(after) && before != "@" && before != "." { return range }
      start = range.upperBound
    }
    return nil
  }

  static func isIdentifier(_ character: Character) -> Bool {
    character == "_" || character.isLetter || character.isNumber
  }

  /// The name and access level of a protocol declared on this line.
  static func protocolDeclaration(_ code: String) -> (name: String, access: String)? {
    guard let range = word("protocol", in: code) else { return nil }
    let before = code[..<range.lowerBound].split(separator: " ").filter { !$0.hasPrefix("@") }
    let access = before.first { ["public", "open", "package", "internal", "fileprivate", "private"].contains($0) }
    let name = code[range.upperBound...].drop { $0 == " " }.prefix(while: isIdentifier)
    guard !name.isEmpty else { return nil }
    return (String(name), access.map { $0 == "open" ? "public" : String($0) } ?? "")
  }

  /// The `@objc`-only attributes and modifiers of a line of code, as written.
  static func objcAttributes(in code: String) -> [String] {
    var found: [String] = []
    var rest = Substring(code)
    while let range = rest.firstRange(of: "@objc") {
      var end = range.upperBound
      if rest[end...].hasPrefix("Members") {
        end = rest.index(end, offsetBy: 7)
      } else if end < rest.endIndex, rest[end] == "(", let close = rest[end...].firstIndex(of: ")") {
        end = rest.index(after: close)
      } else if end < rest.endIndex, isIdentifier(rest[end]) {
        rest = rest[end...]
        continue
      }
      found.append(String(rest[range.lowerBound..<end]))
      rest = rest[end...]
    }
    if let range = word("dynamic", in: code) {
      let next = code[range.upperBound...].drop { $0 == " " }
      if ["var", "func", "let", "override", "public", "private", "internal", "open", "final", "@"].contains(where: {
        next.hasPrefix($0)
      }) {
        found.append("dynamic")
      }
    }
    return found
  }

  /// The line without one attribute and the space after it.
  static func removing(_ attribute: String, from line: String) -> String {
    guard let range = attribute == "dynamic" ? word("dynamic", in: line) : line.firstRange(of: attribute) else {
      return line
    }
    var end = range.upperBound
    while end < line.endIndex, line[end] == " " { end = line.index(after: end) }
    var result = line
    result.removeSubrange(range.lowerBound..<end)
    // An attribute alone on its line leaves the line empty: drop the spaces too.
    return result.allSatisfy { $0 == " " || $0 == "\t" } ? "" : result
  }

  // MARK: - Declarations

  /// Whether a declaration's text is whole: its parentheses closed, and its last line not one
  /// that continues (`,`, `(`, `->`).
  static func isComplete(_ text: String) -> Bool {
    let code = text.split(separator: "\n").map { Self.code(of: String($0)) }.joined(separator: " ")
    var balance = 0
    var opened = false
    for character in code {
      if character == "(" { balance += 1; opened = true }
      if character == ")" { balance -= 1 }
    }
    let trimmed = code.reversed().drop { $0 == " " }
    let last = String(trimmed.prefix(2).reversed())
    return opened && balance == 0 && !last.hasSuffix(",") && !last.hasSuffix("(") && last != "->"
  }

  /// The function's base name: `collectionView` of `func collectionView(_:…)`.
  static func functionName(_ text: String) -> String {
    guard let range = text.firstRange(of: "func ") else { return "" }
    return String(text[range.upperBound...].drop { $0 == " " }.prefix(while: isIdentifier))
  }

  /// The declaration with its result made optional, and the default's body.
  static func optionalResult(_ text: String) -> (declaration: String, body: String) {
    // The arrow after the parameters' closing parenthesis, at depth 0.
    var depth = 0
    var closed = false
    var arrow: String.Index?
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character == "(" { depth += 1 }
      if character == ")" {
        depth -= 1
        if depth == 0 { closed = true }
      }
      if closed, depth == 0, character == "-", text[index...].hasPrefix("->") {
        arrow = index
        break
      }
      index = text.index(after: index)
    }
    guard let arrow else { return (text, "{}") }
    let resultStart = text.index(arrow, offsetBy: 2)
    var result = String(text[resultStart...])
    // A `where` clause or a trailing comment stays after the type.
    var tail = ""
    for marker in [" where ", "//"] {
      if let range = result.firstRange(of: marker) {
        tail = String(result[range.lowerBound...]) + tail
        result = String(result[..<range.lowerBound])
      }
    }
    let trailing = String(result.reversed().prefix { $0 == " " || $0 == "\n" }.reversed())
    let type = result.trimmingSpaces
    if type == "Void" || type == "()" { return (text, "{}") }
    let optional: String
    if type.hasSuffix("?") {
      optional = type
    } else if type.contains("->") || type.contains("&") || type.hasPrefix("some ") || type.hasPrefix("any ") {
      optional = "(" + type.replacing("some ", with: "any ") + ")?"
    } else {
      optional = type + "?"
    }
    let leading = String(result.prefix { $0 == " " })
    return (String(text[..<resultStart]) + leading + optional + trailing + tail, "{ nil }")
  }
}

extension String {
  /// The string without leading and trailing spaces and newlines.
  var trimmingSpaces: String {
    String(drop { $0 == " " || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\n" }.reversed())
  }

}
