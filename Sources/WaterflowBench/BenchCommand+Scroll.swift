import WaterflowCommandLine
import Foundation
import WaterflowLayout
import WaterflowMotion
import WaterflowRender
import WaterflowScene

extension BenchCommand {
  /// A 60-frame scroll written as a PNG folder on one thread and on two, inside this process.
  ///
  /// `bench.sh` times the same job as a whole `waterflow scroll` process, whose start (loading
  /// 45 shared libraries, the Swift runtime, parsing the arguments: about 12 ms before the first
  /// worker starts) and end (replacing the old frames) no thread can share. Timed here, without
  /// them, the speed-up is the frame loop's own: what more frames or more cores would get.
  ///
  /// The scene is `bench.sh`'s (375×667 points at scale 2, three columns, 100 cells with price
  /// bars and index tags), scrolled linearly from 0 to 2000 points. Each run writes into the same
  /// folder, as a re-run of `waterflow scroll` does; the two thread counts alternate, so that both
  /// see the same load.
  func scrollFigures() throws -> [(String, Double)] {
    var scene = Self.referenceScene(scale: 2)
    // bench-scene.json's items: the reference heights over and over, prices 19.00, 26.00, …
    // 96.00, 23.00, … (steps of 7 within 16…95).
    let heights = Self.referenceHeights
    scene.sections = [
      ItemList(
        (0..<100).map { i in
          Item(length: .fixed(heights[i % 3]), price: "\(16 + (3 + 7 * i) % 80).00")
        })
    ]
    let frames = 60
    let script = ScrollScript.scroll(from: 0, to: 2000, frames: frames, fps: 30, curve: .linear)
    // In memory where the system has a tmpfs: on a disk, the file system's own costs for the
    // 61 files each run replaces join in, and on ext4 without a journal (some virtual machines)
    // they grow with every file deleted in the last minutes (each new inode is looked for past
    // the recently deleted ones): 17 ms of a 55 ms run here, after a few hundred runs.
    let base =
      FileManager.default.isWritableFile(atPath: "/dev/shm")
      ? "/dev/shm" : FileManager.default.temporaryDirectory.path
    let folder = base + "/waterflow-bench-scroll-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    func job(threads: Int) -> ScrollJob {
      var job = ScrollJob(scene: scene, script: script, output: .folder(folder))
      job.jobs = threads
      return job
    }
    // One run of each first: the fonts, the folder and the allocator's pages are then warm for
    // both, as they are for every run of the command but its first.
    _ = try job(threads: 1).run()
    _ = try job(threads: 2).run()
    var one: [Double] = []
    var two: [Double] = []
    for _ in 0..<runs {
      one.append(try seconds { _ = try job(threads: 1).run() })
      two.append(try seconds { _ = try job(threads: 2).run() })
    }
    func mid(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    // The ratio of each pair, not of the medians: a pair shares the machine's load of the moment.
    let ratios = zip(one, two).map { $0 / $1 }
    return [
      ("scroll_frames", Double(frames)),
      ("scroll_jobs1_ms", mid(one) * 1e3),
      ("scroll_jobs2_ms", mid(two) * 1e3),
      ("scroll_jobs_speedup", mid(ratios)),
    ]
  }
}

/// How long `body` takes, in seconds.
private func seconds(_ body: () throws -> Void) throws -> Double {
  try ContinuousClock().measure(body).inSeconds
}
