#if canImport(Combine) || canImport(OpenCombineShim)
  #if canImport(Combine)
    public import Combine
  #else
    public import OpenCombineShim
  #endif
  public import MarbleTesting
  public import Signals

  // A test file that imports Combine and Marbles sees `Subject`, `Scheduler` and `Subscription`
  // twice: in Combine, and in Signals or MarbleTesting. These aliases, in the module that imports
  // both, shadow both, so the names mean one thing in such a file:
  //
  // - `Subscription` is MarbleTesting's subscription log entry (`Subscription(2, 5)`); Combine's
  //   protocol is `Combine.Subscription`.
  // - `Subject` is Signals' subject (`Subject<Int, Never>()`); Combine's protocol is
  //   `Combine.Subject` (its `PassthroughSubject` and `CurrentValueSubject` keep their names).
  // - `Scheduler` is Combine's protocol, which a file that imports Combine writes; Signals' is
  //   `Signals.Scheduler`.

  /// MarbleTesting's `Subscription` (a subscription log entry), named without ambiguity in a file
  /// that imports Combine; Combine's protocol is `Combine.Subscription`.
  public typealias Subscription = MarbleTesting.Subscription

  /// Signals' `Subject`, named without ambiguity in a file that imports Combine; Combine's
  /// protocol is `Combine.Subject`.
  public typealias Subject<Value: Sendable, Failure: Error> = Signals.Subject<Value, Failure>

  #if canImport(Combine)
    /// Combine's `Scheduler`, named without ambiguity in a file that imports Signals; Signals'
    /// protocol is `Signals.Scheduler`.
    public typealias Scheduler = Combine.Scheduler
    typealias CombineSubscription = Combine.Subscription
  #else
    /// Combine's `Scheduler`, named without ambiguity in a file that imports Signals; Signals'
    /// protocol is `Signals.Scheduler`.
    public typealias Scheduler = OpenCombine.Scheduler
    typealias CombineSubscription = OpenCombine.Subscription
  #endif

  /// A Combine value (a subscriber, a subscription), which is not `Sendable`, kept in state that a
  /// lock guards.
  ///
  /// NB: `@unchecked Sendable`: it is only stored and taken out under that lock, and used outside
  /// it by one thread at a time, as Combine itself calls its subscribers and subscriptions.
  struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }
#endif
