import Testing
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

/// Every submission the queue accepted ends one way: applied, ignored (its player was released)
/// or discarded (the realtime thread stopped first). The statistics account for each one.
@Suite("Submission accounting")
struct SubmissionAccountingTests {
    @Test func everyAcceptedSubmissionIsAppliedOrIgnored() throws {
        let rig = SchedulerRig()
        let program = rumbleProgram([(0, 100, 200)], duration: 10 * ms)
        let player = try rig.player(program)
        let released = try rig.player(program)
        rig.scheduler.releasePlayer(released)
        let t0 = rig.nowNanoseconds
        #expect(try rig.scheduler.setParameter(player, .hapticIntensityControl, value: 0.5, at: rig.at(t0)))
        #expect(rig.scheduler.start(player, at: rig.at(t0)))
        #expect(rig.scheduler.start(released, at: rig.at(t0)))
        #expect(rig.scheduler.setLoop(player, false, at: rig.at(t0 + ms)))
        #expect(rig.scheduler.stopAll(at: rig.at(t0 + 2 * ms)))
        rig.run(to: t0 + 1 * ms)
        var statistics = rig.scheduler.statistics
        #expect(statistics.submitted == 5)
        #expect(statistics.applied == 3)            // the stopAll is not due yet
        #expect(statistics.ignored == 1)
        rig.run(to: t0 + 2 * ms)
        statistics = rig.scheduler.statistics
        #expect(statistics.applied == 4)
        #expect(statistics.discarded == 0)
        #expect(statistics.submitted == statistics.applied + statistics.ignored + statistics.discarded)
    }

    @Test func stoppingTheRealtimeThreadCountsWhatItDiscards() throws {
        let scheduler = Scheduler(clock: SystemMonotonicClock(), configuration: SchedulerConfiguration(queueCapacity: 8))
        let output = RecordingActuator()
        let channel = try scheduler.addChannel(output: output, profile: testRumble, policy: .replace)
        let player = try scheduler.makePlayer(program: scheduler.load(rumbleProgram([(0, 1, 1)], duration: ms)), channel: channel)
        try scheduler.startRealtimeThread()
        let inAnHour = scheduler.clock.now().advanced(by: 3_600_000_000_000)
        var accepted = 0
        // More than the queue holds: the thread moves some into its pending list, the rest wait.
        for _ in 0..<12 where scheduler.setLoop(player, true, at: inAnHour) { accepted += 1 }
        scheduler.stopRealtimeThread()
        let statistics = scheduler.statistics
        #expect(statistics.submitted == accepted)
        #expect(statistics.submitted + statistics.dropped == 12)
        #expect(statistics.applied == 0)
        #expect(statistics.discarded == accepted)
        #expect(output.recorded.map(\.command) == [.stop])
    }
}
