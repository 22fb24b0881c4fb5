extension Scene {
  /// The scene in a locale: every text written `"@key"` or holding `{@key}` (views, titles,
  /// prices, item data and the texts of templates) looked up in the table, self-sizing items measured again, and the
  /// layout mirrored when the locale reads right to left.
  ///
  /// - Throws: ``SceneError`` naming the place that reads a key the table lacks, the key and
  ///   the table's file.
  public func localized(with table: StringTable) throws(SceneError) -> Scene {
    var scene = self
    func look(_ text: String, _ place: String) throws(SceneError) -> String {
      switch table.lookUp(text) {
      case .success(let value): return value
      case .failure(let missing):
        let file = table.path.isEmpty ? "" : " (\(table.path))"
        throw SceneError(
          file: path, field: place,
          message:
            "\"@\(missing.key)\" is not in the \(table.locale) strings\(file); add \"\(missing.key)\" there, or write \"@@\" for a literal @"
        )
      }
    }
    func supplement(_ view: inout Supplement?, _ place: String) throws(SceneError) {
      if let text = view?.text { view!.text = try look(text, place) }
    }
    try supplement(&scene.header, "header.text")
    try supplement(&scene.footer, "footer.text")
    scene.empty.text = try look(empty.text, "empty.text")
    scene.loading.text = try look(loading.text, "loading.text")
    for s in scene.sectionSupplements.indices {
      try supplement(&scene.sectionSupplements[s].header, "sections[\(s)].header.text")
      try supplement(&scene.sectionSupplements[s].footer, "sections[\(s)].footer.text")
    }
    func localize(_ templates: [String: CellTemplate]) throws(SceneError) -> [String: CellTemplate] {
      var out = templates
      for (identifier, template) in templates {
        out[identifier] = try template.replacingTexts { (text, place) throws(SceneError) in
          FieldText(try look(text.source, "cells.\(identifier).\(place)"))
        }
      }
      return out
    }
    scene.cells = try localize(cells)
    if let darkCells { scene.darkCells = try localize(darkCells) }
    // Numbers and dates in `{field|format}` texts follow the locale.
    for (identifier, _) in scene.cells { scene.cells[identifier]!.formatting.locale = table.locale }
    for (identifier, _) in scene.darkCells ?? [:] {
      scene.darkCells![identifier]!.formatting.locale = table.locale
    }
    var flat = 0
    for s in sections.indices {
      guard sections[s].hasTexts else {
        flat += sections[s].count
        continue
      }
      var items: [Item] = []
      items.reserveCapacity(sections[s].count)
      for i in 0..<sections[s].count {
        defer { flat += 1 }
        var item = sections[s][i]
        let place =
          givenFrames != nil
          ? "frames[\(flat)]" : sections.count == 1 ? "items[\(i)]" : "sections[\(s)].items[\(i)]"
        if let title = item.title { item.title = try look(title, place + ".title") }
        if let price = item.price { item.price = try look(price, place + ".price") }
        if var data = item.data {
          try data.replaceTexts { (name, value) throws(SceneError) -> String? in
            guard value.utf8.first == UInt8(ascii: "@") || StringTable.hasEmbeddedKey(value) else {
              return nil
            }
            return try look(value, place + ".data." + name)
          }
          item.data = data
        }
        items.append(item)
      }
      scene.sections[s] = ItemList(items, dataRows: sections[s].dataRows)
    }
    if table.isRightToLeft { scene.layout.direction = .rightToLeft }
    // Texts changed, so heights may have: measure again from scratch.
    scene.cellSizingState = nil
    do {
      try scene.bindCells(
        itemPaths: givenFrames != nil
          ? [] : sections.count == 1 ? ["items"] : sections.indices.map { "sections[\($0)].items" })
    } catch { throw SceneError(error) }
    return scene
  }
}
