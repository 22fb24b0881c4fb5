// The placement routine: one pass over the items, shared by a full layout, an append and a
// relayout from an index. Everything runs along the flow (main/cross) so that horizontal flow
// is the same code as vertical, and right-to-left is a mirror applied when frames are read.

extension WaterflowLayout {
  /// Lays out items in one pass and returns their frames.
  ///
  /// - Parameters:
  ///   - viewport: The size of the scroll view's bounds.
  ///   - orientation: Picks portrait or landscape column counts; nil derives it from `viewport`.
  ///   - itemCounts: The number of items in each section (missing sections have none).
  ///   - metrics: The length and span of the item at a flat index, asked once per item in order.
  /// - Complexity: O(n·c) for n items and c columns.
  public func snapshot(
    viewport: Size, orientation: Orientation? = nil, itemCounts: [Int],
    metrics: (Int) -> ItemMetrics
  ) -> LayoutSnapshot {
    var snapshot = LayoutSnapshot(
      layout: self, viewport: viewport,
      orientation: orientation ?? Orientation(viewport))
    snapshot.layOutSections(from: 0, itemCounts: itemCounts, metrics: metrics)
    return snapshot
  }

  /// The nominal column width of each section for a viewport, before any item is laid out.
  ///
  /// Data sources use it to size items by aspect ratio, as the shop demo does.
  public func columnWidths(viewport: Size, orientation: Orientation? = nil)
    -> [Double]
  {
    let s = LayoutSnapshot(
      layout: self, viewport: viewport,
      orientation: orientation ?? Orientation(viewport))
    return sections.map {
      s.makeStore(for: $0, items: 0..<0, mainStart: 0).nominalLaneWidth
    }
  }
}

extension LayoutSnapshot {
  init(layout: WaterflowLayout, viewport: Size, orientation: Orientation) {
    self.layout = layout
    self.viewport = viewport
    self.orientation = orientation
    self.crossExtent = max(
      0, layout.flow == .vertical ? viewport.width : viewport.height)
  }

  /// Appends items to the last section without touching earlier frames.
  ///
  /// The result is exactly what a full layout of all the items would give.
  ///
  /// - Parameters:
  ///   - count: How many items to append.
  ///   - metrics: The metrics of the item at a flat index; asked only for the new indices.
  /// - Complexity: O(k·c) for k new items, plus O(n) only when the layout had no items at all.
  public mutating func append(count: Int, metrics: (Int) -> ItemMetrics) {
    precondition(givenIndex == nil, "given frames are fixed: ask their layout for new ones")
    precondition(count >= 0, "count must not be negative")
    guard count > 0 else { return }
    if items.isEmpty {
      var counts = [Int](repeating: 0, count: layout.sections.count)
      counts[counts.count - 1] = count
      layOutSections(from: 0, itemCounts: counts, metrics: metrics)
      return
    }
    var store = sectionStores.removeLast()
    let end = items.count + count
    for index in items.count..<end {
      place(metrics(index), at: index, in: &store)
    }
    store.items = store.items.lowerBound..<end
    finish(&store)
    sectionStores.append(store)
    finishContent()
  }

  /// Recomputes frames from `index` on, after items there (or later) were inserted, removed or
  /// resized; frames before `index` are kept as they are.
  ///
  /// - Parameters:
  ///   - index: The first index whose item may differ; earlier items must be unchanged.
  ///   - itemCounts: The new number of items in each section.
  ///   - metrics: The metrics of the item at a flat index; asked only for `index` and later.
  /// - Complexity: O((n − index)·c), plus O(c·log n) to restore the column state at `index`.
  public mutating func relayout(
    from index: Int, itemCounts: [Int], metrics: (Int) -> ItemMetrics
  ) {
    precondition(givenIndex == nil, "given frames are fixed: ask their layout for new ones")
    let total = itemCounts.reduce(0, +)
    guard index > 0, index < items.count, index <= total else {
      // From the old end with no fewer items, only appending is left to do.
      if index == items.count, index > 0, total >= index,
        Array(itemCounts.dropLast())
          == sectionStores.dropLast().map(\.items.count)
      {
        append(count: total - index, metrics: metrics)
      } else {
        layOutSections(from: 0, itemCounts: itemCounts, metrics: metrics)
      }
      return
    }
    var s = section(containing: index)
    // Items inserted at the end of a section take flat indices that used to start the next one:
    // the new counts may put `index` in an earlier section, which is then the first that changed.
    var start = 0
    for t in 0..<min(s, itemCounts.count) {
      start += max(0, itemCounts[t])
      if start > index {
        s = t
        break
      }
    }
    // A change at a section's first item is a change to that section from its start; the
    // sections before it are untouched either way.
    sectionStores.removeLast(sectionStores.count - s - 1)
    var store = sectionStores.removeLast()
    restore(&store, at: index)
    items.removeLast(items.count - index)
    placements.removeLast(placements.count - index)
    let sectionEnd = itemCounts.prefix(s + 1).reduce(0, +)
    for i in index..<max(index, sectionEnd) {
      place(metrics(i), at: i, in: &store)
    }
    store.items = store.items.lowerBound..<max(index, sectionEnd)
    finish(&store)
    sectionStores.append(store)
    layOutSections(from: s + 1, itemCounts: itemCounts, metrics: metrics)
  }

  // MARK: - Sections

  /// Lays out sections `first...` after the ones already present, then the global footer.
  mutating func layOutSections(
    from first: Int, itemCounts: [Int], metrics: (Int) -> ItemMetrics
  ) {
    if first == 0 {
      items.removeAll(keepingCapacity: true)
      placements.removeAll(keepingCapacity: true)
      sectionStores.removeAll(keepingCapacity: true)
      headerRect = nil
      emptyRect = nil
      let total = itemCounts.reduce(0, +)
      items.reserveCapacity(total)
      placements.reserveCapacity(total)
    }
    let total = items.count + itemCounts.dropFirst(first).reduce(0, +)
    var main: Double
    if first == 0 {
      main = 0
      if let length = layout.headerLength {
        let r = FlowRect(
          cross: 0, main: 0, crossLength: crossExtent, mainLength: snap(length))
        headerRect = r
        main = r.mainEnd
      }
      if total == 0 {
        let viewportMain =
          layout.flow == .vertical ? viewport.height : viewport.width
        switch layout.emptyContent {
        case .emptyView:
          let r = FlowRect(
            cross: 0, main: main, crossLength: crossExtent,
            mainLength: snap(layout.emptyLength ?? viewportMain))
          emptyRect = r
          main = r.mainEnd
        case .viewport:
          // PSCollectionView: `totalHeight = self.height`, whatever the header took.
          emptyRect = FlowRect(
            cross: 0, main: main, crossLength: crossExtent,
            mainLength: max(0, snap(viewportMain) - main))
          main = snap(viewportMain)
        case .bottomMargin:
          // The seeds: the tallest of the empty columns is 0, plus the bottom margin.
          main += snap(FlowInsets(layout.sections[0].margins, flow: layout.flow).mainEnd)
        }
      }
    } else {
      main = sectionStores[first - 1].mainEnd
    }
    let showSections = total > 0
    for s in first..<layout.sections.count {
      let count = s < itemCounts.count ? max(0, itemCounts[s]) : 0
      let start = items.count
      var store = makeStore(
        for: layout.sections[s], items: start..<start, mainStart: main)
      if showSections {
        // Columns share the items about evenly; spans add a little. Reserving avoids regrowth.
        let perLane =
          count / store.lanes.count + count / (4 * store.lanes.count) + 16
        for c in store.laneItems.indices {
          store.laneItems[c].reserveCapacity(perLane)
        }
        startSection(&store, section: layout.sections[s])
        for index in start..<(start + count) {
          place(metrics(index), at: index, in: &store)
        }
        store.items = start..<(start + count)
        finish(&store)
      } else {
        store.mainEnd = main
      }
      main = store.mainEnd
      sectionStores.append(store)
    }
    finishContent()
  }

  /// A section's columns, before anything is placed in it.
  func makeStore(for section: Section, items: Range<Int>, mainStart: Double)
    -> SectionStore
  {
    var insets = FlowInsets(section.margins, flow: layout.flow)
    let n = section.columns.count(
      across: crossExtent, insets: insets, orientation: orientation)
    var lanes: [(start: Double, length: Double)] = []
    lanes.reserveCapacity(n)
    var nominal: Double
    let snaps = layout.snapsToPixels && layout.scale > 0
    var equal = layout.columnWidthRounding == .exact
    switch section.columns {
    case .fixedWidth, .weights: equal = false
    case .count, .perOrientation, .minimumWidth: break
    }
    if equal && snaps {
      // Work in whole device pixels: every column gets ⌊P / n⌋ and the first P mod n columns
      // (from the start edge) one more, so the leftover pixels land in a fixed place.
      let scale = layout.scale
      let px = { (v: Double) -> Int in Int((v * scale).rounded()) }
      let gap = px(insets.laneGap)
      let available = max(
        0,
        px(crossExtent) - px(insets.crossStart) - px(insets.crossEnd) - (n - 1)
          * gap)
      let base = available / n
      let extra = available % n
      var x = px(insets.crossStart)
      for c in 0..<n {
        let w = base + (c < extra ? 1 : 0)
        lanes.append((Double(x) / scale, Double(w) / scale))
        x += w + gap
      }
      nominal = Double(base) / scale
    } else if equal {
      let width = max(
        0,
        (crossExtent - insets.crossStart - insets.crossEnd - Double(n - 1)
          * insets.laneGap) / Double(n))
      for c in 0..<n {
        lanes.append(
          (insets.crossStart + Double(c) * (width + insets.laneGap), width))
      }
      nominal = width
    } else {
      // Widths of their own (fixed, weighted or floored): each column from the start edge, one
      // gap apart, its edges on the pixel grid when snapping.
      let available = max(
        0, crossExtent - insets.crossStart - insets.crossEnd - Double(n - 1) * insets.laneGap)
      var widths: [Double]
      switch section.columns {
      case .fixedWidth(let width, _):
        widths = Array(repeating: max(0, width), count: n)
      case .weights(let weights) where weights.reduce(0, +) > 0:
        let total = weights.reduce(0, +)
        widths = weights.map { available * max(0, $0) / total }
      default:
        widths = Array(repeating: available / Double(n), count: n)
      }
      if layout.columnWidthRounding == .floor { widths = widths.map { $0.rounded(.down) } }
      var x = insets.crossStart
      if case .fixedWidth(_, fitWidth: true) = section.columns {
        // masonry's fitWidth: the container shrinks to its columns and is centred.
        x += max(0, (available - widths.reduce(0, +)) / 2)
      }
      for c in 0..<n {
        let start = snaps ? grid.snap(x) : x
        let end = snaps ? grid.snap(x + widths[c]) : x + widths[c]
        lanes.append((start, end - start))
        x += widths[c] + insets.laneGap
      }
      nominal = lanes[0].length
    }
    if snaps {
      let snap = grid.snap
      insets.mainStart = snap(insets.mainStart)
      insets.mainEnd = snap(insets.mainEnd)
      insets.itemGap = snap(insets.itemGap)
      insets.laneGap = snap(insets.laneGap)
    }
    let top = mainStart + insets.mainStart
    return SectionStore(
      items: items, insets: insets, order: section.order, lanes: lanes,
      nominalLaneWidth: nominal,
      mainStart: mainStart, header: nil, footerLength: section.footerLength,
      footerInsets: section.footerInsets,
      footer: nil,
      start: Array(repeating: top, count: n),
      laneItems: Array(repeating: [], count: n),
      laneSamples: Array(repeating: [], count: n),
      next: Array(repeating: top, count: n), bottom: nil,
      firstItemMain: top)
  }

  /// Places the section header ahead of the section's items, then its stamps, and records where
  /// each column starts.
  private func startSection(_ store: inout SectionStore, section: Section) {
    if let length = section.headerLength {
      let r: FlowRect
      var itemsStart: Double
      if let insets = section.headerInsets?.along(layout.flow) {
        // CHT: the header comes before the section's top margin, across the view less its
        // insets; the items start after its bottom inset and the top margin.
        r = FlowRect(
          cross: snap(insets.crossStart), main: store.mainStart + snap(insets.mainStart),
          crossLength: max(0, crossExtent - snap(insets.crossStart) - snap(insets.crossEnd)),
          mainLength: snap(length))
        itemsStart = r.mainEnd + snap(insets.mainEnd) + store.insets.mainStart
        store.bottom = r.mainEnd + snap(insets.mainEnd)
      } else {
        r = FlowRect(
          cross: store.lanes[0].start, main: store.firstItemMain,
          crossLength: fullSpanLength(store), mainLength: snap(length))
        itemsStart = store.firstItemMain
        if r.mainLength > 0 {
          store.bottom = r.mainEnd
          itemsStart = r.mainEnd + store.insets.itemGap
        }
      }
      store.header = r
      store.firstItemMain = itemsStart
      for c in store.next.indices { store.next[c] = itemsStart }
    }
    for stamp in section.stamps {
      let (cross, main, crossLength, mainLength) =
        layout.flow == .vertical
        ? (stamp.minX, stamp.minY, stamp.width, stamp.height)
        : (stamp.minY, stamp.minX, stamp.height, stamp.width)
      let r = FlowRect(
        cross: snap(cross), main: store.firstItemMain + snap(main),
        crossLength: snap(crossLength), mainLength: snap(mainLength))
      store.stamps.append(r)
      // masonry's _manageStamp: every column the stamp overlaps continues below it.
      for c in store.lanes.indices {
        let lane = store.lanes[c]
        guard lane.start < r.cross + r.crossLength, r.cross < lane.start + lane.length else {
          continue
        }
        store.next[c] = max(store.next[c], r.mainEnd + store.insets.itemGap)
      }
      if r.mainLength > 0 { store.bottom = max(store.bottom ?? r.mainEnd, r.mainEnd) }
    }
    store.start = store.next
    store.initialBottom = store.bottom
  }

  /// Places the section footer below the tallest column and computes where the section ends.
  private func finish(_ store: inout SectionStore) {
    var bottom = store.bottom
    store.footer = nil
    if let length = store.footerLength {
      if let insets = store.footerInsets?.along(layout.flow) {
        // CHT: below the tallest column and the bottom margin, across the view less the insets;
        // the section ends after the footer's bottom inset.
        let main = (bottom ?? store.firstItemMain) + store.insets.mainEnd + snap(insets.mainStart)
        let r = FlowRect(
          cross: snap(insets.crossStart), main: main,
          crossLength: max(0, crossExtent - snap(insets.crossStart) - snap(insets.crossEnd)),
          mainLength: snap(length))
        store.footer = r
        store.mainEnd = r.mainEnd + snap(insets.mainEnd)
        return
      }
      let r = FlowRect(
        cross: store.lanes[0].start,
        main: store.next.max() ?? store.firstItemMain,
        crossLength: fullSpanLength(store), mainLength: snap(length))
      store.footer = r
      if r.mainLength > 0 { bottom = max(bottom ?? r.mainEnd, r.mainEnd) }
    }
    store.mainEnd =
      (bottom ?? (store.mainStart + store.insets.mainStart))
      + store.insets.mainEnd
  }

  /// Places the global footer after the last section and sets the content length.
  private mutating func finishContent() {
    var reach = -Double.infinity
    for s in sectionStores.indices {
      reach = max(reach, sectionStores[s].mainEnd)
      // Within a column frames end in order, so each column's last item reaches furthest.
      for lane in sectionStores[s].laneItems {
        if let last = lane.last { reach = max(reach, items[Int(last)].mainEnd) }
      }
      sectionStores[s].reach = reach
    }
    var main = sectionStores.last?.mainEnd ?? 0
    if let e = emptyRect { main = max(main, e.mainEnd) }
    footerRect = nil
    if let length = layout.footerLength {
      let r = FlowRect(
        cross: 0, main: main, crossLength: crossExtent, mainLength: snap(length)
      )
      footerRect = r
      main = r.mainEnd
    }
    // CHT's minimumContentHeight: a short content still fills this much.
    contentLength = max(main, snap(layout.minimumContentLength))
  }

  private func fullSpanLength(_ store: SectionStore) -> Double {
    let last = store.lanes[store.lanes.count - 1]
    return last.start + last.length - store.lanes[0].start
  }

  // MARK: - Items

  /// Places one item: the core of the layout, run once per item.
  mutating func place(
    _ m: ItemMetrics, at index: Int, in store: inout SectionStore
  ) {
    let n = store.lanes.count
    var k: Int
    var isFull = false
    switch m.span {
    case .full:
      k = n
      isFull = true
    case .columns(let c):
      k = min(max(c, 1), n)
    }
    var position = 0
    var y: Double
    switch store.order {
    case .shortest:
      if k == 1 {
        // The reference rule: the lowest column, ties to the leftmost (strict `<`).
        y = store.next[0]
        for c in 1..<n where store.next[c] < y {
          y = store.next[c]
          position = c
        }
      } else if k == n {
        y = store.next.max()!
      } else {
        y = .infinity
        for p in 0...(n - k) {
          var tallest = store.next[p]
          for c in (p + 1)..<(p + k) where store.next[c] > tallest {
            tallest = store.next[c]
          }
          if tallest < y {
            y = tallest
            position = p
          }
        }
      }
    case .leftToRight:
      if !isFull {
        if store.cursor + k > n { store.cursor = 0 }
        position = store.cursor
      }
      y = store.next[position]
      for c in position..<(position + k) where store.next[c] > y {
        y = store.next[c]
      }
      store.cursor = isFull ? 0 : (position + k) % n
    }
    let first = store.lanes[position]
    let last = store.lanes[position + k - 1]
    let crossLength =
      k == 1 ? first.length : last.start + last.length - first.start
    let length = PixelGrid(
      flow: layout.flow, snaps: layout.snapsToPixels, scale: layout.scale
    )
    .mainLength(of: m.length, crossLength: crossLength)
    items.append(
      FlowRect(
        cross: first.start, main: y, crossLength: crossLength,
        mainLength: length))
    placements.append(
      Placement(column: Int32(position), span: Int32(k), isFullSpan: isFull))
    let entry = Int32(truncatingIfNeeded: index)
    if length > 0 {
      // PSCollectionView: only an item with a length moves its columns' bottoms.
      let next = y + length + store.insets.itemGap
      for c in position..<(position + k) {
        store.next[c] = next
        if store.laneItems[c].count % SectionStore.sampleStride == 0 {
          store.laneSamples[c].append(y + length)
        }
        store.laneItems[c].append(entry)
      }
      let end = y + length
      if let b = store.bottom {
        if end > b { store.bottom = end }
      } else {
        store.bottom = end
      }
    } else {
      // A zero-length span still lifts its columns to where it sits, so each column's items stay
      // sorted by position (the visibility query relies on it).
      for c in position..<(position + k) {
        if store.next[c] < y { store.next[c] = y }
        if store.laneItems[c].count % SectionStore.sampleStride == 0 {
          store.laneSamples[c].append(y)
        }
        store.laneItems[c].append(entry)
      }
    }
  }

  /// Rebuilds a section's placement state as it was just before `index` was placed.
  private func restore(_ store: inout SectionStore, at index: Int) {
    let n = store.lanes.count
    store.bottom = store.initialBottom
    for c in 0..<n {
      var lane = store.laneItems[c]
      store.laneItems[c] = []
      while let last = lane.last, Int(last) >= index { lane.removeLast() }
      let samples =
        (lane.count + SectionStore.sampleStride - 1) / SectionStore.sampleStride
      store.laneSamples[c].removeLast(store.laneSamples[c].count - samples)
      if let last = lane.last {
        let r = items[Int(last)]
        store.next[c] =
          r.mainLength > 0 ? r.mainEnd + store.insets.itemGap : r.main
      } else {
        store.next[c] = store.start[c]
      }
      for entry in lane.reversed() where items[Int(entry)].mainLength > 0 {
        let end = items[Int(entry)].mainEnd
        store.bottom = max(store.bottom ?? end, end)
        break
      }
      store.laneItems[c] = lane
    }
    if index == store.items.lowerBound {
      store.cursor = 0
    } else {
      let p = placements[index - 1]
      store.cursor = p.isFullSpan ? 0 : (Int(p.column) + Int(p.span)) % n
    }
  }

  private var grid: PixelGrid {
    PixelGrid(
      flow: layout.flow, snaps: layout.snapsToPixels, scale: layout.scale)
  }

  private func snap(_ v: Double) -> Double { grid.snap(v) }
}

/// Item lengths on the pixel grid (or not). A small value, so the per-item code reads three
/// fields instead of copying the whole snapshot for every call.
struct PixelGrid {
  let flow: Flow
  let snaps: Bool
  let scale: Double

  /// The main-axis length of an item `crossLength` wide (or high, in horizontal flow).
  func mainLength(of length: ItemMetrics.Length, crossLength: Double) -> Double
  {
    switch length {
    case .fixed(let v):
      return v.isFinite && v > 0 ? snap(v) : 0
    case .measured(let content):
      let v = content.length(atCrossLength: crossLength)
      return v.isFinite && v > 0 ? snap(v) : 0
    case .aspectRatio(let w, let h):
      let (along, across) = flow == .vertical ? (h, w) : (w, h)
      // An image with no usable width (w ≤ 0, or a NaN from the server) would divide by zero:
      // show it square instead, so no frame is ever NaN or infinite.
      guard across > 0, along >= 0, across.isFinite, along.isFinite else {
        return snap(crossLength)
      }
      let v = crossLength * along / across
      guard v.isFinite else { return snap(crossLength) }
      // CHTCollectionViewWaterfallLayout floors aspect-ratio heights to the pixel grid.
      return snaps && scale > 0 ? (v * scale).rounded(.down) / scale : v
    }
  }

  func snap(_ v: Double) -> Double {
    guard snaps, scale > 0, v.isFinite else { return v.isFinite ? v : 0 }
    return (v * scale).rounded() / scale
  }
}
