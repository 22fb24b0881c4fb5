@_exported import WaterflowLayout

/// An RGBA colour with components in 0…1.
public struct Color: Hashable, Sendable {
  public var red: Double
  public var green: Double
  public var blue: Double
  public var alpha: Double

  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// A colour whose r, g and b are each uniform in 0…255, as the reference demo picks them.
  public static func random<G: RandomNumberGenerator>(using generator: inout G)
    -> Color
  {
    let bits = generator.next()
    return Color(
      red: Double(bits & 0xFF) / 255, green: Double((bits >> 8) & 0xFF) / 255,
      blue: Double((bits >> 16) & 0xFF) / 255)
  }
}

/// A cell: a reusable view showing one item.
///
/// A cell keeps whatever it was given until its data source changes it. The reference demo sets
/// a random background colour only when it creates a cell, so a recycled cell shows its old
/// colour at a new index: that is how reuse becomes visible.
///
/// The corresponding UIKit class is `UITableViewCell` (`HMWaterflowViewCell` in the reference).
open class WaterflowCell {
  /// The identifier of the reuse pool this cell returns to.
  public let reuseIdentifier: String
  /// A stable instance number, given by the view when it first displays the cell (1, 2, 3, …);
  /// 0 until then.
  public internal(set) var instanceID: Int = 0
  /// The frame, in content coordinates, at which the cell is displayed.
  public internal(set) var frame: Rect = .zero
  /// The background colour.
  public var backgroundColor: Color?
  /// The text of the index label; nil shows the index the cell is displayed at.
  public var text: String?
  /// The price shown in the bar across the bottom, or nil for no bar.
  public var price: String?
  /// The path of the image the cell shows, or nil.
  public var imagePath: String?
  /// The text under the image, or nil for none.
  public var title: String?
  /// Whether the cell was selected by a tap.
  public var isSelected = false
  /// How many times the cell has gone back to the reuse pool.
  public internal(set) var reuseCount = 0

  /// Creates a cell for a reuse pool.
  public init(reuseIdentifier: String) {
    self.reuseIdentifier = reuseIdentifier
  }

  /// Called as the cell goes back to the reuse pool (PSCollectionView calls it when enqueuing).
  ///
  /// The default clears the selection and keeps everything else, so the cell's own state, such
  /// as its colour, survives reuse. The corresponding UIKit method is
  /// `UITableViewCell.prepareForReuse()`.
  open func prepareForReuse() {
    isSelected = false
  }
}
