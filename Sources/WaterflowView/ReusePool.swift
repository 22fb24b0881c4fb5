/// Cells waiting to be reused, one stack per reuse identifier.
///
/// The order is deterministic: last in, first out per identifier. Cells leaving the screen in one
/// layout pass go in ascending index order, so the cell that left at the highest index is the
/// first one handed out again.
public struct ReusePool {
  private var stacks: [String: [WaterflowCell]] = [:]
  /// The number of cells waiting, over all identifiers.
  public private(set) var count = 0

  public init() {}

  /// Puts a cell in the pool, calling its `prepareForReuse()`.
  ///
  /// - Complexity: amortised O(1)
  public mutating func enqueue(_ cell: WaterflowCell) {
    cell.prepareForReuse()
    cell.reuseCount += 1
    stacks[cell.reuseIdentifier, default: []].append(cell)
    count += 1
  }

  /// Takes the most recently enqueued cell with this identifier, or nil when there is none.
  ///
  /// - Complexity: O(1)
  public mutating func dequeue(withIdentifier identifier: String)
    -> WaterflowCell?
  {
    guard let cell = stacks[identifier]?.popLast() else { return nil }
    count -= 1
    return cell
  }

  /// The number of cells waiting with this identifier.
  ///
  /// - Complexity: O(1)
  public func count(withIdentifier identifier: String) -> Int {
    stacks[identifier]?.count ?? 0
  }

  /// The waiting cells: identifiers in ascending order, each stack from bottom to top.
  public var cells: [WaterflowCell] {
    stacks.keys.sorted().flatMap { stacks[$0]! }
  }

  /// Empties the pool.
  public mutating func removeAll() {
    stacks.removeAll()
    count = 0
  }
}
