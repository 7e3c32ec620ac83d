import Testing
import HapticsRendering
@testable import HapticsScheduler

@Suite("Control side: programs, players, channels")
struct ControlTests {
    @Test func aProgramInUseCannotBeUnloaded() throws {
        let bench = Bench()
        let program = try bench.scheduler.load(rumbleProgram([(0, 1, 1)], duration: 10 * ms))
        let player = try bench.scheduler.makePlayer(program: program, channel: bench.channel)
        #expect(bench.scheduler.unload(program) == false)
        #expect(bench.scheduler.isLoaded(program))
        bench.scheduler.releasePlayer(player)
        #expect(bench.scheduler.unload(program))
        #expect(bench.scheduler.isLoaded(program) == false)
        #expect(bench.scheduler.unload(program) == false)
        #expect(throws: SchedulerError.unknownProgram(program)) {
            try bench.scheduler.makePlayer(program: program, channel: bench.channel)
        }
    }

    @Test func aPlayingProgramIsFreedOnlyAfterItsPlayerRetired() throws {
        let bench = Bench(configuration: SchedulerConfiguration(maximumPrograms: 1))
        let t0 = bench.now
        let program = try bench.scheduler.load(rumbleProgram([(0, 1, 1)], duration: 10 * ms))
        let player = try bench.scheduler.makePlayer(program: program, channel: bench.channel)
        bench.scheduler.start(player, at: bench.at(t0))
        bench.run(to: t0)
        bench.scheduler.releasePlayer(player)
        #expect(bench.scheduler.unload(program))
        // The processing side still reads it until the next pass retires the player.
        #expect(throws: SchedulerError.tooManyPrograms(maximum: 1)) {
            try bench.scheduler.load(rumbleProgram([(0, 2, 2)], duration: 10 * ms))
        }
        bench.run(to: t0 + 1 * ms)
        let reloaded = try bench.scheduler.load(rumbleProgram([(0, 2, 2)], duration: 10 * ms))
        #expect(reloaded != program)
        #expect(bench.output.recorded.map(\.command) == [.rumble(strong: 1, weak: 1), .stop])
    }

    @Test func capacitiesAreEnforcedWithTypedErrors() throws {
        let bench = Bench(configuration: SchedulerConfiguration(maximumPrograms: 2, maximumPlayers: 1))
        let program = try bench.scheduler.load(rumbleProgram([], duration: 0))
        _ = try bench.scheduler.load(rumbleProgram([], duration: 0))
        #expect(throws: SchedulerError.tooManyPrograms(maximum: 2)) {
            try bench.scheduler.load(rumbleProgram([], duration: 0))
        }
        _ = try bench.scheduler.makePlayer(program: program, channel: bench.channel)
        #expect(throws: SchedulerError.tooManyPlayers(maximum: 1)) {
            try bench.scheduler.makePlayer(program: program, channel: bench.channel)
        }
        #expect(throws: SchedulerError.unknownChannel(ChannelID(rawValue: 3))) {
            try bench.scheduler.makePlayer(program: program, channel: ChannelID(rawValue: 3))
        }
    }

    @Test func errorsDescribeThemselves() {
        #expect(SchedulerError.tooManyPrograms(maximum: 2).description == "scheduler: all 2 program slots are in use")
        #expect(SchedulerError.unknownChannel(ChannelID(rawValue: 3)).description == "scheduler: channel 3 does not exist")
        #expect(SchedulerError.threadCreationFailed(errno: 11).description == "scheduler: pthread_create failed (errno 11)")
    }

    @Test func traceRecordsEveryEmission() throws {
        let bench = Bench()
        let t0 = bench.now
        let player = try bench.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        bench.scheduler.start(player, at: bench.at(t0))
        bench.runOnDeadlines(until: t0 + 100 * ms)
        var trace: [TraceRecord] = []
        #expect(bench.scheduler.drainTrace(into: &trace) == 2)
        #expect(trace == [
            TraceRecord(event: .emitted, channel: 0, player: 0, command: .rumble(strong: 100, weak: 200), deadline: t0, time: t0),
            TraceRecord(event: .emitted, channel: 0, player: 0, command: .stop, deadline: t0 + 10 * ms, time: t0 + 10 * ms),
        ])
        #expect(bench.scheduler.drainTrace(into: &trace) == 0)
    }

    @Test func aFullTraceCountsLostRecords() throws {
        let bench = Bench(configuration: SchedulerConfiguration(traceCapacity: 2))
        let t0 = bench.now
        for offset in 0..<3 { bench.scheduler.stopAll(at: bench.at(t0 + Int64(offset))) }
        bench.run(to: t0 + 3)
        var trace: [TraceRecord] = []
        #expect(bench.scheduler.drainTrace(into: &trace) == 2)
        #expect(trace.map(\.deadline) == [t0, t0 + 1])
        #expect(bench.scheduler.statistics.traceOverflows == 1)
    }
}
