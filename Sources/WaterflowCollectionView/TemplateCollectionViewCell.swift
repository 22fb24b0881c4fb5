public import UIKit
public import WaterflowCells

/// A collection view cell drawn by a Waterflow cell template, bound to its item's data, and
/// sized by it: with a flow layout's `estimatedItemSize` (or any layout that answers the
/// self-sizing hooks), the cell prefers the height the template measures at the layout's width.
///
/// ```
/// view.register(TemplateCollectionViewCell.self, forCellWithReuseIdentifier: "note")
/// // in collectionView(_:cellForItemAt:)
/// let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "note", for: indexPath) as! TemplateCollectionViewCell
/// cell.template = noteTemplate
/// cell.data = feed[indexPath.item].data
/// ```
open class TemplateCollectionViewCell: UICollectionViewCell {
  /// The template the cell is drawn by; nil draws Waterflow's own look.
  public var template: CellTemplate?
  /// The data of the item the cell shows, which the template reads.
  public var data = ItemData()
  /// The font files the template is measured with: the renderer's default fonts unless set.
  public var measuringFontPaths = CellMeasurer.defaultFontPaths

  open override func prepareForReuse() {
    super.prepareForReuse()
    data = ItemData()
  }

  /// The layout's attributes at the height the template measures at their width.
  open override func preferredLayoutAttributesFitting(
    _ layoutAttributes: UICollectionViewLayoutAttributes
  ) -> UICollectionViewLayoutAttributes {
    let attributes = super.preferredLayoutAttributesFitting(layoutAttributes)
    guard let template, let measurer = try? CellMeasurer.shared(fontPaths: measuringFontPaths) else {
      return attributes
    }
    let width = Double(layoutAttributes.size.width)
    let height = measurer.height(of: template, data: data, index: layoutAttributes.indexPath.item, width: width)
    attributes.size = CGSize(width: layoutAttributes.size.width, height: CGFloat(height))
    return attributes
  }
}
