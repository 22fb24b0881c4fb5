internal import WaterflowJSON

extension UICollectionView {
  /// What the layout computed, as a Waterflow layout file (the format `waterflow layout --json`
  /// writes): every item's frame in index-path order, each section's range, header and footer,
  /// the content size and the viewport. `render`, `scroll`, `shots` and `golden` on the command
  /// line take the file as they take a scene.
  ///
  /// - Parameters:
  ///   - scale: The device pixels per point the file asks to be drawn at; the screen's by default.
  ///   - identifier: The reuse identifier (a template's name) each item is drawn with; nil
  ///     leaves it to the file's default.
  /// - Returns: The file's text, the same for the same layout.
  /// - Complexity: O(items), one `layoutAttributesForItem(at:)` each.
  public func layoutFileText(
    scale: CGFloat = UIScreen.main.scale, identifier: (IndexPath) -> String? = { _ in nil }
  ) -> String {
    collectionViewLayout.collectionView = self
    let sections = numberOfSections
    collectionViewLayout.prepareIfNeeded()
    let layout = collectionViewLayout
    var out = "{\"viewport\": {\"width\": \(Self.number(bounds.width)), \"height\": \(Self.number(bounds.height)), "
    out += "\"scale\": \(Self.number(scale))},\n"
    let size = layout.collectionViewContentSize
    out += "\"contentSize\": {\"width\": \(Self.number(size.width)), \"height\": \(Self.number(size.height))},\n"
    var frames: [String] = []
    var sectionLines: [String] = []
    for section in 0..<sections {
      let first = frames.count
      for item in 0..<numberOfItems(inSection: section) {
        let path = IndexPath(item: item, section: section)
        let frame = layout.layoutAttributesForItem(at: path)?.frame ?? .zero
        var line = "{\"index\": \(frames.count), " + Self.rect(frame)
        if let name = identifier(path) { line += ", \"identifier\": \(Self.quoted(name))" }
        frames.append(line + "}")
      }
      var line = "{\"first\": \(first), \"count\": \(frames.count - first)"
      for (key, kind) in [("header", Self.elementKindSectionHeader), ("footer", Self.elementKindSectionFooter)] {
        guard let attributes = layout.layoutAttributesForSupplementaryView(ofKind: kind, at: IndexPath(item: 0, section: section)),
          attributes.frame.width > 0, attributes.frame.height > 0
        else { continue }
        line += ", \"\(key)\": {" + Self.rect(attributes.frame) + "}"
      }
      sectionLines.append(line + "}")
    }
    out += "\"sections\": [\n  " + sectionLines.joined(separator: ",\n  ") + "\n],\n"
    out += "\"frames\": [\n  " + frames.joined(separator: ",\n  ") + "\n]}\n"
    return out
  }

  private static func rect(_ r: CGRect) -> String {
    "\"x\": \(number(r.minX)), \"y\": \(number(r.minY)), \"width\": \(number(r.width)), \"height\": \(number(r.height))"
  }

  /// A number as Waterflow's JSON writes it (`layout --json`'s own form).
  private static func number(_ value: CGFloat) -> String { Double(value).jsonText }

  private static func quoted(_ text: String) -> String { JSONWriter.text { $0.write(quoting: text) } }
}
