import Glibc
import Synchronization
import Testing
import HapticsPatterns
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

/// Three channels on one manually driven scheduler: `replace`, `mix`, and a `replace` one holding
/// a direct level; each records what it performs.
struct ThreeChannelRig {
    let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000 * ms))
    let scheduler: Scheduler
    let outputs = (0..<3).map { _ in RecordingActuator() }
    let channels: [ChannelID]

    init() throws {
        scheduler = Scheduler(clock: clock)
        var channels: [ChannelID] = []
        for (index, policy) in [OverlapPolicy.replace, .mix, .replace].enumerated() {
            channels.append(try scheduler.addChannel(output: outputs[index], profile: testRumble, policy: policy))
        }
        self.channels = channels
    }

    var nowNanoseconds: Int64 { clock.now().nanoseconds }

    func player(_ levels: [(Int64, UInt16, UInt16)], duration: Int64, on channel: Int) throws -> PlayerID {
        try scheduler.makePlayer(program: scheduler.load(rumbleProgram(levels, duration: duration)), channel: channels[channel])
    }

    /// Processes at every deadline up to `limit`, as the realtime thread wakes.
    func runOnDeadlines(until limit: Int64) {
        var next = scheduler.process()?.nanoseconds
        while let deadline = next, deadline <= limit {
            clock.advance(to: MonotonicInstant(nanoseconds: max(deadline, nowNanoseconds)))
            next = scheduler.process()?.nanoseconds
        }
    }

    var recorded: [[Emission]] { outputs.map(\.recorded) }

    func endings() -> [PlayerEnding] {
        var endings: [PlayerEnding] = []
        scheduler.drainEndings(into: &endings)
        return endings
    }
}

@Suite("Immediate groups: a start due now is applied by the caller's own pass")
struct ImmediateGroupTests {
    /// Sets `player`'s intensity and starts it now, in an immediate group of its own.
    func play(_ rig: SchedulerRig, _ player: PlayerID, tag: Int64, intensity: Double) throws -> ImmediateProcessing {
        var group = rig.scheduler.beginImmediateGroup()
        #expect(group.owner)
        #expect(try rig.scheduler.start(player, at: rig.clock.now(), tag: tag, intensity: intensity, in: &group))
        return rig.scheduler.endImmediateGroup(group)
    }

    @Test("a group's start due now is written as it is submitted; the group's end finishes the pass and counts it")
    func startIsWrittenAsItIsSubmitted() throws {
        let rig = SchedulerRig()
        let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        let t0 = rig.nowNanoseconds
        let passes = rig.scheduler.completedPassCount.load(ordering: .acquiring)
        var group = rig.scheduler.beginImmediateGroup()
        #expect(group.owner)
        #expect(try rig.scheduler.start(player, at: rig.at(t0), tag: 7, intensity: 0.5, in: &group))
        // The first thing due: the pass's first step, taken at once.
        #expect(rig.output.take() == [Emission(.rumble(strong: 32_768, weak: 32_768), deadlineNanoseconds: t0, nowNanoseconds: t0)])
        #expect(rig.scheduler.completedPassCount.load(ordering: .acquiring) == passes)
        #expect(rig.scheduler.endImmediateGroup(group) == .processedHere)
        #expect(rig.output.take().isEmpty)
        // The next deadline is the player's stop, for the realtime thread.
        #expect(rig.scheduler.nextDeadline.load(ordering: .relaxed).nanoseconds == t0 + 10 * ms)
        #expect(rig.scheduler.completedPassCount.load(ordering: .acquiring) == passes + 1)
        rig.runOnDeadlines(until: t0 + 20 * ms)
        #expect(rig.output.take() == [Emission(.stop, deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms)])
        var endings: [PlayerEnding] = []
        rig.scheduler.drainEndings(into: &endings)
        #expect(endings.map(\.tag) == [7])
        #expect(endings.map(\.reason) == [.finished])
        // One submission: the start carries its intensity.
        let statistics = rig.scheduler.statistics
        #expect(statistics.submitted == 1)
        #expect(statistics.applied == 1)
        #expect(statistics.emitted == 2)
        #expect(statistics.immediatePasses == 1)
        #expect(statistics.immediateFallbacks == 0)
    }

    @Test("a restart in a group plays the start at its intensity with no stop between, as the queue and a pass do")
    func restartInAGroup() throws {
        let rig = SchedulerRig()
        let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        let t0 = rig.nowNanoseconds
        #expect(try play(rig, player, tag: 7, intensity: 0.5) == .processedHere)
        #expect(rig.output.take() == [Emission(.rumble(strong: 32_768, weak: 32_768), deadlineNanoseconds: t0, nowNanoseconds: t0)])
        // Started again while it plays: the restart at the new intensity replaces the level, with
        // no stop between and no write of the old position at the new intensity.
        rig.clock.advance(by: .milliseconds(2))
        #expect(try play(rig, player, tag: 8, intensity: 1) == .processedHere)
        let restarted = Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0 + 2 * ms, nowNanoseconds: t0 + 2 * ms)
        #expect(rig.output.take() == [restarted])
        rig.runOnDeadlines(until: t0 + 20 * ms)
        #expect(rig.output.take() == [Emission(.stop, deadlineNanoseconds: t0 + 12 * ms, nowNanoseconds: t0 + 12 * ms)])
        var endings: [PlayerEnding] = []
        rig.scheduler.drainEndings(into: &endings)
        #expect(endings.map(\.tag) == [7, 8])
        #expect(endings.map(\.reason) == [.stopped, .finished])
        let statistics = rig.scheduler.statistics
        #expect(statistics.submitted == 2)
        #expect(statistics.applied == 2)
        #expect(statistics.immediatePasses == 2)
        #expect(statistics.immediateFallbacks == 0)
    }

    @Test("every group ends with a counted pass, so back-to-back plays pass a mark")
    func everyGroupCountsAPass() throws {
        let rig = SchedulerRig()
        let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        let passes = rig.scheduler.completedPassCount.load(ordering: .acquiring)
        let mark = rig.scheduler.processingMark()
        for _ in 0..<3 {
            #expect(try play(rig, player, tag: 1, intensity: 1) == .processedHere)
            #expect(rig.scheduler.hasPassed(mark))
            rig.clock.advance(by: .milliseconds(1))
        }
        #expect(rig.scheduler.completedPassCount.load(ordering: .acquiring) == passes + 3)
        // Every play wrote its level once; each restart replaced it without a stop between.
        #expect(rig.output.take().map(\.command) == Array(repeating: .rumble(strong: 100, weak: 200), count: 3))
    }

    @Test("a group plays exactly what the queue and a pass play: replace, mix, restart, direct level, later start")
    func groupPlaysWhatThePassPlays() throws {
        // The same game calls on two schedulers: through a group, and queued then processed.
        var results: [([[Emission]], [PlayerEnding], SchedulerStatistics)] = []
        for grouped in [true, false] {
            let rig = try ThreeChannelRig()
            let a1 = try rig.player([(0, 100, 200), (3 * ms, 300, 400)], duration: 6 * ms, on: 0)
            let a2 = try rig.player([(0, 500, 600)], duration: 4 * ms, on: 0)
            let b1 = try rig.player([(0, 1_000, 2_000), (2 * ms, 1_500, 2_500)], duration: 5 * ms, on: 1)
            let b2 = try rig.player([(0, 10, 20)], duration: 5 * ms, on: 1)
            let c1 = try rig.player([(0, 7, 8)], duration: 5 * ms, on: 2)
            let t0 = rig.nowNanoseconds
            let at = { (offset: Int64) in MonotonicInstant(nanoseconds: t0 + offset) }
            rig.scheduler.start(a1, at: at(0))
            rig.scheduler.start(b1, at: at(0))
            #expect(try rig.scheduler.setMotorLevels(low: 0.25, high: 0.5, on: rig.channels[2], at: at(0), until: at(10 * ms)))
            rig.scheduler.process()
            rig.clock.advance(to: at(1 * ms))
            // The game's call at 1 ms: a replacing start, a mixed one, a restart of a playing
            // player, one over a direct level, and one for later.
            let calls: [(PlayerID, Int64, Double, Int64)] = [(a2, 0, 0.5, 11), (b2, 0, 1, 12), (b1, 0, 0.25, 13),
                                                              (c1, 0, 1, 14), (a1, 1 * ms, 1, 15)]
            if grouped {
                var group = rig.scheduler.beginImmediateGroup()
                #expect(group.owner)
                for (player, delay, intensity, tag) in calls {
                    #expect(try rig.scheduler.start(player, at: at(1 * ms + delay), tag: tag, intensity: intensity, in: &group))
                }
                #expect(rig.scheduler.endImmediateGroup(group) == .processedHere)
            } else {
                for (player, delay, intensity, tag) in calls {
                    #expect(try rig.scheduler.start(player, at: at(1 * ms + delay), tag: tag, intensity: intensity))
                }
                rig.scheduler.process()
            }
            rig.runOnDeadlines(until: t0 + 30 * ms)
            results.append((rig.recorded, rig.endings(), rig.scheduler.statistics))
        }
        let (grouped, queued) = (results[0], results[1])
        #expect(grouped.0 == queued.0)
        #expect(grouped.1 == queued.1)
        #expect(grouped.2.applied == queued.2.applied)
        #expect(grouped.2.emitted == queued.2.emitted)
        #expect(grouped.2.submitted == queued.2.submitted)
        // What the outputs heard, written out. Replace: a2 silences a1, the later restart of a1
        // silences a2. Mix: b2 joins b1, b1's restart at 0.25 plays its first level at 0.25,
        // summed with b2. Over the direct level (0x4000, 0x8000):
        // c1 is added to it, and the direct level alone is left after c1 and ends at 10 ms.
        let t0: Int64 = 1_000 * ms
        #expect(grouped.0[0] == [
            Emission(.rumble(strong: 100, weak: 200), channel: 0, deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, channel: 0, deadlineNanoseconds: t0 + 1 * ms, nowNanoseconds: t0 + 1 * ms),
            Emission(.rumble(strong: 32_768, weak: 32_768), channel: 0, deadlineNanoseconds: t0 + 1 * ms, nowNanoseconds: t0 + 1 * ms),
            Emission(.stop, channel: 0, deadlineNanoseconds: t0 + 2 * ms, nowNanoseconds: t0 + 2 * ms),
            Emission(.rumble(strong: 100, weak: 200), channel: 0, deadlineNanoseconds: t0 + 2 * ms, nowNanoseconds: t0 + 2 * ms),
            Emission(.rumble(strong: 300, weak: 400), channel: 0, deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
            Emission(.stop, channel: 0, deadlineNanoseconds: t0 + 8 * ms, nowNanoseconds: t0 + 8 * ms),
        ])
        #expect(grouped.0[1] == [
            Emission(.rumble(strong: 1_000, weak: 2_000), channel: 1, deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 1_010, weak: 2_020), channel: 1, deadlineNanoseconds: t0 + 1 * ms, nowNanoseconds: t0 + 1 * ms),
            Emission(.rumble(strong: 16_394, weak: 16_404), channel: 1, deadlineNanoseconds: t0 + 1 * ms, nowNanoseconds: t0 + 1 * ms),
            Emission(.rumble(strong: 16_394, weak: 16_404), channel: 1, deadlineNanoseconds: t0 + 3 * ms, nowNanoseconds: t0 + 3 * ms),
            Emission(.rumble(strong: 10, weak: 20), channel: 1, deadlineNanoseconds: t0 + 6 * ms, nowNanoseconds: t0 + 6 * ms),
            Emission(.stop, channel: 1, deadlineNanoseconds: t0 + 6 * ms, nowNanoseconds: t0 + 6 * ms),
        ])
        #expect(grouped.0[2] == [
            Emission(.rumble(strong: 16_384, weak: 32_768), channel: 2, deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 16_391, weak: 32_776), channel: 2, deadlineNanoseconds: t0 + 1 * ms, nowNanoseconds: t0 + 1 * ms),
            Emission(.rumble(strong: 16_384, weak: 32_768), channel: 2, deadlineNanoseconds: t0 + 6 * ms, nowNanoseconds: t0 + 6 * ms),
            Emission(.stop, channel: 2, deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
        ])
        #expect(grouped.1.map(\.tag) == [11, 13, 12, 14, 15])
        #expect(grouped.1.map(\.reason) == [.stopped, .finished, .finished, .finished, .finished])
    }

    @Test("with a step due before now, the group's pass plays that step first: time order")
    func somethingDueFirstKeepsThePassOrder() throws {
        let rig = SchedulerRig()
        let first = try rig.player(rumbleProgram([(0, 100, 200), (3 * ms, 300, 400)], duration: 8 * ms))
        let second = try rig.player(rumbleProgram([(0, 500, 600)], duration: 2 * ms))
        let t0 = rig.nowNanoseconds
        rig.scheduler.start(first, at: rig.at(t0))
        rig.scheduler.process()
        #expect(rig.output.take() == [Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0)])
        // The first player's 3 ms step is due and not played yet when the game calls at 4 ms.
        rig.clock.advance(to: rig.at(t0 + 4 * ms))
        var group = rig.scheduler.beginImmediateGroup()
        #expect(try rig.scheduler.start(second, at: rig.at(t0 + 4 * ms), tag: 0, intensity: 1, in: &group))
        #expect(rig.output.recorded.isEmpty)
        #expect(rig.scheduler.endImmediateGroup(group) == .processedHere)
        #expect(rig.output.take() == [
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 3 * ms, nowNanoseconds: t0 + 4 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 4 * ms, nowNanoseconds: t0 + 4 * ms),
            Emission(.rumble(strong: 500, weak: 600), deadlineNanoseconds: t0 + 4 * ms, nowNanoseconds: t0 + 4 * ms),
        ])
    }

    @Test("due commands of one group are applied as they are submitted, as groups of their own would be")
    func dueCommandsAreAppliedAsSubmitted() throws {
        let rig = SchedulerRig(policy: .mix)
        let first = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        let second = try rig.player(rumbleProgram([(0, 1, 2)], duration: 10 * ms))
        let third = try rig.player(rumbleProgram([(0, 10, 20)], duration: 10 * ms))
        rig.clock.advance(by: .milliseconds(5))
        let t0 = rig.nowNanoseconds
        var group = rig.scheduler.beginImmediateGroup()
        #expect(try rig.scheduler.start(first, at: rig.at(t0), tag: 0, intensity: 1, in: &group))
        #expect(try rig.scheduler.start(second, at: rig.at(t0 - 1 * ms), tag: 0, intensity: 1, in: &group))
        #expect(try rig.scheduler.start(third, at: rig.at(t0), tag: 0, intensity: 1, in: &group))
        rig.scheduler.endImmediateGroup(group)
        // In the order they were submitted: `second`, dated 1 ms earlier, came after `first` had
        // been applied; nothing else was due before either.
        #expect(rig.output.take() == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 101, weak: 202), deadlineNanoseconds: t0 - 1 * ms, nowNanoseconds: t0),
            Emission(.rumble(strong: 111, weak: 222), deadlineNanoseconds: t0, nowNanoseconds: t0),
        ])
    }

    @Test("while another thread processes, a group queues its starts and the next pass plays them")
    func busyProcessingQueuesTheGroup() throws {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000 * ms))
        let scheduler = Scheduler(clock: clock)
        let output = WitnessActuator()
        let channel = try scheduler.addChannel(output: output, profile: testRumble, policy: .mix)
        let busy = try scheduler.makePlayer(program: scheduler.load(rumbleProgram([(0, 100, 200)], duration: 10 * ms)), channel: channel)
        let late = try scheduler.makePlayer(program: scheduler.load(rumbleProgram([(0, 1, 2)], duration: 10 * ms)), channel: channel)
        let t0 = clock.now()
        #expect(scheduler.start(busy, at: t0))
        output.holdsPerform.store(true, ordering: .releasing)
        let outcome = OrderedMutex<(Bool, ImmediateProcessing)?>(nil)
        runConcurrently(2) { index in
            if index == 0 {
                scheduler.process()
                return
            }
            while output.entered.load(ordering: .acquiring) == 0 { usleep(100) }
            output.markCallingThread()
            var group = scheduler.beginImmediateGroup()
            _ = try? scheduler.start(late, at: t0, tag: 0, intensity: 1, in: &group)
            let result = scheduler.endImmediateGroup(group)
            outcome.withLock { $0 = (group.owner, result) }
            output.holdsPerform.store(false, ordering: .releasing)
        }
        #expect(outcome.withLock { $0?.0 } == false)
        #expect(outcome.withLock { $0?.1 } == .leftToRealtimeThread)
        #expect(output.recorded == [ThreadedEmission(command: .rumble(strong: 100, weak: 200), onCallingThread: false)])
        scheduler.process()
        #expect(output.recorded == [
            ThreadedEmission(command: .rumble(strong: 100, weak: 200), onCallingThread: false),
            ThreadedEmission(command: .rumble(strong: 101, weak: 202), onCallingThread: false),
        ])
        #expect(output.overlaps.load(ordering: .relaxed) == 0)
        let statistics = scheduler.statistics
        #expect(statistics.immediateFallbacks == 1)
        #expect(statistics.applied == 2)
    }

    @Test("once the realtime thread is stopped, a group applies nothing on the caller's thread")
    func stoppedRealtimeThreadClosesGroups() throws {
        let scheduler = Scheduler(clock: SystemMonotonicClock())
        let output = WitnessActuator()
        let channel = try scheduler.addChannel(output: output, profile: testRumble, policy: .replace)
        let player = try scheduler.makePlayer(program: scheduler.load(rumbleProgram([(0, 100, 200)], duration: 2 * ms)), channel: channel)
        try scheduler.startRealtimeThread()
        scheduler.stopRealtimeThread()
        var group = scheduler.beginImmediateGroup()
        #expect(!group.owner)
        _ = try scheduler.start(player, at: scheduler.clock.now(), tag: 0, intensity: 1, in: &group)
        #expect(scheduler.endImmediateGroup(group) == .leftToRealtimeThread)
        #expect(output.recorded == [ThreadedEmission(command: .stop, onCallingThread: false)])
    }

    @Test("a NaN intensity throws and submits nothing")
    func aNaNIntensityIsRefused() throws {
        let rig = SchedulerRig()
        let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        var group = rig.scheduler.beginImmediateGroup()
        #expect(throws: SchedulerError.invalidParameterValue(.hapticIntensityControl, .infinity)) {
            try rig.scheduler.start(player, at: rig.clock.now(), tag: 0, intensity: .infinity, in: &group)
        }
        rig.scheduler.endImmediateGroup(group)
        #expect(rig.output.recorded.isEmpty)
        #expect(rig.scheduler.statistics.submitted == 0)
    }

    @Test("concurrent groups and the realtime thread never write one output at once, and every start is applied")
    func concurrentGroupsKeepOneWriterPerOutput() throws {
        // A start at an intensity per call: applied, by a group or a pass.
        try runCallersOnSharedOutputs(commandsPerCall: 1) { scheduler, player, round in
            var group = scheduler.beginImmediateGroup()
            _ = try? scheduler.start(player, at: scheduler.clock.now(), tag: 0, intensity: round % 2 == 0 ? 1 : 0.5, in: &group)
            scheduler.endImmediateGroup(group)
        }
    }

    @Test("traced, a group's start records submitted then dequeued, and its write continues the flow")
    func directStartsAreTraced() throws {
        let rig = SchedulerRig()
        let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        rig.scheduler.startTracing()
        let t0 = rig.nowNanoseconds
        var group = rig.scheduler.beginImmediateGroup()
        _ = try rig.scheduler.start(player, at: rig.at(t0), tag: 0, intensity: 1, in: &group)
        rig.scheduler.endImmediateGroup(group)
        var records: [TraceRecord] = []
        rig.scheduler.drainTrace(into: &records)
        #expect(records.map(\.event) == [.submitted, .dequeued, .emitted])
        #expect(records.map(\.sequence) == [1, 1, 1])
        #expect(records.last?.command == .rumble(strong: 100, weak: 200))
    }

    @Test("a start behind a queued submission waits for the group's pass, which plays both in time order")
    func aStartBehindTheQueueWaitsForThePass() throws {
        let rig = SchedulerRig(policy: .mix)
        let queued = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        let grouped = try rig.player(rumbleProgram([(0, 1, 2)], duration: 10 * ms))
        let t0 = rig.nowNanoseconds
        // Another thread's plain start, dated 1 ms earlier and not taken by any pass yet: applied
        // at once, the group's start would come first.
        #expect(rig.scheduler.start(queued, at: rig.at(t0 - 1 * ms)))
        var group = rig.scheduler.beginImmediateGroup()
        #expect(try rig.scheduler.start(grouped, at: rig.at(t0), tag: 0, intensity: 1, in: &group))
        #expect(rig.output.recorded.isEmpty)
        #expect(rig.scheduler.endImmediateGroup(group) == .processedHere)
        #expect(rig.output.take() == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0 - 1 * ms, nowNanoseconds: t0),
            Emission(.rumble(strong: 101, weak: 202), deadlineNanoseconds: t0, nowNanoseconds: t0),
        ])
    }

    @Test("a late start applied at once brings its own due step first: the group's next start waits for the pass")
    func aStepTheGroupBroughtDueComesFirst() throws {
        let rig = SchedulerRig(policy: .mix)
        let late = try rig.player(rumbleProgram([(0, 100, 200), (2 * ms, 300, 400)], duration: 10 * ms))
        let now = try rig.player(rumbleProgram([(0, 1, 2)], duration: 10 * ms))
        rig.clock.advance(by: .milliseconds(5))
        let t0 = rig.nowNanoseconds
        var group = rig.scheduler.beginImmediateGroup()
        // Dated 4 ms ago: applied at once, its 2 ms step is due since 2 ms ago.
        #expect(try rig.scheduler.start(late, at: rig.at(t0 - 4 * ms), tag: 0, intensity: 1, in: &group))
        #expect(rig.output.take() == [Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0 - 4 * ms, nowNanoseconds: t0)])
        #expect(try rig.scheduler.start(now, at: rig.at(t0), tag: 0, intensity: 1, in: &group))
        #expect(rig.output.recorded.isEmpty)
        rig.scheduler.endImmediateGroup(group)
        #expect(rig.output.take() == [
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 - 2 * ms, nowNanoseconds: t0),
            Emission(.rumble(strong: 301, weak: 402), deadlineNanoseconds: t0, nowNanoseconds: t0),
        ])
    }

    @Test("on four channels each start due now is written as it is submitted, before the next one")
    func eachChannelIsWrittenAsItIsSubmitted() throws {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000 * ms))
        let scheduler = Scheduler(clock: clock)
        let output = RecordingActuator()
        let channels = try (0..<4).map { _ in try scheduler.addChannel(output: output, profile: testRumble, policy: .replace) }
        let program = try scheduler.load(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        let players = try channels.map { try scheduler.makePlayer(program: program, channel: $0) }
        let t0 = clock.now().nanoseconds
        var group = scheduler.beginImmediateGroup()
        for (channel, player) in players.enumerated() {
            #expect(try scheduler.start(player, at: clock.now(), tag: 0, intensity: 1, in: &group))
            #expect(output.take() == [Emission(.rumble(strong: 100, weak: 200), channel: channel, deadlineNanoseconds: t0, nowNanoseconds: t0)])
        }
        #expect(scheduler.endImmediateGroup(group) == .processedHere)
        #expect(output.take().isEmpty)
        #expect(scheduler.nextDeadline.load(ordering: .relaxed).nanoseconds == t0 + 10 * ms)
        clock.advance(to: MonotonicInstant(nanoseconds: t0 + 10 * ms))
        scheduler.process()
        #expect(output.take() == (0..<4).map { Emission(.stop, channel: $0, deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms) })
    }
}

@Suite("Processing passes: many submissions due at once cost one scan, in the same order")
struct PassScanTests {
    @Test("parameter changes on 8 channels and the players' own steps interleave in time order")
    func submissionsAndStepsKeepTheirOrder() throws {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000 * ms))
        let scheduler = Scheduler(clock: clock)
        let output = RecordingActuator()
        let channels = try (0..<8).map { _ in try scheduler.addChannel(output: output, profile: testRumble, policy: .replace) }
        let program = try scheduler.load(rumbleProgram([(0, 100, 200), (2 * ms, 300, 400)], duration: 100 * ms))
        let players = try channels.map { try scheduler.makePlayer(program: program, channel: $0) }
        let t0 = clock.now().nanoseconds
        for player in players { scheduler.start(player, at: clock.now()) }
        scheduler.process()
        #expect(output.take().count == 8)
        // Changes at 1 ms and 2 ms, processed late at 3 ms: the 1 ms ones, then at 2 ms the
        // submissions before the players' own 2 ms steps (submissions first at equal times).
        for (index, player) in players.enumerated() {
            #expect(try scheduler.setParameter(player, .hapticIntensityControl, value: 0.5, at: MonotonicInstant(nanoseconds: t0 + 1 * ms)))
            if index % 2 == 0 {
                #expect(try scheduler.setParameter(player, .hapticIntensityControl, value: 0.25, at: MonotonicInstant(nanoseconds: t0 + 2 * ms)))
            }
        }
        clock.advance(to: MonotonicInstant(nanoseconds: t0 + 3 * ms))
        #expect(scheduler.process()?.nanoseconds == t0 + 100 * ms)
        let half = ActuatorCommand.rumble(strong: 32_768, weak: 32_768)
        let quarter = ActuatorCommand.rumble(strong: 16_384, weak: 16_384)
        let now = t0 + 3 * ms
        var expected = (0..<8).map { Emission(half, channel: $0, deadlineNanoseconds: t0 + 1 * ms, nowNanoseconds: now) }
        expected += stride(from: 0, to: 8, by: 2).map { Emission(quarter, channel: $0, deadlineNanoseconds: t0 + 2 * ms, nowNanoseconds: now) }
        expected += (0..<8).map { channel in
            Emission(channel % 2 == 0 ? .rumble(strong: 16_384, weak: 16_384) : .rumble(strong: 32_768, weak: 32_768),
                     channel: channel, deadlineNanoseconds: t0 + 2 * ms, nowNanoseconds: now)
        }
        #expect(output.take() == expected)
    }
}
