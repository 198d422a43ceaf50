// swift-tools-version: 6.2
import PackageDescription

/// Upcoming-feature settings every target shares (the root package's STYLE.md).
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

// A separate package so that the root package keeps zero dependencies: Marbles' async/await
// support proven on swift-async-algorithms' own diagram tests, and on an app-shaped example.
// `make test` at the root runs these tests after the root's.
let package = Package(
  name: "MarblesIntegrations",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [
    .package(name: "Marbles", path: ".."),
    // The root package's MarblesCombine sources built against OpenCombine: what Linux tests and
    // CI prove of the Combine bridge, from the small package Linux users depend on.
    .package(name: "MarblesOpenCombine", path: "../MarblesOpenCombine"),
    .package(url: "https://github.com/apple/swift-async-algorithms.git", from: "1.1.4"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
    .package(url: "https://github.com/pointfreeco/combine-schedulers", from: "1.2.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/Quick/Nimble.git", from: "14.0.0"),
    .package(url: "https://github.com/swhitty/FlyingFox.git", from: "0.27.1"),
  ],
  targets: [
    // App code as new app targets are built: on the main actor by default, nonisolated async
    // functions on their caller's actor; its standard sleeps run in virtual time when driven.
    .target(
      name: "MainActorByDefault",
      swiftSettings: swiftSettings + [
        .defaultIsolation(MainActor.self),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
      ]),
    .testTarget(
      name: "MainActorByDefaultTests",
      dependencies: [
        "MainActorByDefault",
        .product(name: "MarbleTesting", package: "Marbles"),
      ],
      swiftSettings: swiftSettings + [
        .defaultIsolation(MainActor.self),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
      ]),
    .target(
      name: "SearchExample",
      dependencies: [.product(name: "AsyncAlgorithms", package: "swift-async-algorithms")],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "AsyncAlgorithmsPortsTests",
      dependencies: [
        .product(name: "Marbles", package: "Marbles"),
        .product(name: "MarbleTesting", package: "Marbles"),
        .product(name: "Signals", package: "Marbles"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ],
      swiftSettings: swiftSettings),
    // swift-async-algorithms' own tests that wait in real time, ported unchanged but for the
    // world (one line per XCTest case class).
    .testTarget(
      name: "AsyncAlgorithmsRealClockTests",
      dependencies: [
        .product(name: "MarbleTesting", package: "Marbles"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    // swift-service-lifecycle's own tests that wait in real time (its graceful-shutdown files),
    // ported unchanged but for the world (one line per XCTest case class).
    .testTarget(
      name: "ServiceLifecycleRealClockTests",
      dependencies: [
        .product(name: "MarbleTesting", package: "Marbles"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
      ]),
    // Nimble's own async tests, which poll in real time (`toEventually`, `toAlways`, `toNever`)
    // and call actors, from `@MainActor` test methods too: ported unchanged but for the world (one
    // line per XCTest case class), with Nimble's shared test helpers (a target of Nimble's package
    // that it does not ship as a product) copied verbatim.
    .target(
      name: "NimbleSharedTestHelpers",
      dependencies: [.product(name: "Nimble", package: "Nimble")],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    .testTarget(
      name: "NimbleRealClockTests",
      dependencies: [
        "NimbleSharedTestHelpers",
        .product(name: "MarbleTesting", package: "Marbles"),
        .product(name: "Nimble", package: "Nimble"),
      ],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    // FlyingSocks' own tests that wait in real time (timeouts raced against sleeps, on actors and
    // the main actor; continuations resumed after a delay): ported unchanged but for the world
    // (one line per suite, and the import that names it).
    .testTarget(
      name: "FlyingSocksRealClockTests",
      dependencies: [
        .product(name: "Marbles", package: "Marbles"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .swiftLanguageMode(.v6)]),
    .testTarget(
      name: "SearchExampleTests",
      dependencies: [
        "SearchExample",
        .product(name: "Marbles", package: "Marbles"),
        .product(name: "MarbleTesting", package: "Marbles"),
        .product(name: "Signals", package: "Marbles"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SwiftClocksPortsTests",
      dependencies: [
        .product(name: "Marbles", package: "Marbles"),
        .product(name: "MarbleTesting", package: "Marbles"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ],
      swiftSettings: swiftSettings),
    // Marbles beside another library that hooks the runtime, in one test process.
    .testTarget(
      name: "NeighboursTests",
      dependencies: [
        .product(name: "MarbleTesting", package: "Marbles"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ],
      swiftSettings: swiftSettings),
    // Imports only what a Linux user of the Combine bridge imports.
    .testTarget(
      name: "CombineUserTests",
      dependencies: [
        .product(name: "MarblesOpenCombine", package: "MarblesOpenCombine"),
        .product(name: "Marbles", package: "Marbles"),
        .product(name: "MarbleTesting", package: "Marbles"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
      ],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "CombinePortsTests",
      dependencies: [
        .product(name: "MarblesOpenCombine", package: "MarblesOpenCombine"),
        .product(name: "Marbles", package: "Marbles"),
        .product(name: "MarbleTesting", package: "Marbles"),
        .product(name: "Signals", package: "Marbles"),
        .product(name: "OpenCombineShim", package: "OpenCombine"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
      ],
      swiftSettings: swiftSettings),
  ],
  swiftLanguageModes: [.v6]
)
