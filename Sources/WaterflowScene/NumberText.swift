extension Double {
  /// The number as Waterflow's JSON and messages write it: whole numbers without a fraction
  /// ("10", not "10.0"), others in Swift's shortest round-tripping form, `null` when not finite.
  public var jsonText: String {
    guard isFinite else { return "null" }
    return self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
  }
}
