extension Scene {
  /// Every text the scene can draw, with where it comes from ("the header", "item 3's title"):
  /// for checks that name the place, such as a character no font has.
  ///
  /// - Complexity: O(n) in the number of listed items (a repeating pattern has no texts).
  public func texts() -> [(place: String, text: String)] {
    var texts: [(place: String, text: String)] = []
    func add(_ place: String, _ view: Supplement?) {
      if let view, !view.text.isEmpty { texts.append((place, view.text)) }
    }
    add("the header", header)
    add("the footer", footer)
    add("the empty view", empty)
    add("the loading view", loading)
    for (s, pair) in sectionSupplements.enumerated() {
      add("section \(s)'s header", pair.header)
      add("section \(s)'s footer", pair.footer)
    }
    var index = 0
    for list in sections {
      guard list.hasTexts else {
        index += list.count
        continue
      }
      for i in 0..<list.count {
        let item = list[i]
        if let title = item.title { texts.append(("item \(index)'s title", title)) }
        if let price = item.price { texts.append(("item \(index)'s price", price)) }
        // A template may draw any of its item's fields.
        if let data = item.data, cells[item.identifier] != nil {
          for (name, value) in data.sortedFields { texts.append(("item \(index)'s \(name)", value)) }
        }
        index += 1
      }
    }
    return texts
  }
}
