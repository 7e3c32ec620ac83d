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
}
