#if canImport(Glibc)
import Glibc
#endif
import HapticsSystem

extension SystemMonotonicClock {
    /// Sleeps the calling thread until `instant` on `CLOCK_MONOTONIC`, the engine's clock (an
    /// instant already past returns at once). The corresponding C function is `clock_nanosleep`
    /// with `TIMER_ABSTIME`.
    static func sleep(until instant: MonotonicInstant) {
        let nanoseconds = max(instant.nanoseconds, 0)
        var target = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }
}
