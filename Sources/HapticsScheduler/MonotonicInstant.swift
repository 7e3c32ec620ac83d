/// An instant on `CLOCK_MONOTONIC`, in nanoseconds since an unspecified start (the system boot,
/// excluding suspend).
///
/// The engine uses this one clock for deadlines, traces and device timestamps. Swift's
/// `ContinuousClock` reads `CLOCK_BOOTTIME` on Linux, which runs ahead after a suspend, so it is never
/// mixed in.
public struct MonotonicInstant: Sendable, Hashable, Comparable {
    /// Nanoseconds on `CLOCK_MONOTONIC`.
    public var nanoseconds: Int64

    /// Creates an instant from nanoseconds on `CLOCK_MONOTONIC`.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The instant `nanoseconds` later (earlier when negative).
    public func advanced(by nanoseconds: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: self.nanoseconds + nanoseconds)
    }

    /// Nanoseconds from `self` to `other` (negative when `other` is earlier).
    public func duration(to other: MonotonicInstant) -> Int64 {
        other.nanoseconds - nanoseconds
    }

    /// Orders instants by time.
    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}
