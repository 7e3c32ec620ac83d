import Dispatch
import Testing
import HapticsRendering
@testable import HapticsScheduler

@Suite("Submission")
struct SubmissionTests {
    @Test func aFullQueueRefusesAndCountsTheDrop() throws {
        let bench = Bench(configuration: SchedulerConfiguration(queueCapacity: 4))
        let player = try bench.player(rumbleProgram([(0, 1, 1)], duration: 10 * ms))
        let later = bench.at(bench.now + 1_000 * ms)
        #expect((0..<4).map { _ in bench.scheduler.setLoop(player, true, at: later) } == [true, true, true, true])
        #expect(bench.scheduler.setLoop(player, true, at: later) == false)
        #expect(bench.scheduler.stopAll(at: later) == false)
        var statistics = bench.scheduler.statistics
        #expect(statistics.submitted == 4)
        #expect(statistics.dropped == 2)
        // Processing moves the commands into the pending list (room for the queue's capacity), which
        // frees the queue.
        bench.scheduler.process()
        #expect(bench.scheduler.setLoop(player, false, at: later))
        statistics = bench.scheduler.statistics
        #expect(statistics.submitted == 5)
        #expect(statistics.dropped == 2)
    }

    @Test func stopAllSilencesEveryChannel() throws {
        let bench = Bench()
        let t0 = bench.now
        let second = RecordingOutput()
        let secondChannel = bench.scheduler.addChannel(output: second, profile: testRumble, policy: .mix)
        let program = try bench.scheduler.load(rumbleProgram([(0, 100, 200), (10 * ms, 300, 400)], duration: 20 * ms))
        let a = try bench.scheduler.makePlayer(program: program, channel: bench.channel)
        let b = try bench.scheduler.makePlayer(program: program, channel: secondChannel)
        bench.scheduler.start(a, at: bench.at(t0))
        bench.scheduler.start(b, at: bench.at(t0))
        bench.scheduler.stopAll(at: bench.at(t0 + 5 * ms))
        bench.runOnDeadlines(until: t0 + 100 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), channel: 0, deadline: t0, now: t0),
            Emission(.stop, channel: 0, deadline: t0 + 5 * ms, now: t0 + 5 * ms),
        ])
        #expect(second.recorded == [
            Emission(.rumble(strong: 100, weak: 200), channel: 1, deadline: t0, now: t0),
            Emission(.stop, channel: 1, deadline: t0 + 5 * ms, now: t0 + 5 * ms),
        ])
    }

    @Test func concurrentSubmissionsEachArriveExactlyOnce() throws {
        let threads = 4
        let perThread = 1_000
        let bench = Bench(configuration: SchedulerConfiguration(queueCapacity: threads * perThread))
        let base = bench.now
        let scheduler = bench.scheduler
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let accepted = scheduler.stopAll(at: MonotonicInstant(nanoseconds: base + Int64(thread * perThread + index)))
                precondition(accepted, "the queue is large enough for every submission")
            }
        }
        bench.run(to: base + Int64(threads * perThread))
        let deadlines = bench.output.recorded.map(\.deadline)
        #expect(deadlines == (0..<Int64(threads * perThread)).map { base + $0 })
        #expect(bench.output.recorded.allSatisfy { $0.command == .stop })
        #expect(bench.scheduler.statistics.submitted == threads * perThread)
        #expect(bench.scheduler.statistics.dropped == 0)
    }

    @Test func submissionsForAReleasedPlayerAreIgnored() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(rumbleProgram([(0, 100, 200)], duration: 50 * ms))
        bench.scheduler.start(player, at: bench.at(t0))
        bench.run(to: t0)
        bench.scheduler.releasePlayer(player)
        bench.scheduler.start(player, at: bench.at(t0 + 2 * ms))
        bench.runOnDeadlines(until: t0 + 200 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0, now: t0),
            Emission(.stop, deadline: t0, now: t0),
        ])
        #expect(bench.scheduler.statistics.ignored == 1)
    }

    @Test func aReusedPlayerSlotStartsWithFreshSettings() throws {
        let bench = Bench()
        let t0 = bench.now
        let program = try bench.scheduler.load(rumbleProgram([(0, 100, 200), (10 * ms, 300, 400)], duration: 20 * ms))
        let old = try bench.scheduler.makePlayer(program: program, channel: bench.channel)
        bench.scheduler.setRate(old, 2, at: bench.at(t0))
        bench.scheduler.process()
        bench.scheduler.releasePlayer(old)
        let new = try bench.scheduler.makePlayer(program: program, channel: bench.channel)
        #expect(new != old)
        bench.scheduler.start(new, at: bench.at(t0))
        bench.runOnDeadlines(until: t0 + 100 * ms)
        #expect(bench.output.recorded.map(\.deadline) == [t0, t0 + 10 * ms, t0 + 20 * ms])
    }
}
