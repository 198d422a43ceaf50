#if canImport(Combine) || canImport(OpenCombineShim)
  #if canImport(Combine)
    public import Combine
  #else
    public import OpenCombineShim
  #endif
  public import MarbleTesting
  public import Signals

  /// A Combine scheduler on a `TestScheduler`'s virtual time: `scheduler.combine`, or
  /// `scheduler.combine(for: DispatchQueue.self)` for code typed for another scheduler's time.
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let input = try scheduler.hot("-a-b---c--|")
  /// scheduler.expect(input.publisher.debounce(for: .milliseconds(2), scheduler: scheduler.combine))
  ///   .toBe("----b----c|")
  /// scheduler.flush()
  /// ```
  ///
  /// - Its work runs in the scheduler's `advance`, `run` and `flush`, ordered with the signals,
  ///   tasks and marbles of the same test on one timeline.
  /// - A date or a stride becomes ticks rounding up, so nothing runs early; a date in the past
  ///   runs at the current tick. `schedule(options:_:)` runs at the current tick, in the order
  ///   scheduled. A repeating action repeats every interval (at least one tick) after its due
  ///   time, until its `Cancellable` is cancelled. Every `Cancellable` it returns cancels.
  /// - ``minimumTolerance`` is zero, and tolerances and options are ignored: virtual time is
  ///   exact.
  /// - It holds the scheduler's ``/MarbleTesting/SchedulerHandle``, not the scheduler: a test that
  ///   forgets `flush()` still releases its scheduler and is told so.
  public struct CombineTestScheduler<
    SchedulerTimeType: VirtualTimeConvertible, SchedulerOptions
  >: Scheduler, Sendable {
    @usableFromInline let handle: SchedulerHandle

    init(_ handle: SchedulerHandle) {
      self.handle = handle
    }

    /// The scheduler's current tick, as this scheduler's time.
    public var now: SchedulerTimeType {
      let offset = handle.tick * handle.now
      let (seconds, attoseconds) = offset.components
      return SchedulerTimeType.virtualTimeOrigin.advanced(
        by: .seconds(Int(seconds)) + .nanoseconds(Int(attoseconds / 1_000_000_000)))
    }

    /// Zero: virtual time is exact.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// Runs `action` at the current tick, after what is already due then.
    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
      handle.schedule(at: handle.now, Self.sendable(action))
    }

    /// Runs `action` at the tick of `date`, rounded up.
    @inlinable
    public func schedule(
      after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?, _ action: @escaping () -> Void
    ) {
      handle.schedule(at: tick(of: date), Self.sendable(action))
    }

    /// Runs `action` at the tick of `date`, rounded up, then every `interval` (at least a tick)
    /// until the returned `Cancellable` is cancelled.
    @inlinable
    public func schedule(
      after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
      _ action: @escaping () -> Void
    ) -> any Cancellable {
      let every = handle.ticks(SchedulerTimeType.duration(of: interval))
      let scheduled = handle.schedule(at: tick(of: date), every: every, Self.sendable(action))
      return AnyCancellable { scheduled.dispose() }
    }

    /// A Combine action, which is not `Sendable`, as the scheduler's queue takes it.
    ///
    /// NB: the action only ever runs inside the scheduler's drain, one at a time, as a Combine
    /// scheduler runs what it is given. Captured as `nonisolated(unsafe)`: one closure context per
    /// action (a box around it cost a second allocation, and `unsafeBitCast` reabstraction thunks).
    @inlinable
    static func sendable(_ action: @escaping () -> Void) -> @Sendable () -> Void {
      nonisolated(unsafe) let action = action
      return { action() }
    }

    /// The tick of `date`, rounded up; 0 for a date before tick 0.
    @inlinable
    func tick(of date: SchedulerTimeType) -> Int {
      handle.ticks(
        SchedulerTimeType.duration(of: SchedulerTimeType.virtualTimeOrigin.distance(to: date)))
    }
  }

  extension TestScheduler {
    /// A Combine scheduler on this scheduler's virtual time, whose time is ``VirtualTime`` (see
    /// ``CombineTestScheduler``).
    public var combine: CombineTestScheduler<VirtualTime, Never> {
      CombineTestScheduler(handle)
    }

    /// A Combine scheduler on this scheduler's virtual time with the time type and options of
    /// scheduler type `type`, so that code typed for that scheduler (`DispatchQueue`, or
    /// combine-schedulers' `AnySchedulerOf<DispatchQueue>`) runs on virtual time unchanged.
    ///
    /// ```swift
    /// let main = scheduler.combine(for: DispatchQueue.self)   // a DispatchQueue stand-in
    /// let model = SearchModel(scheduler: main.eraseToAnyScheduler())
    /// ```
    ///
    /// - Parameter type: The scheduler type to stand in for.
    /// - Returns: The scheduler.
    public func combine<S: Scheduler>(
      for type: S.Type
    ) -> CombineTestScheduler<S.SchedulerTimeType, S.SchedulerOptions>
    where S.SchedulerTimeType: VirtualTimeConvertible {
      CombineTestScheduler(handle)
    }
  }
#endif
