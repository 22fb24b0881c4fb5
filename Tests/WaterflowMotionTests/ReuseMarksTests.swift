import Testing
import WaterflowRender
import WaterflowScene

@testable import WaterflowMotion

/// `--mark-reuse` marks stay on a cell until it is wholly on screen, not one frame at the edge.
@Suite struct ReuseMarksTests {
  @Test func aMark_IsDrawnInTheFrameWhereItsCellIsFirstWhollyOnScreen() throws {
    let scene = try Scene(contentsOf: referencePath)
    let frames = Array(ScrollSimulation(scene: scene, script: .scroll(from: 0, to: 900, step: 7)))
    var marker = ReuseMarks()
    let marks = frames.map { marker.marks(for: $0) }
    func marked(_ k: Int, _ id: Int) -> Bool {
      marks[k].created.contains { $0.cell == id } || marks[k].reused.contains { $0.cell == id }
    }
    func wholly(_ k: Int, _ id: Int) -> Bool {
      let c = frames[k].content
      guard let cell = c.cells.first(where: { $0.instanceID == id }) else { return false }
      return cell.frame.minY >= c.offset && cell.frame.maxY <= c.offset + c.viewport.height
    }
    var checked = 0
    for (k, frame) in frames.enumerated() where k > 0 {
      for entering in frame.pass.reused + frame.pass.created {
        let id = entering.cell
        // The frame where the cell is first wholly on screen, while it stays displayed.
        guard
          let j = (k..<frames.count).first(where: { wholly($0, id) }),
          (k...j).allSatisfy({ i in frames[i].content.cells.contains { $0.instanceID == id } })
        else { continue }
        #expect((k...j).allSatisfy { marked($0, id) }, "cell #\(id) entered at frame \(k)")
        checked += 1
      }
    }
    #expect(checked > 10, "the scroll recycles cells that enter as slivers")
    // A mark drawn for one frame only would be gone by the time the cell is fully visible: at
    // 7-pt steps most cells enter as slivers, so most marks last several frames.
    let lasting = marks.indices.dropFirst().filter { k in
      (marks[k].reused + marks[k].created).contains { c in
        !(frames[k].pass.reused + frames[k].pass.created).contains { $0.cell == c.cell }
      }
    }
    #expect(!lasting.isEmpty)
  }

  @Test func aMark_StaysThroughFramesNotSeen_UntilASeenFrameShowsItsCellWhole() throws {
    // A contact sheet draws every 40th frame (280 pt apart): a cell created or reused between
    // two thumbnails must still be marked on the next one, though frames in between showed it
    // whole.
    let scene = try Scene(contentsOf: referencePath)
    let frames = Array(ScrollSimulation(scene: scene, script: .scroll(from: 0, to: 2400, step: 7)))
    let seen = Set(stride(from: 0, to: frames.count, by: 40))
    var sheet = ReuseMarks()
    var checked = 0
    var entered: [Int] = []  // cells created or reused since the last seen frame
    for (k, frame) in frames.enumerated() {
      let marks = sheet.marks(for: frame, shown: seen.contains(k))
      entered += (frame.pass.created + frame.pass.reused).map(\.cell)
      guard seen.contains(k) else { continue }
      let marked = Set((marks.created + marks.reused).map(\.cell))
      let onScreen = Set(frame.content.cells.map(\.instanceID))
      for id in entered where onScreen.contains(id) {
        #expect(marked.contains(id), "cell #\(id), entered before frame \(k), is marked on it")
        checked += 1
      }
      entered = []
    }
    #expect(checked > 10)
  }
}
