import Foundation

/// The package's root folder, found from this file's path (Tests/WaterflowTestSupport/…).
public let packageRoot: String = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// The built `waterflow` binary: the debug build `swift test` builds, else a release build.
public let waterflowBinary: String = {
  let candidates = [".build/debug/waterflow", ".build/release/waterflow"].map {
    packageRoot + "/" + $0
  }
  return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
}()

/// The built `waterflow-core`, which `waterflowBinary` (the launcher) starts for every command
/// but a plain diff: beside it.
public let waterflowCoreBinary: String =
  URL(fileURLWithPath: waterflowBinary).deletingLastPathComponent().path + "/waterflow-core"

/// A new, empty temporary folder whose name starts with `prefix`.
public func makeTemporaryDirectory(prefix: String = "waterflow-test") throws -> String {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}
