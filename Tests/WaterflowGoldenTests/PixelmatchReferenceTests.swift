import Foundation
import PNGCodec
import Testing
import WaterflowGolden

/// `ImageDiff` against a line-by-line transliteration of pixelmatch 7.2.0
/// (Support/PixelmatchReference.swift) on inputs pixelmatch's fixtures lack: widths that are not
/// a multiple of the four pixels compared at a time, one-pixel and two-row images, random pairs
/// with semi-transparent pixels, and a pair that differs only in alpha.
@Suite struct PixelmatchReferenceTests {}

extension PixelmatchReferenceTests {
  // MARK: - The reference itself

  /// The reference reproduces pixelmatch's own fixtures, so it can stand in for pixelmatch.
  @Test(arguments: try OracleFixtures.cases().filter { $0.kind == "fixture" })
  func testReference_OracleFixture_MatchesPixelmatch(_ oracle: OracleCase) throws {
    let expected = try RGBAImage(contentsOfPNGFile: OracleFixtures.path(try #require(oracle.a)))
    let actual = try RGBAImage(contentsOfPNGFile: OracleFixtures.path(try #require(oracle.b)))
    let reference = referencePixelmatch(expected, actual, options: oracle.diffOptions)
    #expect(reference.mismatched == oracle.expectedMismatch)
    if let name = oracle.expectedDiff {
      let image = try RGBAImage(contentsOfPNGFile: OracleFixtures.path(name))
      #expect(Self.bytesDiffering(image, reference.output) == 0)
    }
  }

  // MARK: - Odd widths

  static let sizes: [(Int, Int)] = [(1, 1), (1, 9), (7, 2), (7, 13), (33, 3), (33, 21), (64, 17)]

  static let optionSets: [ImageDiff.Options] = [
    .init(),
    .init(threshold: 0.05),
    .init(includeAA: true),
    .init(diffColorAlt: DiffColor(red: 0, green: 200, blue: 0), diffMask: true),
    .init(threshold: 0.2, alpha: 0.5, checkerboard: false),
  ]

  @Test(arguments: sizes, [false, true])
  func testCompare_RandomPairOfOddWidth_MatchesReference(
    _ size: (Int, Int), _ translucent: Bool
  ) throws {
    for seed in 1...4 {
      let (a, b) = Self.randomPair(
        width: size.0, height: size.1, seed: UInt64(seed), translucent: translucent)
      for options in Self.optionSets {
        let reference = referencePixelmatch(a, b, options: options)
        let result = ImageDiff.compare(a, b, options: options, diffImage: .always)
        #expect(result.mismatched == reference.mismatched, "seed \(seed) \(options)")
        #expect(Self.bytesDiffering(result.diffImage, reference.output) == 0, "seed \(seed) \(options)")
        let counted = ImageDiff.compare(a, b, options: options, diffImage: .never)
        #expect(counted.mismatched == reference.mismatched)
      }
    }
  }

  /// From files: decoded on two threads and drawn over the expected image's own pixels.
  @Test(arguments: sizes, [false, true])
  func testCompareFiles_RandomPairOfOddWidth_MatchesReference(
    _ size: (Int, Int), _ translucent: Bool
  ) throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for seed in 5...7 {
      let (a, b) = Self.randomPair(
        width: size.0, height: size.1, seed: UInt64(seed), translucent: translucent)
      try Data(a.pngData()).write(to: URL(fileURLWithPath: dir + "/a.png"))
      try Data(b.pngData()).write(to: URL(fileURLWithPath: dir + "/b.png"))
      for options in Self.optionSets {
        let reference = referencePixelmatch(a, b, options: options)
        let result = try ImageDiff.compareFiles(
          dir + "/a.png", dir + "/b.png", options: options, diffImage: .always)
        #expect(result.mismatched == reference.mismatched, "seed \(seed) \(options)")
        #expect(Self.bytesDiffering(result.diffImage, reference.output) == 0, "seed \(seed) \(options)")
      }
    }
  }

  /// Pairs of 65,536 pixels or more are compared in two bands on two threads; drawn over the
  /// expected image, the rows beside the cut are read by both bands.
  @Test(arguments: [false, true])
  func testCompareAndCompareFiles_PairBigEnoughForTwoBands_MatchReference(_ translucent: Bool)
    throws
  {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (a, b) = Self.randomPair(width: 67, height: 1001, seed: 9, translucent: translucent)
    try Data(a.pngData()).write(to: URL(fileURLWithPath: dir + "/a.png"))
    try Data(b.pngData()).write(to: URL(fileURLWithPath: dir + "/b.png"))
    for options in [Self.optionSets[0], Self.optionSets[3]] {
      let reference = referencePixelmatch(a, b, options: options)
      let result = ImageDiff.compare(a, b, options: options, diffImage: .always)
      #expect(result.mismatched == reference.mismatched)
      #expect(Self.bytesDiffering(result.diffImage, reference.output) == 0)
      let fromFiles = try ImageDiff.compareFiles(
        dir + "/a.png", dir + "/b.png", options: options, diffImage: .always)
      #expect(fromFiles.mismatched == reference.mismatched)
      #expect(Self.bytesDiffering(fromFiles.diffImage, reference.output) == 0)
    }
  }

  /// The random pairs do differ, and some differences are excused as anti-aliasing: the pairs
  /// exercise every branch, not just the equal runs.
  @Test func testRandomPairs_HaveCountedAndExcusedDifferences() {
    let (a, b) = Self.randomPair(width: 33, height: 21, seed: 1, translucent: false)
    let result = ImageDiff.compare(a, b, diffImage: .never)
    #expect(result.mismatched > 0)
    #expect(result.antialiased > 0)
  }

  // MARK: - Alpha only

  /// Equal colours with lower alpha in a block: pixelmatch composites them over its
  /// checkerboard, so they differ; word comparison must not mistake them for equal.
  @Test(arguments: [1, 7, 33])
  func testCompare_PairDifferingOnlyInAlpha_MatchesReference(_ width: Int) throws {
    let height = 9
    var a = RGBAImage(width: width, height: height, filledWith: (40, 90, 160, 255))
    for x in stride(from: 0, to: width, by: 3) {
      a.pixels[x * 4] = 200  // a few columns of another colour, for siblings and edges
    }
    var b = a
    for y in 2..<7 {
      for x in 0..<width where x % 2 == 0 { b.pixels[(y * width + x) * 4 + 3] = 100 }
    }
    #expect(zip(a.pixels, b.pixels).enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element.0 == $0.element.1 })
    for options in Self.optionSets {
      let reference = referencePixelmatch(a, b, options: options)
      let result = ImageDiff.compare(a, b, options: options, diffImage: .always)
      #expect(result.mismatched == reference.mismatched)
      #expect(Self.bytesDiffering(result.diffImage, reference.output) == 0)
    }
    #expect(referencePixelmatch(a, b, options: .init()).mismatched > 0)
  }

  // MARK: - Helpers

  /// Two images of a few colours in short runs, the second with changed pixels: other colours,
  /// small changes under the threshold and, when `translucent`, other alphas.
  static func randomPair(width: Int, height: Int, seed: UInt64, translucent: Bool)
    -> (RGBAImage, RGBAImage)
  {
    var rng = SplitMix64(seed: seed)
    let alphas: [UInt8] = translucent ? [255, 255, 180, 0] : [255]
    let palette: [[UInt8]] = (0..<4).map { _ in
      [UInt8(rng.next() % 256), UInt8(rng.next() % 256), UInt8(rng.next() % 256),
       alphas[Int(rng.next() % UInt64(alphas.count))]]
    }
    var a = [UInt8]()
    for y in 0..<height {
      for x in 0..<width {
        let choice = rng.next() % 4
        if choice != 0, x > 0 {
          let left: Int = a.count - 4
          a += a[left..<left + 4]  // runs, so that pixels have equal siblings
        } else if choice == 1, y > 0 {
          let above: Int = ((y - 1) * width + x) * 4
          a += a[above..<above + 4]
        } else {
          a += palette[Int(rng.next() % 4)]
        }
      }
    }
    var b = a
    for i in 0..<(width * height) where rng.next() % 5 == 0 {
      switch rng.next() % 3 {
      case 0: b.replaceSubrange(i * 4..<i * 4 + 4, with: palette[Int(rng.next() % 4)])
      case 1: b[i * 4 + Int(rng.next() % 3)] &+= UInt8(1 + rng.next() % 6)
      default:
        if translucent { b[i * 4 + 3] = alphas[Int(rng.next() % UInt64(alphas.count))] }
      }
    }
    return (
      RGBAImage(width: width, height: height, pixels: a),
      RGBAImage(width: width, height: height, pixels: b)
    )
  }

  /// How many bytes of `image` differ from `reference` (every byte, when there is no image).
  static func bytesDiffering(_ image: RGBAImage?, _ reference: [UInt8]) -> Int {
    guard let image, image.pixels.count == reference.count else { return reference.count }
    return zip(image.pixels, reference).filter { $0 != $1 }.count
  }

  static func temporaryDirectory() throws -> String {
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("pixelmatch-reference-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }
}

/// SplitMix64: a seeded generator, so every run tests the same pairs.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
