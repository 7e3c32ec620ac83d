import Glibc
import Synchronization
import Testing
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

/// One perform as a thread-aware output saw it: the command, and whether it ran on the thread the
/// test called from.
struct ThreadedEmission: Sendable, Equatable {
    var command: ActuatorCommand
    var onCallingThread: Bool
}

/// An output that records which thread performs each command, and counts performs that overlap
/// (two threads writing at once: a broken single-writer rule). Optionally holds its first perform
/// until the test lets it go, so that a test can keep processing busy on another thread.
final class WitnessActuator: Actuator, @unchecked Sendable {
    private let emissions = Recorder<ThreadedEmission>(reservingCapacity: 8192)
    private let latenesses = Recorder<Int64>(reservingCapacity: 8192)
    private let caller = Atomic<UInt>(0)
    private let performing = Atomic<Bool>(false)
    let overlaps = Atomic<Int>(0)
    /// While set, a perform waits before it records.
    let holdsPerform = Atomic<Bool>(false)
    /// Performs begun so far.
    let entered = Atomic<Int>(0)

    /// Performs from this thread count as the calling thread's.
    func markCallingThread() { caller.store(UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))), ordering: .releasing) }

    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        if performing.exchange(true, ordering: .acquiring) { overlaps.add(1, ordering: .relaxed) }
        entered.add(1, ordering: .relaxed)
        while holdsPerform.load(ordering: .acquiring) { usleep(100) }
        let here = UInt(bitPattern: Int(bitPattern: UInt(pthread_self())))
        emissions.append(ThreadedEmission(command: command, onCallingThread: here == caller.load(ordering: .acquiring)))
        latenesses.append(now.nanoseconds - deadline.nanoseconds)
        performing.store(false, ordering: .releasing)
    }

    var recorded: [ThreadedEmission] { emissions.all }
    /// How late each perform ran after its deadline (`now - deadline`), in the order of `recorded`.
    var lateness: [Int64] { latenesses.all }
}

@Suite("Immediate processing: a start due now plays from the caller's thread")
struct ImmediateProcessingTests {
    let level = ActuatorCommand.rumble(strong: 100, weak: 200)

    @Test("a start due now reaches the output before its group ends; its stop stays timed")
    func startDueNowPlaysOnTheCallersThread() throws {
        let rig = SchedulerRig()
        let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        let t0 = rig.nowNanoseconds
        rig.clock.advance(by: .microseconds(3))
        var group = rig.scheduler.beginImmediateGroup()
        #expect(try rig.scheduler.setParameter(player, .hapticIntensityControl, value: 0.5, at: rig.at(t0), in: &group))
        #expect(rig.scheduler.start(player, at: rig.at(t0), tag: 7, in: &group))
        #expect(rig.scheduler.endImmediateGroup(group) == .processedHere)
        #expect(rig.output.take() == [Emission(.rumble(strong: 32_768, weak: 32_768), deadlineNanoseconds: t0, nowNanoseconds: t0 + 3_000)])
        #expect(rig.scheduler.nextDeadline.load(ordering: .relaxed).nanoseconds == t0 + 10 * ms)

        // The stop is the realtime side's, at its deadline.
        rig.runOnDeadlines(until: t0 + 20 * ms)
        #expect(rig.output.take() == [Emission(.stop, deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms)])
        var endings: [PlayerEnding] = []
        rig.scheduler.drainEndings(into: &endings)
        #expect(endings.map(\.tag) == [7])
        #expect(endings.map(\.reason) == [.finished])
        let statistics = rig.scheduler.statistics
        #expect(statistics.immediatePasses == 1)
        #expect(statistics.immediateFallbacks == 0)
        #expect(statistics.submitted == 2)
        #expect(statistics.applied == 2)
        #expect(statistics.emitted == 2)
    }

    @Test("a pass on the caller's thread keeps the policies: a restart replaces, a later start waits")
    func callerPassKeepsTheRules() throws {
        let rig = SchedulerRig()
        let first = try rig.player(rumbleProgram([(0, 100, 200), (4 * ms, 300, 400)], duration: 8 * ms))
        let second = try rig.player(rumbleProgram([(0, 500, 600)], duration: 2 * ms))
        let t0 = rig.nowNanoseconds
        #expect(playFromCaller(rig.scheduler, first, at: rig.at(t0)) == .processedHere)
        rig.clock.advance(to: rig.at(t0 + 1 * ms))
        // A start dated 5 ms ahead is timed: the caller's pass leaves it to its instant.
        #expect(playFromCaller(rig.scheduler, second, at: rig.at(t0 + 5 * ms)) == .processedHere)
        #expect(rig.scheduler.nextDeadline.load(ordering: .relaxed).nanoseconds == t0 + 4 * ms)
        rig.runOnDeadlines(until: t0 + 20 * ms)
        // `replace`: the second start silences the first (one stop), then plays and stops itself.
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 4 * ms, nowNanoseconds: t0 + 4 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
            Emission(.rumble(strong: 500, weak: 600), deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 7 * ms, nowNanoseconds: t0 + 7 * ms),
        ])
        #expect(rig.scheduler.statistics.immediatePasses == 2)
    }

    @Test("while another thread processes, the caller falls back to the queue and the next pass plays it")
    func busyProcessingFallsBackToTheQueue() throws {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000 * ms))
        let (scheduler, output, players) = try witnessed(clock, policy: .mix, levels: [(100, 200), (1, 2)])
        let busy = players[0], late = players[1]
        let t0 = clock.now()
        #expect(scheduler.start(busy, at: t0))
        output.holdsPerform.store(true, ordering: .releasing)
        // Thread 0 processes and is held inside its perform; thread 1 submits meanwhile.
        let outcome = OrderedMutex<ImmediateProcessing?>(nil)
        runConcurrently(2) { index in
            if index == 0 {
                scheduler.process()
                return
            }
            while output.entered.load(ordering: .acquiring) == 0 { usleep(100) }
            output.markCallingThread()
            let result = playFromCaller(scheduler, late, at: t0)
            outcome.withLock { $0 = result }
            output.holdsPerform.store(false, ordering: .releasing)
        }
        #expect(outcome.withLock { $0 } == .leftToRealtimeThread)
        // Only the held pass's level so far: the fallback did not write.
        #expect(output.recorded == [ThreadedEmission(command: level, onCallingThread: false)])
        scheduler.process()
        #expect(output.recorded == [
            ThreadedEmission(command: level, onCallingThread: false),
            // Written by the pass after the held one (this test's), not by the caller.
            ThreadedEmission(command: .rumble(strong: 101, weak: 202), onCallingThread: false),
        ])
        #expect(output.overlaps.load(ordering: .relaxed) == 0)
        let statistics = scheduler.statistics
        #expect(statistics.immediatePasses == 0)
        #expect(statistics.immediateFallbacks == 1)
    }

    @Test("process() waits for a caller's pass instead of trapping, then makes its own")
    func processWaitsForACallersPass() throws {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000 * ms))
        let (scheduler, output, players) = try witnessed(clock, policy: .replace, levels: [(100, 200)])
        let player = players[0]
        output.holdsPerform.store(true, ordering: .releasing)
        // Thread 0 plays from its own thread and is held inside the perform; thread 1 calls
        // process() meanwhile; thread 2 lets the perform go 20 ms later.
        runConcurrently(3) { index in
            switch index {
            case 0:
                output.markCallingThread()
                #expect(playFromCaller(scheduler, player, at: clock.now()) == .processedHere)
            case 1:
                while output.entered.load(ordering: .acquiring) == 0 { usleep(100) }
                scheduler.process()
            default:
                while output.entered.load(ordering: .acquiring) == 0 { usleep(100) }
                usleep(20_000)
                output.holdsPerform.store(false, ordering: .releasing)
            }
        }
        // The caller's pass and process()'s own, one after the other.
        #expect(scheduler.statistics.immediatePasses == 1)
        #expect(scheduler.completedPassCount.load(ordering: .acquiring) == 2)
        #expect(output.recorded == [ThreadedEmission(command: level, onCallingThread: true)])
        #expect(output.overlaps.load(ordering: .relaxed) == 0)
    }

    @Test("on a running realtime thread the start is written from the caller's thread and the stop from haptics-rt")
    func realtimeThreadKeepsTheTimedPart() throws {
        let (scheduler, output, players) = try witnessed(SystemMonotonicClock(), policy: .replace, levels: [(100, 200)], duration: 2 * ms)
        let player = players[0]
        try scheduler.startRealtimeThread()
        // Let the thread park with nothing to do: the caller's pass finds processing free.
        #expect(waitUntil { scheduler.completedPassCount.load(ordering: .acquiring) >= 1 })
        usleep(10_000)
        output.markCallingThread()
        var here = 0
        for round in 0..<20 {
            if playFromCaller(scheduler, player, at: scheduler.clock.now()) == .processedHere { here += 1 }
            // This round's level and stop: a start left to the realtime thread is not written yet,
            // and the last command is then still the round before's stop.
            #expect(waitUntil { output.recorded.count >= 2 * (round + 1) && output.recorded.last?.command == .stop })
            // The realtime thread's pass that wrote the stop ends and it parks again.
            usleep(2_000)
        }
        scheduler.stopRealtimeThread()
        let recorded = output.recorded
        let lateness = output.lateness
        // 20 plays, each its level and its stop; the thread's exit adds one more stop.
        #expect(recorded.count == 41)
        #expect(recorded.last == ThreadedEmission(command: .stop, onCallingThread: false))
        for index in 0..<20 {
            #expect(recorded[2 * index].command == level)
            #expect(recorded[2 * index + 1].command == .stop)
            // The stop is the realtime thread's, unless the caller's pass itself ran when the stop
            // was due already (the caller's thread was held off the processor for the 2 ms between
            // the start and the pass): then that one pass wrote both, the level 2 ms late or more.
            if recorded[2 * index + 1].onCallingThread {
                #expect(recorded[2 * index].onCallingThread)
                #expect(lateness[2 * index] >= 2 * ms, "play \(index): the caller wrote the stop of a level it wrote on time")
            }
        }
        // A caller's level was written here whenever its pass ran here, by the realtime thread otherwise.
        #expect(recorded.filter { $0.command == level && $0.onCallingThread }.count == here)
        let statistics = scheduler.statistics
        #expect(statistics.immediatePasses == here)
        #expect(statistics.immediatePasses + statistics.immediateFallbacks == 20)
        #expect(statistics.submitted == statistics.applied + statistics.ignored + statistics.discarded)
        #expect(output.overlaps.load(ordering: .relaxed) == 0)
        // The parked thread was idle between plays: most calls find processing free.
        #expect(here >= 10)
    }

    @Test("once the realtime thread is stopped, callers no longer play from their threads")
    func stoppedRealtimeThreadClosesTheImmediatePath() throws {
        let (scheduler, output, players) = try witnessed(SystemMonotonicClock(), policy: .replace, levels: [(100, 200)], duration: 2 * ms)
        let player = players[0]
        try scheduler.startRealtimeThread()
        scheduler.stopRealtimeThread()
        #expect(output.recorded == [ThreadedEmission(command: .stop, onCallingThread: false)])
        #expect(playFromCaller(scheduler, player, at: scheduler.clock.now()) == .leftToRealtimeThread)
        #expect(output.recorded.count == 1)
        #expect(scheduler.statistics.immediateFallbacks == 1)
    }

    @Test("concurrent callers and the realtime thread never write one output at once, and nothing is lost")
    func concurrentCallersKeepOneWriterPerOutput() throws {
        try runCallersOnSharedOutputs(commandsPerCall: 1) { scheduler, player, _ in
            playFromCaller(scheduler, player, at: scheduler.clock.now())
        }
    }

    /// Starts `player` at `instant` in an immediate group of its own and ends it: the caller's
    /// pass, or the fallback to the realtime thread.
    @discardableResult
    func playFromCaller(_ scheduler: Scheduler, _ player: PlayerID, at instant: MonotonicInstant) -> ImmediateProcessing {
        var group = scheduler.beginImmediateGroup()
        _ = scheduler.start(player, at: instant, tag: 0, in: &group)
        return scheduler.endImmediateGroup(group)
    }

    /// A scheduler on `clock` with one witnessed channel and a player per level (each a program of
    /// that level from 0, then a stop at `duration`).
    func witnessed<Clock: HapticClock>(
        _ clock: Clock, policy: OverlapPolicy, levels: [(UInt16, UInt16)], duration: Int64 = 10 * ms
    ) throws -> (Scheduler, WitnessActuator, [PlayerID]) {
        let scheduler = Scheduler(clock: clock)
        let output = WitnessActuator()
        let channel = try scheduler.addChannel(output: output, profile: testRumble, policy: policy)
        let players = try levels.map { strong, weak in
            try scheduler.makePlayer(program: scheduler.load(rumbleProgram([(0, strong, weak)], duration: duration)), channel: channel)
        }
        return (scheduler, output, players)
    }
}

/// 8 threads × 200 calls of `call` (each submitting `commandsPerCall` commands for its player, and
/// playing them from its thread when it can) beside a running realtime thread, on 4 outputs that two
/// players each share: checks that no output was written by two threads at once, that every
/// command was applied, and that everything ended in silence.
func runCallersOnSharedOutputs(
    commandsPerCall: Int, _ call: @escaping @Sendable (Scheduler, PlayerID, Int) -> Void
) throws {
    // Room for every submission at once: what is tested is who writes, not back-pressure.
    let scheduler = Scheduler(clock: SystemMonotonicClock(), configuration: SchedulerConfiguration(queueCapacity: 4_096))
    let outputs = (0..<4).map { _ in WitnessActuator() }
    let channels = try outputs.map { try scheduler.addChannel(output: $0, profile: testRumble, policy: .mix) }
    let program = try scheduler.load(rumbleProgram([(0, 100, 200), (300_000, 300, 400)], duration: 600_000))
    // Two players per channel, each thread starting one of them: callers share every output.
    let players = try (0..<8).map { try scheduler.makePlayer(program: program, channel: channels[$0 % 4]) }
    try scheduler.startRealtimeThread()
    let calls = 200
    let commands = 8 * calls * commandsPerCall
    runConcurrently(8) { index in
        for round in 0..<calls {
            call(scheduler, players[index], round)
            if round % 16 == 0 { usleep(200) }
        }
    }
    // A pass preempted on a loaded machine leaves every later start queued while the outputs
    // still show the last stop: wait until all of them were applied, then for their stops.
    #expect(waitUntil { scheduler.statistics.applied == commands })
    #expect(waitUntil { outputs.allSatisfy { $0.recorded.last?.command == .stop } })
    usleep(2_000)
    scheduler.stopRealtimeThread()
    let statistics = scheduler.statistics
    #expect(statistics.submitted == commands)
    #expect(statistics.dropped == 0)
    // Every command was applied, by a caller or the realtime thread.
    #expect(statistics.applied == statistics.submitted)
    #expect(statistics.immediatePasses + statistics.immediateFallbacks == 8 * calls)
    for output in outputs {
        #expect(output.overlaps.load(ordering: .relaxed) == 0)
        #expect(output.recorded.last?.command == .stop)
    }
}
