/// A thread-safe mutable value that `@Sendable` closures can share.
final class Shared<Value: Sendable>: Sendable {
  private let storage: TestLock<Value>

  init(_ value: Value) {
    storage = TestLock(value)
  }

  /// The current value.
  var value: Value {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }

  /// Mutates the value under the lock and returns what `body` returns.
  @discardableResult
  func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
    storage.withLock { body(&$0) }
  }
}

extension Shared where Value: RangeReplaceableCollection {
  /// Appends under the lock.
  func append(_ element: Value.Element) {
    storage.withLock { $0.append(element) }
  }
}
