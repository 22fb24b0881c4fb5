// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Waterflow",
  products: [
    .library(name: "WaterflowLayout", targets: ["WaterflowLayout"]),
    .library(name: "WaterflowView", targets: ["WaterflowView"]),
    .library(name: "WaterflowScene", targets: ["WaterflowScene"]),
    .library(name: "WaterflowRender", targets: ["WaterflowRender"]),
    .library(name: "WaterflowGolden", targets: ["WaterflowGolden"]),
    .executable(name: "waterflow", targets: ["waterflow"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
  ],
  targets: [
    // Engine: standard library only.
    .target(name: "WaterflowLayout"),
    .target(name: "WaterflowView", dependencies: ["WaterflowLayout"]),
    .target(name: "WaterflowScene", dependencies: ["WaterflowLayout", "WaterflowView"]),

    // Cairo: the C libraries, and the one Swift module that wraps them.
    .systemLibrary(
      name: "CCairo",
      pkgConfig: "cairo",
      providers: [.apt(["libcairo2-dev", "libfreetype-dev", "libpng-dev", "libdeflate-dev"])]
    ),
    .target(name: "Cairo", dependencies: ["CCairo"]),
    .target(name: "WaterflowRender", dependencies: ["Cairo", "WaterflowView", "WaterflowScene"]),
    .target(name: "WaterflowGolden", dependencies: ["Cairo", "WaterflowRender"]),

    // Tools
    .executableTarget(
      name: "waterflow",
      dependencies: [
        "WaterflowLayout", "WaterflowView", "WaterflowScene", "WaterflowRender", "WaterflowGolden",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // Tests
    .testTarget(name: "WaterflowLayoutTests", dependencies: ["WaterflowLayout"]),
    .testTarget(name: "WaterflowViewTests", dependencies: ["WaterflowView", "WaterflowScene"]),
    .testTarget(name: "WaterflowSceneTests", dependencies: ["WaterflowScene"]),
    .testTarget(name: "CairoTests", dependencies: ["Cairo"]),
    .testTarget(name: "WaterflowRenderTests", dependencies: ["WaterflowRender", "WaterflowScene", "Cairo"]),
    .testTarget(name: "WaterflowGoldenTests", dependencies: ["WaterflowGolden", "Cairo"]),
    .testTarget(name: "WaterflowCLITests", dependencies: ["waterflow"]),
  ],
  swiftLanguageModes: [.v6]
)
