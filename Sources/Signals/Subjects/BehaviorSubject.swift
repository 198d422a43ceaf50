/// A subject with a current value, sent to each new subscriber first.
///
///     BehaviorSubject(value: 0), send: ---1---2-|
///     subscriber at 0:                 0--1---2-|
///     subscriber at 5:                      1-2-|
///
/// After termination, a new subscriber receives the last value, then the terminal event.
public final class BehaviorSubject<Value: Sendable, Failure: Error>: Subject<Value, Failure>,
  @unchecked Sendable
{
  // NB: no stored state of its own; see `Subject`.

  /// Creates a behaviour subject holding `value`.
  ///
  /// - Parameter value: The current value until the first send.
  public init(value: Value) {
    super.init(core: SubjectCore(capacity: 1, history: [value]))
  }

  /// The current value: the latest sent, or the initial one.
  public var value: Value {
    core.latestValue!
  }
}
