import Testing
import HapticsRendering
import HapticsSystem
@testable import HapticsScheduler
import HapticsTestSupport

@Suite("Overlap policies")
struct OverlapPolicyTests {
    @Test func replaceSilencesAndRetiresThePreviousPlayer() throws {
        let rig = SchedulerRig(policy: .replace)
        let t0 = rig.nowNanoseconds
        let first = try rig.player(rumbleProgram([(0, 100, 200)], duration: 50 * ms))
        let second = try rig.player(rumbleProgram([(5 * ms, 1_000, 2_000)], duration: 50 * ms))
        rig.scheduler.start(first, at: rig.at(t0))
        rig.scheduler.start(second, at: rig.at(t0 + 10 * ms))
        rig.runOnDeadlines(until: t0 + 200 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
            Emission(.rumble(strong: 1_000, weak: 2_000), deadlineNanoseconds: t0 + 15 * ms, nowNanoseconds: t0 + 15 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 60 * ms, nowNanoseconds: t0 + 60 * ms),
        ])
    }

    @Test func mixSumsLevelsPerMotorWithSaturation() throws {
        let rig = SchedulerRig(policy: .mix)
        let t0 = rig.nowNanoseconds
        let long = try rig.player(rumbleProgram([(0, 40_000, 100)], duration: 50 * ms))
        let short = try rig.player(rumbleProgram([(0, 40_000, 200)], duration: 30 * ms))
        rig.scheduler.start(long, at: rig.at(t0))
        rig.scheduler.start(short, at: rig.at(t0 + 10 * ms))
        rig.runOnDeadlines(until: t0 + 200 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 40_000, weak: 100), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 65_535, weak: 300), deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
            Emission(.rumble(strong: 40_000, weak: 100), deadlineNanoseconds: t0 + 40 * ms, nowNanoseconds: t0 + 40 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 50 * ms, nowNanoseconds: t0 + 50 * ms),
        ])
    }

    @Test func mixStopOfOnePlayerKeepsTheOther() throws {
        let rig = SchedulerRig(policy: .mix)
        let t0 = rig.nowNanoseconds
        let a = try rig.player(rumbleProgram([(0, 1_000, 0)], duration: 50 * ms))
        let b = try rig.player(rumbleProgram([(0, 0, 2_000)], duration: 50 * ms))
        rig.scheduler.start(a, at: rig.at(t0))
        rig.scheduler.start(b, at: rig.at(t0))
        rig.scheduler.stop(a, at: rig.at(t0 + 5 * ms))
        rig.scheduler.stop(b, at: rig.at(t0 + 7 * ms))
        rig.runOnDeadlines(until: t0 + 200 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 1_000, weak: 0), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 1_000, weak: 2_000), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 0, weak: 2_000), deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 7 * ms, nowNanoseconds: t0 + 7 * ms),
        ])
    }

    @Test func mixOfSignedLevelsSaturatesAtTheKernelRange() {
        #expect(ActuatorCommand.saturatingSum(Int16(30_000), Int16(10_000)) == 32_767)
        #expect(ActuatorCommand.saturatingSum(Int16(-30_000), Int16(-10_000)) == -32_768)
        #expect(ActuatorCommand.saturatingSum(Int16(-300), Int16(100)) == -200)
        #expect(ActuatorCommand.saturatingSum(UInt16(65_000), UInt16(1_000)) == 65_535)
    }

    @Test func dropStaleDropsLateLevelsButNeverStops() throws {
        let rig = SchedulerRig(policy: .dropStale(maximumLateness: .milliseconds(2)))
        let t0 = rig.nowNanoseconds
        let player = try rig.player(rumbleProgram([(0, 100, 200), (10 * ms, 300, 400), (20 * ms, 500, 600)], duration: 30 * ms))
        rig.scheduler.startTracing()
        rig.scheduler.start(player, at: rig.at(t0))
        rig.run(to: t0)
        rig.run(to: t0 + 12 * ms)
        rig.run(to: t0 + 25 * ms)
        rig.run(to: t0 + 40 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 12 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 30 * ms, nowNanoseconds: t0 + 40 * ms),
        ])
        #expect(rig.scheduler.statistics.droppedStale == 1)
        var trace: [TraceRecord] = []
        rig.scheduler.drainTrace(into: &trace)
        #expect(trace.filter { $0.event == .droppedStale } == [
            TraceRecord(event: .droppedStale, channel: 0, player: 0, command: .rumble(strong: 500, weak: 600),
                        deadline: rig.at(t0 + 20 * ms), time: rig.at(t0 + 25 * ms), thread: ThreadIdentity.current),
        ])
    }

    @Test func dropStaleDropsTheLevelOfALateStart() throws {
        let rig = SchedulerRig(policy: .dropStale(maximumLateness: .milliseconds(2)))
        let t0 = rig.nowNanoseconds
        let player = try rig.player(rumbleProgram([(0, 100, 200), (10 * ms, 300, 400)], duration: 20 * ms))
        rig.scheduler.start(player, at: rig.at(t0))
        rig.run(to: t0 + 5 * ms)
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 20 * ms, nowNanoseconds: t0 + 20 * ms),
        ])
        #expect(rig.scheduler.statistics.droppedStale == 1)
    }

    @Test func dropStaleReplacesLikeReplace() throws {
        let rig = SchedulerRig(policy: .dropStale(maximumLateness: .milliseconds(1)))
        let t0 = rig.nowNanoseconds
        let first = try rig.player(rumbleProgram([(0, 100, 200)], duration: 50 * ms))
        let second = try rig.player(rumbleProgram([(0, 9, 9)], duration: 5 * ms))
        rig.scheduler.start(first, at: rig.at(t0))
        rig.scheduler.start(second, at: rig.at(t0 + 1 * ms))
        rig.runOnDeadlines(until: t0 + 200 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 + 1 * ms, nowNanoseconds: t0 + 1 * ms),
            Emission(.rumble(strong: 9, weak: 9), deadlineNanoseconds: t0 + 1 * ms, nowNanoseconds: t0 + 1 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 6 * ms, nowNanoseconds: t0 + 6 * ms),
        ])
    }
}
