// swift-tools-version: 6.1
import Foundation
import PackageDescription

let package = Package(
  name: "Waterflow",
  products: [
    .library(name: "WaterflowLayout", targets: ["WaterflowLayout"]),
    .library(name: "WaterflowView", targets: ["WaterflowView"]),
    .library(name: "WaterflowStyle", targets: ["WaterflowStyle"]),
    .library(name: "WaterflowData", targets: ["WaterflowData"]),
    // UIKit's collection-view types for platforms without UIKit: `import UIKit` in an app's
    // layout file resolves to it (depend on it with `.when(platforms: [.linux, .macOS])`).
    .library(name: "WaterflowUIKit", targets: ["UIKit", "WaterflowCollectionView"]),
    .library(name: "WaterflowFeeds", targets: ["WaterflowFeeds"]),
    .library(name: "WaterflowCells", targets: ["WaterflowCells"]),
    .library(name: "WaterflowScene", targets: ["WaterflowScene"]),
    .library(name: "WaterflowRender", targets: ["WaterflowRender"]),
    .library(name: "WaterflowMotion", targets: ["WaterflowMotion"]),
    .library(name: "WaterflowGolden", targets: ["WaterflowGolden"]),
    .library(name: "WaterflowGoldenReport", targets: ["WaterflowGoldenReport"]),
    .library(name: "WaterflowShots", targets: ["WaterflowShots"]),
    .library(name: "FileTransactions", targets: ["FileTransactions"]),
    .library(name: "PNGCodec", targets: ["PNGCodec"]),
    // Behind the SnapshotTesting trait, so only those who enable it fetch and build
    // swift-snapshot-testing (and the swift-syntax it needs).
    .library(name: "WaterflowSnapshotTesting", targets: ["WaterflowSnapshotTesting"]),
    // `waterflow` runs a plain diff itself and everything else with waterflow-core, beside it
    // (Sources/waterflow/Launcher.swift says why).
    .executable(name: "waterflow", targets: ["waterflow"]),
    .executable(name: "waterflow-core", targets: ["WaterflowCore"]),
  ],
  traits: [
    .trait(
      name: "SnapshotTesting",
      description: "The swift-snapshot-testing strategy (the WaterflowSnapshotTesting product)."),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
    // Items imported from CSV files: a well-kept RFC 4180 reader rather than a parser of our own.
    .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.0"),
    // Paths: swift-system's FilePath, because Foundation's NSString path methods trap on
    // one-character paths on this toolchain (`deletingLastPathComponent` of "a").
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    // No HTTP server package: FlyingFox made every command load libcurl and 25 more libraries
    // (Sources/WaterflowReview/ReviewServer.swift says why the review serves on its own).
    // `make docs`: the DocC catalogs, built by `swift package generate-documentation`. No target
    // uses it, so a package depending on Waterflow never fetches it (a test resolves one to check).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // Engine: standard library only.
    // Rounding calls libm's trunc and round, which an executable does not link by itself on Linux.
    .target(name: "WaterflowLayout", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    .target(name: "WaterflowView", dependencies: ["WaterflowLayout"]),
    // Reading and writing JSON: the standard library, and libc to read files.
    .target(name: "WaterflowJSON"),
    // Item data as an API gives it: values, paths, conditions, `{field}` texts and formats. The
    // standard library only: templates, string tables and verdicts all read data through it.
    .target(name: "WaterflowData"),
    // Data files read into item data: CSV, JSON lines, and JSON files of an array at a path.
    .target(
      name: "WaterflowFeeds",
      dependencies: [
        "WaterflowData", "WaterflowJSON", "WaterflowInputs", .product(name: "CSV", package: "CSV.swift"),
      ]),
    // The rewrite of `@objc` delegates that Linux needs (`waterflow objc-rewrite`): the standard
    // library only.
    .target(name: "ObjCRewrite"),
    // Which files a drawing reads (a golden's inputs): the standard library only.
    .target(name: "WaterflowInputs"),
    // The look of pictures: colours, corners, labels, price bars, titles; the light and dark presets.
    .target(name: "WaterflowStyle", dependencies: ["WaterflowView"]),
    // Named UIKit so that an iOS app's `import UIKit` compiles against it unchanged; Foundation and
    // Waterflow's JSON writer (for its layout files) only.
    // Built wherever UIKit is: the stand-in for Swift Testing's UIKit cross-import overlay, which
    // the Linux toolchain names but does not ship (see its one file).
    .target(name: "UIKit", dependencies: ["_Testing_UIKit", "WaterflowJSON"]),
    .target(name: "_Testing_UIKit"),
    // Draws what a UICollectionView displays with Waterflow's renderer and templates.
    .target(
      name: "WaterflowCollectionView",
      dependencies: [
        "UIKit", "WaterflowView", "WaterflowRender", "WaterflowCells", "PNGCodec", "WaterflowGolden", "WaterflowComparison",
        "WaterflowMotion",
      ]),
    .target(
      name: "WaterflowScene",
      dependencies: [
        "WaterflowLayout", "WaterflowView", "WaterflowJSON", "WaterflowStyle", "WaterflowCells",
        "WaterflowInputs", "WaterflowFeeds",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),

    // Atomic files, staged folders, sweeping and the cleanup on SIGINT/SIGTERM/SIGHUP.
    .target(name: "FileTransactions", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),

    // The C libraries, each group behind one Swift module that wraps it: the drawing libraries
    // (cairo, pango, FreeType, libpng, libjpeg-turbo, libwebp) behind Cairo, and libdeflate with the
    // codec's vector kernels behind PNGKernels. Two, not one, so that `waterflow diff` (which only
    // decodes, compares and encodes PNG files) never loads cairo and the forty libraries it
    // brings: with them and the whole tool, a diff held 18 MB before it read a byte.
    .systemLibrary(
      name: "CPNGKernels",
      providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
    ),
    .target(name: "PNGKernels", dependencies: ["CPNGKernels"]),
    .systemLibrary(
      name: "CCairo",
      pkgConfig: "pangocairo",
      // Tested on Debian; the Homebrew names are for macOS, where it is intended but untested.
      providers: [
        .apt([
          "libcairo2-dev", "libfreetype-dev", "libpng-dev", "libturbojpeg0-dev",
          "libwebp-dev", "libpango1.0-dev",
        ]),
        .brew([
          "cairo", "pango", "fontconfig", "freetype", "libpng", "jpeg-turbo", "webp",
        ]),
      ]
    ),
    // The wrapper encodes its surfaces with PNGCodec (ImageSurface+PNGCodec.swift).
    .target(
      name: "Cairo", dependencies: ["CCairo", "PNGCodec", "PNGKernels", .product(name: "SystemPackage", package: "swift-system")]),
    // The PNG encoder and decoder on libdeflate, which it reaches through PNGKernels.
    // The encoder's deflate: the run coder for frames and the stitching of deflate streams
    // (package-internal: PNGCodec is the product).
    .target(name: "PNGDeflate", dependencies: ["PNGKernels"]),
    .target(name: "PNGCodec", dependencies: ["PNGKernels", "PNGDeflate"]),
    // Comparing two images as pixelmatch 7.2.0 does, with masks and the diff image: what
    // `waterflow diff` needs, without cairo (WaterflowComparison re-exports it).
    .target(name: "PixelDiff", dependencies: ["PNGCodec", "WaterflowJSON"]),
    // Cell templates: the model, its measuring (self-sizing heights) and its drawing.
    .target(
      name: "WaterflowCells",
      dependencies: [
        "Cairo", "WaterflowView", "WaterflowStyle", "WaterflowInputs", "WaterflowData", "WaterflowJSON",
      ]),
    .target(
      name: "WaterflowRender",
      dependencies: ["Cairo", "PNGCodec", "WaterflowView", "WaterflowStyle", "WaterflowCells", "WaterflowInputs"]),
    .target(
      name: "WaterflowMotion",
      dependencies: [
        "Cairo", "PNGCodec", "FileTransactions", "WaterflowRender", "WaterflowScene", "WaterflowJSON",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),
    // Goldens, in three modules whose dependencies flow one way. Comparing: pixelmatch, the facts
    // and the verdicts that explain a difference, the font stack.
    .target(
      name: "WaterflowComparison",
      dependencies: [
        "PixelDiff", "Cairo", "PNGCodec", "WaterflowRender", "WaterflowView", "WaterflowScene", "WaterflowCells",
        "WaterflowJSON", "FileTransactions", .product(name: "SystemPackage", package: "swift-system"),
      ]),
    // Running: the manifest, record modes, the golden store, expectGolden, jobs and shards (and
    // the JUnit file expectGolden writes).
    .target(
      name: "WaterflowGolden",
      dependencies: [
        "WaterflowComparison", "Cairo", "PNGCodec", "FileTransactions", "WaterflowRender", "WaterflowScene",
        "WaterflowMotion", "WaterflowJSON", "WaterflowShots", "WaterflowInputs", "WaterflowStyle",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),
    // Reporting: the HTML report, annotations, failures grouped by cause, and the review's logic.
    .target(
      name: "WaterflowGoldenReport",
      dependencies: [
        "WaterflowGolden", "WaterflowComparison", "WaterflowRender", "WaterflowView", "WaterflowJSON",
        "PNGCodec", "FileTransactions", .product(name: "SystemPackage", package: "swift-system"),
      ]),
    // Screenshot sets: devices, locales, appearances, frames and captions, and contact sheets.
    .target(
      name: "WaterflowShots",
      dependencies: [
        "Cairo", "PNGCodec", "FileTransactions", "WaterflowRender", "WaterflowScene", "WaterflowJSON",
        "WaterflowInputs",
      ]),
    .target(
      name: "WaterflowSnapshotTesting",
      dependencies: [
        "WaterflowGolden", "WaterflowRender", "WaterflowScene", "Cairo", "PNGCodec", .product(name: "SystemPackage", package: "swift-system"),
        // The strategy for a UICollectionView, where UIKit is ours (on iOS it is Apple's).
        .target(name: "WaterflowCollectionView", condition: .when(platforms: [.linux, .macOS])),
        .product(
          name: "SnapshotTesting", package: "swift-snapshot-testing",
          condition: .when(traits: ["SnapshotTesting"])),
      ]
    ),

    // The review page and its server on 127.0.0.1: only the CLI links it. The review's logic
    // (groups, accept, undo) is WaterflowGoldenReport's, tested without HTTP.
    .target(
      name: "WaterflowReview",
      dependencies: ["WaterflowGoldenReport", "WaterflowGolden", "WaterflowJSON"]),

    // The live preview: pins of a scene or shot file redrawn on every save, on the review's
    // server and page style.
    .target(
      name: "WaterflowPreview",
      dependencies: [
        "WaterflowReview", "WaterflowShots", "WaterflowScene", "WaterflowRender", "WaterflowInputs",
        "WaterflowJSON", "FileTransactions", "PNGCodec", "WaterflowGolden", "WaterflowMotion", "WaterflowCells",
        "WaterflowView",
      ]),

    // Tools
    // The command line's shared pieces (errors, output, scene loading, interruption), so that
    // its commands can sit in modules of their own.
    // Its pieces that need no drawing, and the whole of a plain `waterflow diff`.
    .target(name: "CommandLineCore", dependencies: ["PixelDiff", "FileTransactions", "WaterflowJSON"]),
    .target(
      name: "WaterflowCommandLine",
      dependencies: [
        "CommandLineCore", "WaterflowScene", "WaterflowRender", "WaterflowJSON", "Cairo", "FileTransactions",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // `waterflow bench`: the figures every issue's targets are measured with.
    .target(
      name: "WaterflowBench",
      dependencies: [
        "WaterflowCommandLine", "WaterflowScene", "WaterflowRender", "WaterflowMotion", "WaterflowGolden",
        "UIKit", "WaterflowCollectionView",
        "WaterflowShots", "WaterflowJSON", "WaterflowComparison", "Cairo", "PNGCodec", "FileTransactions",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The launcher: a plain diff without cairo, and waterflow-core for the rest. Not a dependency
    // on WaterflowCore: SwiftPM would link all of that program's dependencies into this one.
    // `swift build` builds both; `swift build --product waterflow` this one alone.
    .executableTarget(name: "waterflow", dependencies: ["CommandLineCore", "FileTransactions"]),
    .executableTarget(
      name: "WaterflowCore",
      dependencies: [
        "WaterflowLayout", "WaterflowView", "WaterflowScene", "WaterflowRender", "WaterflowMotion",
        "WaterflowGolden", "WaterflowGoldenReport", "WaterflowShots", "WaterflowJSON", "Cairo", "PNGCodec",
        "FileTransactions", "WaterflowReview", "WaterflowPreview", "WaterflowCommandLine", "WaterflowBench",
        "ObjCRewrite",
        .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),

    // Tests. WaterflowTestSupport is not a product: the helpers every test target shares (the
    // external programs tests start, the built binary, temporary folders).
    .target(name: "WaterflowTestSupport", path: "Tests/WaterflowTestSupport"),
    .testTarget(name: "WaterflowLayoutTests", dependencies: ["WaterflowLayout"]),
    .testTarget(name: "WaterflowViewTests", dependencies: ["WaterflowView", "WaterflowScene"]),
    .testTarget(name: "WaterflowJSONTests", dependencies: ["WaterflowJSON"]),
    .testTarget(name: "WaterflowDataTests", dependencies: ["WaterflowData"]),
    // As an app's test target depends on the shim: only where the system has no UIKit.
    .testTarget(
      name: "UIKitTests",
      dependencies: [
        .target(name: "UIKit", condition: .when(platforms: [.linux, .macOS])),
        .target(name: "WaterflowCollectionView", condition: .when(platforms: [.linux, .macOS])),
        "WaterflowScene", "WaterflowRender", "WaterflowGolden", "PNGCodec", "WaterflowTestSupport", "ObjCRewrite",
      ],
      exclude: ["Fixtures"]),
    .testTarget(name: "WaterflowSceneTests", dependencies: ["WaterflowScene", "WaterflowTestSupport"]),
    .testTarget(
      name: "WaterflowShotsTests",
      dependencies: ["WaterflowShots", "WaterflowScene", "WaterflowRender", "Cairo", "PNGCodec", "WaterflowTestSupport"]),
    .testTarget(
      name: "WaterflowCellsTests",
      dependencies: ["WaterflowCells", "WaterflowScene", "WaterflowRender", "WaterflowTestSupport"]),
    // The codec's tests draw their images with cairo, so they share its fixtures.
    .testTarget(name: "CairoTests", dependencies: ["Cairo", "PNGCodec", "PNGKernels", "WaterflowTestSupport"]),
    .testTarget(name: "FileTransactionsTests", dependencies: ["FileTransactions", "WaterflowTestSupport"]),
    .testTarget(
      name: "WaterflowRenderTests",
      dependencies: ["WaterflowRender", "WaterflowScene", "Cairo", "PNGCodec", "WaterflowTestSupport"]),
    .testTarget(
      name: "WaterflowMotionTests",
      dependencies: [
        "WaterflowMotion", "WaterflowScene", "Cairo", "PNGCodec", "FileTransactions", "WaterflowTestSupport",
      ],
      exclude: ["Bench"]  // benchmark scripts, run by hand: not tests
    ),
    .testTarget(
      name: "WaterflowGoldenTests",
      dependencies: [
        "WaterflowGolden", "WaterflowGoldenReport", "WaterflowScene", "WaterflowView", "WaterflowRender", "Cairo",
        "PNGCodec", "WaterflowTestSupport",
      ],
      exclude: ["Fixtures"]  // pixelmatch's fixtures, read from disk by the tests
    ),
    .testTarget(
      name: "WaterflowSnapshotTestingTests",
      dependencies: [
        "WaterflowSnapshotTesting", "WaterflowGolden", "WaterflowScene", "WaterflowRender", "Cairo", "PNGCodec", "WaterflowTestSupport",
        .target(name: "UIKit", condition: .when(platforms: [.linux, .macOS])),
        .target(name: "WaterflowCollectionView", condition: .when(platforms: [.linux, .macOS])),
        .product(
          name: "SnapshotTesting", package: "swift-snapshot-testing",
          condition: .when(traits: ["SnapshotTesting"])),
      ]
    ),
    .testTarget(name: "WaterflowCLITests", dependencies: ["waterflow", "WaterflowCore", "WaterflowTestSupport"]),
    // The Swift examples of the DocC catalogs, compiled (and most of them run); a test checks
    // that every ```swift block of Sources/*/*.docc is a marked region of these files.
    .testTarget(
      name: "DocSnippetTests",
      dependencies: [
        "WaterflowView", "WaterflowScene", "WaterflowRender", "WaterflowComparison", "WaterflowGolden",
        "WaterflowGoldenReport", "WaterflowReview", "PNGCodec", "WaterflowJSON", "WaterflowData",
        "WaterflowSnapshotTesting", "WaterflowTestSupport",
        .product(
          name: "SnapshotTesting", package: "swift-snapshot-testing",
          condition: .when(traits: ["SnapshotTesting"])),
      ],
      exclude: ["Consumer"]  // a package manifest the snapshot-testing article shows, evaluated by a test
    ),
    .testTarget(
      name: "WaterflowPreviewTests",
      dependencies: ["WaterflowPreview", "WaterflowReview", "WaterflowGolden", "WaterflowRender", "WaterflowTestSupport", "PNGCodec"]),
    .testTarget(
      name: "WaterflowReviewTests",
      dependencies: ["WaterflowReview", "WaterflowGolden", "WaterflowGoldenReport", "WaterflowRender", "WaterflowTestSupport"]),

    // Fuzzing: what each harness does with an input, replayed over the corpora by the tests.
    .target(
      name: "FuzzChecks",
      dependencies: [
        "Cairo", "PNGCodec", "WaterflowScene", "WaterflowMotion", "WaterflowGolden", "WaterflowShots",
      ],
      path: "Tests/Fuzz/Checks"),
    .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzChecks", "PNGCodec", "WaterflowScene"]),
  ],
  swiftLanguageModes: [.v6]
)

// The libFuzzer harnesses, only for `make fuzz` (WATERFLOW_FUZZ=1, --sanitize=fuzzer): libFuzzer
// provides their `main`, so an ordinary build could not link them. A new harness is a name here,
// a folder Tests/Fuzz/Harnesses/FuzzNAME, a check in FuzzChecks.all and seeds in
// Tests/Fuzz/Corpus/NAME; `make fuzz` finds it by its folder.
if ProcessInfo.processInfo.environment["WATERFLOW_FUZZ"] != nil {
  for name in [
    "FuzzPNGDecoder", "FuzzSceneReader", "FuzzLayoutFile", "FuzzScrollScript", "FuzzGoldenManifest",
    "FuzzGoldenFiles", "FuzzJPEGDecoder", "FuzzWebPDecoder", "FuzzShotFile",
  ] {
    package.targets.append(
      .executableTarget(
        name: name, dependencies: ["FuzzChecks"], path: "Tests/Fuzz/Harnesses/\(name)",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
  }
}
