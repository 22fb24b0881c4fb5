// WaterflowView.docc, "Driving the Control from Swift": the example, compiled and run here.
import Testing
// doc: getting-started begin
import WaterflowView

// doc: getting-started end

// doc: getting-started begin
final class Demo: WaterflowViewDataSource, WaterflowViewDelegate {
  var colours = SeededGenerator(seed: 1)
  func numberOfCells(in view: WaterflowView) -> Int { 100 }
  func waterflowView(_ view: WaterflowView, cellAt index: Int) -> WaterflowCell {
    if let cell = view.dequeueReusableCell(withIdentifier: "cell") { return cell }
    let cell = WaterflowCell(reuseIdentifier: "cell")
    cell.backgroundColor = .random(using: &colours)  // only when created: reuse stays visible
    return cell
  }
  func waterflowView(_ view: WaterflowView, heightAt index: Int) -> Double { [90, 110, 80][index % 3] }
  func waterflowView(_ view: WaterflowView, marginFor type: MarginType) -> Double { type == .column || type == .row ? 5 : 10 }
}

// doc: getting-started end

@Suite struct GettingStartedSnippetTests {
  @Test func theDemo_ScrollsReusesAndSelects() throws {
    // doc: getting-started begin
    let demo = Demo()
    let view = WaterflowView(bounds: Size(width: 375, height: 667))
    view.dataSource = demo
    view.delegate = demo
    view.layoutSubviews()              // the first layout reloads by itself
    let pass = view.scroll(to: 400)    // LayoutPass: displayed, created, reused, enqueued, poolSize
    view.selectCell(at: Point(x: 50, y: 450))
    // doc: getting-started end
    #expect(pass.displayed.count > 0)
    #expect(view.createdCellCount < 100, "cells are reused, not made for every item")
  }
}
