// swift-tools-version: 6.0
import PackageDescription

/// Upcoming-feature settings every target shares (STYLE.md).
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

/// What reaches into the Swift runtime's internals and SPI — the enqueue and main-executor hooks,
/// the default executor (SE-0505, still SPI), a job's layout, the clock and Dispatch wrappers — is
/// compiled only for the toolchains it was tested on: `MARBLES_TESTED_RUNTIME`. On any other
/// toolchain Marbles builds without it, keeps standard sleeps and readings of time real, and says
/// so once per process at the first scheduler. Tests of that behaviour are gated the same way.
#if compiler(>=6.3) && !compiler(>=6.4)
  let testedRuntime: [SwiftSetting] = [.define("MARBLES_TESTED_RUNTIME")]
  let testedRuntimeC: [CSetting] = [.define("MARBLES_TESTED_RUNTIME")]
#else
  let testedRuntime: [SwiftSetting] = []
  let testedRuntimeC: [CSetting] = []
#endif

let package = Package(
  name: "Marbles",
  // `Synchronization.Mutex` needs these OS versions on Apple platforms.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Signals", targets: ["Signals"]),
    .library(name: "MarbleTesting", targets: ["MarbleTesting"]),
    .library(name: "Marbles", targets: ["Marbles"]),
    // Built against Apple's Combine where it exists, empty elsewhere; the same sources are built
    // against OpenCombine as the `MarblesOpenCombine` package (the folder of that name).
    .library(name: "MarblesCombine", targets: ["MarblesCombine"]),
    .executable(name: "marbles", targets: ["MarblesCLI"]),
  ],
  targets: [
    .target(name: "Signals", swiftSettings: swiftSettings),
    // One virtual clock per scheduler, the clock and Dispatch wrappers that reach it, and the Swift
    // concurrency runtime's hooks and functions (include/swift_runtime.h), declared once.
    .target(name: "CMarbleRuntime", cSettings: testedRuntimeC),
    .target(
      name: "MarbleTesting", dependencies: ["Signals", "CMarbleRuntime"],
      swiftSettings: swiftSettings + testedRuntime),
    .target(
      name: "Marbles",
      dependencies: ["MarbleTesting", "Signals"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MarblesCombine",
      dependencies: ["Marbles", "MarbleTesting", "Signals"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MarbleFixtures",
      dependencies: ["MarbleTesting", "Signals"],
      swiftSettings: swiftSettings
    ),
    // The `marbles` command. The target is not named `marbles`: on a case-insensitive file system
    // (macOS's default) its module would clash with the `Marbles` library's.
    .executableTarget(
      name: "MarblesCLI",
      dependencies: ["MarbleFixtures"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "MarbleFixturesTests",
      dependencies: ["MarbleFixtures", "MarbleTesting", "Signals"],
      // Golden pictures the tests compare with; not Swift sources.
      exclude: ["Golden"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "MarblesCLITests",
      dependencies: ["MarblesCLI"],
      // Deliberately broken fixtures the tests run the executable on; not Swift sources.
      exclude: ["Fixtures"],
      swiftSettings: swiftSettings
    ),
    // A tool's process that links Marbles and makes schedulers outside any test, which
    // `WorldProbeTests` runs.
    .executableTarget(
      name: "WorldProbe", dependencies: ["Marbles", "MarbleTesting"], path: "Tests/WorldProbe",
      swiftSettings: swiftSettings),
    // The same, linking MarbleTesting alone: a process with no test framework in it.
    .executableTarget(
      name: "WorldProbeBare", dependencies: ["MarbleTesting"], path: "Tests/WorldProbeBare",
      swiftSettings: swiftSettings),
    // App-shaped code under test that the Swift Testing and XCTest targets share.
    .target(
      name: "TestSupport", dependencies: ["MarbleTesting"], path: "Tests/TestSupport",
      swiftSettings: swiftSettings),
    // The race bugs that exploring schedules must find, shared with benchmark phase k.
    .target(
      name: "RaceBugs", dependencies: ["MarbleTesting"], path: "Tests/RaceBugs",
      swiftSettings: swiftSettings),
    // Phase k of `make bench` (exploring schedules): an executable of this package, because the
    // exploration machinery is MarbleTesting's `package` interface. Not a product.
    .executableTarget(
      name: "ExplorationBenchmark", dependencies: ["MarbleTesting", "RaceBugs"],
      path: "Tests/ExplorationBenchmark", swiftSettings: swiftSettings + testedRuntime),
    .testTarget(
      name: "MarblesTests",
      dependencies: [
        "Marbles", "MarbleTesting", "Signals", "TestSupport", "RaceBugs", "WorldProbe",
        "WorldProbeBare",
      ],
      swiftSettings: swiftSettings + testedRuntime
    ),
    .testTarget(
      name: "MarblesXCTests",
      dependencies: ["Marbles", "MarbleTesting", "Signals", "TestSupport"],
      swiftSettings: swiftSettings + testedRuntime
    ),
    .testTarget(
      name: "MarbleTestingTests",
      dependencies: ["MarbleTesting", "Signals", "CMarbleRuntime", "TestSupport"],
      swiftSettings: swiftSettings + testedRuntime
    ),
    .testTarget(
      name: "SignalsTests",
      dependencies: ["Signals"],
      swiftSettings: swiftSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
