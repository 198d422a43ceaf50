import Synchronization
import Testing

@testable import MarbleTesting

/// `SlimWeakReference` reads as a weak reference does — the object while it lives, `nil` once its
/// deinitialization has begun — without the side table a weak reference gives its object for good.
@Suite struct SlimWeakReferenceTests {
  final class Engine: Sendable {
    let number: Int
    let deinitialized = Atomic(0)
    let onDeinit: (@Sendable (Engine) -> Void)?

    init(_ number: Int, onDeinit: (@Sendable (Engine) -> Void)? = nil) {
      self.number = number
      self.onDeinit = onDeinit
    }

    deinit {
      onDeinit?(self)
    }
  }

  /// The reference, where escaping closures can reach it (it is not copyable).
  final class Holder: Sendable {
    let reference = SlimWeakReference<Engine>()
    /// Reads of another object than the one set.
    let wrongReads = Atomic(0)
  }

  @Test func readsTheObjectWhileItLivesAndNilOnceItIsGone() {
    let holder = Holder()
    #expect(holder.reference.object == nil, "nil until set")
    let deinitialized = Atomic(0)
    var engine: Engine? = Engine(7) { _ in deinitialized.add(1, ordering: .relaxed) }
    holder.reference.set(engine!)
    #expect(holder.reference.object?.number == 7)
    #expect(holder.reference.object === engine)
    engine = nil
    #expect(deinitialized.load(ordering: .relaxed) == 1, "the reference kept nothing alive")
    #expect(holder.reference.object == nil)
  }

  @Test func isSetOnceOnly() {
    let holder = Holder()
    let first = Engine(1)
    let second = Engine(2)
    holder.reference.set(first)
    holder.reference.set(second)
    #expect(holder.reference.object === first)
  }

  @Test func readsNilFromInsideTheObjectsDeinit() {
    let holder = Holder()
    let readInDeinit = Mutex<Bool?>(nil)
    var engine: Engine? = Engine(3) { _ in
      readInDeinit.withLock { $0 = holder.reference.object != nil }
    }
    holder.reference.set(engine!)
    engine = nil
    #expect(readInDeinit.withLock { $0 } == false, "being deinitialized reads as gone")
  }

  @Test func readsAlikeFromManyThreadsWhileTheObjectGoes() async {
    for _ in 0..<200 {
      let holder = Holder()
      let deinitialized = Atomic(0)
      var engine: Engine? = Engine(9) { _ in deinitialized.add(1, ordering: .relaxed) }
      holder.reference.set(engine!)
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<4 {
          group.addTask {
            for _ in 0..<100 {
              if let object = holder.reference.object, object.number != 9 {
                holder.wrongReads.add(1, ordering: .relaxed)
              }
            }
          }
        }
        engine = nil
      }
      #expect(holder.wrongReads.load(ordering: .relaxed) == 0)
      #expect(deinitialized.load(ordering: .relaxed) == 1)
      #expect(holder.reference.object == nil)
    }
  }
}
