import Cairo
import PNGCodec
import Testing
import WaterflowGolden

/// Waterflow's additions to pixelmatch: identical fast path, sizes, masks, tolerances.
@Suite struct ImageDiffTests {}

extension ImageDiffTests {
  // MARK: - Fixtures

  /// 20×10 white, with a black 4×4 square at (3, 3) in `changed`.
  private static let base = RGBAImage(
    width: 20, height: 10, filledWith: (255, 255, 255, 255))
  private static var changed: RGBAImage {
    var image = base
    for y in 3..<7 {
      for x in 3..<7 {
        image.pixels.replaceSubrange(
          (y * 20 + x) * 4..<(y * 20 + x) * 4 + 3, with: [0, 0, 0])
      }
    }
    return image
  }

  private func pixel(_ image: RGBAImage?, _ x: Int, _ y: Int) -> [UInt8] {
    guard let image else { return [] }
    let i = (y * image.width + x) * 4
    return Array(image.pixels[i..<i + 4])
  }

  // MARK: - Identical fast path

  @Test
  func testCompare_IdenticalBuffers_ReportsIdenticalWithoutImageUnlessAsked() {
    let result = ImageDiff.compare(
      Self.base, Self.base, diffImage: .unlessIdentical)
    #expect(result.identical)
    #expect(result.mismatched == 0 && result.antialiased == 0)
    #expect(result.total == 200)
    #expect(result.diffImage == nil)
    #expect(result.isWithin(.exact))
    #expect(result.description == "Identical (20×10)")
  }

  @Test func testCompare_IdenticalBuffersWithImage_DrawsFadedBackground() {
    let result = ImageDiff.compare(Self.base, Self.base, diffImage: .always)
    #expect(result.identical)
    // White at any alpha fades to white.
    #expect(result.diffImage?.pixels == Self.base.pixels)
  }

  @Test func testCompare_DifferentButWithinThreshold_IsNotIdentical() {
    var nearly = Self.base
    nearly.pixels[0] = 254
    let result = ImageDiff.compare(
      Self.base, nearly, diffImage: .unlessIdentical)
    #expect(!result.identical)
    #expect(result.mismatched == 0)
    #expect(result.diffImage != nil)
  }

  @Test func testCompare_EmptyImages_AreIdentical() {
    let empty = RGBAImage(width: 0, height: 0, pixels: [])
    let result = ImageDiff.compare(empty, empty)
    #expect(result.identical && result.total == 0 && result.ratio == 0)
  }

  // MARK: - Sizes differ

  @Test func testCompare_DifferentSizes_NeverMatchesAndReportsBoth() {
    let other = RGBAImage(
      width: 10, height: 20, filledWith: (255, 255, 255, 255))
    let result = ImageDiff.compare(Self.base, other)
    #expect(result.sizesDiffer)
    #expect(!result.identical)
    #expect(result.expectedSize == PixelSize(width: 20, height: 10))
    #expect(result.actualSize == PixelSize(width: 10, height: 20))
    #expect(result.mismatched == 200 && result.ratio == 1)
    #expect(result.diffImage == nil)
    #expect(
      !result.isWithin(
        DiffTolerance(maxMismatchedPixels: .max, maxMismatchedRatio: 1)))
    #expect(result.description == "Sizes differ: expected 20×10, actual 10×20")
  }

  // MARK: - Counting and drawing

  @Test func testCompare_BlackSquare_CountsAndDrawsEveryPixel() {
    let result = ImageDiff.compare(Self.base, Self.changed)
    #expect(result.mismatched == 16)
    #expect(result.antialiased == 0)
    #expect(result.total == 200)
    #expect(result.ratio == 0.08)
    #expect(pixel(result.diffImage, 3, 3) == [255, 0, 0, 255])
    #expect(pixel(result.diffImage, 0, 0) == [255, 255, 255, 255])
    #expect(result.description == "16 of 200 pixels differ (8.0%)")
  }

  @Test func testCompare_ActualDarker_UsesDiffColorAlt() {
    let options = ImageDiff.Options(
      diffColorAlt: DiffColor(red: 0, green: 255, blue: 0))
    let darker = ImageDiff.compare(Self.base, Self.changed, options: options)
    let lighter = ImageDiff.compare(Self.changed, Self.base, options: options)
    #expect(pixel(darker.diffImage, 4, 4) == [0, 255, 0, 255])
    #expect(pixel(lighter.diffImage, 4, 4) == [255, 0, 0, 255])
  }

  @Test func testCompare_ThresholdOne_AllowsBlackVersusWhite() {
    // Black versus white is 32857, below 35215 × 1².
    let result = ImageDiff.compare(
      Self.base, Self.changed, options: .init(threshold: 1))
    #expect(result.mismatched == 0)
  }

  @Test func testCompare_FullyTransparentPixelsWithDifferentRGB_DoNotCount() {
    let a = RGBAImage(width: 2, height: 2, filledWith: (255, 0, 0, 0))
    let b = RGBAImage(width: 2, height: 2, filledWith: (0, 0, 255, 0))
    #expect(
      ImageDiff.compare(a, b, options: .init(threshold: 0)).mismatched == 0)
  }

  @Test func testCompare_AlphaAboveOne_WrapsGreyLikeUint8Array() {
    // 255 + (0 − 255) × 2 × 255/255 = −255, which a Uint8Array stores as 1.
    let black = RGBAImage(width: 1, height: 1, filledWith: (0, 0, 0, 255))
    let result = ImageDiff.compare(black, black, options: .init(alpha: 2))
    #expect(pixel(result.diffImage, 0, 0) == [1, 1, 1, 255])
  }

  // MARK: - Masks

  @Test func testCompare_MaskOverDifference_IgnoresItAndShrinksTotal() {
    let options = ImageDiff.Options(masks: [
      PixelRect(x: 2, y: 2, width: 3, height: 8)
    ])
    let result = ImageDiff.compare(Self.base, Self.changed, options: options)
    // Columns 3 and 4 of the square are masked; columns 5 and 6 remain.
    #expect(result.mismatched == 8)
    #expect(result.total == 200 - 24)
    // Masked pixels are drawn as unchanged.
    #expect(pixel(result.diffImage, 3, 3) == [255, 255, 255, 255])
    #expect(pixel(result.diffImage, 5, 3) == [255, 0, 0, 255])
  }

  @Test func testCompare_MaskColor_MarksMaskedPixels() {
    let blue = DiffColor(red: 0, green: 0, blue: 255)
    let options = ImageDiff.Options(
      masks: [PixelRect(x: 0, y: 0, width: 20, height: 10)], maskColor: blue)
    let result = ImageDiff.compare(Self.base, Self.changed, options: options)
    #expect(result.mismatched == 0 && result.total == 0 && result.ratio == 0)
    #expect(
      result.diffImage?.pixels
        == RGBAImage(width: 20, height: 10, filledWith: (0, 0, 255, 255)).pixels
    )
  }

  @Test func testCompare_MaskWithDiffMask_LeavesMaskedPixelsTransparent() {
    let options = ImageDiff.Options(
      diffMask: true, masks: [PixelRect(x: 3, y: 3, width: 1, height: 1)])
    let result = ImageDiff.compare(Self.base, Self.changed, options: options)
    #expect(result.mismatched == 15)
    #expect(pixel(result.diffImage, 3, 3) == [0, 0, 0, 0])
    #expect(pixel(result.diffImage, 0, 0) == [0, 0, 0, 0])
    #expect(pixel(result.diffImage, 4, 3) == [255, 0, 0, 255])
  }

  @Test
  func testCompare_OverlappingAndOutOfBoundsMasks_AreClippedAndCountedOnce() {
    let masks = [
      PixelRect(x: -5, y: -5, width: 7, height: 7),  // 2×2 inside
      // Overlaps one pixel of the first.
      PixelRect(x: 1, y: 1, width: 2, height: 2),
      PixelRect(x: 50, y: 50, width: 5, height: 5),  // wholly outside
      PixelRect(x: 10, y: 0, width: -3, height: 4),  // empty
    ]
    let result = ImageDiff.compare(
      Self.base, Self.changed, options: .init(masks: masks))
    #expect(result.total == 200 - 7)
    #expect(result.mismatched == 16)
  }

  @Test func testCompare_IdenticalWithMasks_DrawsMaskColour() {
    let red = DiffColor.red
    let options = ImageDiff.Options(
      masks: [PixelRect(x: 0, y: 0, width: 1, height: 1)], maskColor: red)
    let result = ImageDiff.compare(Self.base, Self.base, options: options)
    #expect(result.identical && result.total == 199)
    #expect(pixel(result.diffImage, 0, 0) == [255, 0, 0, 255])
    #expect(pixel(result.diffImage, 1, 0) == [255, 255, 255, 255])
  }

  // MARK: - Tolerances

  @Test func testIsWithin_PixelAndRatioLimits() {
    let result = ImageDiff.compare(Self.base, Self.changed, diffImage: .never)
    #expect(!result.isWithin(.exact))
    #expect(result.isWithin(.pixels(16)))
    #expect(!result.isWithin(.pixels(15)))
    #expect(result.isWithin(.ratio(0.08)))
    #expect(!result.isWithin(.ratio(0.079)))
    // Both limits must hold.
    #expect(
      !result.isWithin(
        DiffTolerance(maxMismatchedPixels: 100, maxMismatchedRatio: 0.01)))
    #expect(
      result.isWithin(
        DiffTolerance(maxMismatchedPixels: 100, maxMismatchedRatio: 0.1)))
  }

  // MARK: - Files

  @Test func testCompareFiles_OracleFixture_MatchesPixelmatch() throws {
    let result = try ImageDiff.compareFiles(
      OracleFixtures.path("1a.png"), OracleFixtures.path("1b.png"),
      options: .init(threshold: 0.05),
      diffImage: .never)
    #expect(result.mismatched == 143)
    #expect(result.antialiased == 108)
  }

  @Test func testDescription_OracleFixture_MatchesDocumentedExample() throws {
    let result = try ImageDiff.compareFiles(
      OracleFixtures.path("1a.png"), OracleFixtures.path("1b.png"),
      options: .init(threshold: 0.1), diffImage: .never)
    #expect(
      "\(result) \(result.isWithin(.pixels(100)))"
        == "106 of 131072 pixels differ (0.081%); 61 anti-aliased pixels ignored false"
    )
  }

  @Test func testCompareFiles_MissingActual_ThrowsNamingIt() {
    let missing = "/nonexistent/actual.png"
    let error = #expect(throws: PNGDecodingError.self) {
      try ImageDiff.compareFiles(OracleFixtures.path("1a.png"), missing)
    }
    #expect(error?.path == missing)
  }
}
