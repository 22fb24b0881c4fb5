// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Waterflow",
  products: [
    .library(name: "WaterflowLayout", targets: ["WaterflowLayout"]),
    .library(name: "WaterflowView", targets: ["WaterflowView"]),
    .library(name: "WaterflowScene", targets: ["WaterflowScene"]),
    .library(name: "WaterflowRender", targets: ["WaterflowRender"]),
    .library(name: "WaterflowMotion", targets: ["WaterflowMotion"]),
    .library(name: "WaterflowGolden", targets: ["WaterflowGolden"]),
    // Behind the SnapshotTesting trait, so only those who enable it fetch and build
    // swift-snapshot-testing (and the swift-syntax it needs).
    .library(name: "WaterflowSnapshotTesting", targets: ["WaterflowSnapshotTesting"]),
    .executable(name: "waterflow", targets: ["waterflow"]),
  ],
  traits: [
    .trait(
      name: "SnapshotTesting",
      description: "The swift-snapshot-testing strategy (the WaterflowSnapshotTesting product)."),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
  ],
  targets: [
    // Engine: standard library only.
    // Rounding calls libm's trunc and round, which an executable does not link by itself on Linux.
    .target(name: "WaterflowLayout", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    .target(name: "WaterflowView", dependencies: ["WaterflowLayout"]),
    // Reading and writing JSON: the standard library, and libc to read files.
    .target(name: "WaterflowJSON"),
    .target(name: "WaterflowScene", dependencies: ["WaterflowLayout", "WaterflowView", "WaterflowJSON"]),

    // Cairo: the C libraries, and the one Swift module that wraps them.
    .systemLibrary(
      name: "CCairo",
      pkgConfig: "cairo",
      providers: [.apt(["libcairo2-dev", "libfreetype-dev", "libpng-dev", "libdeflate-dev"])]
    ),
    .target(name: "Cairo", dependencies: ["CCairo"]),
    .target(name: "WaterflowRender", dependencies: ["Cairo", "WaterflowView"]),
    .target(name: "WaterflowMotion", dependencies: ["Cairo", "WaterflowRender", "WaterflowScene", "WaterflowJSON"]),
    .target(
      name: "WaterflowGolden",
      dependencies: ["Cairo", "WaterflowRender", "WaterflowScene", "WaterflowMotion", "WaterflowJSON"]
    ),
    .target(
      name: "WaterflowSnapshotTesting",
      dependencies: [
        "WaterflowGolden", "WaterflowRender", "WaterflowScene",
        .product(
          name: "SnapshotTesting", package: "swift-snapshot-testing",
          condition: .when(traits: ["SnapshotTesting"])),
      ]
    ),

    // Tools
    .executableTarget(
      name: "waterflow",
      dependencies: [
        "WaterflowLayout", "WaterflowView", "WaterflowScene", "WaterflowRender", "WaterflowMotion",
        "WaterflowGolden", "WaterflowJSON", "Cairo",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // Tests. WaterflowTestSupport is not a product: the helpers every test target shares (the
    // external programs tests start, the built binary, temporary folders).
    .target(name: "WaterflowTestSupport", path: "Tests/WaterflowTestSupport"),
    .testTarget(name: "WaterflowLayoutTests", dependencies: ["WaterflowLayout"]),
    .testTarget(name: "WaterflowViewTests", dependencies: ["WaterflowView", "WaterflowScene"]),
    .testTarget(name: "WaterflowJSONTests", dependencies: ["WaterflowJSON"]),
    .testTarget(name: "WaterflowSceneTests", dependencies: ["WaterflowScene"]),
    .testTarget(name: "CairoTests", dependencies: ["Cairo", "WaterflowTestSupport"]),
    .testTarget(name: "WaterflowRenderTests", dependencies: ["WaterflowRender", "WaterflowScene", "Cairo"]),
    .testTarget(
      name: "WaterflowMotionTests",
      dependencies: ["WaterflowMotion", "WaterflowScene", "Cairo", "WaterflowTestSupport"],
      exclude: ["Bench"]  // benchmark scripts, run by hand: not tests
    ),
    .testTarget(
      name: "WaterflowGoldenTests",
      dependencies: [
        "WaterflowGolden", "WaterflowScene", "WaterflowView", "WaterflowRender", "Cairo",
        "WaterflowTestSupport",
      ],
      exclude: ["Fixtures"]  // pixelmatch's fixtures, read from disk by the tests
    ),
    .testTarget(
      name: "WaterflowSnapshotTestingTests",
      dependencies: [
        "WaterflowSnapshotTesting", "WaterflowGolden", "WaterflowScene", "WaterflowRender", "Cairo",
        .product(
          name: "SnapshotTesting", package: "swift-snapshot-testing",
          condition: .when(traits: ["SnapshotTesting"])),
      ]
    ),
    .testTarget(name: "WaterflowCLITests", dependencies: ["waterflow", "WaterflowTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
