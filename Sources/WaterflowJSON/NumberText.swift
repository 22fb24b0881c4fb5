extension Double {
  /// The number as Waterflow's JSON and messages write it: whole numbers without a fraction
  /// ("10", not "10.0"), others in Swift's shortest round-tripping form, `null` when not finite.
  public var jsonText: String {
    guard isFinite else { return "null" }
    return jsonInteger.map { String($0) } ?? String(self)
  }

  /// The whole number ``jsonText`` writes without a fraction, or nil when it writes something else.
  var jsonInteger: Int? {
    // Below 1e15 (which NaN and the infinities are not), whole exactly when it survives Int.
    guard abs(self) < 1e15 else { return nil }
    let n = Int(self)
    return Double(n) == self ? n : nil
  }
}
