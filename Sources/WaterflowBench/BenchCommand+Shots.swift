import WaterflowCommandLine
import Foundation
import WaterflowShots

extension BenchCommand {
  /// A shot set taken whole, on one job and on every core: the time from reading the shot file
  /// to the committed folder (scenes loaded and localized, every PNG encoded and written).
  func shotFigures(_ path: String) throws -> [(String, Double)] {
    let file: ShotFile
    do { file = try ShotFile(contentsOf: path) } catch { throw CLIError(error.description) }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waterflow-bench-shots-\(getpid())"
    ).path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let shots = file.shots
    let cores = ProcessInfo.processInfo.activeProcessorCount
    var failure: Error?
    func take(jobs: Int) -> Double {
      median(runs) { run in
        do { _ = try ShotRun.take(shots, of: file, to: dir + "/set-\(jobs)-\(run)", jobs: jobs) } catch {
          failure = failure ?? error
        }
      }
    }
    let one = take(jobs: 1)
    let all = take(jobs: cores)
    if let failure { throw CLIError("\(failure)") }
    return [
      ("shots", Double(shots.count)), ("shots_1_job_s", one), ("shots_\(cores)_jobs_s", all),
      ("shots_per_s", Double(shots.count) / all), ("jobs_speedup", one / all),
    ]
  }
}
