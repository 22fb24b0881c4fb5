import ArgumentParser
import FileTransactions
import Foundation
import ObjCRewrite
import WaterflowCommandLine

struct ObjCRewriteCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "objc-rewrite",
    abstract: "List the lines of Swift files that need the @objc rewrite to compile on Linux, or apply it.",
    discussion: """
      Linux has no Objective-C runtime, and the compiler refuses `@objc`. The rewrite, which also \
      compiles on iOS: drop @objc, @objc(name), @objcMembers and dynamic; turn \
      `@objc optional func f(…) -> T` into `func f(…) -> T?` with a default returning nil in an \
      extension after the protocol; call `delegate?.f(…)` instead of `delegate?.f?(…)`. Calls in \
      one file of a method declared optional in another are rewritten when both are given.

      Without --fix, prints FILE:LINE: what to change, and exits 1 when any line needs it (a \
      check for CI). With --fix, rewrites the files in place (each written whole, then renamed) \
      and prints what it changed. Lines it cannot rewrite safely (an optional property, \
      #selector, responds(to:)) are marked "(by hand)" either way.
      """)

  @Argument(help: ArgumentHelp("The Swift files.", valueName: "file.swift"))
  var files: [String]

  @Flag(help: "Rewrite the files in place.")
  var fix = false

  func run() throws {
    var sources: [(path: String, text: String)] = []
    for path in files {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw CLIError("Cannot read '\(path)': no such file, or it is not readable.")
      }
      guard let text = String(data: data, encoding: .utf8) else {
        throw CLIError("Cannot read '\(path)': it is not UTF-8 text.")
      }
      sources.append((path, text))
    }
    let optional = sources.reduce(into: Set<String>()) { $0.formUnion(ObjCRewrite.optionalMethodNames(in: $1.text)) }
    var lines: [String] = []
    var pending = 0
    for (path, text) in sources {
      let rewrite = ObjCRewrite(source: text, optionalMethods: optional)
      lines += rewrite.findings.map { "\(path):\($0)" }
      pending += rewrite.findings.count { $0.isFixed }
      if fix, rewrite.rewritten != text {
        try writeAtomically(Array(rewrite.rewritten.utf8), to: path)
      }
    }
    let fixed = pending == 1 ? "1 change" : "\(pending) changes"
    if lines.isEmpty {
      emit("Nothing to rewrite in \(files.count == 1 ? files[0] : "\(files.count) files").")
      return
    }
    emit(lines.joined(separator: "\n"))
    if fix {
      emit("Made \(fixed).")
    } else if pending > 0 {
      emit("\(fixed) to make: run again with --fix.")
      throw ExitCode(1)
    }
  }
}
