/// Drives a `WaterflowView` from a ``Scene``: the data source and delegate of the reference demo.
///
/// Like the demo, it gives each cell a random colour only when it creates the cell, so a recycled
/// cell keeps its colour at a new index. Colours come from the scene's seed: the n-th cell created
/// gets the same colour in every run.
///
/// ```swift
/// let controller = SceneController(scene: try Scene(contentsOf: "Assets/Scenes/reference.json"))
/// let pass = controller.view.scroll(to: 300)
/// ```
public final class SceneController: WaterflowViewDataSource,
  WaterflowViewDelegate
{
  /// The scene, including any items appended or prepended since.
  public private(set) var scene: Scene
  /// The view this controller drives (it is the view's data source and delegate).
  public let view: WaterflowView
  /// The indices selected by taps, in order.
  public private(set) var selections: [Int] = []

  private var colours: SeededGenerator
  /// How many cells this controller has created.
  private var created = 0

  /// A cell that remembers the colour it was created with, under any item's own colour.
  private final class SceneCell: TemplateCell {
    let instanceColor: Color
    init(reuseIdentifier: String, color: Color) {
      instanceColor = color
      super.init(reuseIdentifier: reuseIdentifier)
    }
  }

  /// The colour of the cell being created (the `created`-th): random from the seed, or the
  /// style's palette in turn.
  private func nextColour() -> Color {
    switch scene.style.cellColors {
    case .random: Color.random(using: &colours)
    case .palette(let palette): palette[(created - 1) % palette.count]
    }
  }

  /// Creates a view for the scene at offset 0; nothing is laid out until `layoutSubviews()`.
  public init(scene: Scene) {
    self.scene = scene
    colours = SeededGenerator(seed: scene.seed)
    view = WaterflowView(bounds: scene.viewport)
    view.layout = scene.layout
    view.customLayout = scene.givenFrames
    view.orientation = scene.orientation
    view.preloadBuffer = scene.buffer
    view.reuseOrder = scene.reuseOrder
    view.isLoading = scene.isLoading
    view.headerView = scene.header
    view.footerView = scene.footer
    view.emptyView = scene.empty
    view.loadingView = scene.loading
    view.sectionHeaderViews = scene.sectionSupplements.map(\.header)
    view.sectionFooterViews = scene.sectionSupplements.map(\.footer)
    view.dataSource = self
    view.delegate = self
  }

  /// The colour the n-th created cell gets (n from 1), the same in every run for a seed.
  public static func colour(ofCell n: Int, seed: UInt64) -> Color {
    var g = SeededGenerator(seed: seed)
    var c = Color(red: 0, green: 0, blue: 0)
    for _ in 0..<n { c = Color.random(using: &g) }
    return c
  }

  // MARK: - Data source

  public func numberOfCells(in view: WaterflowView) -> Int { scene.itemCount }

  public func waterflowView(
    _ view: WaterflowView, numberOfCellsInSection section: Int
  ) -> Int {
    section < scene.sections.count ? scene.sections[section].count : 0
  }

  public func waterflowView(_ view: WaterflowView, cellAt index: Int)
    -> WaterflowCell
  {
    let item = scene.item(at: index)
    let cell: SceneCell
    if let reused = view.dequeueReusableCell(withIdentifier: item.identifier) as? SceneCell {
      cell = reused
    } else {
      created += 1
      cell = SceneCell(reuseIdentifier: item.identifier, color: nextColour())
    }
    // Set on every call, as the shop demo does: the price, image, title and an item's own
    // colour follow the item; otherwise the cell shows the colour it was created with.
    cell.backgroundColor = item.color ?? cell.instanceColor
    cell.price = item.price
    cell.imagePath = item.image
    cell.title = item.title
    cell.template = scene.cells[item.identifier]
    cell.data = item.data ?? ItemData()
    cell.identity = item.data?[scene.identityField]
    return cell
  }

  // MARK: - Delegate

  public func waterflowView(_ view: WaterflowView, metricsAt index: Int)
    -> ItemMetrics
  {
    scene.metrics(at: index)
  }

  public func waterflowView(_ view: WaterflowView, didSelectCellAt index: Int) {
    selections.append(index)
  }

  // MARK: - Data changes

  /// Whether items can be added: to a scene, or to a layout file whose frames can continue
  /// (one section, growing downward or rightward; see `LayoutFrames.appending(_:)`).
  public var canChangeItems: Bool { scene.givenFrames?.canContinue ?? true }

  /// Appends `count` items to the last section ("load more"), continuing its sequence; a
  /// layout file's new items repeat its frames a block further on.
  public func appendItems(_ count: Int) {
    precondition(canChangeItems, "these frames cannot continue")
    if let given = scene.givenFrames, let more = given.appending(count) {
      scene.givenFrames = more
      view.customLayout = more
    }
    scene.sections[scene.sections.count - 1].append(count: count)
    view.appendCells(count: count)
  }

  /// Prepends `count` items to the first section ("refresh"); a layout file's new items take
  /// the frames at its start, and the others move along.
  public func prependItems(_ count: Int) {
    precondition(canChangeItems, "these frames cannot continue")
    if let given = scene.givenFrames, let more = given.prepending(count) {
      scene.givenFrames = more
      view.customLayout = more
    }
    scene.sections[0].prepend(count: count)
    view.insertCells(at: 0, count: count)
  }

  /// Changes the viewport (a rotation); the next layout recomputes frames and asks again for
  /// every visible cell, as the seeds do.
  public func resize(to size: Size) {
    scene.viewport = size
    view.bounds = size
  }
}
