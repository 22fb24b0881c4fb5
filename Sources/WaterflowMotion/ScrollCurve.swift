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
/// where it is clamped.
///
/// With ``bounces`` (UIScrollView's `bounces`), a fling that reaches an edge with speed left
/// overshoots it and springs back instead: from the moment `tₑ` it crosses the edge with speed
/// `vₑ`, the offset is the critically damped spring `x = edge + v · u · e^(−u/τ)`, where
/// `u = t − tₑ` in seconds, ``bounceTime`` is `τ` and `v` is `vₑ` capped at `e · L / τ`, so that
/// the overshoot, which peaks at `v · τ / e` when `u = τ`, never exceeds
/// `L` = ``maximumOvershoot`` × the viewport's length. It comes to rest exactly on the edge at the
/// first frame after the peak that is within half a point of it. As in UIScrollView
/// (with `alwaysBounceVertical` off), content shorter than the viewport does not bounce.
public struct Deceleration: Hashable, Sendable {
  /// The initial velocity in points per second; negative scrolls back towards the top.
  public var velocity: Double
  public var rate: DecelerationRate
  /// Whether the fling overshoots a content edge it reaches and springs back to it.
  ///
  /// The corresponding UIKit property is `UIScrollView.bounces`.
  public var bounces: Bool

  public init(
    velocity: Double, rate: DecelerationRate = .normal, bounces: Bool = false
  ) {
    self.velocity = velocity
    self.rate = rate
    self.bounces = bounces
  }

  /// The speed below which the scroll view comes to rest, in points per frame.
  public static let restingSpeed = 0.5
  /// The bounce spring's time constant in seconds: the overshoot peaks this long after the edge.
  public static let bounceTime = 0.1
  /// The largest overshoot of a bounce, as a fraction of the viewport's length.
  public static let maximumOvershoot = 0.25

  /// The offsets of the frames after the start, up to and including the frame at rest.
  ///
  /// - Parameters:
  ///   - start: The offset when the finger lifts (not part of the result).
  ///   - fps: Frames per second.
  ///   - bounds: The offsets the content allows: 0 through content length − viewport length.
  ///   - viewportLength: The viewport's length along the scroll axis, which limits a bounce's
  ///     overshoot; infinity for no limit.
  /// - Returns: One offset per frame; empty when the velocity is already below the resting speed.
  /// - Complexity: O(frames): about `ln(2 |v₀| / fps) / −ln(rate) · fps / 1000` of them, plus
  ///   under a second of frames for a bounce.
  public func offsets(
    from start: Double, fps: Double, bounds: ClosedRange<Double>,
    viewportLength: Double = .infinity
  ) -> [Double] {
    precondition(fps > 0, "fps must be positive")
    guard abs(velocity) / fps >= Self.restingSpeed else { return [] }
    if bounces && bounds.upperBound > bounds.lowerBound {
      return bouncingOffsets(
        from: min(bounds.upperBound, max(bounds.lowerBound, start)), fps: fps,
        bounds: bounds, viewportLength: viewportLength)
    }
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

  /// The frames of a fling that bounces at the edge it reaches, from a start within the bounds.
  private func bouncingOffsets(
    from start: Double, fps: Double, bounds: ClosedRange<Double>,
    viewportLength: Double
  ) -> [Double] {
    let lnRate = log(rate.perMillisecond)
    let edge = velocity < 0 ? bounds.lowerBound : bounds.upperBound
    var result: [Double] = []
    var frame = 1
    while true {
      let t = 1000 * Double(frame) / fps
      let decay = pow(rate.perMillisecond, t)
      let x = start + velocity / 1000 * (decay - 1) / lnRate
      if velocity < 0 ? x <= edge : x >= edge { break }
      result.append(x)
      if abs(velocity * decay) / fps < Self.restingSpeed { return result }
      frame += 1
    }
    // Solving x(tₑ) = edge gives rate^tₑ, which is also the fraction of the speed left there.
    let left = 1 + (edge - start) * 1000 * lnRate / velocity
    let crossing = log(left) / lnRate / 1000
    let limit = Self.maximumOvershoot * viewportLength
    let cap = exp(1) * limit / Self.bounceTime
    let speed =
      velocity < 0 ? max(velocity * left, -cap) : min(velocity * left, cap)
    while true {
      let u = Double(frame) / fps - crossing
      let overshoot = speed * u * exp(-u / Self.bounceTime)
      if u > Self.bounceTime && abs(overshoot) < 0.5 {
        result.append(edge)
        return result
      }
      result.append(edge + overshoot)
      frame += 1
    }
  }

  /// The distance the fling would cover with no edges: `v₀ / 1000 / −ln(rate)`.
  public var distance: Double { velocity / 1000 / -log(rate.perMillisecond) }
}
