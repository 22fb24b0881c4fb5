/// A view: a frame in its superview, bounds of its own, and the few properties layouts and
/// cells set. A model, not a drawing: the renderer draws what a collection view displays.
@MainActor
open class UIView: NSObject {
  /// The frame in the superview's coordinates; setting it sets the bounds' size.
  open var frame: CGRect {
    didSet { bounds.size = frame.size }
  }
  /// The view's own coordinates: its size, and for a scroll view the content offset as origin.
  open var bounds: CGRect
  /// The centre of the frame.
  open var center: CGPoint {
    get { CGPoint(x: frame.midX, y: frame.midY) }
    set {
      frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2)
    }
  }
  open var backgroundColor: UIColor?
  open var isHidden = false
  open var alpha: CGFloat = 1
  open var tag = 0
  open var clipsToBounds = false
  open var isUserInteractionEnabled = true
  /// UIKit's default margins: 8 points on each side.
  open var layoutMargins = UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
  /// The insets the device's notch and home indicator take; a test sets them for a device.
  open var safeAreaInsets: UIEdgeInsets = .zero
  /// The traits the view lays out for; a test sets them for a device or a direction.
  open var traitCollection = UITraitCollection()
  /// The direction the view lays out in, from its traits.
  open var effectiveUserInterfaceLayoutDirection: UIUserInterfaceLayoutDirection {
    traitCollection.layoutDirection
  }

  /// The views inside this one, back to front.
  public private(set) var subviews: [UIView] = []
  /// The view this one is inside.
  public private(set) weak var superview: UIView?

  /// A view with a frame.
  public init(frame: CGRect) {
    self.frame = frame
    bounds = CGRect(origin: .zero, size: frame.size)
    super.init()
  }

  /// Views are not archived here: this returns nil, as a view class that refuses coding does.
  public required init?(coder: NSCoder) { return nil }

  /// A view with a zero frame.
  public override convenience init() { self.init(frame: .zero) }

  open func addSubview(_ view: UIView) {
    view.removeFromSuperview()
    subviews.append(view)
    view.superview = self
  }

  open func removeFromSuperview() {
    superview?.subviews.removeAll { $0 === self }
    superview = nil
  }

  /// Lays out subviews; the collection view places its cells here.
  open func layoutSubviews() {}
  open func setNeedsLayout() {}
  open func layoutIfNeeded() { layoutSubviews() }
  /// The size the view would take in `size`; the view's own size unless a subclass says.
  open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }
}

/// A view whose content scrolls: the content offset is its bounds' origin.
open class UIScrollView: UIView {
  /// The point of the content at the view's top-left corner.
  open var contentOffset: CGPoint {
    get { bounds.origin }
    set { bounds.origin = newValue }
  }
  /// The size of the content.
  open var contentSize: CGSize = .zero
  /// Room around the content.
  open var contentInset: UIEdgeInsets = .zero
  /// The content inset with the safe area's top and bottom added, as UIKit's automatic
  /// adjustment gives a vertically scrolling view.
  open var adjustedContentInset: UIEdgeInsets {
    UIEdgeInsets(
      top: contentInset.top + safeAreaInsets.top, left: contentInset.left,
      bottom: contentInset.bottom + safeAreaInsets.bottom, right: contentInset.right)
  }
  open var isScrollEnabled = true
  open var alwaysBounceVertical = false
  open var showsVerticalScrollIndicator = true
  open var showsHorizontalScrollIndicator = true

  open func setContentOffset(_ offset: CGPoint, animated: Bool) { contentOffset = offset }
}

/// A view a collection view reuses: a cell, or a header or footer.
open class UICollectionReusableView: UIView {
  /// The identifier the view was registered and dequeued with.
  open internal(set) var reuseIdentifier: String?
  /// The attributes the layout gave the view last.
  var appliedAttributes: UICollectionViewLayoutAttributes?

  /// Makes a view of the dynamic class a collection view registered, through its `init(frame:)`.
  ///
  /// Required, and a convenience initializer, so that every subclass inherits it: one that
  /// overrides `init(frame:)` and `init?(coder:)`, as cells do, or none. Swift has no
  /// Objective-C runtime here to call `init(frame:)` on a class value. (A reusable view that
  /// adds a designated initializer of its own must then override `init(frame:)` too, which a
  /// registered class needs on iOS anyway.)
  public required convenience init(registeredFrame frame: CGRect) { self.init(frame: frame) }

  /// Called when the collection view takes the view from its reuse pool, before the data
  /// source configures it again.
  open func prepareForReuse() {}
  /// Called with the layout's attributes for the view before it is displayed.
  open func apply(_ layoutAttributes: UICollectionViewLayoutAttributes) {}
  /// The attributes the view would like: a self-sizing cell changes the size. The layout's
  /// own, unchanged, unless a subclass says.
  open func preferredLayoutAttributesFitting(
    _ layoutAttributes: UICollectionViewLayoutAttributes
  ) -> UICollectionViewLayoutAttributes { layoutAttributes }
}

/// A cell: a reusable view with a content view, and a selected state.
open class UICollectionViewCell: UICollectionReusableView {
  /// The view a cell's content goes in.
  public let contentView: UIView
  open var isSelected = false
  open var isHighlighted = false
  open var backgroundView: UIView?
  open var selectedBackgroundView: UIView?

  public override init(frame: CGRect) {
    contentView = UIView(frame: CGRect(origin: .zero, size: frame.size))
    super.init(frame: frame)
    addSubview(contentView)
  }

  public required init?(coder: NSCoder) { return nil }

  open override var frame: CGRect {
    didSet { contentView.frame = CGRect(origin: .zero, size: frame.size) }
  }
}
