import CMarbleRuntime
import Synchronization

/// A reference that does not keep its object alive and reads `nil` once the object is being
/// deinitialized: a weak reference without a side table.
///
/// A Swift weak reference gives its object a side table for good, and every retain and release of
/// the object then goes through it — for a scheduler's engine, a world's every step and a sleep's
/// every wake-up, and for a scheduler, its release at the end of every world. This one holds an
/// unowned reference instead (the object's memory stays allocated, not the object alive) and
/// takes a strong one with the runtime's `swift_tryRetain`, which fails once the object's
/// deinitialization has begun. Set once; `nil` until then.
struct SlimWeakReference<Object: AnyObject>: ~Copyable, Sendable {
  private let address = Atomic<UInt>(0)

  init() {}

  /// The object, if it was set and is not being deinitialized.
  var object: Object? {
    guard let pointer = UnsafeMutableRawPointer(bitPattern: address.load(ordering: .acquiring)),
      let retained = swift_tryRetain(pointer)
    else { return nil }
    return Unmanaged<Object>.fromOpaque(retained).takeRetainedValue()
  }

  /// Sets the object, the first time only.
  func set(_ object: Object) {
    let pointer = swift_unownedRetain(Unmanaged.passUnretained(object).toOpaque())
    let (exchanged, _) = address.compareExchange(
      expected: 0, desired: UInt(bitPattern: pointer), ordering: .acquiringAndReleasing)
    if !exchanged { swift_unownedRelease(pointer) }
  }

  deinit {
    swift_unownedRelease(UnsafeMutableRawPointer(bitPattern: address.load(ordering: .acquiring)))
  }
}
