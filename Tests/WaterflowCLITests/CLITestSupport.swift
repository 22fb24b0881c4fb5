import Foundation
import WaterflowTestSupport

/// Runs the built binary with arguments, in the package root, and waits for it.
func waterflow(_ arguments: [String], environment: [String: String] = [:])
  throws -> ProgramRun
{
  var env = ProcessInfo.processInfo.environment
  for (k, v) in environment { env[k] = v }
  return try runProgram(atPath: waterflowBinary, arguments, environment: env, in: packageRoot)
}

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> String {
  try makeTemporaryDirectory(prefix: "waterflow-cli")
}

/// Writes a scene file and returns its path.
func sceneFile(
  _ json: String, in dir: String, named name: String = "scene.json"
) throws -> String {
  let path = dir + "/" + name
  try Data(json.utf8).write(to: URL(fileURLWithPath: path))
  return path
}
