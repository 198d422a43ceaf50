// swift-tools-version: 6.0
import PackageDescription

/// Upcoming-feature settings every target shares (the root package's STYLE.md).
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

// Marbles' Combine bridge for Linux (and anywhere without Apple's Combine): the root package's
// `Sources/MarblesCombine` files — a symbolic link — built against OpenCombine as the library
// `MarblesOpenCombine`. A separate package so that the root package keeps zero dependencies; it
// depends on Marbles by path and on OpenCombine only. Use it from a test target with:
//
//     .package(path: "…/Marbles/MarblesOpenCombine")   // or the repository URL and a version
//     .product(name: "MarblesOpenCombine", package: "MarblesOpenCombine")
let package = Package(
  name: "MarblesOpenCombine",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "MarblesOpenCombine", targets: ["MarblesOpenCombine"])
  ],
  dependencies: [
    .package(name: "Marbles", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
  ],
  targets: [
    .target(
      name: "MarblesOpenCombine",
      dependencies: [
        .product(name: "Marbles", package: "Marbles"),
        .product(name: "MarbleTesting", package: "Marbles"),
        .product(name: "Signals", package: "Marbles"),
        .product(name: "OpenCombineShim", package: "OpenCombine"),
      ],
      swiftSettings: swiftSettings)
  ],
  swiftLanguageModes: [.v6]
)
