extension ImageDiff {
  /// How `ImageDiff.compare` judges and draws differences; the defaults are pixelmatch 7.2.0's.
  ///
  /// The pixelmatch options keep pixelmatch's names. `masks` and `maskColor` are Waterflow's own.
  public struct Options: Hashable, Sendable {
    /// Per-pixel colour tolerance from 0 to 1; smaller is stricter (pixelmatch `threshold`).
    ///
    /// A pixel differs when its squared YIQ distance exceeds `35215 × threshold²`.
    public var threshold: Double
    /// Counts anti-aliased pixels too, skipping the detector (pixelmatch `includeAA`).
    public var includeAA: Bool
    /// How strongly unchanged pixels of the expected image show in the diff image (pixelmatch `alpha`).
    public var alpha: Double
    /// The colour of differences excused as anti-aliasing (pixelmatch `aaColor`).
    public var aaColor: DiffColor
    /// The colour of counted differences (pixelmatch `diffColor`).
    public var diffColor: DiffColor
    /// The colour of counted differences where the actual image is darker; nil means `diffColor`
    /// (pixelmatch `diffColorAlt`).
    public var diffColorAlt: DiffColor?
    /// Draws only counted differences, on a transparent image (pixelmatch `diffMask`).
    public var diffMask: Bool
    /// Composites semi-transparent pixels over pixelmatch's pseudo-checkerboard rather than white
    /// (pixelmatch `checkerboard`, added in 7.2.0; `false` reproduces pixelmatch 5 and 6).
    public var checkerboard: Bool
    /// Regions to ignore, in pixel coordinates of the images; parts outside the image are clipped.
    ///
    /// A masked pixel is neither counted nor marked as a difference, and is not part of
    /// `DiffResult.total`. In the diff image it is drawn in `maskColor`, or, when that is nil, like
    /// an unchanged pixel (faded grey of the expected image; left transparent with `diffMask`).
    /// Masks change only what is counted: the anti-aliasing detector of a pixel next to a mask
    /// still looks at the masked neighbours, so results outside the masks equal pixelmatch's.
    public var masks: [PixelRect]
    /// The colour that marks masked pixels in the diff image, or nil to draw them as unchanged.
    public var maskColor: DiffColor?

    /// Creates options; every parameter defaults to pixelmatch 7.2.0's default.
    public init(
      threshold: Double = 0.1, includeAA: Bool = false, alpha: Double = 0.1,
      aaColor: DiffColor = .yellow, diffColor: DiffColor = .red,
      diffColorAlt: DiffColor? = nil,
      diffMask: Bool = false, checkerboard: Bool = true,
      masks: [PixelRect] = [],
      maskColor: DiffColor? = nil
    ) {
      self.threshold = threshold
      self.includeAA = includeAA
      self.alpha = alpha
      self.aaColor = aaColor
      self.diffColor = diffColor
      self.diffColorAlt = diffColorAlt
      self.diffMask = diffMask
      self.checkerboard = checkerboard
      self.masks = masks
      self.maskColor = maskColor
    }
  }
}

/// An opaque colour used to mark pixels in a diff image.
public struct DiffColor: Hashable, Sendable {
  /// The red component.
  public var red: UInt8
  /// The green component.
  public var green: UInt8
  /// The blue component.
  public var blue: UInt8

  /// Creates a colour from its components.
  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// Pure red, pixelmatch's default `diffColor`.
  public static let red = DiffColor(red: 255, green: 0, blue: 0)
  /// Yellow, pixelmatch's default `aaColor`.
  public static let yellow = DiffColor(red: 255, green: 255, blue: 0)
}

/// A rectangle of whole pixels: columns `x ..< x + width`, rows `y ..< y + height`.
public struct PixelRect: Hashable, Sendable {
  /// The leftmost column.
  public var x: Int
  /// The top row.
  public var y: Int
  /// The number of columns.
  public var width: Int
  /// The number of rows.
  public var height: Int

  /// Creates a rectangle from its top-left corner and size.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}

/// The size of an image in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
  /// The number of columns.
  public var width: Int
  /// The number of rows.
  public var height: Int

  /// Creates a size.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// `"W×H"`, for example `"1500×2668"`.
  public var description: String { "\(width)×\(height)" }
}
