import CHapticsSystem
import Synchronization

/// When an ``OnDemandThread`` is wanted: the earliest instant anyone asked for, and the futex word
/// the thread parks on. Made apart from the thread so that it can outlive it: a realtime thread
/// that asks for runs holds it for good (no reference to swap under it), while the thread that
/// serves it comes and goes (an engine's housekeeping, started and stopped with the engine). At
/// most one thread serves it at a time.
package final class RunRequests: @unchecked Sendable {
    /// The parked mark the serving thread waits on (`CHapticsSystem_parkBegin`).
    let word: UnsafeMutablePointer<UInt32>
    /// The earliest instant asked for (nanoseconds of `CLOCK_MONOTONIC`), `.max` when none.
    let due = Atomic<Int64>(.max)

    /// Nothing asked for yet.
    package init() {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
    }

    deinit {
        word.deallocate()
    }

    /// Asks for a run at `instant` (at once when it has passed), unless one is due sooner already.
    /// Lock-free, allocation-free; a futex wake only when the thread's wake-up moves sooner.
    package func schedule(at instant: MonotonicInstant) {
        let wanted = instant.nanoseconds
        var current = due.load(ordering: .relaxed)
        while wanted < current {
            let (exchanged, original) = due.compareExchange(
                expected: current, desired: wanted, ordering: .sequentiallyConsistent)
            if exchanged {
                _ = CHapticsSystem_wakeIfParked(word)
                return
            }
            current = original
        }
    }
}
