import CHapticsSystem

/// The system's `CLOCK_MONOTONIC`: the clock the kernel stamps evdev and ALSA events with when asked.
///
/// Deliberately not `ContinuousClock`, which is `CLOCK_BOOTTIME` on Linux.
public struct SystemMonotonicClock: HapticClock {
    /// Creates the clock.
    @inlinable
    public init() {}

    /// Reads `CLOCK_MONOTONIC`. The corresponding C function is `clock_gettime`.
    @inlinable
    public func now() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: CHapticsSystem_monotonicNow())
    }

    /// Sleeps the calling thread until `instant` on `CLOCK_MONOTONIC` (an instant already past
    /// returns at once; a signal does not end the sleep early). The corresponding C function is
    /// `clock_nanosleep` with `TIMER_ABSTIME`.
    public static func sleep(until instant: MonotonicInstant) {
        _ = CHapticsSystem_sleepUntil(max(instant.nanoseconds, 0))
    }
}
