/// A subject that replays its history to each new subscriber, then sends live events.
///
/// With `capacity: 2`:
///
///     send:       -1-2-3-|
///     newcomer:   ------^(23|)   (subscribed after 3: replayed 2 and 3, then completed)
///
/// The history keeps the last `capacity` values and is trimmed before a value is delivered live. A
/// newcomer receives, synchronously inside `subscribe`, the stored values in order and then the
/// terminal event if there was one; disposing during the replay stops it. Live events sent from other
/// threads during the replay wait until it is over, so the newcomer sees every value exactly once.
/// Capacity `0` stores no values (only the terminal event is replayed).
public final class ReplaySubject<Value: Sendable, Failure: Error>: Subject<Value, Failure>,
  @unchecked Sendable
{
  // NB: no stored state of its own; see `Subject`.

  /// Creates a replay subject.
  ///
  /// - Parameter capacity: How many of the latest values to replay; unlimited by default.
  /// - Precondition: `capacity >= 0`.
  public init(capacity: Int = .max) {
    super.init(core: SubjectCore(capacity: capacity))
  }
}
