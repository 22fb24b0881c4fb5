import Foundation

/// How a timed scroll moves from its start to its end: the progress at a fraction of the time.
public enum ScrollCurve: String, Hashable, Sendable, CaseIterable {
  /// Constant speed.
  case linear
  /// Cubic ease-in-out: slow, fast, slow, and symmetric (`progress(1 − p) = 1 − progress(p)`).
  case easeInOut = "ease-in-out"

  /// The fraction of the distance covered at a fraction `p` (0…1) of the time.
  public func progress(_ p: Double) -> Double {
    let p = min(1, max(0, p))
    switch self {
    case .linear:
      return p
    case .easeInOut:
      // Written from both ends so that the curve is exactly symmetric in floating point.
      if p < 0.5 { return 4 * p * p * p }
      let q = 1 - p
      return 1 - 4 * q * q * q
    }
  }
}

/// UIScrollView's deceleration rates: the speed keeps this fraction of itself every millisecond.
///
/// The corresponding UIKit type is `UIScrollView.DecelerationRate` (`.normal` 0.998, `.fast` 0.99).
public struct DecelerationRate: Hashable, Sendable {
  /// The fraction of the speed kept per millisecond, in (0, 1).
  public var perMillisecond: Double

  public init(perMillisecond: Double) {
    precondition(
      perMillisecond > 0 && perMillisecond < 1,
      "a deceleration rate is between 0 and 1")
    self.perMillisecond = perMillisecond
  }

  /// 0.998 per ms: a long, gliding fling.
  public static let normal = DecelerationRate(perMillisecond: 0.998)
  /// 0.99 per ms: a short fling that stops soon.
  public static let fast = DecelerationRate(perMillisecond: 0.99)

  /// `normal`, `fast`, or a number in (0, 1); nil for anything else.
  public init?(name: String) {
    switch name {
    case "normal": self = .normal
    case "fast": self = .fast
    default:
      guard let v = Double(name), v > 0, v < 1 else { return nil }
      self.init(perMillisecond: v)
    }
  }
}

/// A fling: UIScrollView's deceleration from an initial velocity, sampled at a frame rate.
///
/// The speed decays as `v(t) = v₀ · rate^t` (t in ms), so the offset is
/// `x(t) = x₀ + v₀/1000 · (rate^t − 1) / ln(rate)`. The fling stops at the first frame whose
/// speed is below half a point per frame, or at the first frame that reaches a content edge,
/// where it is clamped (no rubber band).
public struct Deceleration: Hashable, Sendable {
  /// The initial velocity in points per second; negative scrolls back towards the top.
  public var velocity: Double
  public var rate: DecelerationRate

  public init(velocity: Double, rate: DecelerationRate = .normal) {
    self.velocity = velocity
    self.rate = rate
  }

  /// The speed below which the scroll view comes to rest, in points per frame.
  public static let restingSpeed = 0.5

  /// The offsets of the frames after the start, up to and including the frame at rest.
  ///
  /// - Parameters:
  ///   - start: The offset when the finger lifts (not part of the result).
  ///   - fps: Frames per second.
  ///   - bounds: The offsets the content allows: 0 through content length − viewport length.
  /// - Returns: One offset per frame; empty when the velocity is already below the resting speed.
  /// - Complexity: O(frames): about `ln(2 |v₀| / fps) / −ln(rate) · fps / 1000` of them.
  public func offsets(
    from start: Double, fps: Double, bounds: ClosedRange<Double>
  ) -> [Double] {
    precondition(fps > 0, "fps must be positive")
    guard abs(velocity) / fps >= Self.restingSpeed else { return [] }
    let lnRate = log(rate.perMillisecond)
    var result: [Double] = []
    var frame = 1
    while true {
      let t = 1000 * Double(frame) / fps
      let decay = pow(rate.perMillisecond, t)
      var x = start + velocity / 1000 * (decay - 1) / lnRate
      let atEdge =
        (velocity < 0 && x <= bounds.lowerBound)
        || (velocity > 0 && x >= bounds.upperBound)
      x = min(bounds.upperBound, max(bounds.lowerBound, x))
      result.append(x)
      let speedPerFrame = abs(velocity * decay) / fps
      if atEdge || speedPerFrame < Self.restingSpeed { return result }
      frame += 1
    }
  }

  /// The distance the fling would cover with no edges: `v₀ / 1000 / −ln(rate)`.
  public var distance: Double { velocity / 1000 / -log(rate.perMillisecond) }
}
