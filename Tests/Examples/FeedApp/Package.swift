// swift-tools-version: 6.1
// An app's feed, as an iOS team writes it: a delegate-driven waterfall layout and its data
// source in a library that imports UIKit, and a test target of goldens. On Linux (and macOS
// without Catalyst) the Waterflow package's UIKit stands in for Apple's; on iOS the same targets
// build against the real UIKit. `make test` builds and runs it as a consumer would.
import Foundation
import PackageDescription

// Waterflow is this folder's grandparent's parent; its package identity is its folder's name.
let waterflow = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("../../..").standardized

let package = Package(
  name: "FeedApp",
  dependencies: [.package(path: waterflow.path)],
  targets: [
    .target(
      name: "FeedApp",
      dependencies: [.product(name: "WaterflowUIKit", package: waterflow.lastPathComponent, condition: .when(platforms: [.linux, .macOS]))]),
    .testTarget(
      name: "FeedAppTests",
      dependencies: [
        "FeedApp",
        .product(name: "WaterflowUIKit", package: waterflow.lastPathComponent, condition: .when(platforms: [.linux, .macOS])),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
