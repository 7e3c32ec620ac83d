import CHapticsSystem
import Glibc
import Synchronization
import HapticsRendering
@_spi(Realtime) import HapticsSystem

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
/// Its clock is `SystemMonotonicClock` in production and a `ManualClock` in tests, which drive
/// `process()` and never sleep; the system clock is read directly (``currentTime()``).
package final class Scheduler: @unchecked Sendable {
    /// The capacities this scheduler was created with, clamped into their ranges.
    package let configuration: SchedulerConfiguration

    let queue: BoundedMPSCQueue<SchedulerCommand>
    /// Trace records, and whether they are recorded.
    let traceRing: UnsafeMutablePointer<TraceRing>
    private let traceRingStorage: FixedArray<TraceRing>
    let control: OrderedMutex<ControlBook>

    // The tables, each a type that owns its storage and frees it (stored in place, or behind a
    // stored pointer where a processing part holds it: reading a table's stored pointer is one
    // load, in code specialized for a clock or not).
    /// The channels: outputs published by the control side, and what processing holds on each.
    let channelTable: ChannelTable
    /// Loaded programs, by program id.
    let programTable: ProgramTable
    /// The players: bindings, the state processing plays them with, and their published progress.
    let playerTable: PlayerTable
    /// Runtime curves' control points, filled by submitters and played by the processing side.
    let curves: UnsafeMutablePointer<CurveTable>
    private let curveStorage: FixedArray<CurveTable>
    /// How tagged starts ended, pushed by the processing side, drained by the control side.
    let endings: UnsafeMutablePointer<BoundedMPSCQueue<EndingRecord>>
    private let endingStorage: FixedArray<BoundedMPSCQueue<EndingRecord>>

    /// The processing side's state, which points into the tables above. Processing side only.
    let realtime: UnsafeMutablePointer<RealtimeState>
    let realtimeStorage: FixedArray<RealtimeState>
    /// The pending list `realtime` points to.
    let pendingCommands: FixedArray<SchedulerCommand>
    /// Who owns processing.
    let owner = ProcessingOwner()
    /// Processing passes completed so far, so the control side can tell when a pass that began
    /// after some change of its own has ended (``ProcessingMark``).
    let completedPassCount = Atomic<UInt64>(0)
    /// The next instant the latest processing pass found due (`.max`: nothing), whichever thread
    /// ran it: what the realtime thread waits for.
    let nextDeadline = Atomic<MonotonicInstant>(.max)
    /// Whether the pending list had room after the latest pass: the realtime thread's check for
    /// waiting submissions, which must not read the list a caller's pass may be changing.
    let pendingHasRoom = Atomic<Bool>(true)
    /// Set once the realtime thread has been told to stop: callers no longer process on their
    /// own threads, so nothing plays after its last pass silenced every channel.
    let immediateClosed = Atomic<Bool>(false)

    /// Where the realtime thread parks, and its wake timer.
    let wake: WakeTimer
    let running = Atomic<Bool>(false)

    let counters: UnsafeMutablePointer<SchedulerCounters>
    private let counterStorage: FixedArray<SchedulerCounters>
    let traceSequenceCounter = Atomic<UInt32>(0)
    /// The realtime thread's kernel thread id while it runs (0 before), so a trace can name it
    /// after the thread has ended.
    let realtimeThreadIdentity = Atomic<Int32>(0)

    /// What each channel holds, and where every level is written.
    let holds: ChannelHolds
    /// Players as processing plays them.
    let players: Players
    /// Runtime curves as players play them.
    let curvePlayers: CurvePlayers
    /// `clock` for the processing parts that stamp trace records.
    private let traceClock: TraceClock

    /// The clock deadlines are measured on.
    package let clock: any HapticClock
    /// Whether `clock` is `SystemMonotonicClock`: ``currentTime()`` reads `CLOCK_MONOTONIC` itself,
    /// and only then can the realtime thread run (its waits are on that clock).
    package let readsSystemClock: Bool

    /// Creates a scheduler and allocates everything the realtime path will ever use. Capacities
    /// outside their ranges are clamped into them (``SchedulerConfiguration/clamped``). Each
    /// tagged start's ending, once pushed, asks `endingRequests` for a run at once (the thread
    /// that delivers completions: it sleeps while a start plays, and the start never wakes it).
    package init(clock: some HapticClock, configuration requested: SchedulerConfiguration = .default,
                 endingRequests: RunRequests? = nil) {
        let configuration = requested.clamped
        self.clock = clock
        readsSystemClock = clock is SystemMonotonicClock
        self.configuration = configuration
        queue = BoundedMPSCQueue(minimumCapacity: configuration.queueCapacity, filler: .empty)
        control = OrderedMutex(ControlBook(configuration: configuration))

        let playerCount = configuration.maximumPlayers
        // The tables first, then the state that points into them (their addresses never move).
        let channelTable = ChannelTable(capacity: configuration.maximumChannels)
        let playerTable = PlayerTable(count: playerCount)
        let programTable = ProgramTable(count: configuration.maximumPrograms)
        let curveStorage = FixedArray(count: 1) { _ in
            CurveTable(capacity: configuration.maximumCurves, pointCapacity: configuration.maximumCurvePoints,
                       playerCount: playerCount)
        }
        let traceRingStorage = FixedArray(count: 1) { _ in TraceRing(capacity: configuration.traceCapacity) }
        let counterStorage = FixedArray(count: 1) { _ in SchedulerCounters() }
        // Two endings per player slot: a restart's and the restarted start's can both be waiting.
        let endingStorage = FixedArray(count: 1) { _ in
            BoundedMPSCQueue<EndingRecord>(minimumCapacity: 2 * playerCount, filler: .empty)
        }
        let traceClock = TraceClock(clock)
        let pending = FixedArray(repeating: SchedulerCommand.empty, count: queue.capacity)
        let state = RealtimeState(
            players: playerTable.states, channelStates: channelTable.states, activePlayers: playerTable.active,
            dueAlike: playerTable.dueAlike, pending: pending.base, pendingCapacity: queue.capacity,
            curvePlayers: curveStorage.base.pointee.players, dueCurves: curveStorage.base.pointee.due)
        let realtimeStorage = FixedArray(repeating: state, count: 1)

        // The processing parts, each pointing into the tables and the state.
        let holds = ChannelHolds(
            states: channelTable.states, slots: channelTable.slots, channelCount: channelTable.count,
            realtime: realtimeStorage.base, counters: counterStorage.base, traceRing: traceRingStorage.base,
            clock: traceClock, renewalLeadNanoseconds: configuration.renewalLead.nanoseconds)
        self.holds = holds
        players = Players(
            realtime: realtimeStorage.base, programs: programTable.entries, bindings: playerTable.bindings,
            programInUse: playerTable.programInUse, publications: playerTable.publications, playerCount: playerCount,
            channelSlots: channelTable.slots, holds: holds, endings: endingStorage.base, endingRequests: endingRequests,
            counters: counterStorage.base, traceRing: traceRingStorage.base)
        curvePlayers = CurvePlayers(realtime: realtimeStorage.base, table: curveStorage.base,
                                    channelSlots: channelTable.slots)

        realtime = realtimeStorage.base
        self.realtimeStorage = realtimeStorage
        pendingCommands = pending
        self.channelTable = channelTable
        self.playerTable = playerTable
        self.programTable = programTable
        curves = curveStorage.base
        self.curveStorage = curveStorage
        traceRing = traceRingStorage.base
        self.traceRingStorage = traceRingStorage
        counters = counterStorage.base
        self.counterStorage = counterStorage
        endings = endingStorage.base
        self.endingStorage = endingStorage
        self.traceClock = traceClock

        wake = WakeTimer(wakeAheadLimitNanoseconds: configuration.wakeAheadLimit.nanoseconds)
    }

    /// The current instant on the scheduler's clock: on the system clock one `clock_gettime`,
    /// with no call through the clock's witness. Any thread.
    @inlinable
    package func currentTime() -> MonotonicInstant {
        readsSystemClock ? MonotonicInstant(nanoseconds: CHapticsSystem_monotonicNow()) : clock.now()
    }

    /// A snapshot of the counters. Control side.
    package var statistics: SchedulerStatistics {
        let grant = control.withLock { $0.realtimeGrant }
        return counters.pointee.snapshot(
            wakeAheadNanoseconds: wake.aheadNanoseconds.load(ordering: .relaxed),
            traceOverflows: traceRing.pointee.lost.load(ordering: .relaxed), heldCurves: curves.pointee.heldCount,
            realtimeThread: grant)
    }

    /// Moves every trace record written since the last call into `records` (oldest first) and
    /// returns how many. Control side; formatting happens here, never on the realtime thread.
    @discardableResult
    package func drainTrace(into records: inout [TraceRecord]) -> Int {
        control.withLock { _ in traceRing.pointee.drain(into: &records) }
    }
}
