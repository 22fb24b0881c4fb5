import Foundation

/// The package root, found from this file's path.
let packageRoot: String = {
  var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(3)
  return parts.joined(separator: "/")
}()

/// What one run of the built `waterflow` binary did.
struct CommandResult {
  var status: Int32
  var stdout: String
  var stderr: String
  var outputData: Data
}

/// Runs the built binary with arguments, in the package root, and waits for it.
func waterflow(_ arguments: [String], environment: [String: String] = [:])
  throws -> CommandResult
{
  let process = Process()
  let candidates = [".build/debug/waterflow", ".build/release/waterflow"].map {
    packageRoot + "/" + $0
  }
  process.executableURL = URL(
    fileURLWithPath: candidates.first {
      FileManager.default.isExecutableFile(atPath: $0)
    } ?? candidates[0])
  process.arguments = arguments
  process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
  var env = ProcessInfo.processInfo.environment
  for (k, v) in environment { env[k] = v }
  process.environment = env
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  // Read both pipes before waiting, so a large output cannot fill a pipe and block the child.
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  let errData = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return CommandResult(
    status: process.terminationStatus,
    stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errData, as: UTF8.self), outputData: outData)
}

/// Runs any program (pdfinfo, xmllint, …) and returns its exit status and standard output.
func run(_ program: String, _ arguments: [String]) throws -> (Int32, String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [program] + arguments
  let out = Pipe()
  process.standardOutput = out
  process.standardError = FileHandle.nullDevice
  try process.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> String {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent(
    "waterflow-cli-\(UUID().uuidString)"
  ).path
  try FileManager.default.createDirectory(
    atPath: path, withIntermediateDirectories: true)
  return path
}

/// Writes a scene file and returns its path.
func sceneFile(
  _ json: String, in dir: String, named name: String = "scene.json"
) throws -> String {
  let path = dir + "/" + name
  try Data(json.utf8).write(to: URL(fileURLWithPath: path))
  return path
}
