// Ported from apple/swift-async-algorithms 1.1.4, `Tests/AsyncAlgorithmsTests/Interspersed/TestInterspersed.swift`, its tests that wait in real time
// (those that call Task.sleep or use ContinuousClock), unchanged but for the world: the class
// gains the one line that runs each test in virtual time (Marbles' XCTest line).
//
// Left out by the rule, and a finding: `test_cancellation` does not wait in real time, and in a
// world it never ends. Its child loops over an endless synchronous source whose `next()` never
// suspends, and only the parent, running beside it on another thread, can cancel it; a world runs
// one job at a time (as kotlinx-coroutines-test's runTest does), so the parent never runs.

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

import AsyncAlgorithms
import MarbleTesting
import XCTest

final class TestInterspersed: XCTestCase {
  // Marbles: every test of this class in a world of its own.
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  func test_interspersed_async_closure() async {
    let source = [1, 2, 3, 4, 5]
    let expected = [1, 0, 2, 0, 3, 0, 4, 0, 5]
    let sequence = source.async.interspersed {
      try! await Task.sleep(nanoseconds: 1000)
      return 0
    }
    var actual = [Int]()
    var iterator = sequence.makeAsyncIterator()
    while let item = await iterator.next() {
      actual.append(item)
    }
    let pastEnd = await iterator.next()
    XCTAssertNil(pastEnd)
    XCTAssertEqual(actual, expected)
  }

  func test_interspersed_async_throwing_closure() async {
    let source = [1, 2]
    let expected = [1]
    var actual = [Int]()
    let sequence = source.async.interspersed {
      try await Task.sleep(nanoseconds: 1000)
      throw Failure()
    }

    var iterator = sequence.makeAsyncIterator()
    do {
      while let item = try await iterator.next() {
        actual.append(item)
      }
      XCTFail()
    } catch {
      XCTAssertEqual(Failure(), error as? Failure)
    }
    let pastEnd = try! await iterator.next()
    XCTAssertNil(pastEnd)
    XCTAssertEqual(actual, expected)
  }
}
