// The golden catalogs' Swift examples: WaterflowComparison.docc, "Comparing Images", and
// WaterflowGolden.docc, "Golden Testing in CI" (GoldenSequenceSnippets.swift has "Golden Testing",
// GoldenReviewSnippets.swift "Reviewing Failures"). Compiled and run here.
import Foundation
import Testing
import WaterflowTestSupport
// doc: image-diff begin
import WaterflowComparison

// doc: image-diff end
// doc: junit-annotation begin
import WaterflowGolden
import WaterflowGoldenReport

// doc: junit-annotation end

@Suite struct GoldenSnippetTests {
  /// An article of a golden catalog, whose output blocks show what these examples print.
  static func article(_ module: String, _ name: String) throws -> String {
    try String(
      contentsOfFile: packageRoot + "/Sources/\(module)/\(module).docc/Articles/\(name).md", encoding: .utf8)
  }

  @Test func twoGoldens_AreComparedAsTheArticleSays() throws {
    // doc: image-diff begin
    let result = try ImageDiff.compareFiles(
      "Golden/shop/top.png", "Golden/shop/scrolled.png",
      options: .init(threshold: 0.1, masks: [PixelRect(x: 0, y: 0, width: 375, height: 64)]))
    print(result.expectedSize, result.mismatched > 0, result.isWithin(.exact), result.isWithin(.ratio(1)))
    // doc: image-diff end
    let line = "\(result.expectedSize) \(result.mismatched > 0) \(result.isWithin(.exact)) \(result.isWithin(.ratio(1)))"
    #expect(try Self.article("PixelDiff", "ComparingImages").contains("```\n\(line)\n```"))
  }

  @Test func aJUnitReportAndAnAnnotation_AreWhatTheArticleShows() throws {
    // doc: junit-annotation begin
    let failure = JUnitReport.Failure(
      type: "content", message: "content changed: item 3 price 21.90 → 99.00",
      body: "expected: .build/golden-artifacts/shop/top.expected.png")
    let report = JUnitReport(name: "goldens", cases: [
      .init(name: "shop/top", classname: "golden.shop", file: "Golden/shop/top.png", failure: failure),
      .init(name: "shop/scrolled", classname: "golden.shop", file: "Golden/shop/scrolled.png"),
    ])
    print(report.xml(), terminator: "")  // the document ends with a line break
    print(GitHubAnnotation(file: "Golden/shop/top.png", title: "shop/top", message: failure.message).line)
    // doc: junit-annotation end
    let output = report.xml()
      + GitHubAnnotation(file: "Golden/shop/top.png", title: "shop/top", message: failure.message).line
    #expect(try Self.article("WaterflowGolden", "GoldenTestingInCI").contains("```\n\(output)\n```"))
  }
}
