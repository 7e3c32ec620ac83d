import Synchronization
import Testing
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

/// Records each command with what `progress(of:)` said about one player at that moment, so a test
/// sees whether a write came before or after the start's bookkeeping.
final class ProgressProbingActuator: Actuator, @unchecked Sendable {
    let probe = Mutex<(() -> PlayerProgress.State?)?>(nil)
    let recorded = Mutex<[(ActuatorCommand, PlayerProgress.State?)]>([])

    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        let state = probe.withLock { $0 }?()
        recorded.withLock { $0.append((command, state)) }
    }
}

@Suite("Leading writes: a direct start on a silent channel writes its level before its bookkeeping")
struct LeadingWriteTests {
    @Test("the level is written once, while the player is not yet published as playing")
    func theWriteComesBeforeTheBookkeeping() throws {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000 * ms))
        let scheduler = Scheduler(clock: clock)
        let output = ProgressProbingActuator()
        let channel = try scheduler.addChannel(output: output, profile: testRumble, policy: .replace)
        let player = try scheduler.makePlayer(program: scheduler.load(rumbleProgram([(0, 100, 200)], duration: 10 * ms)), channel: channel)
        output.probe.withLock { $0 = { scheduler.progress(of: player, at: nil)?.state } }
        // The probe holds the scheduler, which holds the output: let go of it at the end.
        defer { output.probe.withLock { $0 = nil } }
        let t0 = clock.now()
        var group = scheduler.beginImmediateGroup()
        #expect(try scheduler.start(player, at: t0, tag: 0, intensity: 1, in: &group))
        #expect(scheduler.endImmediateGroup(group) == .processedHere)
        #expect(scheduler.progress(of: player, at: nil)?.state == .playing)
        #expect(output.recorded.withLock { $0.map(\.0) } == [.rumble(strong: 100, weak: 200)])
        #expect(output.recorded.withLock { $0.map(\.1) } == [.stopped])
        clock.advance(to: t0.advanced(by: .milliseconds(10)))
        scheduler.process()
        #expect(output.recorded.withLock { $0.map(\.0) } == [.rumble(strong: 100, weak: 200), .stop])
        #expect(output.recorded.withLock { $0.map(\.1) } == [.stopped, .playing])
        let statistics = scheduler.statistics
        #expect(statistics.leadingWrites == 1)
        #expect(statistics.directSubmissions == 2)
        #expect(statistics.emitted == 2)
        #expect(statistics.applied == 2)
    }

    @Test("on each overlap policy, starts on a silent channel play what the queue and a pass play",
          arguments: [OverlapPolicy.replace, .mix, .dropStale(maximumLateness: .milliseconds(1))])
    func leadingWritesPlayWhatThePassPlays(policy: OverlapPolicy) throws {
        var results: [([Emission], [PlayerEnding], SchedulerStatistics)] = []
        for grouped in [true, false] {
            // Levels that last 3 ms on their own: renewals are armed from the written level.
            let rig = SchedulerRig(policy: policy, levelLifetime: .milliseconds(3))
            let first = try rig.player(rumbleProgram([(0, 100, 200), (4 * ms, 300, 400)], duration: 8 * ms))
            let second = try rig.player(rumbleProgram([(0, 500, 600)], duration: 2 * ms))
            let t0 = rig.now
            // At 0 the channel is silent (a leading write); at 1 ms `first` plays (none: the
            // policy replaces or mixes); at 20 ms both have ended (a leading write again).
            let calls: [(PlayerID, Int64, Double)] = [(first, 0, 0.5), (second, 1 * ms, 1), (second, 20 * ms, 0.25)]
            for (player, at, intensity) in calls {
                rig.runOnDeadlines(until: t0 + at)
                rig.clock.advance(to: rig.at(t0 + at))
                if grouped {
                    var group = rig.scheduler.beginImmediateGroup()
                    #expect(group.appliesDirectly)
                    #expect(try rig.scheduler.start(player, at: rig.at(t0 + at), tag: at + 1, intensity: intensity, in: &group))
                    #expect(rig.scheduler.endImmediateGroup(group) == .processedHere)
                } else {
                    #expect(try rig.scheduler.setParameter(player, .hapticIntensityControl, value: intensity, at: rig.at(t0 + at)))
                    #expect(rig.scheduler.start(player, at: rig.at(t0 + at), tag: at + 1))
                    rig.scheduler.process()
                }
            }
            rig.runOnDeadlines(until: t0 + 40 * ms)
            var endings: [PlayerEnding] = []
            rig.scheduler.drainEndings(into: &endings)
            results.append((rig.output.recorded, endings, rig.scheduler.statistics))
        }
        let (grouped, queued) = (results[0], results[1])
        #expect(grouped.0 == queued.0)
        #expect(grouped.1 == queued.1)
        #expect(grouped.2.applied == queued.2.applied)
        #expect(grouped.2.emitted == queued.2.emitted)
        #expect(grouped.2.renewed == queued.2.renewed)
        #expect(grouped.2.leadingWrites == 2)
        #expect(queued.2.leadingWrites == 0)
        // Written out: the first start at half intensity, the second one replacing or joining it
        // at 1 ms (renewed 1 ms before its 3 ms run out), the third on a silent channel again.
        let t0: Int64 = 1_000 * ms
        let half = Emission(.rumble(strong: 32_768, weak: 32_768), deadline: t0, now: t0)
        #expect(grouped.0.first == half)
        #expect(grouped.0.contains { $0.deadline == t0 + 20 * ms && !$0.command.isSilent })
        #expect(grouped.0.last?.command == .stop)
        #expect(grouped.1.map(\.tag).sorted() == [1, 1 * ms + 1, 20 * ms + 1])
    }

    @Test("a start on a channel that plays, a traced start and a start dated later write nothing ahead")
    func otherStartsWriteNothingAhead() throws {
        let rig = SchedulerRig()
        let playing = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        let other = try rig.player(rumbleProgram([(0, 300, 400)], duration: 10 * ms))
        let t0 = rig.now
        rig.scheduler.start(playing, at: rig.at(t0))
        rig.scheduler.process()
        var group = rig.scheduler.beginImmediateGroup()
        #expect(try rig.scheduler.start(other, at: rig.at(t0), tag: 0, intensity: 1, in: &group))
        #expect(try rig.scheduler.start(playing, at: rig.at(t0 + 1 * ms), tag: 0, intensity: 1, in: &group))
        rig.scheduler.endImmediateGroup(group)
        // The replace policy silences the playing one first: stop, then the level, as the pass.
        #expect(rig.output.take() == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0, now: t0),
            Emission(.stop, deadline: t0, now: t0),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0, now: t0),
        ])
        rig.runOnDeadlines(until: t0 + 30 * ms)
        _ = rig.output.take()
        rig.scheduler.startTracing()
        group = rig.scheduler.beginImmediateGroup()
        #expect(try rig.scheduler.start(other, at: rig.at(rig.now), tag: 0, intensity: 1, in: &group))
        rig.scheduler.endImmediateGroup(group)
        #expect(rig.output.take() == [Emission(.rumble(strong: 300, weak: 400), deadline: rig.now, now: rig.now)])
        #expect(rig.scheduler.statistics.leadingWrites == 0)
    }
}
