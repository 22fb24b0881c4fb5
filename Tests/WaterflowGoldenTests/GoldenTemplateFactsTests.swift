import Foundation
import Testing
import WaterflowGolden
import WaterflowRender
import WaterflowScene

/// Template cells' goldens: a changed data field reads as content, named as in the data; a
/// changed template reads as layout (heights moved) or as drawing.
@Suite struct GoldenTemplateFactsTests {
  /// Five 1-column items of a text template, in a 200 × 150 viewport.
  static func scene(
    likes: String = "1.2k", lines: Int = 1, color: String = "#222222", shortTitle: Int? = nil,
    identity: String? = nil
  ) -> String {
    let items = (0..<5).map { i in
      let title = i == shortTitle ? "Note \(i)" : "Note \(i) with a longer title"
      let id = identity.map { #", "\#($0)": "64f1a2b3c4d5e6f7\#(i)""# } ?? ""
      return #"{"identifier": "note", "data": {"title": "\#(title)", "likes": "\#(i == 4 ? likes : "\(i)")"\#(id)}}"#
    }
    let identityKey = identity.map { #""identity": "\#($0)", "# } ?? ""
    return #"""
      {\#(identityKey)"viewport": {"width": 200, "height": 150, "scale": 1}, "columns": 1,
       "margins": {"top": 0, "bottom": 0, "left": 0, "right": 0, "column": 0, "row": 0},
       "cells": {"note": {"background": "#FFFFFF", "padding": 4, "content": {"vstack": [
         {"text": "{title}", "size": 20, "lines": \#(lines), "color": "\#(color)"},
         {"text": "{likes} likes", "size": 12}]}}},
       "items": [\#(items.joined(separator: ", "))]}
      """#
  }

  func check(recorded: String, current: String) throws -> GoldenChanges? {
    let dir = try GoldenTestSupport.temporaryDirectory()
    let renderer = try Renderer()
    let fingerprint = GoldenTestSupport.fingerprint(renderer)
    func frame(_ json: String) throws -> GoldenFrame {
      try GoldenShot(
        scene: try Scene(data: Data(json.utf8), path: dir + "/scene.json"),
        position: .offset(90, step: 30), options: RenderOptions(scale: 1)
      ).frames(with: renderer)[0]
    }
    var store = GoldenStore(
      directory: dir + "/Golden",
      configuration: GoldenConfiguration(recordMode: .missing, artifactsDirectory: dir + "/a"))
    let first = try frame(recorded)
    _ = try store.check(first.image, named: "g", fingerprint: fingerprint, facts: first.facts)
    store.configuration.recordMode = .never
    let now = try frame(current)
    return try store.check(now.image, named: "g", fingerprint: fingerprint, facts: now.facts)
      .changes
  }
}

extension GoldenTemplateFactsTests {
  @Test func changedDataField_IsContent_NamedAsInTheData() throws {
    let changes = try #require(
      try check(recorded: Self.scene(likes: "1.2k"), current: Self.scene(likes: "1.3k")))
    #expect(changes.verdict == .content)
    #expect(changes.summary == "content changed: item 4 likes 1.2k → 1.3k", "\(changes)")
  }

  @Test func changedTemplateHeights_IsLayout() throws {
    let changes = try #require(
      try check(recorded: Self.scene(lines: 1), current: Self.scene(lines: 2)))
    #expect(changes.verdict == .layout)
  }

  @Test func changedTemplateColour_IsDrawing() throws {
    let changes = try #require(
      try check(recorded: Self.scene(), current: Self.scene(color: "#FF0000")))
    #expect(changes.verdict == .drawing)
  }

  @Test func aTextThatWrapsDifferently_IsNamedAsTheCause() throws {
    let changes = try #require(
      try check(recorded: Self.scene(lines: 2), current: Self.scene(lines: 2, shortTitle: 3)))
    #expect(changes.verdict == .layout)
    #expect(
      changes.summary.hasPrefix("layout changed: item 3 is 24 pt shorter (its title now wraps to 1 line, was 2)"),
      "\(changes.summary)")
    #expect(changes.sizeChanges.map(\.index) == [3])
    let named = try #require(
      try check(
        recorded: Self.scene(lines: 2, identity: "noteId"),
        current: Self.scene(lines: 2, shortTitle: 3, identity: "noteId")))
    #expect(named.summary.hasPrefix("layout changed: note 64f1a2… is 24 pt shorter"), "\(named.summary)")
    #expect(named.details.contains { $0.hasPrefix("cell 3 (note 64f1a2…): ") }, "\(named.details)")
  }

  @Test func itemsWithAnIdentityAreNamedByIt() throws {
    let changes = try #require(
      try check(
        recorded: Self.scene(likes: "1.2k", identity: "noteId"),
        current: Self.scene(likes: "1.3k", identity: "noteId")))
    #expect(changes.summary == "content changed: note 64f1a2… likes 1.2k → 1.3k")
  }
}
