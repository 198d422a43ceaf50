// Ported from apple/swift-async-algorithms 1.1.4, `Tests/AsyncAlgorithmsTests/TestShare.swift`, its tests that wait in real time
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

#if compiler(>=6.2)

import MarbleTesting
import XCTest
import AsyncAlgorithms
import Synchronization

@available(macOS 15.0, *)
@available(macOS 15.0, *)
final class TestShare: XCTestCase {
  // Marbles: every test of this class in a world of its own.
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  func test_share_with_bounded_buffering() async {
    var gated = GatedSequence([1, 2, 3, 4, 5])
    let shared = gated.share(bufferingPolicy: .bounded(2))

    let results1 = Mutex([Int]())
    let results2 = Mutex([Int]())
    let gate1 = Gate()
    let gate2 = Gate()

    let consumer1 = Task {
      var iterator = shared.makeAsyncIterator()
      gate1.open()
      await gate2.enter()
      // Consumer 1 reads first element
      if let value = await iterator.next(isolation: nil) {
        results1.withLock { $0.append(value) }
      }
      // Delay to allow consumer 2 to get ahead
      try? await Task.sleep(for: .milliseconds(10))
      // Continue reading
      while let value = await iterator.next(isolation: nil) {
        results1.withLock { $0.append(value) }
      }
    }

    let consumer2 = Task {
      var iterator = shared.makeAsyncIterator()
      gate2.open()
      await gate1.enter()
      // Consumer 2 reads all elements quickly
      while let value = await iterator.next(isolation: nil) {
        results2.withLock { $0.append(value) }
      }
    }

    // Advance the gated sequence to make elements available
    gated.advance()  // 1
    gated.advance()  // 2
    gated.advance()  // 3
    gated.advance()  // 4
    gated.advance()  // 5

    await consumer1.value
    await consumer2.value

    // Both consumers should receive all elements
    XCTAssertEqual(results1.withLock { $0 }.sorted(), [1, 2, 3, 4, 5])
    XCTAssertEqual(results2.withLock { $0 }.sorted(), [1, 2, 3, 4, 5])
  }

  func test_share_with_no_buffering() async {
    let shared = [1, 2, 3, 4, 5].async.share(bufferingPolicy: .bounded(0))

    let expectation1 = XCTestExpectation(description: "Consumer 1 finished looping")
    let expectation2 = XCTestExpectation(description: "Consumer 2 finished looping")

    let results1 = Mutex([Int]())
    let results2 = Mutex([Int]())
    let gate1 = Gate()
    let gate2 = Gate()

    let consumer1 = Task {
      var iterator = shared.makeAsyncIterator()
      gate2.open()
      await gate1.enter()
      while let value = await iterator.next(isolation: nil) {
        results1.withLock { $0.append(value) }
        // Add some delay to consumer 1
        try? await Task.sleep(for: .milliseconds(1))
      }
      expectation1.fulfill()
    }

    let consumer2 = Task {
      var iterator = shared.makeAsyncIterator()
      gate1.open()
      await gate2.enter()
      while let value = await iterator.next(isolation: nil) {
        results2.withLock { $0.append(value) }
      }
      expectation2.fulfill()
    }

    await fulfillment(of: [expectation1, expectation2], timeout: 5)

    await consumer1.value
    await consumer2.value

    // Both consumers should receive all elements
    XCTAssertEqual(results1.withLock { $0 }.sorted(), [1, 2, 3, 4, 5])
    XCTAssertEqual(results2.withLock { $0 }.sorted(), [1, 2, 3, 4, 5])
  }

  func test_share_with_unbounded_buffering() async {
    let source = [1, 2, 3, 4, 5]
    let shared = source.async.share(bufferingPolicy: .unbounded)

    let results1 = Mutex([Int]())
    let results2 = Mutex([Int]())
    let gate1 = Gate()
    let gate2 = Gate()

    let consumer1 = Task {
      var iterator = shared.makeAsyncIterator()
      gate2.open()
      await gate1.enter()
      while let value = await iterator.next(isolation: nil) {
        results1.withLock { $0.append(value) }
        // Add some delay to consumer 1
        try? await Task.sleep(for: .milliseconds(1))
      }
    }

    let consumer2 = Task {
      var iterator = shared.makeAsyncIterator()
      gate1.open()
      await gate2.enter()
      while let value = await iterator.next(isolation: nil) {
        results2.withLock { $0.append(value) }
      }
    }

    await consumer1.value
    await consumer2.value

    XCTAssertEqual(results1.withLock { $0 }, [1, 2, 3, 4, 5])
    XCTAssertEqual(results2.withLock { $0 }, [1, 2, 3, 4, 5])
  }

  func test_share_with_bufferingLatest_buffering() async {
    var gated = GatedSequence([1, 2, 3, 4, 5])
    let shared = gated.share(bufferingPolicy: .bufferingLatest(2))

    let fastResults = Mutex([Int]())
    let slowResults = Mutex([Int]())
    let gate1 = Gate()
    let gate2 = Gate()

    let fastConsumer = Task.detached {
      var iterator = shared.makeAsyncIterator()
      gate2.open()
      await gate1.enter()
      while let value = await iterator.next(isolation: nil) {
        fastResults.withLock { $0.append(value) }
      }
    }

    let slowConsumer = Task.detached {
      var iterator = shared.makeAsyncIterator()
      gate1.open()
      await gate2.enter()
      // Read first element immediately
      if let value = await iterator.next(isolation: nil) {
        slowResults.withLock { $0.append(value) }
      }
      // Add significant delay to let buffer fill up and potentially overflow
      try? await Task.sleep(for: .milliseconds(50))
      // Continue reading remaining elements
      while let value = await iterator.next(isolation: nil) {
        slowResults.withLock { $0.append(value) }
      }
    }

    // Release all elements quickly to test buffer overflow behavior
    gated.advance()  // 1
    try? await Task.sleep(for: .milliseconds(5))
    gated.advance()  // 2
    try? await Task.sleep(for: .milliseconds(5))
    gated.advance()  // 3
    try? await Task.sleep(for: .milliseconds(5))
    gated.advance()  // 4
    try? await Task.sleep(for: .milliseconds(5))
    gated.advance()  // 5

    await fastConsumer.value
    await slowConsumer.value

    let slowResultsArray = slowResults.withLock { $0 }

    // Slow consumer should get the first element plus the latest elements in buffer
    // With bufferingLatest(2), when buffer overflows, older elements are discarded
    XCTAssertTrue(slowResultsArray.count >= 1, "Should have at least the first element")
    XCTAssertEqual(slowResultsArray.first, 1, "Should start with first element")

    // Due to bufferingLatest policy, the slow consumer should favor newer elements
    // It may miss some middle elements but should get the latest ones
    let receivedSet = Set(slowResultsArray)
    XCTAssertTrue(receivedSet.isSubset(of: Set([1, 2, 3, 4, 5])))

    // With bufferingLatest, we expect the slow consumer to get newer elements
    // when it finally catches up after the delay
    if slowResultsArray.count > 1 {
      let laterElements = Set(slowResultsArray.dropFirst())
      // Should have received some of the later elements (4, 5) due to bufferingLatest
      XCTAssertTrue(
        laterElements.contains(4) || laterElements.contains(5) || laterElements.contains(3),
        "BufferingLatest should favor keeping newer elements"
      )
    }
  }

  func test_share_with_bufferingOldest_buffering() async {
    var gated = GatedSequence([1, 2, 3, 4, 5])
    let shared = gated.share(bufferingPolicy: .bufferingOldest(2))

    let fastResults = Mutex([Int]())
    let slowResults = Mutex([Int]())
    let gate1 = Gate()
    let gate2 = Gate()

    let fastConsumer = Task {
      var iterator = shared.makeAsyncIterator()
      gate2.open()
      await gate1.enter()
      while let value = await iterator.next(isolation: nil) {
        fastResults.withLock { $0.append(value) }
      }
    }

    let slowConsumer = Task {
      var iterator = shared.makeAsyncIterator()
      gate1.open()
      await gate2.enter()
      // Read first element immediately
      if let value = await iterator.next(isolation: nil) {
        slowResults.withLock { $0.append(value) }
      }
      // Add significant delay to let buffer fill up and potentially overflow
      try? await Task.sleep(for: .milliseconds(50))
      // Continue reading remaining elements
      while let value = await iterator.next(isolation: nil) {
        slowResults.withLock { $0.append(value) }
      }
    }

    // Release all elements quickly to test buffer overflow behavior
    gated.advance()  // 1
    try? await Task.sleep(for: .milliseconds(5))
    gated.advance()  // 2
    try? await Task.sleep(for: .milliseconds(5))
    gated.advance()  // 3
    try? await Task.sleep(for: .milliseconds(5))
    gated.advance()  // 4
    try? await Task.sleep(for: .milliseconds(5))
    gated.advance()  // 5

    await fastConsumer.value
    await slowConsumer.value

    let slowResultsArray = slowResults.withLock { $0 }

    // Slow consumer should get the first element plus the oldest elements that fit in buffer
    // With bufferingOldest(2), when buffer overflows, newer elements are ignored
    XCTAssertTrue(slowResultsArray.count >= 1, "Should have at least the first element")
    XCTAssertEqual(slowResultsArray.first, 1, "Should start with first element")

    // Due to bufferingOldest policy, the slow consumer should favor older elements
    let receivedSet = Set(slowResultsArray)
    XCTAssertTrue(receivedSet.isSubset(of: Set([1, 2, 3, 4, 5])))

    // With bufferingOldest, when the buffer is full, newer elements are ignored
    // So the slow consumer should be more likely to receive earlier elements
    if slowResultsArray.count > 1 {
      let laterElements = Array(slowResultsArray.dropFirst())
      // Should have received earlier elements due to bufferingOldest policy
      // Elements 4 and 5 are less likely to be received since they're newer
      let hasEarlierElements = laterElements.contains(2) || laterElements.contains(3)
      let hasLaterElements = laterElements.contains(4) && laterElements.contains(5)

      // BufferingOldest should favor keeping older elements when buffer is full
      // So we should be more likely to see earlier elements than later ones
      XCTAssertTrue(
        hasEarlierElements || !hasLaterElements,
        "BufferingOldest should favor keeping older elements over newer ones"
      )
    }
  }

  func test_share_with_late_joining_consumer() async {
    var gated = GatedSequence([1, 2, 3, 4, 5])
    let shared = gated.share(bufferingPolicy: .unbounded)

    let earlyResults = Mutex([Int]())
    let lateResults = Mutex([Int]())

    // Start early consumer
    let earlyConsumer = Task {
      var iterator = shared.makeAsyncIterator()
      while let value = await iterator.next(isolation: nil) {
        earlyResults.withLock { $0.append(value) }
      }
    }

    // Advance some elements
    gated.advance()  // 1
    gated.advance()  // 2

    // Give early consumer time to consume
    try? await Task.sleep(for: .milliseconds(10))

    // Start late consumer
    let lateConsumer = Task {
      var iterator = shared.makeAsyncIterator()
      while let value = await iterator.next(isolation: nil) {
        lateResults.withLock { $0.append(value) }
      }
    }

    // Advance remaining elements
    gated.advance()  // 3
    gated.advance()  // 4
    gated.advance()  // 5

    await earlyConsumer.value
    await lateConsumer.value

    // Early consumer gets all elements
    XCTAssertEqual(earlyResults.withLock { $0 }, [1, 2, 3, 4, 5])
    // Late consumer only gets elements from when it joined
    XCTAssertTrue(lateResults.withLock { $0.count <= 5 })
  }
}

#endif
