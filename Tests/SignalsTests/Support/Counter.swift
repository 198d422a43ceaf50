import Synchronization

/// A thread-safe count.
final class Counter: Sendable {
  private let count = Atomic(0)

  /// Adds one and returns the new count.
  @discardableResult
  func increment() -> Int {
    count.add(1, ordering: .sequentiallyConsistent).newValue
  }

  /// The current count.
  var value: Int { count.load(ordering: .sequentiallyConsistent) }
}
