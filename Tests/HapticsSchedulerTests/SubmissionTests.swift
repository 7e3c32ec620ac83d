import Dispatch
import Testing
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

@Suite("Submission")
struct SubmissionTests {
    @Test func aFullQueueRefusesAndCountsTheDrop() throws {
        let rig = SchedulerRig(configuration: SchedulerConfiguration(queueCapacity: 4))
        let player = try rig.player(rumbleProgram([(0, 1, 1)], duration: 10 * ms))
        let later = rig.at(rig.nowNanoseconds + 1_000 * ms)
        #expect((0..<4).map { _ in rig.scheduler.setLoop(player, true, at: later) } == [true, true, true, true])
        #expect(rig.scheduler.setLoop(player, true, at: later) == false)
        #expect(rig.scheduler.stopAll(at: later) == false)
        var statistics = rig.scheduler.statistics
        #expect(statistics.submitted == 4)
        #expect(statistics.dropped == 2)
        // Processing moves the commands into the pending list (room for the queue's capacity), which
        // frees the queue.
        rig.scheduler.process()
        #expect(rig.scheduler.setLoop(player, false, at: later))
        statistics = rig.scheduler.statistics
        #expect(statistics.submitted == 5)
        #expect(statistics.dropped == 2)
    }

    @Test func stopAllSilencesEveryChannel() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let second = RecordingActuator()
        let secondChannel = try rig.scheduler.addChannel(output: second, profile: testRumble, policy: .mix)
        let program = try rig.scheduler.load(rumbleProgram([(0, 100, 200), (10 * ms, 300, 400)], duration: 20 * ms))
        let a = try rig.scheduler.makePlayer(program: program, channel: rig.channel)
        let b = try rig.scheduler.makePlayer(program: program, channel: secondChannel)
        rig.scheduler.start(a, at: rig.at(t0))
        rig.scheduler.start(b, at: rig.at(t0))
        rig.scheduler.stopAll(at: rig.at(t0 + 5 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), channel: 0, deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, channel: 0, deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
        ])
        #expect(second.recorded == [
            Emission(.rumble(strong: 100, weak: 200), channel: 1, deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, channel: 1, deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
        ])
    }

    @Test func concurrentSubmissionsEachArriveExactlyOnce() throws {
        let threads = 4
        let perThread = 1_000
        let rig = SchedulerRig(configuration: SchedulerConfiguration(queueCapacity: threads * perThread))
        let base = rig.nowNanoseconds
        let scheduler = rig.scheduler
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let accepted = scheduler.stopAll(at: MonotonicInstant(nanoseconds: base + Int64(thread * perThread + index)))
                precondition(accepted, "the queue is large enough for every submission")
            }
        }
        rig.run(to: base + Int64(threads * perThread))
        let deadlines = rig.output.recorded.map(\.deadlineNanoseconds)
        #expect(deadlines == (0..<Int64(threads * perThread)).map { base + $0 })
        #expect(rig.output.recorded.allSatisfy { $0.command == .stop })
        #expect(rig.scheduler.statistics.submitted == threads * perThread)
        #expect(rig.scheduler.statistics.dropped == 0)
    }

    @Test func submissionsForAReleasedPlayerAreIgnored() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 50 * ms))
        rig.scheduler.start(player, at: rig.at(t0))
        rig.run(to: t0)
        rig.scheduler.releasePlayer(player)
        rig.scheduler.start(player, at: rig.at(t0 + 2 * ms))
        rig.runOnDeadlines(until: t0 + 200 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0, nowNanoseconds: t0),
        ])
        #expect(rig.scheduler.statistics.ignored == 1)
    }

    @Test func aReusedPlayerSlotStartsWithFreshSettings() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let program = try rig.scheduler.load(rumbleProgram([(0, 100, 200), (10 * ms, 300, 400)], duration: 20 * ms))
        let old = try rig.scheduler.makePlayer(program: program, channel: rig.channel)
        try rig.scheduler.setRate(old, 2, at: rig.at(t0))
        rig.scheduler.process()
        rig.scheduler.releasePlayer(old)
        let new = try rig.scheduler.makePlayer(program: program, channel: rig.channel)
        #expect(new != old)
        rig.scheduler.start(new, at: rig.at(t0))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded.map(\.deadlineNanoseconds) == [t0, t0 + 10 * ms, t0 + 20 * ms])
    }
}
