/// A first-in-first-out queue: an array consumed from a head index, emptied (keeping its storage)
/// whenever the head catches up with the end, so a steady stream of pushes and pops neither
/// shifts elements nor grows without bound.
///
/// Not public API: SPI for the package's own buffers (`signal.values`, the task driver's ready
/// jobs).
///
/// NB: inlinable, so that another module (the task driver's, on the scheduler's hottest path)
/// specializes it for its element type: an unspecialized `popFirst` looked up the queue's generic
/// metadata in the runtime's cache on every call.
@_spi(Internals) @frozen public struct FIFOQueue<Element> {
  @usableFromInline var elements: [Element] = []
  @usableFromInline var head = 0

  /// An empty queue.
  @inlinable public init() {}

  /// How many elements are queued.
  @inlinable
  public var count: Int { elements.count - head }

  /// Whether nothing is queued.
  @inlinable
  public var isEmpty: Bool { head == elements.count }

  /// Queues `element` last.
  @inlinable
  public mutating func append(_ element: Element) {
    elements.append(element)
  }

  /// Takes the first element, if any.
  @inlinable
  public mutating func popFirst() -> Element? {
    guard head < elements.count else { return nil }
    let element = elements[head]
    head += 1
    if head == elements.count {
      elements.removeAll(keepingCapacity: true)
      head = 0
    }
    return element
  }

  /// Puts `element` back first in line.
  @inlinable
  public mutating func pushFirst(_ element: Element) {
    if head > 0 {
      head -= 1
      elements[head] = element
    } else {
      elements.insert(element, at: 0)
    }
  }

  /// The element `offset` places from the first.
  @inlinable
  public subscript(offset offset: Int) -> Element {
    elements[head + offset]
  }

  /// Takes the element `offset` places from the first (0 is `popFirst()`).
  @inlinable
  public mutating func remove(atOffset offset: Int) -> Element {
    guard offset > 0 else { return popFirst()! }
    return elements.remove(at: head + offset)
  }

  /// Empties the queue.
  @inlinable
  public mutating func removeAll() {
    elements.removeAll()
    head = 0
  }
}

extension FIFOQueue: Sendable where Element: Sendable {}
