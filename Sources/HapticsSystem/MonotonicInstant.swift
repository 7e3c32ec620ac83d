import CHapticsSystem
import Synchronization

/// An instant on `CLOCK_MONOTONIC`, in nanoseconds since an unspecified start (the system boot,
/// excluding suspend).
///
/// The engine uses this one clock for deadlines, traces and device timestamps. Swift's
/// `ContinuousClock` reads `CLOCK_BOOTTIME` on Linux, which runs ahead after a suspend, so it is never
/// mixed in.
///
/// It is the one spelling of an instant, from the public API down to the realtime path: a struct
/// over one `Int64`, so storing, comparing and offsetting it costs what the integer does.
public struct MonotonicInstant: Sendable, Hashable, Comparable, BitwiseCopyable {
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

    /// Whether two instants are the same.
    @inlinable
    public static func == (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds == rhs.nanoseconds
    }

    /// Later than every instant the engine schedules: "nothing due".
    @_spi(Realtime) public static var max: MonotonicInstant {
        @inline(__always) get { MonotonicInstant(nanoseconds: .max) }
    }

    /// Earlier than every instant the engine schedules: "not known yet".
    @_spi(Realtime) public static var min: MonotonicInstant {
        @inline(__always) get { MonotonicInstant(nanoseconds: .min) }
    }
}

/// An instant is stored in an `Atomic` as its nanoseconds.
extension MonotonicInstant: AtomicRepresentable {
    /// The atomic storage of an instant: its nanoseconds'.
    public typealias AtomicRepresentation = Int64.AtomicRepresentation

    /// Its nanoseconds, as an `Atomic` stores them.
    @inlinable
    public static func encodeAtomicRepresentation(_ value: consuming MonotonicInstant) -> AtomicRepresentation {
        Int64.encodeAtomicRepresentation(value.nanoseconds)
    }

    /// The instant an `Atomic` stored.
    @inlinable
    public static func decodeAtomicRepresentation(_ storage: consuming AtomicRepresentation) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: Int64.decodeAtomicRepresentation(storage))
    }
}
