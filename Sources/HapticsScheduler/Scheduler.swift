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
    /// Loaded programs, by program id.
    let programs: UnsafeMutablePointer<ProgramStorage>
    /// Per player slot: generation << 32 | program << 16 | channel. Odd generations are live players.
    let playerBindings: UnsafeMutablePointer<Atomic<Int>>
    /// Per player slot: the program the processing side reads for it, or −1. Lets the control side
    /// free a program only once nothing reads it.
    let programInUse: UnsafeMutablePointer<Atomic<Int>>

    /// Runtime curves' control points, filled by submitters and played by the processing side.
    let curves: CurveStorage
    /// How tagged starts ended, pushed by the processing side, drained by the control side.
    let endings: BoundedMPSCQueue<EndingRecord>
    /// Per player slot, `publicationStride` words the processing side publishes its playback in
    /// (a sequence lock), so that any thread reads a player's progress without a lock.
    let publications: UnsafeMutablePointer<Atomic<Int64>>

    /// The processing side's state. Processing side only, like the per-player and per-channel
    /// tables its pointers reach.
    let realtime: UnsafeMutablePointer<RealtimeState>

    // What the pointers above and `realtime`'s reach: stored in place, freed with the scheduler.
    // Read through the pointers only (a pointer in this class is one load where these, in code not
    // specialized for a clock, are a call each).
    let programStorage: FixedArray<ProgramStorage>
    let bindingStorage: FixedArray<Atomic<Int>>
    let programInUseStorage: FixedArray<Atomic<Int>>
    let publicationStorage: FixedArray<Atomic<Int64>>
    let realtimeStorage: FixedArray<RealtimeState>
    let playerStates: FixedArray<PlayerState>
    let channelStates: FixedArray<ChannelState>
    let activePlayers: FixedArray<Int>
    let dueAlike: FixedArray<Int>
    let curvePlayers: FixedArray<Int>
    let dueCurves: FixedArray<Int>
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

    let counters = SchedulerCounters()
    /// Whether trace records are recorded (``startTracing()``).
    let tracing = Atomic<Bool>(false)
    let traceSequenceCounter = Atomic<UInt32>(0)
    /// The realtime thread's kernel thread id while it runs (0 before), so a trace can name it
    /// after the thread has ended.
    let realtimeThreadIdentity = Atomic<Int32>(0)

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
        let programStorage = FixedArray(repeating: ProgramStorage.empty, count: configuration.maximumPrograms)
        programs = programStorage.base
        self.programStorage = programStorage
        let playerCount = configuration.maximumPlayers
        let bindingStorage = FixedArray(count: playerCount) { _ in Atomic(0) }
        playerBindings = bindingStorage.base
        self.bindingStorage = bindingStorage
        let programInUseStorage = FixedArray(count: playerCount) { _ in Atomic(-1) }
        programInUse = programInUseStorage.base
        self.programInUseStorage = programInUseStorage

        curves = CurveStorage(capacity: configuration.maximumCurves, pointCapacity: configuration.maximumCurvePoints)
        // Two endings per player slot: a restart's and the restarted start's can both be waiting.
        endings = BoundedMPSCQueue(minimumCapacity: 2 * playerCount, filler: .empty)
        let publicationStorage = FixedArray(count: playerCount * Self.publicationStride) { _ in Atomic<Int64>(0) }
        publications = publicationStorage.base
        self.publicationStorage = publicationStorage

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
        let realtimeStorage = FixedArray(repeating: state, count: 1)
        realtime = realtimeStorage.base
        self.realtimeStorage = realtimeStorage
        playerStates = players
        self.channelStates = channelStates
        self.activePlayers = activePlayers
        self.dueAlike = dueAlike
        self.curvePlayers = curvePlayers
        self.dueCurves = dueCurves
        pendingCommands = pending

        wake = WakeTimer(wakeAheadLimit: configuration.wakeAheadLimit.nanoseconds)
    }

    deinit {
        // Every other table frees itself (`FixedArray`): the channels were initialized one by one,
        // and programs hold their commands' storage.
        for index in 0..<configuration.maximumPrograms {
            programs[index].commands?.deallocate()
        }
        channels.deinitialize(count: channelCount.load(ordering: .acquiring))
        channels.deallocate()
    }

    /// A snapshot of the counters. Control side.
    package var statistics: SchedulerStatistics {
        let grant = control.withLock { $0.realtimeGrant }
        return counters.snapshot(wakeAhead: wake.ahead.load(ordering: .relaxed), heldCurves: curves.heldCount,
                                 realtimeThread: grant)
    }

    /// Moves every trace record written since the last call into `records` (oldest first) and
    /// returns how many. Control side; formatting happens here, never on the realtime thread.
    @discardableResult
    package func drainTrace(into records: inout [TraceRecord]) -> Int {
        control.withLock { _ in traceRing.drain(into: &records) }
    }
}
