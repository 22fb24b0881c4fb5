// UIKit's optional methods, declared so that an app's implementation is the one called: a
// requirement with a default in an extension. (A requirement returning `T?` would not be met
// by an app's method returning `T`: Swift would call the default instead.)

/// Gives a collection view its counts, cells and supplementary views.
@MainActor
public protocol UICollectionViewDataSource: AnyObject {
  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int
  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath)
    -> UICollectionViewCell
  func numberOfSections(in collectionView: UICollectionView) -> Int
  func collectionView(
    _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
    at indexPath: IndexPath
  ) -> UICollectionReusableView
}

extension UICollectionViewDataSource {
  /// One section, as UIKit assumes when the data source does not say.
  public func numberOfSections(in collectionView: UICollectionView) -> Int { 1 }

  /// UIKit stops the app when a layout asks for a supplementary view that the data source does
  /// not make; here the view is an empty one and the collection view notes the problem.
  public func collectionView(
    _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
    at indexPath: IndexPath
  ) -> UICollectionReusableView {
    collectionView.note(.noSupplementaryView(kind: kind, indexPath: indexPath))
    return UICollectionReusableView(frame: .zero)
  }
}

/// Hears about scrolling.
@MainActor
public protocol UIScrollViewDelegate: AnyObject {
  func scrollViewDidScroll(_ scrollView: UIScrollView)
}

extension UIScrollViewDelegate {
  public func scrollViewDidScroll(_ scrollView: UIScrollView) {}
}

/// Hears about selection and display, and decides what may be selected.
@MainActor
public protocol UICollectionViewDelegate: UIScrollViewDelegate {
  func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool
  func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath)
  func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath)
  func collectionView(
    _ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath)
  func collectionView(
    _ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell,
    forItemAt indexPath: IndexPath)
}

extension UICollectionViewDelegate {
  public func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
    true
  }
  public func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {}
  public func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {}
  public func collectionView(
    _ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath
  ) {}
  public func collectionView(
    _ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell,
    forItemAt indexPath: IndexPath
  ) {}
}

/// A problem UIKit would stop the app for, noted instead: the collection view goes on, and
/// Waterflow's drawing and goldens report it, naming the index path.
public enum UICollectionViewProblem: Error, Hashable, CustomStringConvertible, Sendable {
  /// A cell or view was dequeued with an identifier nothing was registered for.
  case unregisteredIdentifier(String, kind: String?, indexPath: IndexPath)
  /// The data source returned a cell it did not dequeue from this collection view.
  case cellNotDequeued(indexPath: IndexPath)
  /// The layout gave attributes for an index path the data source does not have.
  case noSuchItem(IndexPath, sections: Int, items: Int?)
  /// The layout gave a frame that is not finite, or has a negative size.
  case badFrame(CGRect, kind: String?, indexPath: IndexPath)
  /// The layout asked for a supplementary view the data source does not make.
  case noSupplementaryView(kind: String, indexPath: IndexPath)

  public var description: String {
    switch self {
    case .unregisteredIdentifier(let identifier, let kind, let path):
      let what = kind.map { "a supplementary view of kind \($0)" } ?? "a cell"
      return "\(Self.name(path)): dequeued \(what) with the identifier \"\(identifier)\", which nothing was registered for; call register(_:for…ReuseIdentifier:) first"
    case .cellNotDequeued(let path):
      return "\(Self.name(path)): the data source returned a cell it did not dequeue from this collection view; use dequeueReusableCell(withReuseIdentifier:for:)"
    case .noSuchItem(let path, let sections, let items):
      let has = items.map { "section \(path.section) has \($0) items" } ?? "there are \(sections) sections"
      return "\(Self.name(path)): the layout gave attributes for an item that does not exist (\(has))"
    case .badFrame(let frame, let kind, let path):
      let what = kind.map { "its \($0) view" } ?? "its cell"
      return "\(Self.name(path)): the layout gave \(what) the frame \(frame), which is not finite or has a negative size; it is not shown"
    case .noSupplementaryView(let kind, let path):
      return "\(Self.name(path)): the layout asked for a supplementary view of kind \(kind), which the data source does not make; implement collectionView(_:viewForSupplementaryElementOfKind:at:)"
    }
  }

  /// `item [0, 3]`: section, then item.
  static func name(_ path: IndexPath) -> String {
    path.count == 2 ? "item [\(path[0]), \(path[1])]" : "index path \(Array(path))"
  }
}
