import Synchronization
import HapticsSystem

/// A clock that only moves when told to: tests drive the scheduler with it and never sleep.
public final class ManualClock: HapticClock {
    /// The current instant's nanoseconds, in one atomic word so any thread may read it.
    private let current: Atomic<Int64>

    /// Creates a clock that reads `start` until it is advanced.
    public init(start: MonotonicInstant = MonotonicInstant(nanoseconds: 0)) {
        current = Atomic(start.nanoseconds)
    }

    /// The instant the clock was last set to.
    public func now() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: current.load(ordering: .acquiring))
    }

    /// Moves the clock forward by `duration` (must not be negative: monotonic clocks never go back).
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "ManualClock cannot go back (advance(by: \(duration)))")
        current.add(duration.nanoseconds, ordering: .acquiringAndReleasing)
    }

    /// Moves the clock to `instant` (must not be earlier than now).
    public func advance(to instant: MonotonicInstant) {
        let now = current.load(ordering: .acquiring)
        precondition(instant.nanoseconds >= now, "ManualClock cannot go back (from \(now) to \(instant.nanoseconds))")
        current.store(instant.nanoseconds, ordering: .releasing)
    }
}
