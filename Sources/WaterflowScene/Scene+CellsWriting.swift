public import WaterflowCells

// Templates written back in the vocabulary `cells` is read in, so that `layout --json` makes a
// layout file that draws template cells as the scene did (WaterflowCells' `TemplateJSON`).

extension Scene {
  /// Writes templates as a scene's `cells` object, identifiers sorted, defaults left out.
  public static func writeCells(_ cells: [String: CellTemplate], to w: JSONWriter) {
    TemplateJSON.writeCells(cells, to: w)
  }

  /// Writes an item's data as an object, fields sorted by name, nested values as they are.
  public static func writeData(_ data: ItemData, to w: JSONWriter) {
    TemplateJSON.writeData(data, to: w)
  }
}
