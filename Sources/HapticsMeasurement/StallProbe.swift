import HapticsAudio
import HapticsSystem
import Synchronization

/// Watches for the machine holding every thread off the processor: a thread at a realtime priority
/// above the engine's wakes on a fixed schedule, every `period`, and records each wake-up more than
/// `threshold` late as a stall, from the instant it was due. A stall is seen once it outlasts the
/// time to the next wake-up plus the threshold (at most `period + threshold`), and what is recorded
/// is at most `period` short of it: never more than the machine held the probe off. What it sees,
/// the engine's realtime thread (`SCHED_FIFO` 50) and audio thread (40) went through as well: an emulated processor the host did not run, or the kernel busy with
/// something that no thread of the engine's can preempt. A thread that is merely slow (an upload
/// blocking the realtime thread, a missed wake-up) is not a stall here.
///
/// The sync test uses it to tell a late haptic that the machine explains from one it does not.
package final class StallProbe: @unchecked Sendable {
    typealias Stall = SyncLoopbackTest.Stall

    /// The probe's priority: above the engine's realtime thread, so that the engine never holds it
    /// off.
    static let priority: Int32 = 60
    /// How often the probe wakes.
    static let period: Duration = .milliseconds(1)
    /// A wake-up later than this is a stall.
    package static let threshold: Duration = .microseconds(500)
    /// Recorded stalls are kept up to this many.
    static let capacity = 1_000

    /// What the probe's thread and its owner share.
    private final class Log: Sendable {
        let stalls = OrderedMutex<[Stall]>([])
        let running = Atomic<Bool>(true)
    }

    private let log = Log()
    private let thread: RealtimeThread
    /// Whether the system granted the probe its realtime priority. Without it the probe sees the
    /// engine's own threads as stalls too, and its findings explain nothing.
    let hasRealtimePriority: Bool

    init() throws(SystemCallError) {
        let log = self.log
        let period = Self.period, threshold = Self.threshold
        thread = try RealtimeThread.start(.init(name: "haptics-probe", priority: Self.priority)) {
            var due = SystemMonotonicClock().now() + period
            while log.running.load(ordering: .acquiring) {
                SystemMonotonicClock.sleep(until: due)
                let woke = SystemMonotonicClock().now()
                if woke - due > threshold {
                    log.stalls.withLock { if $0.count < Self.capacity { $0.append(Stall(start: due, duration: woke - due)) } }
                }
                // The schedule keeps its phase: a wake-up re-based on the last one would start each
                // wait late by the last lateness, and a stall beginning just after a wake-up would
                // be seen shorter by up to a whole period plus that lateness.
                repeat { due = due + period } while due <= woke
            }
        }
        hasRealtimePriority = thread.grant.hasRealtimePriority
    }

    /// Ends the probe and returns its stalls, in time order. Idempotent.
    func stop() -> [Stall] {
        if log.running.exchange(false, ordering: .acquiringAndReleasing) { thread.join() }
        return log.stalls.withLock { $0 }
    }

    /// The longest stall that overlaps `start…end`, if any.
    static func longest(in stalls: [Stall], from start: MonotonicInstant, to end: MonotonicInstant) -> Stall? {
        stalls.filter { $0.start < end && $0.start + $0.duration > start }.max { $0.duration < $1.duration }
    }
}
