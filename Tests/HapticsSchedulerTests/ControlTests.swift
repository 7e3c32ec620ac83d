import HapticsSystem
import Testing
import HapticsRendering
@testable import HapticsScheduler
import HapticsTestSupport

@Suite("Control side: programs, players, channels")
struct ControlTests {
    @Test func aProgramInUseCannotBeUnloaded() throws {
        let rig = SchedulerRig()
        let program = try rig.scheduler.load(rumbleProgram([(0, 1, 1)], duration: 10 * ms))
        let player = try rig.scheduler.makePlayer(program: program, channel: rig.channel)
        #expect(rig.scheduler.unload(program) == false)
        #expect(rig.scheduler.isLoaded(program))
        rig.scheduler.releasePlayer(player)
        #expect(rig.scheduler.unload(program))
        #expect(rig.scheduler.isLoaded(program) == false)
        #expect(rig.scheduler.unload(program) == false)
        #expect(throws: SchedulerError.unknownProgram(program)) {
            try rig.scheduler.makePlayer(program: program, channel: rig.channel)
        }
    }

    @Test func aPlayingProgramIsFreedOnlyAfterItsPlayerRetired() throws {
        let rig = SchedulerRig(configuration: SchedulerConfiguration(maximumPrograms: 1))
        let t0 = rig.nowNanoseconds
        let program = try rig.scheduler.load(rumbleProgram([(0, 1, 1)], duration: 10 * ms))
        let player = try rig.scheduler.makePlayer(program: program, channel: rig.channel)
        rig.scheduler.start(player, at: rig.at(t0))
        rig.run(to: t0)
        rig.scheduler.releasePlayer(player)
        #expect(rig.scheduler.unload(program))
        // The processing side still reads it until the next pass retires the player.
        #expect(throws: SchedulerError.tooManyPrograms(maximum: 1)) {
            try rig.scheduler.load(rumbleProgram([(0, 2, 2)], duration: 10 * ms))
        }
        rig.run(to: t0 + 1 * ms)
        let reloaded = try rig.scheduler.load(rumbleProgram([(0, 2, 2)], duration: 10 * ms))
        #expect(reloaded != program)
        #expect(rig.output.recorded.map(\.command) == [.rumble(strong: 1, weak: 1), .stop])
    }

    @Test func capacitiesAreEnforcedWithTypedErrors() throws {
        let rig = SchedulerRig(configuration: SchedulerConfiguration(maximumPrograms: 2, maximumPlayers: 1))
        let program = try rig.scheduler.load(rumbleProgram([], duration: 0))
        _ = try rig.scheduler.load(rumbleProgram([], duration: 0))
        #expect(throws: SchedulerError.tooManyPrograms(maximum: 2)) {
            try rig.scheduler.load(rumbleProgram([], duration: 0))
        }
        _ = try rig.scheduler.makePlayer(program: program, channel: rig.channel)
        #expect(throws: SchedulerError.tooManyPlayers(maximum: 1)) {
            try rig.scheduler.makePlayer(program: program, channel: rig.channel)
        }
        #expect(throws: SchedulerError.unknownChannel(ChannelID(rawValue: 3))) {
            try rig.scheduler.makePlayer(program: program, channel: ChannelID(rawValue: 3))
        }
    }

    @Test func errorsDescribeThemselves() {
        #expect(SchedulerError.tooManyPrograms(maximum: 2).description == "scheduler: all 2 program slots are in use")
        #expect(SchedulerError.unknownChannel(ChannelID(rawValue: 3)).description == "scheduler: channel 3 does not exist")
        #expect(SchedulerError.threadCreationFailed(errno: .wouldBlock).description == "scheduler: pthread_create failed: EAGAIN (Resource temporarily unavailable)")
    }

    @Test func aTraceFollowsEachSubmissionThroughItsStages() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        rig.scheduler.startTracing()
        rig.scheduler.start(player, at: rig.at(t0 + 2 * ms))
        rig.clock.advance(by: .milliseconds(1))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        var trace: [TraceRecord] = []
        #expect(rig.scheduler.drainTrace(into: &trace) == 4)
        let thread = ThreadIdentity.current
        #expect(trace == [
            TraceRecord(event: .submitted, channel: -1, player: 0, command: .stop,
                        deadline: rig.at(t0 + 2 * ms), time: rig.at(t0), sequence: 1, thread: thread),
            TraceRecord(event: .dequeued, channel: -1, player: 0, command: .stop,
                        deadline: rig.at(t0 + 2 * ms), time: rig.at(t0 + 1 * ms), sequence: 1, thread: thread),
            TraceRecord(event: .emitted, channel: 0, player: 0, command: .rumble(strong: 100, weak: 200),
                        deadline: rig.at(t0 + 2 * ms), time: rig.at(t0 + 2 * ms), sequence: 1, thread: thread),
            // A program's later steps follow no submission.
            TraceRecord(event: .emitted, channel: 0, player: 0, command: .stop,
                        deadline: rig.at(t0 + 12 * ms), time: rig.at(t0 + 12 * ms), thread: thread),
        ])
        #expect(rig.scheduler.drainTrace(into: &trace) == 0)
    }

    @Test func aStartThatReplacesAnotherPlayerFollowsItsSubmissionThroughTheStopToItsLevel() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let first = try rig.player(rumbleProgram([(0, 100, 200)], duration: 50 * ms))
        let second = try rig.player(rumbleProgram([(0, 300, 400)], duration: 50 * ms))
        rig.scheduler.startTracing()
        rig.scheduler.start(first, at: rig.at(t0))
        rig.run(to: t0)
        rig.scheduler.start(second, at: rig.at(t0 + 10 * ms))
        rig.run(to: t0 + 10 * ms)
        #expect(rig.output.recorded.map(\.command) == [.rumble(strong: 100, weak: 200), .stop, .rumble(strong: 300, weak: 400)])
        var trace: [TraceRecord] = []
        rig.scheduler.drainTrace(into: &trace)
        let writes = trace.filter { $0.event == .emitted }
        #expect(writes.map(\.sequence) == [1, 2, 2])
    }

    @Test func notTracingRecordsNothing() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        rig.scheduler.start(player, at: rig.at(t0))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        rig.scheduler.startTracing()
        rig.scheduler.stopTracing()
        rig.scheduler.start(player, at: rig.at(t0 + 100 * ms))
        rig.runOnDeadlines(until: t0 + 200 * ms)
        var trace: [TraceRecord] = []
        #expect(rig.scheduler.drainTrace(into: &trace) == 0)
        #expect(rig.scheduler.makeTraceSequence() == 0)
        #expect(rig.output.recorded.count == 4)
    }

    @Test func aFullTraceCountsLostRecords() throws {
        let rig = SchedulerRig(configuration: SchedulerConfiguration(traceCapacity: 2))
        let t0 = rig.nowNanoseconds
        rig.scheduler.startTracing()
        for offset in 0..<3 { rig.scheduler.stopAll(at: rig.at(t0 + Int64(offset))) }
        var trace: [TraceRecord] = []
        #expect(rig.scheduler.drainTrace(into: &trace) == 2)
        #expect(trace.map(\.event) == [.submitted, .submitted])
        #expect(trace.map(\.deadline) == [rig.at(t0), rig.at(t0 + 1)])
        #expect(rig.scheduler.statistics.traceOverflows == 1)
    }
}
