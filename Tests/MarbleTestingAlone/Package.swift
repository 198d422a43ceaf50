// swift-tools-version: 6.2
// A test target that links `MarbleTesting` alone, as a user's might by mistake: `make
// check-marbletesting-alone` runs its tests, each of which fails a check MarbleTesting finds by
// itself (no assertion carries it), and checks that the process stops naming the `Marbles`
// product instead of passing. A package of its own: every test target of a package links into one
// test process, and the root package's tests link `Marbles`.
import PackageDescription

let package = Package(
  name: "MarbleTestingAlone",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Marbles", path: "../..")],
  targets: [
    .testTarget(
      name: "MarbleTestingAloneTests",
      dependencies: [.product(name: "MarbleTesting", package: "Marbles")])
  ],
  swiftLanguageModes: [.v6]
)
