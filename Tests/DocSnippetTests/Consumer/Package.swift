// swift-tools-version: 6.1
// WaterflowSnapshotTesting.docc, "Snapshot Testing from Swift": a package that depends on
// Waterflow. Excluded from the test target; DocSnippetTests evaluates it with
// `swift package dump-package`.
import PackageDescription

let package = Package(
  name: "Feed",
  // doc: consumer-manifest begin
  dependencies: [
    .package(url: "https://github.com/OWNER/waterflow", from: "1.0.0"),
    // With the swift-snapshot-testing strategy, enable its trait:
    // .package(url: "https://github.com/OWNER/waterflow", from: "1.0.0", traits: ["SnapshotTesting"]),
  ],
  targets: [
    .testTarget(
      name: "FeedTests",
      dependencies: [
        .product(name: "WaterflowGolden", package: "waterflow"),  // expectGolden, with Scene and View
        // .product(name: "WaterflowLayout", package: "waterflow"),  // the layout engine alone
        // .product(name: "WaterflowRender", package: "waterflow"),  // drawing a view to PNG/PDF/SVG
        // .product(name: "WaterflowSnapshotTesting", package: "waterflow"),  // with the trait
      ]),
  ]
  // doc: consumer-manifest end
)
