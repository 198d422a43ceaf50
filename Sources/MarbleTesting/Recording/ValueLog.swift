/// A growable list of values that code unspecialized for `Element` can append to without looking up
/// any type metadata.
///
/// NB: `Array<Element>.append` takes `Array<Element>`'s metadata, which code not specialized for
/// `Element` (a ``TestSubscriber`` recording values) must look up in the runtime's cache on every
/// call. This buffer needs only `Element`'s own metadata, which generic code has at hand.
///
/// Not thread-safe: its owner guards it with a lock (hence `@unchecked Sendable`).
final class ValueLog<Element>: @unchecked Sendable {
  private var base: UnsafeMutablePointer<Element>?
  private(set) var count = 0
  private var capacity = 0

  init() {}

  deinit {
    guard let base else { return }
    base.deinitialize(count: count)
    base.deallocate()
  }

  /// Adds `element` at the end, doubling the storage when it is full.
  func append(_ element: Element) {
    if count == capacity { grow() }
    (base! + count).initialize(to: element)
    count += 1
  }

  /// The element at `index`, which must be less than ``count``.
  subscript(index: Int) -> Element {
    base![index]
  }

  /// The elements, in order.
  var elements: [Element] {
    guard let base else { return [] }
    return Array(UnsafeBufferPointer(start: base, count: count))
  }

  @inline(never)
  private func grow() {
    let newCapacity = max(16, capacity * 2)
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    if let base {
      newBase.moveInitialize(from: base, count: count)
      base.deallocate()
    }
    base = newBase
    capacity = newCapacity
  }
}
