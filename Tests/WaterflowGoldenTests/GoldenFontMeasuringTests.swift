import Cairo
import Foundation
import Testing
import WaterflowGolden
import WaterflowRender
import WaterflowScene

/// A manifest's `"font"` draws its goldens' texts and measures their self-sized templates, as
/// `render --font` does: a cell's height is that of its text in the font it is drawn in.
@Suite struct GoldenFontMeasuringTests {}

// MARK: - Fixtures

/// DejaVu Sans Mono, beside DejaVu Sans (both from fonts-dejavu-core): its narrow letters are
/// as wide as its wide ones, so a text of i's and l's wraps onto more lines than in DejaVu Sans.
private let monoPath = URL(fileURLWithPath: Font.defaultPath).deletingLastPathComponent()
  .appendingPathComponent("DejaVuSansMono.ttf").path

/// One self-sized cell whose text wraps in a 200-point column.
private let templateScene = #"""
  {"viewport": {"width": 200, "height": 400, "scale": 1}, "columns": 1,
   "cells": {"note": {"content": {"text": "{t}", "size": 14, "lines": 0}}},
   "items": [{"identifier": "note", "data": {"t": "illicit little lilies fill still hills, illicit little lilies fill still hills, illicit little lilies fill still hills, illicit little lilies fill still hills"}}]}
  """#

/// The height the scene's one cell is laid out at, its templates measured with `fontPaths`
/// (nil: as the scene was loaded, with the default fonts).
private func cellHeight(ofSceneAt path: String, measuredWith fontPaths: [String]?) throws -> Double {
  let scene = try Scene(contentsOf: path)
  if let fontPaths { try scene.measureCells(withFontPaths: fontPaths) }
  let controller = SceneController(scene: scene)
  _ = controller.view.layoutSubviews()
  return try #require(controller.view.snapshot).frame(at: 0).height
}

extension GoldenFontMeasuringTests {
  // MARK: - Measuring

  @Test(.enabled(if: FileManager.default.fileExists(atPath: monoPath)))
  func manifestFont_MeasuresTemplates_AsRenderFontDoes() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    try templateScene.write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
    try #"{"font": "\#(monoPath)", "goldens": [{"name": "note", "scene": "scene.json"}]}"#
      .write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
    let manifest = try GoldenManifest(contentsOf: dir + "/manifest.json")
    let renderer = try Renderer(fontPath: try #require(manifest.fontPath))

    let inMono = try cellHeight(ofSceneAt: dir + "/scene.json", measuredWith: renderer.fontPaths)
    let inDefault = try cellHeight(ofSceneAt: dir + "/scene.json", measuredWith: nil)
    // The fixture must depend on the font, or the check below proves nothing.
    #expect(inMono > inDefault)

    let frame = try #require(try manifest.entries[0].shot().frames(with: renderer).first)
    let cell = try #require(frame.facts?.cells.first { $0.index == 0 })
    #expect(cell.frame.height == inMono, "measured with the default font: \(inDefault)")
  }

  /// A shot of a shot file is measured in the manifest's font too (through the camera).
  @Test(.enabled(if: FileManager.default.fileExists(atPath: monoPath)))
  func manifestFont_MeasuresTheTemplatesOfShots() throws {
    let dir = try GoldenTestSupport.temporaryDirectory()
    try templateScene.write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
    try #"{"scenes": ["scene.json"], "devices": ["iphone-4.7"]}"#
      .write(toFile: dir + "/shots.json", atomically: true, encoding: .utf8)
    let manifest = { (font: String) throws in
      try #"{\#(font)"goldens": [{"name": "s", "shots": "shots.json"}]}"#
        .write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
      return try GoldenManifest(contentsOf: dir + "/manifest.json")
    }
    func cellHeight(_ manifest: GoldenManifest) throws -> Double {
      let renderer = try Renderer(fontPath: manifest.fontPath ?? Renderer.defaultFontPath)
      let frame = try #require(try manifest.entries[0].shot().frames(with: renderer).first)
      return try #require(frame.facts?.cells.first { $0.index == 0 }).frame.height
    }
    let inMono = try cellHeight(manifest(#""font": "\#(monoPath)", "#))
    let inDefault = try cellHeight(manifest(""))
    #expect(inMono > inDefault)
  }
}
