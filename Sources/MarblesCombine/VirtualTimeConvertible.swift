#if canImport(Combine) || canImport(OpenCombineShim)
  #if canImport(Combine)
    public import Combine
  #else
    public import OpenCombineShim
  #endif
  public import Dispatch
  public import Foundation

  /// A Combine scheduler's time type that a `TestScheduler` can stand in for
  /// (`scheduler.combine(for:)`): where tick 0 is in it, and how long one of its strides is.
  ///
  /// `VirtualTime`, `DispatchQueue`'s, `RunLoop`'s and `OperationQueue`'s time types conform (on
  /// OpenCombine, those of `DispatchQueue.OCombine`, `RunLoop.OCombine` and
  /// `OperationQueue.OCombine`).
  public protocol VirtualTimeConvertible: Strideable
  where Stride: SchedulerTimeIntervalConvertible {
    /// The time of tick 0.
    static var virtualTimeOrigin: Self { get }

    /// How long `stride` is.
    static func duration(of stride: Stride) -> Duration
  }

  extension VirtualTime: VirtualTimeConvertible {
    /// `VirtualTime(offset: .zero)`.
    public static var virtualTimeOrigin: VirtualTime { VirtualTime(offset: .zero) }

    /// The stride's ``VirtualTime/Stride/duration``.
    public static func duration(of stride: Stride) -> Duration { stride.duration }
  }

  extension DispatchQueue.SchedulerTimeType: VirtualTimeConvertible {
    /// One nanosecond of uptime (as combine-schedulers' `DispatchQueue.test` starts: zero means
    /// "now" to Dispatch).
    public static var virtualTimeOrigin: Self { Self(DispatchTime(uptimeNanoseconds: 1)) }

    /// The stride's nanoseconds.
    public static func duration(of stride: Stride) -> Duration { .nanoseconds(stride.magnitude) }
  }

  #if canImport(Combine)
    // `OperationQueue`'s time type is `RunLoop`'s.
    extension RunLoop.SchedulerTimeType: VirtualTimeConvertible {
      /// The reference date.
      public static var virtualTimeOrigin: Self { Self(Date(timeIntervalSinceReferenceDate: 0)) }

      /// The stride's seconds.
      public static func duration(of stride: Stride) -> Duration { .seconds(stride.magnitude) }
    }
  #else
    extension RunLoop.OCombine.SchedulerTimeType: VirtualTimeConvertible {
      /// The reference date.
      public static var virtualTimeOrigin: Self { Self(Date(timeIntervalSinceReferenceDate: 0)) }

      /// The stride's seconds.
      public static func duration(of stride: Stride) -> Duration { .seconds(stride.magnitude) }
    }

    extension OperationQueue.OCombine.SchedulerTimeType: VirtualTimeConvertible {
      /// The reference date.
      public static var virtualTimeOrigin: Self { Self(Date(timeIntervalSinceReferenceDate: 0)) }

      /// The stride's seconds.
      public static func duration(of stride: Stride) -> Duration { .seconds(stride.magnitude) }
    }
  #endif
#endif
