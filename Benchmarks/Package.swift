// swift-tools-version: 6.0
import PackageDescription

// A separate package so that the root package keeps zero dependencies; it alone depends on
// OpenCombine, swift-clocks and combine-schedulers, the peers the benchmarks compare with. Build in release: `make bench` at the root.
let package = Package(
  name: "MarblesBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Marbles", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/combine-schedulers", from: "1.2.2"),
    // The Combine bridge built against OpenCombine (the root's MarblesCombine is empty on Linux).
    .package(name: "MarblesOpenCombine", path: "../MarblesOpenCombine"),
  ],
  targets: [
    // glibc's malloc statistics, which Swift's Glibc module does not export. DWARF 4, which
    // valgrind 3.19 (callgrind) can read.
    .target(name: "MallocStats", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
    .executableTarget(
      name: "MarblesBenchmarks",
      dependencies: [
        .product(name: "Signals", package: "Marbles"),
        .product(name: "MarbleTesting", package: "Marbles"),
        "MallocStats",
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
        .product(name: "MarblesOpenCombine", package: "MarblesOpenCombine"),
        "NoWaitsWorkload",
      ]
    ),
    // Phase q's workload, for the phase and for SynctestWorkloads' runs of it.
    .target(name: "NoWaitsWorkload"),
    // Phase p's Swift half: one side-by-side workload per process (the Go half is Go/synctest).
    .executableTarget(
      name: "SynctestWorkloads",
      dependencies: [
        .product(name: "MarbleTesting", package: "Marbles"),
        .product(name: "Signals", package: "Marbles"), "NoWaitsWorkload",
      ]),
    .target(name: "StreamLoop"),
    // Phase g's bare loop in a process that does not link Marbles, and in one that does.
    .executableTarget(name: "StreamLoopAlone", dependencies: ["StreamLoop"]),
    .executableTarget(
      name: "StreamLoopLinkingMarbles",
      dependencies: ["StreamLoop", .product(name: "MarbleTesting", package: "Marbles")]),
  ],
  swiftLanguageModes: [.v6]
)
