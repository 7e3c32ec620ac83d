import Testing
import HapticsRendering
@testable import HapticsScheduler

@Suite("Playback on a manual clock")
struct PlaybackTests {
    let twoLevels = rumbleProgram([(0, 100, 200), (10 * ms, 300, 400)], duration: 20 * ms)
    let threeLevels = rumbleProgram([(0, 100, 200), (10 * ms, 300, 400), (30 * ms, 500, 600)], duration: 40 * ms)

    @Test func emitsEveryCommandAtItsDeadline() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(twoLevels)
        #expect(bench.scheduler.start(player, at: bench.at(t0)))
        bench.runOnDeadlines(until: t0 + 100 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0, now: t0),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 10 * ms, now: t0 + 10 * ms),
            Emission(.stop, deadline: t0 + 20 * ms, now: t0 + 20 * ms),
        ])
        #expect(bench.scheduler.process() == nil)
        let statistics = bench.scheduler.statistics
        #expect(statistics.emitted == 3)
        #expect(statistics.submitted == 1)
        #expect(statistics.maximumLateness == 0)
    }

    @Test func lateProcessingEmitsWithTheOriginalDeadlines() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(twoLevels)
        bench.scheduler.start(player, at: bench.at(t0))
        #expect(bench.run(to: t0 + 15 * ms) == t0 + 20 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0, now: t0 + 15 * ms),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 10 * ms, now: t0 + 15 * ms),
        ])
        #expect(bench.scheduler.statistics.maximumLateness == 15 * ms)
    }

    @Test func startInTheFutureWaitsForItsInstant() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(twoLevels)
        bench.scheduler.start(player, at: bench.at(t0 + 50 * ms))
        #expect(bench.run(to: t0) == t0 + 50 * ms)
        #expect(bench.run(to: t0 + 50 * ms - 1) == t0 + 50 * ms)
        #expect(bench.output.recorded.isEmpty)
        #expect(bench.run(to: t0 + 50 * ms) == t0 + 60 * ms)
        #expect(bench.output.recorded == [Emission(.rumble(strong: 100, weak: 200), deadline: t0 + 50 * ms, now: t0 + 50 * ms)])
    }

    @Test func stopAtSilencesAndSkipsTheRest() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(twoLevels)
        bench.scheduler.start(player, at: bench.at(t0))
        bench.scheduler.stop(player, at: bench.at(t0 + 5 * ms))
        bench.runOnDeadlines(until: t0 + 100 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0, now: t0),
            Emission(.stop, deadline: t0 + 5 * ms, now: t0 + 5 * ms),
        ])
    }

    @Test func stoppingAStoppedPlayerSendsNothing() throws {
        let bench = Bench()
        let player = try bench.player(twoLevels)
        bench.scheduler.stop(player, at: bench.at(bench.now))
        #expect(bench.scheduler.process() == nil)
        #expect(bench.output.recorded.isEmpty)
    }

    @Test func loopWrapsExactlyAtTheDuration() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(twoLevels)
        bench.scheduler.setLoop(player, true, at: bench.at(t0))
        bench.scheduler.start(player, at: bench.at(t0))
        bench.scheduler.setLoop(player, false, at: bench.at(t0 + 45 * ms))
        bench.runOnDeadlines(until: t0 + 200 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0, now: t0),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 10 * ms, now: t0 + 10 * ms),
            Emission(.rumble(strong: 100, weak: 200), deadline: t0 + 20 * ms, now: t0 + 20 * ms),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 30 * ms, now: t0 + 30 * ms),
            Emission(.rumble(strong: 100, weak: 200), deadline: t0 + 40 * ms, now: t0 + 40 * ms),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 50 * ms, now: t0 + 50 * ms),
            Emission(.stop, deadline: t0 + 60 * ms, now: t0 + 60 * ms),
        ])
    }

    @Test func seekWhilePlayingJumpsToTheLevelInEffect() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(threeLevels)
        bench.scheduler.start(player, at: bench.at(t0))
        bench.scheduler.seek(player, to: 15 * ms, at: bench.at(t0 + 5 * ms))
        bench.runOnDeadlines(until: t0 + 100 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0, now: t0),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 5 * ms, now: t0 + 5 * ms),
            Emission(.rumble(strong: 500, weak: 600), deadline: t0 + 20 * ms, now: t0 + 20 * ms),
            Emission(.stop, deadline: t0 + 30 * ms, now: t0 + 30 * ms),
        ])
    }

    @Test func seekWhileStoppedChoosesWhereTheNextStartBegins() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(threeLevels)
        bench.scheduler.seek(player, to: 10 * ms, at: bench.at(t0))
        bench.scheduler.start(player, at: bench.at(t0 + 1 * ms))
        bench.runOnDeadlines(until: t0 + 100 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 1 * ms, now: t0 + 1 * ms),
            Emission(.rumble(strong: 500, weak: 600), deadline: t0 + 21 * ms, now: t0 + 21 * ms),
            Emission(.stop, deadline: t0 + 31 * ms, now: t0 + 31 * ms),
        ])
    }

    @Test func seekToTheEndFinishesInSilence() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(threeLevels)
        bench.scheduler.start(player, at: bench.at(t0))
        bench.scheduler.seek(player, to: 90 * ms, at: bench.at(t0 + 2 * ms))
        bench.runOnDeadlines(until: t0 + 100 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0, now: t0),
            Emission(.stop, deadline: t0 + 2 * ms, now: t0 + 2 * ms),
        ])
    }

    @Test func rateTwoHalvesEveryOffset() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(threeLevels)
        bench.scheduler.setRate(player, 2.0, at: bench.at(t0))
        bench.scheduler.start(player, at: bench.at(t0))
        bench.runOnDeadlines(until: t0 + 100 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0, now: t0),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 5 * ms, now: t0 + 5 * ms),
            Emission(.rumble(strong: 500, weak: 600), deadline: t0 + 15 * ms, now: t0 + 15 * ms),
            Emission(.stop, deadline: t0 + 20 * ms, now: t0 + 20 * ms),
        ])
    }

    @Test func rateChangeWhilePlayingAppliesFromItsInstant() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(threeLevels)
        bench.scheduler.start(player, at: bench.at(t0))
        bench.scheduler.setRate(player, 2.0, at: bench.at(t0 + 10 * ms))
        bench.runOnDeadlines(until: t0 + 100 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0, now: t0),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 10 * ms, now: t0 + 10 * ms),
            Emission(.rumble(strong: 500, weak: 600), deadline: t0 + 20 * ms, now: t0 + 20 * ms),
            Emission(.stop, deadline: t0 + 25 * ms, now: t0 + 25 * ms),
        ])
    }

    @Test func loopingAtHalfRateWrapsAtTwiceTheDuration() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(twoLevels)
        bench.scheduler.setRate(player, 0.5, at: bench.at(t0))
        bench.scheduler.setLoop(player, true, at: bench.at(t0))
        bench.scheduler.start(player, at: bench.at(t0))
        bench.scheduler.stop(player, at: bench.at(t0 + 50 * ms))
        bench.runOnDeadlines(until: t0 + 200 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0, now: t0),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 20 * ms, now: t0 + 20 * ms),
            Emission(.rumble(strong: 100, weak: 200), deadline: t0 + 40 * ms, now: t0 + 40 * ms),
            Emission(.stop, deadline: t0 + 50 * ms, now: t0 + 50 * ms),
        ])
    }

    @Test func startingAPlayingPlayerRestartsIt() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(twoLevels)
        bench.scheduler.start(player, at: bench.at(t0))
        bench.scheduler.start(player, at: bench.at(t0 + 15 * ms))
        bench.runOnDeadlines(until: t0 + 100 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0, now: t0),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 10 * ms, now: t0 + 10 * ms),
            Emission(.rumble(strong: 100, weak: 200), deadline: t0 + 15 * ms, now: t0 + 15 * ms),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 25 * ms, now: t0 + 25 * ms),
            Emission(.stop, deadline: t0 + 35 * ms, now: t0 + 35 * ms),
        ])
    }

    @Test func aProgramWithoutTrailingStopStillEndsInSilence() throws {
        let bench = Bench()
        let t0 = bench.now
        let program = Program(
            profileName: "test-rumble",
            commands: [TimedCommand(offset: 0, intensity: 1, sharpness: 0.5, command: .rumble(strong: 7, weak: 8))],
            duration: 12 * ms, leadTime: 0)
        let player = try bench.player(program)
        bench.scheduler.start(player, at: bench.at(t0))
        bench.runOnDeadlines(until: t0 + 100 * ms)
        #expect(bench.output.recorded == [
            Emission(.rumble(strong: 7, weak: 8), deadline: t0, now: t0),
            Emission(.stop, deadline: t0 + 12 * ms, now: t0 + 12 * ms),
        ])
    }
}
