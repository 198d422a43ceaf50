/// How ``SignalProtocol/flatten(_:)`` and ``SignalProtocol/flattenMap(_:_:)`` combine inner signals.
///
///     outer:      -x---y------|
///     x:           -a---b|
///     y:               --c-d|
///     .merge:     --a---bc-d--|    every inner signal at once
///     .concat:    --a---b--c-d|    one after another; y is subscribed when x completes, at 7
///     .latest:    --a----c-d--|    only the newest; y's arrival disposes x, so b is never sent
///
/// In every strategy the first error — from the outer signal or any inner one — fails the result
/// and disposes the rest, and the result completes only when the outer signal and the inner signals
/// it still owes have completed.
public enum FlattenStrategy: Sendable, Hashable {
  /// Subscribes to every inner signal as it arrives and sends their values as they come (RAC 2.5's
  /// `flatten`, RxSwift's `merge()`, RxJS's `mergeAll`).
  case merge
  /// Subscribes to one inner signal at a time, in arrival order; each waits until the one before
  /// completes, so a cold inner signal starts late (RAC 2.5's `concat`, RxSwift's `concat()`, RxJS's
  /// `concatAll`).
  case concat
  /// Subscribes to each inner signal as it arrives and disposes the one before (RAC 2.5's
  /// `switchToLatest`, RxSwift's `switchLatest()`, RxJS's `switchAll`).
  case latest
}
