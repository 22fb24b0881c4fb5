import Foundation
import Testing
import WaterflowTestSupport

/// `waterflow objc-rewrite`: a check that fails while `@objc` lines remain, and `--fix`.
@Suite struct ObjCRewriteCLITests {
  @Test func listsTheLinesThenFixesThemAcrossFiles() throws {
    let dir = try temporaryDirectory()
    let delegate = dir + "/Delegate.swift"
    let layout = dir + "/Layout.swift"
    try Data("@objc protocol Sizes: AnyObject {\n  @objc optional func height(at item: Int) -> CGFloat\n}\n".utf8)
      .write(to: URL(fileURLWithPath: delegate))
    try Data("let h = delegate?.height?(at: 3) ?? 44\n".utf8).write(to: URL(fileURLWithPath: layout))

    let check = try waterflow(["objc-rewrite", delegate, layout])
    #expect(check.status == 1, "a check fails while lines need the rewrite")
    #expect(
      check.stdout == """
        \(delegate):1: drop @objc
        \(delegate):2: drop @objc
        \(delegate):2: optional func height: a requirement returning an optional, with a default in an extension
        \(layout):1: call height(…) without `?`
        4 changes to make: run again with --fix.

        """)
    #expect(try String(contentsOfFile: layout, encoding: .utf8).contains("height?("), "a check changes nothing")

    let fix = try waterflow(["objc-rewrite", delegate, layout, "--fix"])
    #expect(fix.status == 0)
    #expect(fix.stdout.hasSuffix("Made 4 changes.\n"))
    #expect(
      try String(contentsOfFile: delegate, encoding: .utf8) == """
        protocol Sizes: AnyObject {
          func height(at item: Int) -> CGFloat?
        }

        extension Sizes {
          func height(at item: Int) -> CGFloat? { nil }
        }

        """)
    #expect(try String(contentsOfFile: layout, encoding: .utf8) == "let h = delegate?.height(at: 3) ?? 44\n")
    let again = try waterflow(["objc-rewrite", delegate, layout])
    #expect(again.status == 0 && again.stdout == "Nothing to rewrite in 2 files.\n")
  }

  @Test func aMissingFileIsNamed() throws {
    let r = try waterflow(["objc-rewrite", "no/such/Layout.swift"])
    #expect(r.status != 0)
    #expect(r.stderr.contains("Cannot read 'no/such/Layout.swift'"))
  }
}
