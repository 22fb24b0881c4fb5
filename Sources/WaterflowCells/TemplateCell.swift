public import WaterflowView

/// A cell drawn from a template: it carries its identifier's template and the data its item
/// bound to it, as a UIKit cell carries its class's layout and the model it was configured with.
///
/// The data source sets both on every request, so a reused cell shows its new item's data; the
/// cell's own colour (`WaterflowCell.backgroundColor`) still survives reuse and shows where the
/// template gives no background.
open class TemplateCell: WaterflowCell {
  /// The template of the cell's reuse identifier, or nil for Waterflow's own look.
  public var template: CellTemplate?
  /// The data of the item the cell shows.
  public var data = ItemData()
  /// The value of the item's identity field (its `id`), which names it in golden verdicts.
  public var identity: String?
}
