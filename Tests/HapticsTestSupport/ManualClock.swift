import Synchronization
import HapticsSystem

/// A clock that only moves when told to: tests drive the scheduler with it and never sleep.
public final class ManualClock: HapticClock {
    private let current: Atomic<Int64>

    /// Creates a clock that reads `start` nanoseconds until it is advanced.
    public init(start: Int64 = 0) {
        current = Atomic(start)
    }

    /// The instant the clock was last set to.
    public func now() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: current.load(ordering: .acquiring))
    }

    /// Moves the clock forward by `nanoseconds` (must not be negative: monotonic clocks never go back).
    public func advance(by nanoseconds: Int64) {
        precondition(nanoseconds >= 0, "ManualClock cannot go back (advance(by: \(nanoseconds)))")
        current.add(nanoseconds, ordering: .acquiringAndReleasing)
    }

    /// Moves the clock to `instant` (must not be earlier than now).
    public func advance(to instant: MonotonicInstant) {
        let now = current.load(ordering: .acquiring)
        precondition(instant.nanoseconds >= now, "ManualClock cannot go back (from \(now) to \(instant.nanoseconds))")
        current.store(instant.nanoseconds, ordering: .releasing)
    }
}
