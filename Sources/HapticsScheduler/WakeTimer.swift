import CHapticsSystem
import Glibc
import Synchronization
@_spi(Realtime) import HapticsSystem

/// Where the realtime thread parks, and the timer that wakes it (docs/internals/scheduler.md, "Waking ahead").
///
/// The thread announces its park with a mark submitters can see (``parkBegin()``), then blocks on a
/// `CLOCK_MONOTONIC` timerfd armed for its next deadline, ahead of it by the wake-up latency it has
/// learned (``WakeLatencyFloor``). A submitter wakes it only when it is parked (``wakeIfParked()``);
/// a caller's pass that finds something due sooner moves the timer forward without waking it now
/// (``bringForward(to:)``). When no timerfd could be made, the thread waits on the mark with a
/// futex instead and every such move becomes a wake.
struct WakeTimer: ~Copyable {
    private let parkedStorage: FixedArray<UInt32>
    /// 1 while the thread is parked.
    private let parked: UnsafeMutablePointer<UInt32>
    /// The timerfd (`CHapticsSystem_makeWakeTimer`), or a negative errno when none could be made.
    private let descriptor: Int32
    private let floorStorage: FixedArray<WakeLatencyFloor>
    /// The wake-ahead the thread learns from its wake-ups. The realtime thread's only.
    let floor: UnsafeMutablePointer<WakeLatencyFloor>
    /// The wake-ahead the thread found last, published for callers that move the timer and for
    /// statistics.
    let aheadNanoseconds = Atomic<Int64>(0)
    /// The instant the timer was last armed for and the deadline it was armed ahead of, stored by
    /// whoever armed it (the parking thread, or a caller's pass moving it forward): what the woken
    /// thread measures its wake-up against.
    let armedFor = Atomic<MonotonicInstant>(.max)
    let armedDeadline = Atomic<MonotonicInstant>(.max)

    /// A wake timer whose wake-ahead is at most `wakeAheadLimitNanoseconds` (0: never ahead).
    init(wakeAheadLimitNanoseconds: Int64) {
        parkedStorage = FixedArray(repeating: 0, count: 1)
        parked = parkedStorage.base
        descriptor = CHapticsSystem_makeWakeTimer()
        floorStorage = FixedArray(repeating: WakeLatencyFloor(limitNanoseconds: wakeAheadLimitNanoseconds), count: 1)
        floor = floorStorage.base
    }

    deinit {
        if descriptor >= 0 { _ = close(descriptor) }
    }

    /// Marks the thread parked, followed by a full fence: a look at the queue made after this call
    /// cannot be ordered before the mark.
    @inline(__always)
    func parkBegin() { CHapticsSystem_parkBegin(parked) }

    /// Clears the parked mark.
    @inline(__always)
    func parkEnd() { CHapticsSystem_parkEnd(parked) }

    /// Whether the thread is still marked parked: nobody has woken it since ``parkBegin()``.
    @inline(__always)
    var isParked: Bool { CHapticsSystem_isParked(parked) != 0 }

    /// Wakes the thread if it is parked; a fence and one load otherwise.
    @inline(__always)
    func wakeIfParked() {
        if descriptor >= 0 {
            _ = CHapticsSystem_wakeTimerIfParked(parked, descriptor)
        } else {
            _ = CHapticsSystem_wakeIfParked(parked)
        }
    }

    /// Blocks the parked thread until `instant` (`.max`: none) or a wake, unless `stillWaits` says
    /// otherwise once the timer is armed.
    func wait(until instant: MonotonicInstant, stillWaits: () -> Bool) {
        let limit = instant == .max ? -1 : instant.nanoseconds
        guard descriptor >= 0 else {
            _ = CHapticsSystem_futexWaitUntil(parked, 1, limit)
            return
        }
        _ = CHapticsSystem_armWakeTimer(descriptor, limit)
        // Arming reset any expiry: a wake that came before it cleared the mark, and a caller's pass
        // may have brought the deadline forward before the arm; either way, look again instead.
        guard isParked, stillWaits() else { return }
        _ = CHapticsSystem_waitWakeTimer(descriptor)
    }

    /// Moves a parked thread's wake-up forward to act at `deadline`, ahead of it by the published
    /// wake-ahead, without waking it now (a wake when there is no timerfd). Called by a caller's
    /// pass while it owns processing, so that passes arm the timer in the order they ran.
    func bringForward(to deadline: MonotonicInstant) {
        guard descriptor >= 0 else {
            wakeIfParked()
            return
        }
        guard isParked else { return }
        let target = MonotonicInstant(nanoseconds: max(deadline.nanoseconds - aheadNanoseconds.load(ordering: .relaxed), 0))
        noteArmed(for: target, deadline: deadline)
        _ = CHapticsSystem_armWakeTimer(descriptor, target.nanoseconds)
    }

    /// Keeps the instant the timer is about to be armed for, and the deadline it is ahead of, for
    /// the woken thread to measure its wake-up against. A wake-up that reads a later arm than its
    /// own measures itself too short, which only makes the wake-ahead smaller.
    @inline(__always)
    func noteArmed(for target: MonotonicInstant, deadline: MonotonicInstant) {
        armedFor.store(target, ordering: .relaxed)
        armedDeadline.store(deadline, ordering: .relaxed)
    }

    /// The instant to arm the timer for, to act at `deadline` when it is `now`: ahead of it by the
    /// wake-ahead learned so far, or the deadline itself. The realtime thread's only.
    @inline(__always)
    func target(for deadline: MonotonicInstant, now: MonotonicInstant) -> MonotonicInstant {
        floor.pointee.target(for: deadline, now: now)
    }

    /// Whether the thread learns a wake-ahead at all (its limit is above zero).
    var learns: Bool { floor.pointee.limitNanoseconds > 0 }

    /// Records a timer wake-up `latencyNanoseconds` after the instant it was armed for, and
    /// publishes the wake-ahead it gives. The realtime thread's only.
    func record(latencyNanoseconds latency: Int64) {
        floor.pointee.record(latencyNanoseconds: latency)
        aheadNanoseconds.store(floor.pointee.aheadNanoseconds, ordering: .relaxed)
    }
}
