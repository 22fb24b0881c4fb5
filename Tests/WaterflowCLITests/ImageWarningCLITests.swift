import Foundation
import Testing
import WaterflowTestSupport

/// Images a feed's cells cannot show are warned about once a command, where a user reads them:
/// a feed of remote covers gets one line (how many, the first item and its URL), a missing file
/// one line naming its item, and every line is a sentence.
@Suite struct ImageWarningCLITests {
  /// A template feed of `count` items whose covers are `cover(i)`, with one cell per row.
  private func feed(_ count: Int, in dir: String, cover: (Int) -> String) throws -> String {
    let items = (0..<count).map {
      #"{"identifier": "note", "data": {"cover": "\#(cover($0))", "title": "note \#($0)"}}"#
    }
    return try sceneFile(
      #"""
      {"viewport": {"width": 200, "height": 400, "scale": 1}, "columns": 2,
       "cells": {"note": {"content": {"vstack": [
         {"image": "{cover}", "aspect": "1:1"}, {"text": "{title}", "size": 12}]}}},
       "items": [\#(items.joined(separator: ", "))]}
      """#, in: dir)
  }

  @Test func remoteCovers_AreOneLine_NamingTheCountAndTheFirst() throws {
    let dir = try temporaryDirectory()
    let scene = try feed(8, in: dir) { "https://cdn.example.com/p\($0).jpg" }
    for command in [["render", scene, "-o", dir + "/r.png"],
                    ["scroll", scene, "--to", "100", "--frames", "3", "-o", dir + "/s/"]] {
      let run = try waterflow(command)
      #expect(run.status == 0, "\(run.stderr)")
      let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
      #expect(warnings.count == 1, "\(command[0]): \(run.stderr)")
      let line = warnings.first.map(String.init) ?? ""
      #expect(line.contains("remote images are not downloaded"), "\(line)")
      #expect(line.contains("item 0: https://cdn.example.com/p0.jpg"), "\(line)")
      #expect(line.hasSuffix("Their cells show a loading placeholder."), "\(line)")
      let count = line.split(separator: " ")[1]
      #expect(Int(count).map { $0 >= 2 } == true, "a count of the cells on screen: \(line)")
    }
  }

  @Test func oneRemoteCover_AndAMissingFile_AreSentencesNamingTheirItems() throws {
    let dir = try temporaryDirectory()
    let scene = try feed(2, in: dir) {
      $0 == 0 ? "https://cdn.example.com/only.jpg" : dir + "/missing.jpg"
    }
    let run = try waterflow(["render", scene, "-o", dir + "/r.png"])
    #expect(run.status == 0, "\(run.stderr)")
    let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
    #expect(warnings.count == 2, "\(run.stderr)")
    #expect(
      warnings.contains {
        $0 == "warning: item 0: remote image https://cdn.example.com/only.jpg is not downloaded. "
          + "Its cell shows a loading placeholder."
      }, "\(run.stderr)")
    #expect(
      warnings.contains {
        $0.hasPrefix("warning: item 1: ") && $0.contains("missing.jpg")
          && $0.hasSuffix(". The cell shows a loading placeholder.")
      }, "\(run.stderr)")
  }

  /// A picture every item shows is named by the lowest item, whichever cell was drawn first: a
  /// scroll upwards from the bottom, on one thread and on two, names item 0.
  @Test func sharedMissingImage_NamesTheLowestItem_WhateverTheOrder() throws {
    let dir = try temporaryDirectory()
    let scene = try feed(40, in: dir) { _ in dir + "/missing.jpg" }
    for jobs in ["1", "2"] {
      let run = try waterflow([
        "scroll", scene, "--from", "2000", "--to", "0", "--frames", "6", "--jobs", jobs,
        "-o", dir + "/s\(jobs)/",
      ])
      #expect(run.status == 0, "\(run.stderr)")
      let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
      #expect(warnings.count == 1 && warnings[0].hasPrefix("warning: item 0: "), "\(run.stderr)")
    }
  }
}
