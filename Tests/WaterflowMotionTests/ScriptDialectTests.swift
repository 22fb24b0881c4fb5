import Foundation
import Testing
import WaterflowTestSupport
import WaterflowScene

@testable import WaterflowMotion

/// The one script dialect of `trace --script` and `scroll --script`, and the old trace forms.
@Suite struct ScriptDialectTests {}

private func parse(_ json: String) throws -> ScrollScript {
  let dir = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(atPath: dir) }
  let path = "\(dir)/script.json"
  try Data(json.utf8).write(to: URL(fileURLWithPath: path))
  return try ScrollScript(contentsOf: path)
}

private func trace(_ scene: Scene, _ script: ScrollScript) -> [TraceRecord] {
  Array(ScriptPlayer(scene: scene, script: script))
}

extension ScriptDialectTests {
  @Test func oldForms_readAsTheNewOnes_withANoteNamingIt() throws {
    let script = try parse(
      """
      {"steps": [{"scroll": {"to": 1200, "step": 100}}, {"scroll": {"to": 0}}, {"append": 20},
       {"prepend": 10}, {"offset": 5.5}, {"resize": {"width": 667, "height": 375}}]}
      """)
    #expect(
      script.segments == [
        .scrollInSteps(to: .offset(1200), step: 100), .scrollInSteps(to: .offset(0), step: 10),
        .loadMore(count: 20, reload: false, anywhere: true),
        .refresh(count: 10, reload: false, anywhere: true), .jump(5.5),
        .rotate(Size(width: 667, height: 375), columns: nil),
      ])
    #expect(
      script.notes == [
        "steps is the old name of segments",
        #"steps[1]: a scroll without duration, frames or step is the old form of {"scroll": {"to": …, "step": 10}}"#,
        #"steps[2]: {"append": 20} is the old form of {"loadMore": {"count": 20, "reload": false, "anywhere": true}}"#,
        #"steps[3]: {"prepend": 10} is the old form of {"refresh": {"count": 10, "reload": false, "anywhere": true}}"#,
        #"steps[4]: {"offset": 5.5} is the old form of {"jump": 5.5}"#,
        #"steps[5]: {"resize": …} is the old form of {"rotate": {"width": 667, "height": 375}}"#,
      ])
    // The new forms read without a note.
    let new = try parse(
      """
      {"segments": [{"scroll": {"to": 1200, "step": 100}}, {"scroll": {"to": 0, "step": 10}},
       {"loadMore": {"count": 20, "reload": false, "anywhere": true}},
       {"refresh": {"count": 10, "reload": false, "anywhere": true}}, {"jump": 5.5},
       {"rotate": {"width": 667, "height": 375}}]}
      """)
    #expect(new.segments == script.segments)
    #expect(new.notes.isEmpty)
  }

  @Test(arguments: [
    (#"[{"scroll": {}}]"#, "[0].scroll"),
    (#"[{"scroll": {"to": 5, "step": 0}}]"#, "[0].scroll.step"),
    (#"[{"scroll": {"to": 5, "step": 5, "frames": 3}}]"#, "[0].scroll"),
    (#"[{"scroll": {"to": 5, "step": 5, "curve": "linear"}}]"#, "[0].scroll.curve"),
    (#"[{"append": 1, "prepend": 2}]"#, "[0]"),
    (#"[{"append": -1}]"#, "[0].append"),
    (#"[{"append": 1.5}]"#, "[0].append"),
    (#"[{"resize": {"width": 100}}]"#, "[0].resize.height"),
    (#"[{"resize": {"width": 0, "height": 10}}]"#, "[0].resize.width"),
    (#"[{"offset": "top"}]"#, "[0].offset"),
    (#"[{"loadMore": {"count": 1, "anywhere": 1}}]"#, "[0].loadMore.anywhere"),
    (#"[3]"#, "[0]"),
    (#"{"steps": 3}"#, "steps"),
    (#"{"steps": [], "segments": []}"#, "segments"),
    (#"{"#, ""),
  ])
  func badScript_namesTheSegment(json: String, field: String) throws {
    let error = #expect(throws: ScrollScriptError.self) { try parse(json) }
    #expect(error?.field == field, "\(json): \(String(describing: error))")
  }

  /// 0 and 1 are numbers in the old trace forms too (the scroll forms are covered with the
  /// scroll script's own fields).
  @Test(arguments: [0, 1])
  func oldForms_zeroAndOne_areNumbers(n: Int) throws {
    let d = Double(n)
    let script = try parse(
      #"[{"scroll": {"to": \#(n), "step": 1}}, {"offset": \#(n)}, {"append": \#(n)}, {"prepend": \#(n)}]"#)
    #expect(
      script.segments == [
        .scrollInSteps(to: .offset(d), step: 1), .jump(d),
        .loadMore(count: n, reload: false, anywhere: true),
        .refresh(count: n, reload: false, anywhere: true),
      ])
  }

  @Test func scrollInSteps_coversBothEnds() throws {
    let scene = try Scene(contentsOf: referencePath)
    #expect(
      trace(scene, .scroll(from: 0, to: 250, step: 100)).map(\.pass.offset) == [0, 100, 200, 250])
    let back = ScrollScript(from: 250, segments: [.scrollInSteps(to: .offset(0), step: 100)])
    #expect(trace(scene, back).map(\.pass.offset) == [250, 150, 50, 0])
  }

  /// The shop demo's cycle in the old trace forms and in the new dialect (the sample file).
  @Test func oldAndNewDialects_giveIdenticalTraces_shopRefreshCycle() throws {
    let scene = try Scene(contentsOf: packageRoot + "/Assets/Scenes/shop.json")
    let old = try parse(
      """
      [{"scroll": {"to": 900, "step": 60}}, {"append": 20}, {"scroll": {"to": 1500, "step": 60}},
       {"offset": 0}, {"prepend": 10}, {"resize": {"width": 667, "height": 375}},
       {"resize": {"width": 375, "height": 667}}]
      """)
    let new = try ScrollScript(contentsOf: packageRoot + "/Assets/Scenes/shop-refresh.json")
    #expect(new.notes.isEmpty)
    let a = trace(scene, old)
    #expect(a == trace(scene, new))
    #expect(
      a.compactMap { $0.event } == [
        "load more 20", "jump 0", "refresh 10", "rotate 667x375", "rotate 375x667",
      ])
  }

  /// Random scripts written in both dialects give the same trace, pass for pass.
  @Test func oldAndNewDialects_giveIdenticalTraces_randomScripts() throws {
    var rng = SeededGenerator(seed: 7)
    let reference = try Scene(contentsOf: referencePath)
    for round in 0..<40 {
      var scene = reference
      scene.reuseOrder = Bool.random(using: &rng) ? .leaveFirst : .singlePass
      var old: [String] = []
      var new: [String] = []
      for _ in 0..<10 {
        let n = Int.random(in: 0...40, using: &rng)
        let y = Int.random(in: -50...3000, using: &rng)
        let step = Int.random(in: 10...300, using: &rng)
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
          old.append(#"{"append": \#(n)}"#)
          new.append(#"{"loadMore": {"count": \#(n), "reload": false, "anywhere": true}}"#)
        case 1:
          old.append(#"{"prepend": \#(n)}"#)
          new.append(#"{"refresh": {"count": \#(n), "reload": false, "anywhere": true}}"#)
        case 2:
          let (w, h) = Bool.random(using: &rng) ? (667, 375) : (375, 667)
          old.append(#"{"resize": {"width": \#(w), "height": \#(h)}}"#)
          new.append(#"{"rotate": {"width": \#(w), "height": \#(h)}}"#)
        case 3:
          old.append(#"{"offset": \#(y)}"#)
          new.append(#"{"jump": \#(y)}"#)
        default:
          old.append(#"{"scroll": {"to": \#(y), "step": \#(step)}}"#)
          new.append(#"{"scroll": {"to": \#(y), "step": \#(step)}}"#)
        }
      }
      let a = trace(scene, try parse("[" + old.joined(separator: ",") + "]"))
      let b = trace(scene, try parse(#"{"segments": ["# + new.joined(separator: ",") + "]}"))
      #expect(a == b, "round \(round)")
      #expect(a.count > 10)
    }
  }

  /// `scroll --script` frames are the passes `trace --script` prints.
  @Test func scrollSimulation_playsTheTracePlayersPasses() throws {
    let scene = try Scene(contentsOf: packageRoot + "/Assets/Scenes/shop.json")
    let script = try ScrollScript(contentsOf: packageRoot + "/Assets/Scenes/shop-scroll.json")
    let frames = Array(ScrollSimulation(scene: scene, script: script))
    let records = trace(scene, script)
    #expect(frames.map(\.pass) == records.map(\.pass))
    #expect(frames.map(\.event) == records.map(\.event))
    #expect(frames.contains { $0.event == "load more 20" })
  }

  /// loadMore and refresh reload as the seeds do (every visible cell asked for again, the pool
  /// emptied); `reload: false` keeps the displayed cells.
  @Test func loadMoreAndRefresh_reloadAsTheSeeds_unlessReloadFalse() throws {
    let scene = try Scene(contentsOf: referencePath)
    for reload in [true, false] {
      let player = ScriptPlayer(
        scene: scene,
        script: ScrollScript(segments: [
          .jump(2633), .loadMore(count: 30, reload: reload),
          .jump(0), .refresh(count: 6, reload: reload),
        ]))
      let records = Array(player)
      let before = records[1].pass.displayed
      let loaded = records[2].pass
      #expect(records[2].event == "load more 30")
      if reload {
        #expect(loaded.enqueued.isEmpty && loaded.reused.isEmpty)
        #expect(loaded.created.count == loaded.displayed.count)
      } else {
        // The cells shown before stay; only the new items' cells are new.
        #expect(Set(before).isSubset(of: loaded.displayed))
        // (the pool holds cells from the scroll down, so some of those are reused).
        #expect(loaded.enqueued.isEmpty)
        #expect(
          loaded.created.count + loaded.reused.count == loaded.displayed.count - before.count)
      }
      #expect(records[4].event == "refresh 6")
      #expect(records[4].pass.created.isEmpty != reload)
    }
  }
}

extension ScriptDialectTests {
  @Test func scriptTrace_keepsInvariants_throughScrollsLoadMoreRefreshRotate()
    throws
  {
    let seeds: [UInt64] = Array(0..<40)
    for seed in seeds {
      var rng = SeededGenerator(seed: seed)
      var scene = try Scene(contentsOf: referencePath)
      if Bool.random(using: &rng) {
        scene.sections = [
          ItemList(
            (0..<Int.random(in: 1...80, using: &rng)).map { _ in
              Item(
                length: Bool.random(using: &rng)
                  ? .fixed(Double(Int.random(in: 0...200, using: &rng)))
                  : .aspectRatio(
                    width: Double(Int.random(in: 0...400, using: &rng)),
                    height: 300),
                span: Int.random(in: 0..<8, using: &rng) == 0
                  ? .full : .columns(Int.random(in: 1...2, using: &rng)),
                identifier: Bool.random(using: &rng) ? "a" : "b")
            })
        ]
      }
      scene.buffer = Bool.random(using: &rng) ? 0 : 150
      scene.reuseOrder = Bool.random(using: &rng) ? .leaveFirst : .singlePass
      var segments: [ScrollScript.Segment] = []
      for _ in 0..<12 {
        switch Int.random(in: 0..<7, using: &rng) {
        case 0:
          segments.append(
            .loadMore(
              count: Int.random(in: 0...30, using: &rng), reload: Bool.random(using: &rng),
              anywhere: true))
        case 1:
          segments.append(
            .refresh(
              count: Int.random(in: 0...30, using: &rng), reload: Bool.random(using: &rng),
              anywhere: true))
        case 2:
          segments.append(
            .rotate(
              Bool.random(using: &rng)
                ? Size(width: 667, height: 375) : Size(width: 375, height: 667),
              columns: Bool.random(using: &rng) ? nil : Int.random(in: 1...5, using: &rng)))
        case 3:
          segments.append(.jump(Double(Int.random(in: -100...4000, using: &rng))))
        case 4:
          segments.append(
            .scroll(
              to: .offset(Double(Int.random(in: 0...4000, using: &rng))),
              frames: Int.random(in: 1...8, using: &rng), curve: .easeInOut))
        default:
          segments.append(
            .scrollInSteps(
              to: .offset(Double(Int.random(in: 0...4000, using: &rng))),
              step: Double(Int.random(in: 20...400, using: &rng))))
        }
      }
      let player = ScriptPlayer(scene: scene, script: ScrollScript(segments: segments))
      let controller = player.controller
      var previous: [Int: Int] = [:]  // index → cell
      var displayedEver = Set<Int>()
      run: do {
        for record in player {
          let view = controller.view
          let snapshot = view.snapshot!
          let length = view.bounds.height
          let pass = record.pass
          let expected = snapshot.indicesByFullScan(
            from: pass.offset - view.preloadBuffer,
            to: pass.offset + length + view.preloadBuffer)
          guard pass.displayed.map(\.index) == expected else {
            Issue.record(
              "seed \(seed) \(record.event ?? "scroll") at \(pass.offset): displayed \(pass.displayed.map(\.index)) vs \(expected)"
            )
            break run
          }
          // The frames equal a full layout of the scene as it now is.
          let full = view.layout!.snapshot(
            viewport: controller.scene.viewport,
            itemCounts: controller.scene.sections.map(\.count)
          ) { controller.scene.item(at: $0).metrics }
          guard snapshot.frames == full.frames,
            snapshot.contentSize == full.contentSize
          else {
            Issue.record(
              "seed \(seed) \(record.event ?? "scroll"): frames differ from a full layout"
            )
            break run
          }
          let cells = pass.displayed.map(\.cell)
          #expect(
            Set(cells).count == cells.count,
            "seed \(seed): a cell at two indices")
          for (i, cell) in view.displayed {
            #expect(cell.frame == snapshot.frame(at: i))
          }
          // A cell that entered was created or reused in this pass; the others were displayed before.
          let fresh = Set(pass.created.map(\.cell) + pass.reused.map(\.cell))
          var shifted = previous
          if let event = record.event, event.hasPrefix("refresh ") {
            let n = Int(event.dropFirst(8))!
            shifted = Dictionary(
              uniqueKeysWithValues: previous.map { ($0.key + n, $0.value) })
          }
          for d in pass.displayed
          where !fresh.contains(d.cell) && shifted[d.index] != d.cell {
            Issue.record(
              "seed \(seed) \(record.event ?? "scroll"): cell \(d.cell) appeared at \(d.index) without being asked for"
            )
          }
          for c in pass.created.map(\.cell) {
            #expect(!displayedEver.contains(c))
          }
          displayedEver.formUnion(cells)
          previous = Dictionary(
            uniqueKeysWithValues: pass.displayed.map { ($0.index, $0.cell) })
        }
        // Every cell created was displayed: none is made and thrown away.
        #expect(
          controller.view.createdCellCount == displayedEver.count,
          "seed \(seed)")
      }
    }
  }}
