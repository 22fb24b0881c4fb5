internal import Cairo
internal import PNGCodec
import Foundation
import WaterflowRender

/// A line chart of reuse over time: cells created and reused per frame, cells in the pool and
/// cells on screen, with axes, ticks and a legend.
///
/// It keeps four small numbers per frame, not the frames.
struct ActivityPlot {
  private var times: [Double] = []
  private var series: [[Double]] = [[], [], [], []]
  /// The events (load more, refresh, rotate) and when they happened, marked on the chart.
  private var events: [(time: Double, name: String)] = []

  static let names = [
    "created (per frame)", "reused (per frame)", "in reuse pool", "on screen",
  ]
  static let colors: [(Double, Double, Double)] = [
    (0.1, 0.65, 0.3), (0.95, 0.5, 0), (0.2, 0.4, 0.9), (0.45, 0.45, 0.5),
  ]

  mutating func add(_ frame: SimulatedFrame) {
    times.append(frame.time)
    let p = frame.pass
    series[0].append(Double(p.created.count))
    series[1].append(Double(p.reused.count))
    series[2].append(Double(p.poolSize))
    series[3].append(Double(p.displayed.count))
    if let event = frame.event { events.append((frame.time, event)) }
  }

  func pngData(fonts: FontStack, title: String) throws -> [UInt8] {
    func text(_ string: String, _ size: Double) -> TextLayout {
      TextLayout(string, fonts: fonts, size: size)
    }
    let width = 900.0
    let height = 480.0
    let scale = 2.0
    let surface = try ImageSurface(
      width: Int(width * scale), height: Int(height * scale))
    let c = try Context(surface)
    c.scale(x: scale, y: scale)
    c.setSource(red: 1, green: 1, blue: 1)
    c.paint()
    let left = 60.0
    let right = 200.0
    let top = 40.0
    let bottom = 50.0
    let plotW = width - left - right
    let plotH = height - top - bottom
    let tMax = max(times.last ?? 0, 1e-9)
    let yMax = niceCeiling(series.flatMap { $0 }.max() ?? 1)
    func px(_ t: Double) -> Double { left + t / tMax * plotW }
    func py(_ v: Double) -> Double { top + plotH - v / yMax * plotH }

    c.setSource(red: 0.1, green: 0.1, blue: 0.12)
    c.draw(text(title, 14), x: left, baselineY: 24)

    // Grid and ticks.
    let yStep = niceStep(yMax / 5)
    var v = 0.0
    while v <= yMax + 1e-9 {
      c.setSource(red: 0.9, green: 0.9, blue: 0.92)
      c.lineWidth = 1
      c.moveTo(x: left, y: py(v).rounded() + 0.5)
      c.lineTo(x: left + plotW, y: py(v).rounded() + 0.5)
      c.stroke()
      c.setSource(red: 0.3, green: 0.3, blue: 0.35)
      let tick = text(JSONNumber.format(v), 11)
      c.draw(tick, x: left - 8 - tick.width, baselineY: py(v) + 4)
      v += yStep
    }
    let tStep = niceStep(tMax / 8)
    var t = 0.0
    while t <= tMax + 1e-9 {
      c.setSource(red: 0.3, green: 0.3, blue: 0.35)
      c.moveTo(x: px(t), y: top + plotH)
      c.lineTo(x: px(t), y: top + plotH + 5)
      c.stroke()
      let tick = text(String(format: tStep < 0.1 ? "%.2f" : "%.1f", t), 11)
      c.draw(tick, x: px(t) - tick.width / 2, baselineY: top + plotH + 18)
      t += tStep
    }
    // Axes.
    c.setSource(red: 0.2, green: 0.2, blue: 0.25)
    c.lineWidth = 1.5
    c.moveTo(x: left, y: top)
    c.lineTo(x: left, y: top + plotH)
    c.lineTo(x: left + plotW, y: top + plotH)
    c.stroke()
    let xLabel = text("time (s)", 11)
    c.draw(xLabel, x: left + plotW / 2 - xLabel.width / 2, baselineY: height - 12)
    c.withSavedState {
      c.translate(x: 16, y: top + plotH / 2)
      c.rotate(by: -Double.pi / 2)
      let label = text("cells", 11)
      c.draw(label, x: -label.width / 2, baselineY: 0)
    }

    // Events: a dashed line at each, labelled at the top, so the jumps in the series have a cause.
    for (i, event) in events.enumerated() {
      c.setSource(red: 0.55, green: 0.2, blue: 0.6)
      c.lineWidth = 1
      c.setDash([4, 3])
      c.moveTo(x: px(event.time).rounded() + 0.5, y: top)
      c.lineTo(x: px(event.time).rounded() + 0.5, y: top + plotH)
      c.stroke()
      c.setDash([])
      // Alternate label rows, so that events close together do not overwrite each other.
      c.draw(text(event.name, 10), x: px(event.time) + 3, baselineY: top + 11 + Double(i % 2) * 12)
    }

    // Series: steps, since counts change only at frames.
    for (s, values) in series.enumerated().reversed() where !values.isEmpty {
      let (r, g, b) = Self.colors[s]
      c.setSource(red: r, green: g, blue: b)
      c.lineWidth = s < 2 ? 1.5 : 2
      c.moveTo(x: px(times[0]), y: py(values[0]))
      for i in 1..<values.count {
        c.lineTo(x: px(times[i]), y: py(values[i - 1]))
        c.lineTo(x: px(times[i]), y: py(values[i]))
      }
      c.stroke()
    }

    // Legend.
    for (s, name) in Self.names.enumerated() {
      let (r, g, b) = Self.colors[s]
      let y = top + 10 + Double(s) * 22
      c.setSource(red: r, green: g, blue: b)
      c.rectangle(x: left + plotW + 20, y: y - 6, width: 18, height: 4)
      c.fill()
      c.setSource(red: 0.15, green: 0.15, blue: 0.18)
      c.draw(text(name, 11), x: left + plotW + 44, baselineY: y)
    }
    try c.checkStatus()
    return surface.pngData()
  }

  private func niceStep(_ raw: Double) -> Double {
    guard raw > 0 else { return 1 }
    let magnitude = pow(10, floor(log10(raw)))
    for m in [1.0, 2, 5, 10] where m * magnitude >= raw { return m * magnitude }
    return 10 * magnitude
  }

  private func niceCeiling(_ v: Double) -> Double {
    let step = niceStep(max(v, 1) / 5)
    return max(step, (max(v, 1) / step).rounded(.up) * step)
  }
}
