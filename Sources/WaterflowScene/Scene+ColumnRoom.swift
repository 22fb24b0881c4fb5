import WaterflowJSON
import WaterflowLayout

extension Scene {
  /// Checks that every section's margins, gaps and column rule leave its columns a positive width
  /// in the scene's viewport.
  ///
  /// The layout itself clamps a negative width to 0, which draws nothing and says nothing; a scene
  /// with no room for its columns is a mistake in the file, so it is reported as one.
  ///
  /// - Parameter sectionFields: The field path of each section (`""` for a scene without
  ///   `sections`, `sections[2]` otherwise), for messages that name the key at fault.
  func checkColumnRoom(sectionFields: [String]) throws(JSONInputError) {
    let orientation = self.orientation ?? Orientation(viewport)
    let widths = layout.columnWidths(viewport: viewport, orientation: orientation)
    let vertical = layout.flow == .vertical
    let extent = vertical ? viewport.width : viewport.height
    let (startName, endName) = vertical ? ("left", "right") : ("top", "bottom")
    let axis = vertical ? "wide" : "tall"
    for (s, section) in layout.sections.enumerated() {
      let insets = FlowInsets(section.margins, flow: layout.flow)
      let n = section.columns.count(across: extent, insets: insets, orientation: orientation)
      let room = extent - insets.crossStart - insets.crossEnd
      let width = (room - Double(n - 1) * insets.laneGap) / Double(n)
      func field(_ key: String) -> String {
        sectionFields[s].isEmpty ? key : "\(sectionFields[s]).\(key)"
      }
      var minimum: Double? = nil
      if case .minimumWidth(let m) = section.columns { minimum = m }
      guard widths[s] <= 0 || room < minimum ?? 0 else { continue }
      let viewportText = "the viewport is \(extent.jsonText) pt \(axis)"
      let marginsText =
        "\(startName) \(insets.crossStart.jsonText) + \(endName) \(insets.crossEnd.jsonText)"
      if room <= 0 {
        throw JSONInputError(
          file: path, field: field("margins"),
          message:
            "\(marginsText) leave no room for the columns: \(viewportText), "
            + "so each of the \(n) columns would be \(((width * 100).rounded() / 100).jsonText) pt \(axis)")
      }
      if let minimum {
        throw JSONInputError(
          file: path, field: field("minColumnWidth"),
          message:
            "\(minimum.jsonText) pt does not fit: \(viewportText) and the margins "
            + "(\(marginsText)) leave \(((room * 100).rounded() / 100).jsonText) pt")
      }
      let gapsText = "\(n - 1) column gaps of \(insets.laneGap.jsonText) pt"
      throw JSONInputError(
        file: path, field: field("columns"),
        message:
          "\(n) columns do not fit: \(viewportText), and the margins (\(marginsText)) and "
          + "\(gapsText) leave each column \(((width * 100).rounded() / 100).jsonText) pt")
    }
  }
}
