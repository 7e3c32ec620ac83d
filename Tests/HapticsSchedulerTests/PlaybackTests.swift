import Testing
import HapticsRendering
@testable import HapticsScheduler
import HapticsTestSupport

@Suite("Playback on a manual clock")
struct PlaybackTests {
    let twoLevels = rumbleProgram([(0, 100, 200), (10 * ms, 300, 400)], duration: 20 * ms)
    let threeLevels = rumbleProgram([(0, 100, 200), (10 * ms, 300, 400), (30 * ms, 500, 600)], duration: 40 * ms)

    @Test func emitsEveryCommandAtItsDeadline() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        #expect(rig.scheduler.start(player, at: rig.at(t0)))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 20 * ms, nowNanoseconds: t0 + 20 * ms),
        ])
        #expect(rig.scheduler.process() == nil)
        let statistics = rig.scheduler.statistics
        #expect(statistics.emitted == 3)
        #expect(statistics.submitted == 1)
        #expect(statistics.maximumLateness == .zero)
    }

    @Test func lateProcessingEmitsWithTheOriginalDeadlines() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        rig.scheduler.start(player, at: rig.at(t0))
        #expect(rig.run(to: t0 + 15 * ms) == t0 + 20 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0 + 15 * ms),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 15 * ms),
        ])
        #expect(rig.scheduler.statistics.maximumLateness == .milliseconds(15))
    }

    @Test func startInTheFutureWaitsForItsInstant() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        rig.scheduler.start(player, at: rig.at(t0 + 50 * ms))
        #expect(rig.run(to: t0) == t0 + 50 * ms)
        #expect(rig.run(to: t0 + 50 * ms - 1) == t0 + 50 * ms)
        #expect(rig.output.recorded.isEmpty)
        #expect(rig.run(to: t0 + 50 * ms) == t0 + 60 * ms)
        #expect(rig.output.recorded == [Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0 + 50 * ms, nowNanoseconds: t0 + 50 * ms)])
    }

    @Test func stopAtSilencesAndSkipsTheRest() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        rig.scheduler.start(player, at: rig.at(t0))
        rig.scheduler.stop(player, at: rig.at(t0 + 5 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
        ])
    }

    @Test func stoppingAStoppedPlayerSendsNothing() throws {
        let rig = SchedulerRig()
        let player = try rig.player(twoLevels)
        rig.scheduler.stop(player, at: rig.at(rig.nowNanoseconds))
        #expect(rig.scheduler.process() == nil)
        #expect(rig.output.recorded.isEmpty)
    }

    @Test func loopWrapsExactlyAtTheDuration() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        rig.scheduler.setLoop(player, true, at: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0))
        rig.scheduler.setLoop(player, false, at: rig.at(t0 + 45 * ms))
        rig.runOnDeadlines(until: t0 + 200 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0 + 20 * ms, nowNanoseconds: t0 + 20 * ms),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 30 * ms, nowNanoseconds: t0 + 30 * ms),
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0 + 40 * ms, nowNanoseconds: t0 + 40 * ms),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 50 * ms, nowNanoseconds: t0 + 50 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 60 * ms, nowNanoseconds: t0 + 60 * ms),
        ])
    }

    @Test func seekWhilePlayingJumpsToTheLevelInEffect() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(threeLevels)
        rig.scheduler.start(player, at: rig.at(t0))
        rig.scheduler.seek(player, to: .milliseconds(15), at: rig.at(t0 + 5 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
            Emission(.rumble(strong: 500, weak: 600), deadlineNanoseconds: t0 + 20 * ms, nowNanoseconds: t0 + 20 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 30 * ms, nowNanoseconds: t0 + 30 * ms),
        ])
    }

    @Test func seekWhileStoppedChoosesWhereTheNextStartBegins() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(threeLevels)
        rig.scheduler.seek(player, to: .milliseconds(10), at: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0 + 1 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 1 * ms, nowNanoseconds: t0 + 1 * ms),
            Emission(.rumble(strong: 500, weak: 600), deadlineNanoseconds: t0 + 21 * ms, nowNanoseconds: t0 + 21 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 31 * ms, nowNanoseconds: t0 + 31 * ms),
        ])
    }

    @Test func seekToTheEndFinishesInSilence() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(threeLevels)
        rig.scheduler.start(player, at: rig.at(t0))
        rig.scheduler.seek(player, to: .milliseconds(90), at: rig.at(t0 + 2 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 + 2 * ms, nowNanoseconds: t0 + 2 * ms),
        ])
    }

    @Test func rateTwoHalvesEveryOffset() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(threeLevels)
        try rig.scheduler.setRate(player, 2.0, at: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
            Emission(.rumble(strong: 500, weak: 600), deadlineNanoseconds: t0 + 15 * ms, nowNanoseconds: t0 + 15 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 20 * ms, nowNanoseconds: t0 + 20 * ms),
        ])
    }

    @Test func rateChangeWhilePlayingAppliesFromItsInstant() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(threeLevels)
        rig.scheduler.start(player, at: rig.at(t0))
        try rig.scheduler.setRate(player, 2.0, at: rig.at(t0 + 10 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
            Emission(.rumble(strong: 500, weak: 600), deadlineNanoseconds: t0 + 20 * ms, nowNanoseconds: t0 + 20 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 25 * ms, nowNanoseconds: t0 + 25 * ms),
        ])
    }

    @Test func loopingAtHalfRateWrapsAtTwiceTheDuration() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        try rig.scheduler.setRate(player, 0.5, at: rig.at(t0))
        rig.scheduler.setLoop(player, true, at: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0))
        rig.scheduler.stop(player, at: rig.at(t0 + 50 * ms))
        rig.runOnDeadlines(until: t0 + 200 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 20 * ms, nowNanoseconds: t0 + 20 * ms),
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0 + 40 * ms, nowNanoseconds: t0 + 40 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 50 * ms, nowNanoseconds: t0 + 50 * ms),
        ])
    }

    @Test func startingAPlayingPlayerRestartsIt() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        rig.scheduler.start(player, at: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0 + 15 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0 + 15 * ms, nowNanoseconds: t0 + 15 * ms),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 25 * ms, nowNanoseconds: t0 + 25 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 35 * ms, nowNanoseconds: t0 + 35 * ms),
        ])
    }

    @Test func aProgramWithoutTrailingStopStillEndsInSilence() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let program = Program(
            profileName: "test-rumble",
            commands: [TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0.5, command: .rumble(strong: 7, weak: 8))],
            durationNanoseconds: 12_000_000, leadTimeNanoseconds: 0)
        let player = try rig.player(program)
        rig.scheduler.start(player, at: rig.at(t0))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 7, weak: 8), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 + 12 * ms, nowNanoseconds: t0 + 12 * ms),
        ])
    }
}
