import CHapticsSystem
import Glibc
import Synchronization
import HapticsRendering
import HapticsSystem

/// The realtime core: plays programs on actuator channels at absolute `CLOCK_MONOTONIC` deadlines.
///
/// Three sides, each with its own rules:
/// - **Control** (`addChannel`, `load`, `makePlayer`, …) may allocate and takes a mutex.
/// - **Submission** (`start`, `stop`, `pause`, `resume`, `seek`, `setRate`, `setLoop`,
///   `setParameter`, `setCurve`, `setMotorLevels`, `stopAll`) is callable from any thread at any
///   rate: one lock-free push into a bounded queue, no allocation, no lock; a full queue returns
///   `false` and counts a drop. `progress(of:at:)` reads a player's state from any thread without a
///   lock.
/// - **Processing** (`process()`, the realtime thread that loops on it, or a caller's
///   immediate group, ``beginImmediateGroup()``) owns all playback state and
///   reads programs and channels without locks; it never allocates, locks or logs. It also performs a
///   held level again before its output would end it on its own (``Actuator/lifetimeOfPerformedLevel(on:now:)``),
///   so that only the engine ends a level.
///
/// Generic over its clock so that tests drive `process()` with a `ManualClock` and never sleep.
package final class Scheduler<Clock: HapticClock>: @unchecked Sendable {
    /// The capacities this scheduler was created with, clamped into their ranges.
    package let configuration: SchedulerConfiguration

    let queue: BoundedMPSCQueue<SchedulerCommand>
    let traceRing: TraceRing
    let control: OrderedMutex<ControlBook>

    // Published by the control side, read by the processing side.
    let channels: UnsafeMutablePointer<ChannelSlot>
    let channelCount = Atomic<Int>(0)
    let programStorage: FixedArray<ProgramStorage>
    /// Per player slot: generation << 32 | program << 16 | channel. Odd generations are live players.
    let bindingStorage: FixedArray<Atomic<Int>>
    /// Per player slot: the program the processing side reads for it, or −1. Lets the control side
    /// free a program only once nothing reads it.
    let programInUseStorage: FixedArray<Atomic<Int>>

    /// Runtime curves' control points, filled by submitters and played by the processing side.
    let curves: CurveStorage
    /// How tagged starts ended, pushed by the processing side, drained by the control side.
    let endings: BoundedMPSCQueue<EndingRecord>
    /// Per player slot, `publicationStride` words the processing side publishes its playback in
    /// (a sequence lock), so that any thread reads a player's progress without a lock.
    let publicationStorage: FixedArray<Atomic<Int64>>

    // Processing side only: the state (`realtime`) and the per-player and per-channel tables its
    // pointers reach, each freed with the scheduler.
    let realtimeStorage: FixedArray<RealtimeState>
    let playerStates: FixedArray<PlayerState>
    let channelStates: FixedArray<ChannelState>
    let activePlayers: FixedArray<Int>
    let dueAlike: FixedArray<Int>
    let curvePlayers: FixedArray<Int>
    let dueCurves: FixedArray<Int>
    let pendingCommands: FixedArray<SchedulerCommand>
    /// Who owns processing: the owner's kernel thread id, 0 when free. A priority-inheriting futex
    /// word (`CHapticsSystem_ownershipTake`): the realtime thread waiting for a caller's pass lends
    /// the caller its priority until the pass ends.
    let processingOwnerStorage: FixedArray<UInt32>
    /// Processing passes completed so far, so the control side can tell when a pass that began
    /// after some change of its own has ended (``ProcessingMark``).
    let completedPassCount = Atomic<UInt64>(0)
    /// The next instant the latest processing pass found due (`.max`: nothing), whichever thread
    /// ran it: what the realtime thread waits for.
    let nextDeadline = Atomic<Int64>(.max)
    /// Whether the pending list had room after the latest pass: the realtime thread's check for
    /// waiting submissions, which must not read the list a caller's pass may be changing.
    let pendingHasRoom = Atomic<Bool>(true)
    /// Set once the realtime thread has been told to stop: callers no longer process on their
    /// own threads, so nothing plays after its last pass silenced every channel.
    let immediateClosed = Atomic<Bool>(false)

    // Realtime thread parking: 1 while the thread waits, so submitters know to wake it.
    let wakeWordStorage: FixedArray<UInt32>
    /// The timerfd the parked thread blocks on (`CHapticsSystem_makeWakeTimer`), so that a caller's
    /// pass can move its deadline forward without waking it now; negative (the errno) when none
    /// could be made, and the thread waits on `wakeWord` with a futex instead.
    let wakeTimer: Int32
    let running = Atomic<Bool>(false)
    /// The realtime thread's wake-ahead, learned from its wake-ups (its thread only), and the
    /// wake-ahead it found last, published for callers that move its wake-up and for statistics.
    let wakeFloorStorage: FixedArray<WakeLatencyFloor>
    let wakeAheadValue = Atomic<Int64>(0)
    /// The instant the wake timer was last armed for and the deadline it was armed ahead of,
    /// stored by whoever armed it (the parking thread, or a caller's pass moving its wake-up
    /// forward): what the woken thread measures its wake-up against.
    let wakeArmedFor = Atomic<Int64>(.max)
    let wakeArmedDeadline = Atomic<Int64>(.max)

    // Statistics.
    let submittedCount = Atomic<Int>(0)
    let droppedCount = Atomic<Int>(0)
    let droppedStaleCount = Atomic<Int>(0)
    let emittedCount = Atomic<Int>(0)
    let ignoredCount = Atomic<Int>(0)
    let appliedCount = Atomic<Int>(0)
    let discardedCount = Atomic<Int>(0)
    let maximumLatenessValue = Atomic<Int64>(0)
    let renewedCount = Atomic<Int>(0)
    let maximumRenewalLatenessValue = Atomic<Int64>(0)
    let wakeUpCount = Atomic<Int>(0)
    let traceOverflowCount = Atomic<Int>(0)
    /// Whether trace records are recorded (``startTracing()``).
    let tracing = Atomic<Bool>(false)
    let traceSequenceCounter = Atomic<UInt32>(0)
    /// The realtime thread's kernel thread id while it runs (0 before), so a trace can name it
    /// after the thread has ended.
    let realtimeThreadIdentity = Atomic<Int32>(0)
    let droppedCurveCount = Atomic<Int>(0)
    let lostEndingCount = Atomic<Int>(0)
    let immediatePassCount = Atomic<Int>(0)
    let immediateFallbackCount = Atomic<Int>(0)
    let earlyWakeCount = Atomic<Int>(0)

    /// The clock deadlines are measured on. Declared last: in code not specialized for a clock
    /// (the engine's calls come through `any SchedulerControl`), a stored property after it would
    /// have an offset known only at run time, read from the class's metadata on every access.
    package let clock: Clock

    /// Creates a scheduler and allocates everything the realtime path will ever use. Capacities
    /// outside their ranges are clamped into them (``SchedulerConfiguration/clamped``).
    package init(clock: Clock, configuration requested: SchedulerConfiguration = .default) {
        let configuration = requested.clamped
        self.clock = clock
        self.configuration = configuration
        queue = BoundedMPSCQueue(minimumCapacity: configuration.queueCapacity, filler: .empty)
        traceRing = TraceRing(capacity: configuration.traceCapacity)
        control = OrderedMutex(ControlBook(configuration: configuration))

        channels = .allocate(capacity: configuration.maximumChannels)
        programStorage = FixedArray(repeating: .empty, count: configuration.maximumPrograms)
        let playerCount = configuration.maximumPlayers
        bindingStorage = FixedArray(count: playerCount) { _ in Atomic(0) }
        programInUseStorage = FixedArray(count: playerCount) { _ in Atomic(-1) }

        curves = CurveStorage(capacity: configuration.maximumCurves, pointCapacity: configuration.maximumCurvePoints)
        // Two endings per player slot: a restart's and the restarted start's can both be waiting.
        endings = BoundedMPSCQueue(minimumCapacity: 2 * playerCount, filler: .empty)
        publicationStorage = FixedArray(count: playerCount * Self.publicationStride) { _ in Atomic(0) }

        // The tables first, then the state that points into them (their addresses never move).
        let players = FixedArray(repeating: PlayerState(), count: playerCount)
        let channelStates = FixedArray(repeating: ChannelState(), count: configuration.maximumChannels)
        let activePlayers = FixedArray(repeating: -1, count: playerCount)
        let dueAlike = FixedArray(repeating: -1, count: playerCount)
        let curvePlayers = FixedArray(repeating: -1, count: playerCount)
        let dueCurves = FixedArray(repeating: -1, count: playerCount)
        let pending = FixedArray(repeating: SchedulerCommand.empty, count: queue.capacity)
        let state = RealtimeState(
            players: players.base, channelStates: channelStates.base, activePlayers: activePlayers.base,
            dueAlike: dueAlike.base, pending: pending.base, pendingCapacity: queue.capacity,
            curvePlayers: curvePlayers.base, dueCurves: dueCurves.base)
        realtimeStorage = FixedArray(repeating: state, count: 1)
        playerStates = players
        self.channelStates = channelStates
        self.activePlayers = activePlayers
        self.dueAlike = dueAlike
        self.curvePlayers = curvePlayers
        self.dueCurves = dueCurves
        pendingCommands = pending

        processingOwnerStorage = FixedArray(repeating: 0, count: 1)
        wakeWordStorage = FixedArray(repeating: 0, count: 1)
        wakeTimer = CHapticsSystem_makeWakeTimer()
        wakeFloorStorage = FixedArray(repeating: WakeLatencyFloor(limit: configuration.wakeAheadLimit.nanoseconds), count: 1)
    }

    deinit {
        // Every other table frees itself (`FixedArray`): the channels were initialized one by one,
        // and programs hold their commands' storage.
        for index in 0..<configuration.maximumPrograms {
            programs[index].commands?.deallocate()
        }
        channels.deinitialize(count: channelCount.load(ordering: .acquiring))
        channels.deallocate()
        if wakeTimer >= 0 { _ = close(wakeTimer) }
    }

    /// Loaded programs, by program id.
    var programs: UnsafeMutablePointer<ProgramStorage> { programStorage.base }
    /// Per player slot: generation << 32 | program << 16 | channel.
    var playerBindings: UnsafeMutablePointer<Atomic<Int>> { bindingStorage.base }
    /// Per player slot: the program the processing side reads for it, or −1.
    var programInUse: UnsafeMutablePointer<Atomic<Int>> { programInUseStorage.base }
    /// Per player slot, `publicationStride` words of its published playback.
    var publications: UnsafeMutablePointer<Atomic<Int64>> { publicationStorage.base }
    /// The processing side's state.
    var realtime: UnsafeMutablePointer<RealtimeState> { realtimeStorage.base }
    /// Processing's owner word.
    var processingOwner: UnsafeMutablePointer<UInt32> { processingOwnerStorage.base }
    /// The realtime thread's parked mark.
    var wakeWord: UnsafeMutablePointer<UInt32> { wakeWordStorage.base }
    /// The realtime thread's wake-ahead (its thread only).
    var wakeFloor: UnsafeMutablePointer<WakeLatencyFloor> { wakeFloorStorage.base }

    /// A snapshot of the counters. Control side.
    package var statistics: SchedulerStatistics {
        let grant = control.withLock { $0.realtimeGrant }
        return SchedulerStatistics(
            submitted: submittedCount.load(ordering: .relaxed),
            dropped: droppedCount.load(ordering: .relaxed),
            droppedStale: droppedStaleCount.load(ordering: .relaxed),
            emitted: emittedCount.load(ordering: .relaxed),
            ignored: ignoredCount.load(ordering: .relaxed),
            applied: appliedCount.load(ordering: .relaxed),
            discarded: discardedCount.load(ordering: .relaxed),
            maximumLateness: .nanoseconds(maximumLatenessValue.load(ordering: .relaxed)),
            renewed: renewedCount.load(ordering: .relaxed),
            maximumRenewalLateness: .nanoseconds(maximumRenewalLatenessValue.load(ordering: .relaxed)),
            wakeUps: wakeUpCount.load(ordering: .relaxed),
            wakeAhead: .nanoseconds(wakeAheadValue.load(ordering: .relaxed)),
            earlyWakeUps: earlyWakeCount.load(ordering: .relaxed),
            traceOverflows: traceOverflowCount.load(ordering: .relaxed),
            droppedCurves: droppedCurveCount.load(ordering: .relaxed),
            lostEndings: lostEndingCount.load(ordering: .relaxed),
            heldCurves: curves.heldCount,
            immediatePasses: immediatePassCount.load(ordering: .relaxed),
            immediateFallbacks: immediateFallbackCount.load(ordering: .relaxed),
            realtimeThread: grant)
    }

    /// Moves every trace record written since the last call into `records` (oldest first) and
    /// returns how many. Control side; formatting happens here, never on the realtime thread.
    @discardableResult
    package func drainTrace(into records: inout [TraceRecord]) -> Int {
        control.withLock { _ in traceRing.drain(into: &records) }
    }
}
