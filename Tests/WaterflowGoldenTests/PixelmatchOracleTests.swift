import Cairo
import PNGCodec
import Testing
import WaterflowGolden

/// Every v7.2.0 fixture and inline case of pixelmatch's test suite (Fixtures/pixelmatch/cases.json).
@Suite struct PixelmatchOracleTests {}

extension PixelmatchOracleTests {
  // MARK: - cases.json

  @Test(arguments: try OracleFixtures.cases())
  func testOracleCase_CountAndDiffImage_MatchPixelmatch(_ oracle: OracleCase)
    throws
  {
    let (expected, actual) = try images(for: oracle)
    let result = ImageDiff.compare(
      expected, actual, options: oracle.diffOptions, diffImage: .always)
    #expect(result.mismatched == oracle.expectedMismatch)
    #expect(result.sizesDiffer == false)

    if let name = oracle.expectedDiff {
      let reference = try RGBAImage(
        contentsOfPNGFile: OracleFixtures.path(name))
      let diff = try #require(result.diffImage)
      #expect(diff.width == reference.width && diff.height == reference.height)
      let wrong = zip(diff.pixels, reference.pixels).filter { $0 != $1 }.count
      #expect(wrong == 0, "\(wrong) bytes differ from \(name)")
    }

    // Upstream also asserts the count without an output buffer.
    let countOnly = ImageDiff.compare(
      expected, actual, options: oracle.diffOptions, diffImage: .never)
    #expect(countOnly.mismatched == oracle.expectedMismatch)
    #expect(countOnly.diffImage == nil)
  }

  @Test func testOracleCases_AllKindsPresent() throws {
    let cases = try OracleFixtures.cases()
    #expect(cases.filter { $0.kind == "fixture" }.count == 12)
    #expect(cases.filter { $0.kind == "inline" }.count == 2)
  }

  private func images(for oracle: OracleCase) throws -> (RGBAImage, RGBAImage) {
    if oracle.kind == "inline" {
      let a = try #require(oracle.aRGBA)
      let b = try #require(oracle.bRGBA)
      let width = try #require(oracle.width)
      let height = try #require(oracle.height)
      return (
        RGBAImage(width: width, height: height, pixels: a),
        RGBAImage(width: width, height: height, pixels: b)
      )
    }
    return (
      try RGBAImage(
        contentsOfPNGFile: OracleFixtures.path(try #require(oracle.a))),
      try RGBAImage(
        contentsOfPNGFile: OracleFixtures.path(try #require(oracle.b)))
    )
  }
}
