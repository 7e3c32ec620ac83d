@_spi(Realtime) import HapticsSystem

/// The realtime thread's wake-ahead (docs/internals/scheduler.md, "Waking ahead"): how much sooner than a
/// deadline it arms its wake timer, learned from its own wake-ups.
///
/// A timer wake-up never comes at its instant: the kernel's timer interrupt, the switch to the
/// thread and (without `SCHED_FIFO`) the wait for a processor all come after it. Every write the
/// realtime thread makes at a deadline it slept for is late by at least that much. The floor of
/// that latency — the shortest of the last ``window`` wake-ups, capped at a limit — is a delay the
/// thread can take out of every wait without ever waking before the deadline: armed that much
/// sooner, a wake-up as slow as the fastest recent one lands on the deadline itself.
///
/// A wake-up faster than the floor does come before the deadline. The thread then writes nothing
/// early: it spins to the deadline (at most the wake-ahead), and the fast wake-up becomes a sample
/// that lowers the floor. Until ``minimumSamples`` wake-ups have been
/// measured the floor is zero (a game's haptics wake the thread a few times a second: a full window
/// would take a while).
///
/// Realtime thread only; a plain value, no allocation.
struct WakeLatencyFloor {
    /// Wake-ups the floor is the shortest of.
    static let window = 32
    /// Wake-ups measured before the thread wakes ahead at all.
    static let minimumSamples = 8

    /// The largest wake-ahead, in nanoseconds (0: never ahead).
    let limitNanoseconds: Int64
    private var samples = InlineArray<32, Int64>(repeating: 0)
    private var recorded = 0
    /// The wake-ahead now: the shortest latency of the last ``window`` wake-ups (of all of them
    /// while fewer were measured), at most `limitNanoseconds`; zero until ``minimumSamples`` have been.
    private(set) var aheadNanoseconds: Int64 = 0

    init(limitNanoseconds: Int64) {
        self.limitNanoseconds = max(limitNanoseconds, 0)
    }

    /// Records a timer wake-up `latencyNanoseconds` after the instant the timer was armed for.
    /// A negative latency (a wake-up before its instant: the timer was moved, or the thread woken)
    /// is not a measurement and is ignored.
    mutating func record(latencyNanoseconds latency: Int64) {
        guard latency >= 0, limitNanoseconds > 0 else { return }
        samples[recorded % Self.window] = latency
        recorded += 1
        guard recorded >= Self.minimumSamples else { return }
        var shortest = Int64.max
        for index in 0..<min(recorded, Self.window) { shortest = min(shortest, samples[index]) }
        aheadNanoseconds = min(shortest, limitNanoseconds)
    }

    /// The instant to arm the wake timer for, to act at `deadline` (`.max`: none) when it is `now`:
    /// `deadline − aheadNanoseconds`, or `deadline` itself when that is no later than `now` — a thread that
    /// parks within its wake-ahead of a deadline sleeps to the deadline itself.
    func target(for deadline: MonotonicInstant, now: MonotonicInstant) -> MonotonicInstant {
        guard deadline != .max, aheadNanoseconds > 0 else { return deadline }
        let early = deadline.advanced(by: -aheadNanoseconds)
        return early > now ? early : deadline
    }
}
