// Ported from apple/swift-async-algorithms 1.1.4, `Tests/AsyncAlgorithmsTests/TestZip.swift`, its tests that wait in real time
// (those that call Task.sleep or use ContinuousClock), unchanged but for the world: the class
// gains the one line that runs each test in virtual time (Marbles' XCTest line).

//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Async Algorithms open source project
//
// Copyright (c) 2022 Apple Inc. and the Swift project authors
// Licensed under Apache License v2.0 with Runtime Library Exception
//
// See https://swift.org/LICENSE.txt for license information
//
//===----------------------------------------------------------------------===//

import MarbleTesting
import XCTest
import AsyncAlgorithms

final class TestZip2: XCTestCase {
  // Marbles: every test of this class in a world of its own.
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  func test_zip_when_cancelled() async {
    let t = Task {
      try? await Task.sleep(nanoseconds: 1_000_000_000)
      let c1 = Indefinite(value: "test1").async
      let c2 = Indefinite(value: "test1").async
      for await _ in zip(c1, c2) {}
    }
    t.cancel()
  }
}
