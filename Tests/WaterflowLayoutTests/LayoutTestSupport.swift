import WaterflowLayout

// MARK: - Seeded sweeps

/// SplitMix64, the same generator as WaterflowView's `SeededGenerator` (this test target depends
/// on WaterflowLayout only, so it carries its own copy).
struct RepeatableRandomNumberGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: Int) { state = UInt64(truncatingIfNeeded: seed) }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Runs `body` once per seed.
func withEvery(
  _ label: String, in seeds: Range<Int>, _ body: (Int) throws -> Void
) rethrows {
  for seed in seeds { try body(seed) }
}

// MARK: - Random scenes

/// A layout plus its items: everything `snapshot(viewport:itemCounts:metrics:)` needs.
struct RandomScene: CustomStringConvertible {
  var layout: WaterflowLayout
  var viewport: Size
  var itemCounts: [Int]
  var metrics: [ItemMetrics]

  var total: Int { itemCounts.reduce(0, +) }

  func snapshot() -> LayoutSnapshot {
    layout.snapshot(viewport: viewport, itemCounts: itemCounts) { metrics[$0] }
  }

  var description: String {
    "\(layout) viewport \(viewport) counts \(itemCounts)"
  }
}

struct SceneOptions {
  var flows: [Flow] = [.vertical]
  var directions: [LayoutDirection] = [.leftToRight]
  var snapping: [Bool] = [false]
  var spans = true
  var sections = true
  var zeroHeights = true
  var aspect = true
  var adaptive = true
  var supplements = true
  var maxItems = 120
}

private func pick<T, G: RandomNumberGenerator>(_ choices: [T], _ rng: inout G)
  -> T
{
  choices[Int.random(in: 0..<choices.count, using: &rng)]
}

/// A margin: mostly whole numbers, sometimes fractions, sometimes zero.
private func randomMargin<G: RandomNumberGenerator>(_ rng: inout G) -> Double {
  switch Int.random(in: 0..<6, using: &rng) {
  case 0: 0
  case 1: Double.random(in: 0...20, using: &rng)
  default: Double(Int.random(in: 1...20, using: &rng))
  }
}

func randomScene<G: RandomNumberGenerator>(
  _ rng: inout G, _ options: SceneOptions = SceneOptions()
) -> RandomScene {
  let sectionCount =
    options.sections && Bool.random(using: &rng)
    ? Int.random(in: 1...4, using: &rng) : 1
  var sections: [Section] = []
  for _ in 0..<sectionCount {
    var section = Section()
    if options.adaptive && Int.random(in: 0..<5, using: &rng) == 0 {
      section.columns = .minimumWidth(
        Double(Int.random(in: 40...200, using: &rng)))
    } else {
      section.columns = .count(Int.random(in: 1...6, using: &rng))
    }
    section.margins = Margins(
      top: randomMargin(&rng), bottom: randomMargin(&rng),
      left: randomMargin(&rng),
      right: randomMargin(&rng), column: randomMargin(&rng),
      row: randomMargin(&rng))
    section.order = Bool.random(using: &rng) ? .shortest : .leftToRight
    if options.supplements && sectionCount > 1 {
      if Int.random(in: 0..<3, using: &rng) == 0 {
        section.headerLength = Double(Int.random(in: 0...40, using: &rng))
      }
      if Int.random(in: 0..<3, using: &rng) == 0 {
        section.footerLength = Double(Int.random(in: 0...40, using: &rng))
      }
    }
    sections.append(section)
  }
  let scales: [Double] = [1, 2, 3]
  let layout = WaterflowLayout(
    flow: pick(options.flows, &rng), direction: pick(options.directions, &rng),
    snapsToPixels: pick(options.snapping, &rng), scale: pick(scales, &rng),
    headerLength: options.supplements && Int.random(in: 0..<4, using: &rng) == 0
      ? Double(Int.random(in: 0...60, using: &rng)) : nil,
    footerLength: options.supplements && Int.random(in: 0..<4, using: &rng) == 0
      ? Double(Int.random(in: 0...60, using: &rng)) : nil,
    sections: sections)
  var viewport = Size(
    width: Bool.random(using: &rng)
      ? 375 : Double.random(in: 120...900, using: &rng),
    height: Bool.random(using: &rng)
      ? 667 : Double.random(in: 120...900, using: &rng))
  if layout.snapsToPixels {
    // A device's bounds are whole pixels; snapping of an off-grid viewport is covered on its own.
    viewport = Size(
      width: (viewport.width * layout.scale).rounded() / layout.scale,
      height: (viewport.height * layout.scale).rounded() / layout.scale)
  }
  let counts = (0..<sectionCount).map { _ in
    Int.random(in: 0...2, using: &rng) == 0
      ? Int.random(in: 0...5, using: &rng)
      : Int.random(in: 0...options.maxItems, using: &rng)
  }
  let total = counts.reduce(0, +)
  var metrics: [ItemMetrics] = []
  for _ in 0..<total { metrics.append(randomItem(&rng, options)) }
  return RandomScene(
    layout: layout, viewport: viewport, itemCounts: counts, metrics: metrics)
}

func randomItem<G: RandomNumberGenerator>(
  _ rng: inout G, _ options: SceneOptions = SceneOptions()
) -> ItemMetrics {
  var length: ItemMetrics.Length
  switch Int.random(in: 0..<10, using: &rng) {
  case 0 where options.zeroHeights: length = .fixed(0)
  case 1 where options.aspect:
    length = .aspectRatio(
      width: Double(Int.random(in: 0...800, using: &rng)),
      height: Double(Int.random(in: 0...1200, using: &rng)))
  case 2: length = .fixed(Double.random(in: 1...300, using: &rng))
  default: length = .fixed(Double(Int.random(in: 20...250, using: &rng)))
  }
  var span = ItemMetrics.Span.columns(1)
  if options.spans {
    switch Int.random(in: 0..<12, using: &rng) {
    case 0: span = .full
    case 1, 2: span = .columns(Int.random(in: 2...4, using: &rng))
    default: break
    }
  }
  return ItemMetrics(length: length, span: span)
}

// MARK: - A model of the placement rules

/// The frames the rules in REFERENCE.md give, for vertical, left-to-right flow without snapping:
/// written independently of the engine, straight from the rules.
struct ModelLayout {
  var frames: [Rect] = []
  var columns: [Int] = []
  var spans: [Int] = []
  var contentHeight: Double = 0
  var header: Rect?
  var footer: Rect?
  var empty: Rect?

  init(_ scene: RandomScene) {
    let layout = scene.layout
    precondition(
      layout.flow == .vertical && layout.direction == .leftToRight
        && !layout.snapsToPixels)
    let width = scene.viewport.width
    var y = 0.0
    if let h = layout.headerLength {
      header = Rect(x: 0, y: 0, width: width, height: h)
      y = h
    }
    if scene.total == 0 {
      let e = Rect(
        x: 0, y: y, width: width,
        height: layout.emptyLength ?? scene.viewport.height)
      empty = e
      y = e.maxY
    }
    var index = 0
    for (s, section) in layout.sections.enumerated() {
      let count = s < scene.itemCounts.count ? scene.itemCounts[s] : 0
      let m = section.margins
      let n: Int
      switch section.columns {
      case .count(let c): n = max(1, c)
      case .perOrientation(let p, let l):
        n = max(1, Orientation(scene.viewport) == .portrait ? p : l)
      case .minimumWidth(let w):
        n = max(
          1,
          Int(
            ((width - m.left - m.right + m.column) / (w + m.column)).rounded(
              .down)))
      case .fixedWidth, .weights:
        preconditionFailure("the model lays out equal columns only")
      }
      let colWidth = max(
        0, (width - m.left - m.right - Double(n - 1) * m.column) / Double(n))
      func x(_ c: Int) -> Double { m.left + Double(c) * (colWidth + m.column) }
      let sectionStart = y
      if scene.total == 0 { continue }
      var top = sectionStart + m.top
      var bottom: Double? = nil
      if let h = section.headerLength, h > 0 {
        bottom = top + h
        top += h + m.row
      }
      var next = [Double](repeating: top, count: n)
      var cursor = 0
      for _ in 0..<count {
        let item = scene.metrics[index]
        var k: Int
        switch item.span {
        case .full: k = n
        case .columns(let c): k = min(max(c, 1), n)
        }
        var position = 0
        var itemY: Double
        switch section.order {
        case .shortest:
          var best = Double.infinity
          for p in 0...(n - k) {
            let tallest = next[p..<(p + k)].max()!
            if tallest < best {
              best = tallest
              position = p
            }
          }
          itemY = best
        case .leftToRight:
          if case .full = item.span {
            position = 0
          } else {
            if cursor + k > n { cursor = 0 }
            position = cursor
          }
          itemY = next[position..<(position + k)].max()!
          if case .full = item.span {
            cursor = 0
          } else {
            cursor = (position + k) % n
          }
        }
        // One column is exactly the column width; a span adds up positions (as the engine does).
        let w = k == 1 ? colWidth : x(position + k - 1) + colWidth - x(position)
        var h: Double
        switch item.length {
        case .fixed(let v): h = v > 0 && v.isFinite ? v : 0
        case .aspectRatio(let iw, let ih):
          h = iw > 0 && ih >= 0 ? w * ih / iw : w
        case .measured(let content):
          let v = content.length(atCrossLength: w)
          h = v > 0 && v.isFinite ? v : 0
        }
        frames.append(Rect(x: x(position), y: itemY, width: w, height: h))
        columns.append(position)
        spans.append(k)
        for c in position..<(position + k) {
          if h > 0 {
            next[c] = itemY + h + m.row
          } else {
            next[c] = max(next[c], itemY)
          }
        }
        if h > 0 { bottom = max(bottom ?? itemY + h, itemY + h) }
        index += 1
      }
      if let f = section.footerLength, f > 0 {
        let fy = next.max()!
        bottom = max(bottom ?? fy + f, fy + f)
      }
      y = (bottom ?? sectionStart + m.top) + m.bottom
    }
    if let f = layout.footerLength {
      footer = Rect(x: 0, y: y, width: width, height: f)
      y += f
    }
    contentHeight = y
  }
}

// MARK: - Comparisons

func close(_ a: Double, _ b: Double, tolerance: Double = 1e-7) -> Bool {
  abs(a - b) <= tolerance * max(1, abs(a), abs(b))
}

func close(_ a: Rect, _ b: Rect, tolerance: Double = 1e-7) -> Bool {
  close(a.minX, b.minX, tolerance: tolerance)
    && close(a.minY, b.minY, tolerance: tolerance)
    && close(a.width, b.width, tolerance: tolerance)
    && close(a.height, b.height, tolerance: tolerance)
}

func transposed(_ r: Rect) -> Rect {
  Rect(x: r.minY, y: r.minX, width: r.height, height: r.width)
}

/// The scene turned sideways: viewport and margins swapped, image sizes swapped.
func transposed(_ scene: RandomScene) -> RandomScene {
  var t = scene
  t.layout.flow = scene.layout.flow == .vertical ? .horizontal : .vertical
  t.viewport = Size(width: scene.viewport.height, height: scene.viewport.width)
  t.layout.sections = scene.layout.sections.map { s in
    var s = s
    let m = s.margins
    s.margins = Margins(
      top: m.left, bottom: m.right, left: m.top, right: m.bottom,
      column: m.column, row: m.row)
    return s
  }
  t.metrics = scene.metrics.map { m in
    var m = m
    if case .aspectRatio(let w, let h) = m.length {
      m.length = .aspectRatio(width: h, height: w)
    }
    return m
  }
  return t
}
