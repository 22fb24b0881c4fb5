import Foundation
import ObjCRewrite
import Testing
import WaterflowTestSupport

/// The `@objc` rewrite, checked on a real layout: the rewritten CHT-style file is the one
/// WaterfallLayoutTests compile and run.
@Suite struct ObjCRewriteTests {
  private static let folder = packageRoot + "/Tests/UIKitTests"

  /// The part of a file from `import UIKit` on: the header comments say which file is which.
  private static func body(_ text: String) throws -> Substring {
    let start = try #require(text.firstRange(of: "import UIKit\n"))
    return text[start.lowerBound...]
  }

  @Test func theRewrittenLayoutIsTheOneTheTestsCompile() throws {
    let original = try String(contentsOfFile: Self.folder + "/Fixtures/WaterfallLayout.objc.txt", encoding: .utf8)
    let compiled = try String(contentsOfFile: Self.folder + "/WaterfallLayout.swift", encoding: .utf8)
    let rewrite = ObjCRewrite(source: original)
    #expect(try Self.body(rewrite.rewritten) == Self.body(compiled))
    #expect(
      rewrite.findings.map(\.description) == [
        "6: drop @objc",
        "10: drop @objc",
        "10: optional func collectionView: a requirement returning an optional, with a default in an extension",
        "13: drop @objc(collectionView:layout:heightForHeaderInSection:)",
        "14: optional func collectionView: a requirement returning an optional, with a default in an extension",
        "19: drop @objcMembers",
        "21: drop @objc",
        "21: drop dynamic",
        "44: call collectionView(…) without `?`",
        "48: call collectionView(…) without `?`",
      ])
    // Rewriting again changes nothing: the result has nothing left to rewrite.
    let again = ObjCRewrite(source: rewrite.rewritten)
    #expect(again.findings.isEmpty)
    #expect(again.rewritten == rewrite.rewritten)
  }

  @Test func resultsBecomeOptionalAndDefaultsMatchTheProtocolsAccess() {
    let source = """
      @objc public protocol FeedDelegate: AnyObject {
        @objc optional func didScroll(_ offset: CGFloat)
        @objc optional func badge(for item: Int) -> String?
        @objc optional func formatter(for item: Int) -> (Int) -> String
        @objc optional var tint: UIColor { get }
      }
      """
    let rewrite = ObjCRewrite(source: source)
    #expect(
      rewrite.rewritten == """
        public protocol FeedDelegate: AnyObject {
          func didScroll(_ offset: CGFloat)
          func badge(for item: Int) -> String?
          func formatter(for item: Int) -> ((Int) -> String)?
          optional var tint: UIColor { get }
        }

        extension FeedDelegate {
          public func didScroll(_ offset: CGFloat) {}
          public func badge(for item: Int) -> String? { nil }
          public func formatter(for item: Int) -> ((Int) -> String)? { nil }
        }
        """)
    #expect(
      rewrite.findings.filter { !$0.isFixed }.map(\.description) == [
        "5: an optional property: make it a requirement with a default in an extension (by hand)"
      ])
  }

  @Test func callsInOtherFilesAreRewrittenByTheNamesDeclaredOptional() {
    let declared = ObjCRewrite.optionalMethodNames(in: "@objc protocol P { @objc optional func heightFor(_ i: Int) -> CGFloat }")
    #expect(declared == ["heightFor"])
    let caller = """
      let h = delegate?.heightFor?(3) ?? 44 // "a?.b?(" in a comment stays
      let s = #selector(UIView.layoutSubviews)
      handler?(h)
      """
    let rewrite = ObjCRewrite(source: caller, optionalMethods: declared)
    #expect(
      rewrite.rewritten == """
        let h = delegate?.heightFor(3) ?? 44 // "a?.b?(" in a comment stays
        let s = #selector(UIView.layoutSubviews)
        handler?(h)
        """)
    #expect(
      rewrite.findings.map(\.description) == [
        "1: call heightFor(…) without `?`", "2: #selector needs the Objective-C runtime (by hand)",
      ])
  }

  @Test func aFileWithoutObjCIsLeftAsItIs() {
    let source = "import UIKit\n\nfinal class Plain: UICollectionViewLayout {\n  var dynamicHeight = 0\n}\n"
    let rewrite = ObjCRewrite(source: source)
    #expect(rewrite.findings.isEmpty)
    #expect(rewrite.rewritten == source)
  }
}
