import Synchronization
import HapticsSystem

/// The counters a scheduler keeps as it works: bumped by any side with relaxed atomics, read as a
/// ``SchedulerStatistics`` snapshot on the control side (each field is documented there).
struct SchedulerCounters: ~Copyable {
    let submitted = Atomic<Int>(0)
    let dropped = Atomic<Int>(0)
    let droppedStale = Atomic<Int>(0)
    let emitted = Atomic<Int>(0)
    let ignored = Atomic<Int>(0)
    let applied = Atomic<Int>(0)
    let discarded = Atomic<Int>(0)
    let maximumLatenessNanoseconds = Atomic<Int64>(0)
    let renewed = Atomic<Int>(0)
    let maximumRenewalLatenessNanoseconds = Atomic<Int64>(0)
    let wakeUps = Atomic<Int>(0)
    let earlyWakeUps = Atomic<Int>(0)
    let droppedCurves = Atomic<Int>(0)
    let lostEndings = Atomic<Int>(0)
    let immediatePasses = Atomic<Int>(0)
    let immediateFallbacks = Atomic<Int>(0)

    init() {}

    /// Keeps the lateness of an emitted command if it is the largest so far. Only the thread
    /// processing writes it, so a load and a store do.
    @inline(__always)
    func noteLateness(nanoseconds lateness: Int64) {
        if lateness > maximumLatenessNanoseconds.load(ordering: .relaxed) {
            maximumLatenessNanoseconds.store(lateness, ordering: .relaxed)
        }
    }

    /// The same for a renewal's lateness.
    @inline(__always)
    func noteRenewalLateness(nanoseconds lateness: Int64) {
        if lateness > maximumRenewalLatenessNanoseconds.load(ordering: .relaxed) {
            maximumRenewalLatenessNanoseconds.store(lateness, ordering: .relaxed)
        }
    }

    /// The counters now, with the figures kept elsewhere: the wake-ahead, the trace records lost,
    /// the curve slots held and the realtime thread's grant.
    func snapshot(wakeAheadNanoseconds: Int64, traceOverflows: Int, heldCurves: Int,
                  realtimeThread: RealtimeThread.Grant?) -> SchedulerStatistics {
        SchedulerStatistics(
            submitted: submitted.load(ordering: .relaxed),
            dropped: dropped.load(ordering: .relaxed),
            droppedStale: droppedStale.load(ordering: .relaxed),
            emitted: emitted.load(ordering: .relaxed),
            ignored: ignored.load(ordering: .relaxed),
            applied: applied.load(ordering: .relaxed),
            discarded: discarded.load(ordering: .relaxed),
            maximumLateness: .nanoseconds(maximumLatenessNanoseconds.load(ordering: .relaxed)),
            renewed: renewed.load(ordering: .relaxed),
            maximumRenewalLateness: .nanoseconds(maximumRenewalLatenessNanoseconds.load(ordering: .relaxed)),
            wakeUps: wakeUps.load(ordering: .relaxed),
            wakeAhead: .nanoseconds(wakeAheadNanoseconds),
            earlyWakeUps: earlyWakeUps.load(ordering: .relaxed),
            traceOverflows: traceOverflows,
            droppedCurves: droppedCurves.load(ordering: .relaxed),
            lostEndings: lostEndings.load(ordering: .relaxed),
            heldCurves: heldCurves,
            immediatePasses: immediatePasses.load(ordering: .relaxed),
            immediateFallbacks: immediateFallbacks.load(ordering: .relaxed),
            realtimeThread: realtimeThread)
    }
}
