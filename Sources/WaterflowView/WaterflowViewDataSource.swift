/// Supplies a ``WaterflowView`` with its cells.
///
/// The corresponding reference protocol is `HMWaterflowViewDataSource`, modelled on
/// `UITableViewDataSource`.
public protocol WaterflowViewDataSource: AnyObject {
  /// The number of cells. Required.
  func numberOfCells(in view: WaterflowView) -> Int
  /// The cell for an index: dequeue one with `dequeueReusableCell(withIdentifier:)` or create one.
  /// Required.
  func waterflowView(_ view: WaterflowView, cellAt index: Int) -> WaterflowCell
  /// The number of columns; the default is 3. Used only while the view has no custom `layout`.
  func numberOfColumns(in view: WaterflowView) -> Int
  /// The number of cells in a section, when the view's `layout` has several; the default puts
  /// every cell in section 0.
  func waterflowView(_ view: WaterflowView, numberOfCellsInSection section: Int)
    -> Int
}

extension WaterflowViewDataSource {
  public func numberOfColumns(in view: WaterflowView) -> Int { 3 }

  public func waterflowView(
    _ view: WaterflowView, numberOfCellsInSection section: Int
  ) -> Int {
    section == 0 ? numberOfCells(in: view) : 0
  }
}

/// Sizes a ``WaterflowView``'s cells and hears about selections. Every method is optional.
///
/// The corresponding reference protocol is `HMWaterflowViewDelegate`.
public protocol WaterflowViewDelegate: AnyObject {
  /// The height of the cell at an index; the default is 100. Read `view.columnWidth` to keep an
  /// aspect ratio, as the shop demo does.
  func waterflowView(_ view: WaterflowView, heightAt index: Int) -> Double
  /// The length and span of the cell at an index; the default is a one-column cell of
  /// `heightAt:`'s height.
  func waterflowView(_ view: WaterflowView, metricsAt index: Int) -> ItemMetrics
  /// A margin; the default is 10. Used only while the view has no custom `layout`.
  func waterflowView(_ view: WaterflowView, marginFor type: MarginType)
    -> Double
  /// Whether a tap may select the cell; the default is true.
  func waterflowView(_ view: WaterflowView, shouldSelectCellAt index: Int)
    -> Bool
  /// Called when a tap selects a displayed cell.
  func waterflowView(_ view: WaterflowView, didSelectCellAt index: Int)
}

extension WaterflowViewDelegate {
  public func waterflowView(_ view: WaterflowView, heightAt index: Int)
    -> Double
  { 100 }

  public func waterflowView(_ view: WaterflowView, metricsAt index: Int)
    -> ItemMetrics
  {
    .height(waterflowView(view, heightAt: index))
  }

  public func waterflowView(_ view: WaterflowView, marginFor type: MarginType)
    -> Double
  { 10 }

  public func waterflowView(
    _ view: WaterflowView, shouldSelectCellAt index: Int
  ) -> Bool { true }

  public func waterflowView(_ view: WaterflowView, didSelectCellAt index: Int) {
  }
}
