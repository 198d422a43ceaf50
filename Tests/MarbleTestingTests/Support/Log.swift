import MarbleTesting
import Synchronization

/// A thread-safe list the tests append to from `@Sendable` closures.
final class Log<Element: Sendable>: Sendable {
  private let storage = Mutex<[Element]>([])

  func append(_ element: Element) { storage.withLock { $0.append(element) } }
  var all: [Element] { storage.withLock { $0 } }
}

extension Log where Element == String {
  /// Appends `"label@tick"`.
  func stamp(_ label: String, _ scheduler: TestScheduler) {
    append("\(label)@\(scheduler.now)")
  }
}
