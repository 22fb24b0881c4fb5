// swift-tools-version: 6.0
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
    .library(name: "FileTransactions", targets: ["FileTransactions"]),
    // A separate product, so only users of swift-snapshot-testing pay for that dependency.
    .library(name: "WaterflowSnapshotTesting", targets: ["WaterflowSnapshotTesting"]),
    .executable(name: "waterflow", targets: ["waterflow"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
  ],
  targets: [
    // Engine: standard library only.
    .target(name: "WaterflowLayout"),
    .target(name: "WaterflowView", dependencies: ["WaterflowLayout"]),
    .target(name: "WaterflowScene", dependencies: ["WaterflowLayout", "WaterflowView"]),

    // Atomic files, staged folders, sweeping and the cleanup on SIGINT/SIGTERM/SIGHUP.
    .target(name: "FileTransactions"),

    // Cairo: the C libraries, and the one Swift module that wraps them.
    .systemLibrary(
      name: "CCairo",
      pkgConfig: "cairo",
      providers: [.apt(["libcairo2-dev", "libfreetype-dev", "libpng-dev", "libdeflate-dev"])]
    ),
    .target(name: "Cairo", dependencies: ["CCairo"]),
    .target(name: "WaterflowRender", dependencies: ["Cairo", "WaterflowView", "WaterflowScene"]),
    .target(
      name: "WaterflowMotion", dependencies: ["Cairo", "FileTransactions", "WaterflowRender", "WaterflowScene"]),
    .target(
      name: "WaterflowGolden",
      dependencies: ["Cairo", "FileTransactions", "WaterflowRender", "WaterflowScene", "WaterflowMotion"]),
    .target(
      name: "WaterflowSnapshotTesting",
      dependencies: [
        "WaterflowGolden", "WaterflowRender", "WaterflowScene",
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ]
    ),

    // Tools
    .executableTarget(
      name: "waterflow",
      dependencies: [
        "WaterflowLayout", "WaterflowView", "WaterflowScene", "WaterflowRender", "WaterflowMotion",
        "WaterflowGolden", "Cairo", "FileTransactions",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // Tests
    .testTarget(name: "WaterflowLayoutTests", dependencies: ["WaterflowLayout"]),
    .testTarget(name: "WaterflowViewTests", dependencies: ["WaterflowView", "WaterflowScene"]),
    .testTarget(name: "WaterflowSceneTests", dependencies: ["WaterflowScene"]),
    .testTarget(name: "CairoTests", dependencies: ["Cairo"]),
    .testTarget(name: "FileTransactionsTests", dependencies: ["FileTransactions"]),
    .testTarget(name: "WaterflowRenderTests", dependencies: ["WaterflowRender", "WaterflowScene", "Cairo"]),
    .testTarget(
      name: "WaterflowMotionTests", dependencies: ["WaterflowMotion", "WaterflowScene", "Cairo", "FileTransactions"],
      exclude: ["Bench"]  // benchmark scripts, run by hand: not tests
    ),
    .testTarget(
      name: "WaterflowGoldenTests",
      dependencies: ["WaterflowGolden", "WaterflowScene", "WaterflowView", "WaterflowRender", "Cairo"]
    ),
    .testTarget(
      name: "WaterflowSnapshotTestingTests",
      dependencies: [
        "WaterflowSnapshotTesting", "WaterflowGolden", "WaterflowScene", "WaterflowRender", "Cairo",
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ]
    ),
    .testTarget(name: "WaterflowCLITests", dependencies: ["waterflow"]),
  ],
  swiftLanguageModes: [.v6]
)
