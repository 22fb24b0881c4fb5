import WaterflowCommandLine
import Foundation
import WaterflowScene

extension BenchCommand {
  /// The notes sample's card, as a scene file gives it: a cover with a play icon and a duration
  /// over it, a two-line title, tags, and a heart and compact count chosen from the data.
  static let feedScene = """
    {
      "viewport": {"width": 375, "height": 812, "scale": 3}, "columns": 2, "locale": "zh-Hans",
      "margins": {"top": 8, "left": 8, "right": 8, "bottom": 8, "column": 7, "row": 7},
      "cells": {"note": {"background": "#FFFFFF", "cornerRadius": 6, "content": {"vstack": [
        {"zstack": [
          {"image": "{cover.url}", "aspect": "{cover.width}:{cover.height}"},
          {"icon": "play", "size": 22, "color": "#FFFFFF", "position": "topTrailing",
           "offset": {"x": -8, "y": 8}, "when": "{type} == 'video'"},
          {"badge": "{video.duration}", "size": 9, "position": "bottomTrailing", "when": "{video.duration}"}
        ]},
        {"vstack": [
          {"text": "{title}", "size": 13, "weight": "medium", "lines": 2},
          {"hstack": [{"badge": "#{item.name}", "size": 9}], "foreach": "{tags}", "limit": 2, "spacing": 4},
          {"hstack": [
            {"avatar": "{user.avatar}", "size": 16, "name": "{user.nickname}"},
            {"text": "{user.nickname}", "size": 11},
            {"spacer": {}},
            {"icon": {"if": "{interact.liked}", "then": "heart.fill", "else": "heart"}, "size": 13},
            {"text": "{interact.likedCount|compact}", "size": 11}
          ], "spacing": 4}
        ], "spacing": 8, "padding": {"top": 8, "left": 8, "bottom": 10, "right": 8}}
      ]}}},
      "items": {"import": "feed.jsonl", "identifier": "note"}
    }
    """

  /// Loading a large feed of nested JSON lines as an API returns them, in a `waterflow visible`
  /// of its own: the peak memory of the whole process against the file's size.
  func feedMemoryFigures(megabytes: Int) throws -> [(String, Double)] {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waterflow-bench-feed-\(getpid())"
    ).path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(Array(Self.feedScene.utf8), to: dir + "/feed.json")
    let rows = try writeFeed(to: dir + "/feed.jsonl", bytes: megabytes * 1_000_000)
    let size = Double(try FileManager.default.attributesOfItem(atPath: dir + "/feed.jsonl")[.size] as! Int)

    var peaks: [Double] = []
    var times: [Double] = []
    for _ in 0..<max(1, min(runs, 5)) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      process.arguments = ["visible", dir + "/feed.json", "--offset", "0"]
      process.standardOutput = FileHandle.nullDevice
      let start = ContinuousClock.now
      try process.run()
      process.waitUntilExit()
      times.append((ContinuousClock.now - start).inSeconds)
      guard process.terminationStatus == 0 else {
        throw CLIError("waterflow visible failed on the bench feed (exit \(process.terminationStatus))")
      }
      // The largest child so far; every run loads the same feed, so each is its own peak.
      var usage = rusage()
      getrusage(RUSAGE_CHILDREN.rawValue, &usage)
      peaks.append(Double(usage.ru_maxrss) * 1024)
    }
    let middle = { (xs: [Double]) in xs.sorted()[xs.count / 2] }
    return [
      ("feed_mb", size / 1e6), ("feed_rows", Double(rows)), ("feed_load_s", middle(times)),
      ("feed_peak_mb", middle(peaks) / 1e6), ("feed_peak_ratio", middle(peaks) / size),
    ]
  }

  /// Writes about `bytes` of notes rows (the notes sample's shape, each row its own id, title
  /// and counts, a fifth of them videos), and returns how many.
  private func writeFeed(to path: String, bytes: Int) throws -> Int {
    var rng = SeededGenerator(seed: 11)
    let words = ["夏日", "穿搭", "summer", "outfit", "咖啡", "latte", "旅行", "city", "walk", "美食", "🌅", "日落"]
    let names = ["小鹿 Lulu", "糖糖", "Mia", "Leo", "阿杰的厨房"]
    let tags = ["旅行", "日落", "美食", "穿搭", "咖啡"]
    var out: [UInt8] = []
    out.reserveCapacity(bytes + 1024)
    var count = 0
    while out.count < bytes {
      let title = (0..<(2 + Int(rng.next() % 8))).map { _ in words[Int(rng.next() % 12)] }
        .joined(separator: " ") + " #\(count)"
      let (w, h) = ([540, 540, 405][count % 3], [720, 675, 540][count % 3])
      let video = count % 5 == 0
      let tagList = tags.prefix(count % 3).map { "{\"name\": \"\($0)\"}" }.joined(separator: ", ")
      var row = "{\"id\": \"\(String(rng.next(), radix: 16))\", \"type\": \"\(video ? "video" : "normal")\", "
      row += "\"title\": \"\(title)\", "
      row += "\"cover\": {\"url\": \"Photos/p\(count % 20).jpg\", \"width\": \(w), \"height\": \(h)}, "
      row += "\"user\": {\"nickname\": \"\(names[count % 5])\", \"avatar\": \"Photos/face\(count % 4).jpg\"}, "
      row += "\"interact\": {\"likedCount\": \(rng.next() % 99_999), \"liked\": \(count % 3 == 0)}, "
      row += "\"tags\": [\(tagList)]"
      if video { row += ", \"video\": {\"duration\": \"0:\(10 + count % 50)\"}" }
      row += "}\n"
      out += row.utf8
      count += 1
    }
    try write(out, to: path)
    return count
  }
}
