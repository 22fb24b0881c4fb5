/// An item's data: named values, read by templates through `{field}` texts, data paths and
/// conditions.
public struct ItemData: Hashable, Sendable {
  /// The top-level fields, in the order the data gave them (by name when given as a
  /// dictionary). An object rather than a dictionary: a row of a feed has a handful of fields,
  /// and a dictionary's table for them is most of what a large feed's rows weigh.
  public var object: DataObject

  /// The top-level fields, by name.
  public var values: [String: DataValue] {
    get { Dictionary(object.fields.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }) }
    set { object = DataObject(newValue.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) }
  }

  /// The data without spare room in its lists of fields (see `DataObject.trimmed()`).
  public func trimmed() -> ItemData {
    var copy = self
    copy.object = object.trimmed()
    return copy
  }

  /// A top-level field's value, or nil; setting nil removes the field.
  ///
  /// - Complexity: O(number of fields).
  public subscript(field name: String) -> DataValue? {
    get { object[name] }
    set { object[name] = newValue }
  }
  /// The folder that image paths in the data are relative to (the folder of the file that gave
  /// the data); empty for the current folder.
  public var folder: String
  /// The entry a `foreach` is drawing, read as `{item}` and `{item.name}` ahead of any field
  /// named `item`. Kept apart from ``values`` so that each entry costs no copy of the fields.
  public var item: DataValue?

  /// Data of named texts, with image paths relative to `folder`.
  public init(_ fields: [String: String] = [:], folder: String = "") {
    object = DataObject(fields.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
    self.folder = folder
  }

  /// Data of named values, nested as an API gives them.
  public init(values: [String: DataValue], folder: String = "") {
    object = DataObject(values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    self.folder = folder
  }

  /// The value at a path, or nil: step by step, then, when that finds nothing, the whole path
  /// as one field name (flattened data names fields `cover.width`).
  ///
  /// - Complexity: O(length of the path), plus O(fields) per object stepped into.
  public subscript(path: DataPath) -> DataValue? {
    if let item, path.root == "item" { return Self.walk(item, path.steps.dropFirst()) }
    guard path.steps.count > 1 else { return object[path.source] }
    // Stepping first: one lookup for nested data, the common case; a second only for names
    // with dots in them.
    if let value = object[path.root], let found = Self.walk(value, path.steps.dropFirst()) {
      return found
    }
    return object[path.source]
  }

  private static func walk(_ start: DataValue, _ steps: ArraySlice<DataPath.Step>) -> DataValue? {
    var value = start
    for step in steps {
      guard let next = value[step] else { return nil }
      value = next
    }
    return value
  }

  /// The text of the value at a path (`title`, `user.nickname`), or nil when there is none or
  /// the value is null, a list or an object. Setting it sets a top-level field.
  public subscript(name: String) -> String? {
    // A name that is a field as it stands is found without parsing it as a path.
    get { item == nil ? (object[name] ?? self[DataPath(name)])?.text : self[DataPath(name)]?.text }
    set { object[name] = newValue.map(DataValue.string) }
  }

  /// Every value that has a text, with its path, sorted by path: how facts and messages list
  /// the data.
  public var sortedFields: [(name: String, value: String)] {
    object.fields.flatMap { $0.value.leaves(prefix: $0.key) }
      .compactMap { leaf in leaf.value.text.map { (leaf.path, $0) } }
      .sorted { $0.0 < $1.0 }
  }

  /// The texts of ``sortedFields`` by path.
  public var fields: [String: String] {
    Dictionary(sortedFields.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
  }

  /// Every path the data has, objects and lists included: what "did you mean" chooses from.
  public var paths: [String] {
    var all: [String] = []
    func walk(_ value: DataValue, _ path: String) {
      all.append(path)
      switch value {
      case .object(let o): for f in o.fields { walk(f.value, path + "." + f.key) }
      case .array(let a): for (i, v) in a.enumerated() { walk(v, "\(path)[\(i)]") }
      default: break
      }
    }
    for f in object.fields { walk(f.value, f.key) }
    return all.sorted()
  }

  /// Replaces texts anywhere in the data (nested ones too) by what `transform` returns for them;
  /// nil keeps a text. `transform` gets each text's path (`user.nickname`) and the text.
  ///
  /// - Complexity: O(size of the data).
  public mutating func replaceTexts<E: Error>(
    _ transform: (_ path: String, _ text: String) throws(E) -> String?
  ) throws(E) {
    func walk(_ value: inout DataValue, _ path: String) throws(E) {
      switch value {
      case .string(let text):
        if let new = try transform(path, text) { value = .string(new) }
      case .array(var entries):
        for i in entries.indices { try walk(&entries[i], "\(path)[\(i)]") }
        value = .array(entries)
      case .object(var o):
        for k in o.keys {
          var v = o[k]!
          try walk(&v, path + "." + k)
          o[k] = v
        }
        value = .object(o)
      default: break
      }
    }
    for k in object.keys.sorted() {
      var v = object[k]!
      try walk(&v, k)
      object[k] = v
    }
  }

  /// Whether the data has no fields.
  public var isEmpty: Bool { object.count == 0 }

  /// A field's value as a number: `1080`, `1,080` or ` 1080 `; nil when it is missing or not a
  /// number.
  ///
  /// - Complexity: O(length of the value).
  public func number(_ name: String) -> Double? {
    (object[name] ?? self[DataPath(name)])?.number
  }

  /// A path from the data made usable: absolute paths and URLs as they are, others relative to
  /// ``folder``.
  public func resolvePath(_ path: String) -> String {
    if path.hasPrefix("/") || path.contains("://") || folder.isEmpty { return path }
    return folder.hasSuffix("/") ? folder + path : folder + "/" + path
  }
}
