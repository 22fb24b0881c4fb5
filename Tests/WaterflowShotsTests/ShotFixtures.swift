import Foundation
import PNGCodec
import WaterflowScene
import WaterflowShots
import WaterflowTestSupport

/// A small shot set in a temporary folder: one template scene whose cell has a red bar at its
/// leading edge and a localized title, string tables for en and ar, and a shot file.
struct ShotFixture {
  let folder: String
  var shotFile: String { folder + "/set.json" }

  init(shotFile json: String? = nil, strings: [String: String]? = nil) throws {
    folder = try makeTemporaryDirectory(prefix: "waterflow-shots")
    try write(
      """
      {
        "viewport": {"width": 320, "height": 480},
        "columns": 1,
        "margins": {"top": 10, "left": 10, "right": 10, "bottom": 10, "row": 10},
        "style": {"background": {"light": "#FFFFFF", "dark": "#000000"}},
        "header": {"height": 40, "text": "@header"},
        "cells": {
          "row": {"background": {"light": "#EEEEEE", "dark": "#333333"}, "content": {"hstack": [
            {"rect": {}, "width": 30, "height": 60, "color": "#FF0000"},
            {"text": "{title}", "size": 14},
            {"spacer": {}}
          ], "spacing": 8}}
        },
        "items": [
          {"identifier": "row", "height": 60, "data": {"title": "@title.1"}},
          {"identifier": "row", "height": 60, "data": {"title": "@@literal"}}
        ]
      }
      """, to: "list.json")
    let en = strings ?? ["header": "Inbox", "title.1": "Hello", "caption": "Your inbox"]
    var ar = en
    for key in ar.keys { ar[key] = "مرحبا" }
    try write(Self.json(en), to: "en.json")
    try write(Self.json(ar), to: "ar.json")
    try write(
      json ?? """
        {"scenes": ["list.json"], "devices": ["iphone-6.9"], "appearances": ["light", "dark"],
         "locales": {"en": "en.json", "ar": "ar.json"}}
        """, to: "set.json")
  }

  func write(_ text: String, to name: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
  }

  static func json(_ strings: [String: String]) -> String {
    "{" + strings.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ") + "}"
  }

  func file() throws -> ShotFile { try ShotFile(contentsOf: shotFile) }

  /// The shot of a locale, appearance and device in the set.
  func shot(_ locale: String, _ appearance: Appearance = .light, device: String = "iphone-6.9") throws -> Shot {
    let file = try file()
    var shot = file.shots.first { $0.locale.name == locale && $0.appearance == appearance }!
    shot.device = Device.named(device)!
    return shot
  }

  /// The image of a shot, drawn by a camera of this set.
  func image(of shot: Shot) throws -> RGBAImage {
    let file = try file()
    let camera = try ShotCamera(file: file, scenes: try ShotScenes(for: [shot]))
    return try camera.image(of: shot)
  }
}

extension RGBAImage {
  /// The pixel at x, y as r, g, b, a.
  func pixel(_ x: Int, _ y: Int) -> [UInt8] {
    let i = (y * width + x) * 4
    return Array(pixels[i..<i + 4])
  }

  /// Whether any pixel in a rectangle is close to red.
  func hasRed(x: Range<Int>, y: Range<Int>) -> Bool {
    for yy in y { for xx in x {
      let p = pixel(xx, yy)
      if p[0] > 200 && p[1] < 60 && p[2] < 60 { return true }
    } }
    return false
  }
}
