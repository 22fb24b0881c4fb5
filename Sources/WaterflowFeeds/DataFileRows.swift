/// The items of a list that are the rows of one data file, and each row's line: a row's message
/// names `notes.jsonl:6` (JSON lines) or `products.csv: row 6` (CSV, the header being row 1).
///
/// Kept beside the items, not in them: 4 bytes a row, only in lists that import files.
public struct DataFileRows: Hashable, Sendable {
  /// The items' indices in the list.
  public var range: Range<Int>
  /// The data file's path.
  public var file: String
  /// Whether the file is CSV.
  public var isCSV: Bool
  /// Each row's line (JSON lines), row (CSV) or index in the array (a JSON file), in item
  /// order.
  public var lines: [Int32]
  /// Where the array of items sits in a JSON file (`data.items`; empty at the top); nil for
  /// CSV and JSON lines.
  public var jsonPath: String?

  /// The rows of a data file.
  public init(range: Range<Int>, file: String, isCSV: Bool, lines: [Int32], jsonPath: String? = nil) {
    self.range = range
    self.file = file
    self.isCSV = isCSV
    self.lines = lines
    self.jsonPath = jsonPath
  }

  /// The file and field parts of a message about the item at `index` (see `JSONInputError`).
  public func place(of index: Int) -> (file: String, field: String) {
    let line = lines[index - range.lowerBound]
    if let jsonPath { return (file, "\(jsonPath)[\(line)]") }
    return isCSV ? (file, "row \(line)") : ("\(file):\(line)", "")
  }
}
