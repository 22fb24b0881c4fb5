import CSV
import Foundation
internal import WaterflowInputs
public import WaterflowData
public import WaterflowJSON

/// The rows of a data file, read into item data: CSV (a header row names the fields), JSON lines
/// (one object per line), or a JSON file whose array of objects sits at a path (`data.items`),
/// as a feed API returns it. Each row keeps where it came from, for messages.
public struct DataFile: Sendable {
  /// The rows, in order, packed: a large feed's rows weigh about half its file, not three times
  /// it, and each is unpacked when it is read.
  public var rows: DataRows
  /// Where each row is in the file: its line, CSV row or array index.
  public var places: DataFileRows

  /// Reads a data file; `jsonPath` (empty for an array at the top) makes it a JSON file of an
  /// array of items rather than JSON lines.
  ///
  /// - Parameters:
  ///   - path: The data file.
  ///   - jsonPath: Where a JSON file's array of items is (`data.items`); nil for JSON lines or CSV.
  ///   - folder: The folder image paths in the rows are relative to.
  ///   - limit: The most rows taken; more is an error.
  ///   - options: How the JSON is read (the scene's own options).
  ///   - r: The reader at the import, whose place names a file that cannot be read.
  /// - Throws: `JSONInputError` naming the file and the row's line, row or path.
  public init(
    contentsOf path: String, jsonPath: String? = nil, folder: String, limit: Int,
    options: JSONReader.Options = [], importedAt r: JSONReader
  ) throws(JSONInputError) {
    InputRecorder.note(path)
    var lines: [Int32] = []
    let isCSV = path.lowercased().hasSuffix(".csv")
    if jsonPath == nil, !isCSV {
      // JSON lines are read a chunk at a time: the file's bytes are never all in memory beside
      // the rows they become.
      guard let handle = FileHandle(forReadingAtPath: path) else { throw Self.unreadable(path, r) }
      defer { try? handle.close() }
      rows = try Self.readJSONLines(
        handle, path: path, folder: folder, limit: limit, options: options, lines: &lines)
      places = DataFileRows(range: 0..<rows.count, file: path, isCSV: false, lines: lines)
      return
    }
    if let jsonPath {
      // Read straight into the document's buffer: the file is in memory once, not twice.
      let document: JSONDocument
      do { document = try JSONDocument(contentsOf: path) } catch { throw Self.unreadable(path, r) }
      rows = try Self.readJSONArray(
        document, path: path, at: jsonPath, folder: folder, limit: limit, options: options,
        lines: &lines)
    } else {
      guard let contents = FileManager.default.contents(atPath: path) else {
        throw Self.unreadable(path, r)
      }
      guard let text = String(data: contents, encoding: .utf8) else {
        throw JSONInputError(file: path, field: "", message: "not UTF-8 text")
      }
      rows = try Self.readCSV(text, path: path, folder: folder, limit: limit, lines: &lines)
    }
    places = DataFileRows(
      range: 0..<rows.count, file: path, isCSV: isCSV && jsonPath == nil, lines: lines,
      jsonPath: jsonPath)
  }
}

extension DataFile {
  /// The error for a data file that cannot be opened, at the import that names it.
  private static func unreadable(_ path: String, _ r: JSONReader) -> JSONInputError {
    let reason = FileManager.default.fileExists(atPath: path) ? "is not readable" : "does not exist"
    return r.fail(key: "import", "the data file \(path) \(reason)")
  }

  /// An item's `data`: an object of values as an API gives them (texts, numbers kept as
  /// written, booleans, lists and objects). A null field is a field left out.
  public static func readItemData(_ r: inout JSONReader, folder: String) throws(JSONInputError)
    -> ItemData
  {
    try readItemData(&r, folder: folder, trimming: true)
  }

  /// `trimming`: drop the room lists grew into, for data kept for the whole run (a scene's
  /// items); a data file's rows are packed as soon as they are read, so they skip the copies.
  private static func readItemData(_ r: inout JSONReader, folder: String, trimming: Bool)
    throws(JSONInputError) -> ItemData
  {
    var data = ItemData(folder: folder)
    try r.beginObject()
    while let name = try r.nextName() {
      if data[field: name] != nil { throw r.fail("given twice") }
      let value = try readDataValue(&r, depth: 1, trimming: trimming)
      if value != .null { data[field: name] = value }
    }
    return trimming ? data.trimmed() : data
  }

  /// Nesting deeper than this is refused: no API nests so deep, and a recursive reader must not
  /// overflow its stack on a hostile file.
  static let maximumDataDepth = 64

  private static func readDataValue(_ r: inout JSONReader, depth: Int, trimming: Bool)
    throws(JSONInputError) -> DataValue
  {
    switch try r.peek() {
    case .string: return .string(try r.string())
    case .number: return .number(try r.string())
    case .bool: return .bool(try r.bool())
    case .null:
      try r.skipValue()
      return .null
    case .array:
      guard depth < maximumDataDepth else { throw r.fail("nested more than \(maximumDataDepth) deep") }
      var entries: [DataValue] = []
      try r.beginArray()
      while try r.nextElement() { entries.append(try readDataValue(&r, depth: depth + 1, trimming: trimming)) }
      return .array(trimming ? entries.withUnsafeBufferPointer { Array($0) } : entries)
    case .object:
      guard depth < maximumDataDepth else { throw r.fail("nested more than \(maximumDataDepth) deep") }
      var object = DataObject()
      try r.beginObject()
      while let name = try r.nextName() {
        if object[name] != nil { throw r.fail("given twice") }
        object[name] = try readDataValue(&r, depth: depth + 1, trimming: trimming)
      }
      return .object(trimming ? object.trimmed() : object)
    }
  }

  /// The objects of the array at `at` in a JSON file (`data.items`: keys of objects, from the
  /// top), each row's index kept for messages (`feed.json: data.items[5]`).
  private static func readJSONArray(
    _ document: JSONDocument, path: String, at jsonPath: String, folder: String, limit: Int,
    options: JSONReader.Options, lines: inout [Int32]
  ) throws(JSONInputError) -> DataRows {
    let steps = jsonPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    if !jsonPath.isEmpty, steps.contains(where: \.isEmpty) {
      throw JSONInputError(
        file: path, field: "", message: "the path \"\(jsonPath)\" has an empty step: write keys joined by dots, as \"data.items\"")
    }
    return try document.read(options: options) { (r: inout JSONReader) throws(JSONInputError) in
      var walked: [String] = []
      for step in jsonPath.isEmpty ? [] : steps {
        guard try r.peek() == .object else {
          let at = walked.isEmpty ? "the top" : walked.joined(separator: ".")
          throw JSONInputError(
            file: path, field: walked.joined(separator: "."),
            message: "expected an object holding \"\(step)\" at \(at) (the import's path is \"\(jsonPath)\"), found \(try r.peek().name)")
        }
        try r.beginObject()
        var found = false
        while let name = try r.nextName() {
          if name == step {
            found = true
            break
          }
          try r.skipValue()
        }
        guard found else {
          throw JSONInputError(
            file: path, field: walked.joined(separator: "."),
            message: "has no key \"\(step)\" (the import's path is \"\(jsonPath)\")")
        }
        walked.append(step)
      }
      guard try r.peek() == .array else {
        throw r.fail(
          "expected the array of items at \(jsonPath.isEmpty ? "the top" : "\"\(jsonPath)\""), found \(try r.peek().name)")
      }
      var rows = DataRows.Builder(folder: folder)
      try r.beginArray()
      while try r.nextElement() {
        if rows.count == limit {
          throw r.fail("more than \(limit) items, the limit")
        }
        guard try r.peek() == .object else {
          throw r.fail("expected one object of fields per item, found \(try r.peek().name)")
        }
        lines.append(Int32(truncatingIfNeeded: rows.count))
        rows.append(try readItemData(&r, folder: folder, trimming: false))
      }
      // The rest of the file is still read, so that a damaged end is not taken silently.
      for _ in walked {
        while try r.nextName() != nil { try r.skipValue() }
      }
      return rows.build()
    }
  }

  private static func readCSV(
    _ text: String, path: String, folder: String, limit: Int, lines: inout [Int32]
  ) throws(JSONInputError) -> DataRows {
    let reader: CSVReader
    do {
      reader = try CSVReader(string: text, hasHeaderRow: true, trimFields: false)
    } catch {
      throw JSONInputError(file: path, field: "", message: "not valid CSV: \(error)")
    }
    guard let header = reader.headerRow, !header.isEmpty, header != [""] else {
      throw JSONInputError(file: path, field: "", message: "needs a header row naming the fields")
    }
    for (i, name) in header.enumerated() where name.isEmpty || header[..<i].contains(name) {
      throw JSONInputError(
        file: path, field: "row 1",
        message: name.isEmpty ? "column \(i + 1) has no name" : "the column \"\(name)\" is named twice")
    }
    var rows = DataRows.Builder(folder: folder)
    var line = 1
    while let row = reader.next() {
      line += 1
      if row == [""] { continue }  // a blank line
      guard row.count == header.count else {
        throw JSONInputError(
          file: path, field: "row \(line)",
          message: "has \(row.count) fields, but the header names \(header.count)")
      }
      if rows.count == limit {
        throw JSONInputError(
          file: path, field: "row \(line)", message: "more than \(limit) items, the limit")
      }
      var data = ItemData(folder: folder)
      // An empty cell is a field left out, so that `when` hides what it would show.
      for (name, value) in zip(header, row) where !value.isEmpty { data[name] = value }
      rows.append(data)
      lines.append(Int32(truncatingIfNeeded: line))
    }
    if let error = reader.error {
      throw JSONInputError(
        file: path, field: "row \(line + 1)", message: "not valid CSV: \(error)")
    }
    return rows.build()
  }

  private static func readJSONLines(
    _ handle: FileHandle, path: String, folder: String, limit: Int, options: JSONReader.Options,
    lines: inout [Int32]
  ) throws(JSONInputError) -> DataRows {
    var rows = DataRows.Builder(folder: folder)
    var line = 0
    func take(_ text: some Collection<UInt8>) throws(JSONInputError) {
      line += 1
      if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
      if rows.count == limit {
        throw JSONInputError(
          file: path, field: "line \(line)", message: "more than \(limit) items, the limit")
      }
      let document = JSONDocument(text, file: "\(path):\(line)")
      let data = try document.read(options: options) {
        (r: inout JSONReader) throws(JSONInputError) in
        guard try r.peek() == .object else {
          throw r.fail("expected one object of fields per line, found \(try r.peek().name)")
        }
        return try readItemData(&r, folder: folder, trimming: false)
      }
      rows.append(data)
      lines.append(Int32(truncatingIfNeeded: line))
    }
    // The start of a line that the chunk read so far has not ended.
    var pending: [UInt8] = []
    while true {
      let chunk: Data
      do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
        throw JSONInputError(file: path, field: "", message: "cannot be read: \(error)")
      }
      if chunk.isEmpty { break }
      let result = chunk.withUnsafeBytes { bytes -> Result<Void, JSONInputError> in
        do throws(JSONInputError) {
          var start = 0
          while let end = bytes[start...].firstIndex(of: 0x0A) {
            if pending.isEmpty {
              try take(bytes[start..<end])
            } else {
              pending += bytes[start..<end]
              try take(pending)
              pending.removeAll(keepingCapacity: true)
            }
            start = end + 1
          }
          pending += bytes[start...]
          return .success(())
        } catch {
          return .failure(error)
        }
      }
      try result.get()
    }
    if !pending.isEmpty { try take(pending) }
    return rows.build()
  }

}
