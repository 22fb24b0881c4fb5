import Foundation
import Testing
import WaterflowTestSupport

/// The README's shell examples, run: every ```console block's `$` commands in a copy of `Assets/`
/// and `Golden/`, with what they print compared to what the README says they print, and the
/// pictures they write compared to the ones the README shows.
@Suite struct ReadmeShellExampleTests {
  struct Example: CustomTestStringConvertible, Sendable {
    var command: String
    var output: [String]
    var line: Int
    var testDescription: String { "README.md:\(line): \(command.prefix(60))" }
  }

  static let readme = (try? String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)) ?? ""

  /// Every `$ command` of a console block, with the lines up to the next command as its output;
  /// a line ending in `\` continues on the next.
  static let examples: [Example] = {
    var examples: [Example] = []
    var inBlock = false
    var continuing = false
    for (k, line) in readme.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line == "```console" { inBlock = true; continue }
      guard inBlock else { continue }
      if line == "```" { inBlock = false; continue }
      if continuing {
        continuing = line.hasSuffix("\\")
        examples[examples.count - 1].command += continuing ? String(line.dropLast()) : String(line)
      } else if line.hasPrefix("$ ") {
        let text = line.dropFirst(2)
        continuing = text.hasSuffix("\\")
        examples.append(Example(command: String(continuing ? text.dropLast() : text), output: [], line: k + 1))
      } else if !examples.isEmpty {
        examples[examples.count - 1].output.append(String(line))
      }
    }
    return examples
  }()

  /// Durations change from run to run: "in 2.7 s" reads as "in N s".
  static func normalized(_ lines: [String]) -> [String] {
    lines.map { $0.replacing(#/\b\d+(\.\d+)? (s|ms)\b/#) { "N \($0.output.2)" } }
  }

  /// A copy of what the examples read, where they may write.
  static let folder: String = {
    let dir = (try? makeTemporaryDirectory(prefix: "waterflow-readme")) ?? "/tmp"
    for name in ["Assets", "Golden"] {
      try? FileManager.default.copyItem(atPath: packageRoot + "/" + name, toPath: dir + "/" + name)
    }
    return dir
  }()

  @Test func theReadme_RoutesInFewerThan400Lines() {
    let lines = Self.readme.split(separator: "\n", omittingEmptySubsequences: false).count
    #expect(lines <= 400, "README.md has \(lines) lines")
    #expect(Self.examples.count >= 6)
  }

  /// Run in order (later examples may read what earlier ones wrote), each in a shell as a reader
  /// would type it, with `waterflow` on the PATH and no CI variable.
  @Test func everyShellExample_PrintsWhatTheReadmeShows() throws {
    var environment = ProcessInfo.processInfo.environment
    environment["CI"] = nil
    environment["PATH"] = URL(fileURLWithPath: waterflowBinary).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    for example in Self.examples {
      let run = try runProgram(atPath: "/bin/bash", ["-c", example.command + " 2>&1"], environment: environment, in: Self.folder)
      var printed = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if printed.last == "" { printed.removeLast() }
      #expect(Self.normalized(printed) == Self.normalized(example.output), "README.md:\(example.line): \(example.command)\n\(run.stdout)")
    }
    // The pictures the commands wrote are the ones the README shows.
    let docs = Self.folder + "/Assets/Docs"
    for name in try FileManager.default.contentsOfDirectory(atPath: docs) {
      #expect(
        FileManager.default.contentsEqual(atPath: docs + "/" + name, andPath: packageRoot + "/Assets/Docs/" + name),
        "Assets/Docs/\(name) is not what the README's command draws")
    }
  }

  @Test func everyLinkOfTheReadme_LeadsToAFile() {
    let links = Self.readme.matches(of: #/\]\(([^)#:]+)\)|src="([^"]+)"/#).map { String($0.output.1 ?? $0.output.2 ?? "") }
    #expect(links.count >= 20)
    for link in links {
      #expect(FileManager.default.fileExists(atPath: packageRoot + "/" + link), "README.md links to \(link), which does not exist")
    }
  }
}
