// Reads with the range and choice checks every format shares, so their messages agree.

extension JSONReader {
  /// A finite number from `min` to `max`.
  ///
  /// - Throws: "must be at least 0, got -1", "must be greater than 0, got 0", "must be at most 4, got 5".
  @inlinable
  public mutating func number(
    min: Double, max: Double = .greatestFiniteMagnitude,
    exclusiveMin: Bool = false
  ) throws(JSONInputError) -> Double {
    let d = try number()
    if exclusiveMin ? d <= min : d < min {
      throw fail(
        "must be \(exclusiveMin ? "greater than" : "at least") \(min.jsonText), got \(d.jsonText)"
      )
    }
    if d > max {
      throw fail("must be at most \(max.jsonText), got \(d.jsonText)")
    }
    return d
  }

  /// A whole number from `min` to `max`, the documented limit.
  ///
  /// - Throws: "expected a whole number, got 2.5", "must be at least 1, got 0",
  ///   "must be at most 1000, got 1001 (the documented limit)".
  @inlinable
  public mutating func integer(min: Int, max: Int) throws(JSONInputError) -> Int
  {
    let d = try number()
    guard d == d.rounded() else {
      throw fail("expected a whole number, got \(d.jsonText)")
    }
    guard d >= Double(min) else {
      throw fail("must be at least \(min), got \(d.jsonText)")
    }
    guard d <= Double(max) else {
      throw fail(
        "must be at most \(max), got \(d.jsonText) (the documented limit)")
    }
    return Int(d)
  }

  /// The value of the name that comes next.
  ///
  /// - Throws: "\"diagonal\" is not one of \"horizontal\", \"vertical\"".
  public mutating func oneOf<T>(_ choices: [String: T]) throws(JSONInputError)
    -> T
  {
    let name = try string()
    guard let value = choices[name] else {
      throw fail(
        "\"\(name)\" is not one of \(choices.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", "))"
      )
    }
    return value
  }
}
