#if canImport(Combine) || canImport(OpenCombineShim)
  #if canImport(Combine)
    public import Combine
  #else
    public import OpenCombineShim
  #endif

  /// A moment of a `TestScheduler`'s virtual time as `scheduler.combine` counts it: how long after
  /// tick 0. Its ``Stride`` reads literals as seconds, as `DispatchQueue`'s does.
  ///
  /// ```swift
  /// let combine = scheduler.combine
  /// combine.now                            // VirtualTime(offset: .zero) at tick 0
  /// publisher.debounce(for: 0.3, scheduler: combine)   // 300 ms
  /// ```
  public struct VirtualTime: Strideable, Hashable, Sendable, CustomStringConvertible {
    /// The time since tick 0.
    public var offset: Duration

    /// Creates the moment `offset` after tick 0.
    ///
    /// - Parameter offset: The time since tick 0.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The stride from this moment to `other`.
    public func distance(to other: VirtualTime) -> Stride {
      Stride(other.offset - offset)
    }

    /// The moment `stride` later.
    public func advanced(by stride: Stride) -> VirtualTime {
      VirtualTime(offset: offset + stride.duration)
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: VirtualTime, rhs: VirtualTime) -> Bool {
      lhs.offset < rhs.offset
    }

    /// `+0.3 seconds`, the time since tick 0.
    public var description: String { "+\(offset)" }

    /// A length of virtual time. Integer and floating-point literals are seconds.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
      ExpressibleByFloatLiteral, Hashable, Sendable, CustomStringConvertible
    {
      /// The length.
      public var duration: Duration

      /// Creates a stride of `duration`.
      ///
      /// - Parameter duration: The length.
      public init(_ duration: Duration) {
        self.duration = duration
      }

      /// A stride of `value` seconds.
      public init(integerLiteral value: Int) {
        duration = .seconds(value)
      }

      /// A stride of `value` seconds.
      public init(floatLiteral value: Double) {
        duration = .seconds(value)
      }

      /// A stride of `source` seconds, if it fits in an `Int`.
      public init?<Source: BinaryInteger>(exactly source: Source) {
        guard let seconds = Int(exactly: source) else { return nil }
        duration = .seconds(seconds)
      }

      /// The stride's length without its sign.
      public var magnitude: Stride {
        Stride(duration < .zero ? .zero - duration : duration)
      }

      /// The length in seconds.
      var seconds: Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
      }

      /// Whether `lhs` is shorter than `rhs`.
      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.duration < rhs.duration }
      /// The two lengths together.
      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.duration + rhs.duration)
      }
      /// `lhs` less `rhs`.
      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.duration - rhs.duration)
      }
      /// The product of the two lengths in seconds, as `DispatchQueue`'s stride multiplies its
      /// magnitudes.
      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(.seconds(lhs.seconds * rhs.seconds))
      }
      /// Adds `rhs` to `lhs`.
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
      /// Takes `rhs` from `lhs`.
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
      /// Multiplies `lhs` by `rhs`, in seconds.
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

      /// `s` seconds.
      public static func seconds(_ s: Int) -> Stride { Stride(.seconds(s)) }
      /// `s` seconds.
      public static func seconds(_ s: Double) -> Stride { Stride(.seconds(s)) }
      /// `ms` milliseconds.
      public static func milliseconds(_ ms: Int) -> Stride { Stride(.milliseconds(ms)) }
      /// `us` microseconds.
      public static func microseconds(_ us: Int) -> Stride { Stride(.microseconds(us)) }
      /// `ns` nanoseconds.
      public static func nanoseconds(_ ns: Int) -> Stride { Stride(.nanoseconds(ns)) }

      /// `0.3 seconds`.
      public var description: String { "\(duration)" }
    }
  }
#endif
