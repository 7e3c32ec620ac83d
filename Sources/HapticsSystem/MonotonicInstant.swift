import CHapticsSystem

/// An instant on `CLOCK_MONOTONIC`, in nanoseconds since an unspecified start (the system boot,
/// excluding suspend).
///
/// The engine uses this one clock for deadlines, traces and device timestamps. Swift's
/// `ContinuousClock` reads `CLOCK_BOOTTIME` on Linux, which runs ahead after a suspend, so it is never
/// mixed in.
public struct MonotonicInstant: Sendable, Hashable, Comparable {
    /// `CLOCK_MONOTONIC` now.
    ///
    /// The corresponding C function is `clock_gettime`.
    public static var now: MonotonicInstant { MonotonicInstant(nanoseconds: CHapticsSystem_monotonicNow()) }

    /// Nanoseconds on `CLOCK_MONOTONIC`.
    public var nanoseconds: Int64

    /// Creates an instant from nanoseconds on `CLOCK_MONOTONIC`.
    @inlinable
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The instant `nanoseconds` later (earlier when negative).
    ///
    /// The spelling of the realtime paths, which count spans in `Int64` nanoseconds; elsewhere
    /// use `advanced(by:)` with a `Duration`, or `+`.
    @inlinable
    public func advanced(by nanoseconds: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: self.nanoseconds + nanoseconds)
    }

    /// The instant `duration` later (earlier when negative).
    public func advanced(by duration: Duration) -> MonotonicInstant {
        advanced(by: duration.nanoseconds)
    }

    /// The span from `self` to `other` (negative when `other` is earlier).
    public func span(to other: MonotonicInstant) -> Duration {
        .nanoseconds(other.nanoseconds - nanoseconds)
    }

    /// The instant `duration` after `instant`.
    public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        instant.advanced(by: duration)
    }

    /// The instant `duration` before `instant`.
    public static func - (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        instant.advanced(by: -duration.nanoseconds)
    }

    /// The span between two instants.
    public static func - (later: MonotonicInstant, earlier: MonotonicInstant) -> Duration {
        earlier.span(to: later)
    }

    /// Orders instants by time.
    @inlinable
    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}
