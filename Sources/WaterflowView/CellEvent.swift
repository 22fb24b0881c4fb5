/// A cell shown at an index: the pair a trace records.
public struct DisplayedCell: Hashable, Sendable {
  /// The item index.
  public var index: Int
  /// The cell's instance number (``WaterflowCell/instanceID``).
  public var cell: Int

  public init(index: Int, cell: Int) {
    self.index = index
    self.cell = cell
  }
}

/// What one `layoutSubviews()` pass did: the trace that tests and `waterflow trace` check.
public struct LayoutPass: Hashable, Sendable {
  /// The content offset along the scroll axis.
  public var offset: Double
  /// The cells displayed after the pass, by ascending index.
  public var displayed: [DisplayedCell] = []
  /// Cells the data source created in this pass.
  public var created: [DisplayedCell] = []
  /// Cells the data source took from the reuse pool in this pass.
  public var reused: [DisplayedCell] = []
  /// Cells that left the screen and went to the pool in this pass (with the index they left).
  public var enqueued: [DisplayedCell] = []
  /// The number of cells in the reuse pool after the pass.
  public var poolSize = 0

  public init(offset: Double) {
    self.offset = offset
  }
}

/// When, within one layout pass, cells that leave reach the reuse pool.
public enum ReuseOrder: String, Hashable, Sendable, CaseIterable {
  /// Every leaving cell is pooled before any entering cell is requested (PSCollectionView), so
  /// no more cells are created than are displayed at once.
  case leaveFirst = "leave-first"
  /// One walk over the indices in order, each entering cell requested and each leaving cell
  /// pooled as it comes (ZYWaterFlowView, YYWaterflowView, HMWaterflowView). Scrolling up, the
  /// low indices enter before the high ones leave, so new cells are created.
  case singlePass = "single-pass"
}
