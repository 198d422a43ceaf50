import Signals
import Testing

@Suite("CompoundDisposable")
struct CompoundDisposableTests {
  @Test("Disposing the compound disposes every child in the order added")
  func disposesChildrenInOrder() {
    let order = Shared<[Int]>([])
    let compound = CompoundDisposable([AnyDisposable { order.append(1) }])
    compound.add(AnyDisposable { order.append(2) })
    compound.add { order.append(3) }
    #expect(order.value.isEmpty)
    #expect(!compound.isDisposed)
    compound.dispose()
    #expect(order.value == [1, 2, 3])
    #expect(compound.isDisposed)
  }

  @Test("Disposing twice disposes the children once")
  func idempotent() {
    let runs = Counter()
    let compound = CompoundDisposable()
    compound.add { runs.increment() }
    compound.dispose()
    compound.dispose()
    #expect(runs.value == 1)
  }

  @Test("Adding to a disposed compound disposes the newcomer at once")
  func addingAfterDisposalDisposesAtOnce() {
    let compound = CompoundDisposable()
    compound.dispose()
    let late = AnyDisposable()
    compound.add(late)
    #expect(late.isDisposed)
    let runs = Counter()
    compound.add { runs.increment() }
    #expect(runs.value == 1)
  }
}
