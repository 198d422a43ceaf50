// swift-tools-version: 6.0
import PackageDescription

// A separate package so that the root package keeps zero dependencies. Build in release:
// `make bench` at the root.
let package = Package(
  name: "MarblesBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Marbles", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "MarblesBenchmarks",
      dependencies: [
        .product(name: "Signals", package: "Marbles"),
        .product(name: "MarbleTesting", package: "Marbles"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
