/// A header, footer, empty or loading view: a length along the scroll axis and the text it shows.
///
/// PSCollectionView's `headerView`, `footerView`, `emptyView` and `loadingView` are UIViews; here
/// a view is what drawing needs of one.
public struct SupplementaryView: Hashable, Sendable {
  /// The length along the scroll axis; for the empty and loading views, 0 fills the viewport.
  public var length: Double
  /// The text it shows.
  public var text: String

  public init(length: Double, text: String) {
    self.length = length
    self.text = text
  }
}
