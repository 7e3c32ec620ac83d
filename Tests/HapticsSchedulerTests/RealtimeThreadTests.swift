import Glibc
import Testing
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

@Suite("Realtime thread")
struct RealtimeThreadTests {
    @Test func playsOnTimeAndLeavesEveryChannelSilent() throws {
        let scheduler = Scheduler(clock: SystemMonotonicClock())
        let outputs = [RecordingActuator(), RecordingActuator()]
        let channels = try outputs.map { try scheduler.addChannel(output: $0, profile: testRumble, policy: .replace) }
        let program = try scheduler.load(rumbleProgram([(0, 100, 200), (2 * ms, 300, 400), (4 * ms, 500, 600)], duration: 6 * ms))
        let players = try channels.map { try scheduler.makePlayer(program: program, channel: $0) }
        try scheduler.startRealtimeThread()
        #expect(scheduler.isRealtimeThreadRunning)
        #expect(throws: SchedulerError.realtimeThreadAlreadyRunning) { try scheduler.startRealtimeThread() }
        #expect(threadNames().contains("haptics-rt"))

        let start = scheduler.clock.now().advanced(by: 2 * ms)
        for player in players { #expect(scheduler.start(player, at: start)) }
        let finished = waitUntil { outputs.allSatisfy { $0.recorded.count >= 4 } }
        #expect(finished)
        scheduler.stopRealtimeThread()
        #expect(scheduler.isRealtimeThreadRunning == false)

        let t0 = start.nanoseconds
        for (index, output) in outputs.enumerated() {
            let recorded = output.recorded
            #expect(recorded.map(\.command) == [
                .rumble(strong: 100, weak: 200), .rumble(strong: 300, weak: 400), .rumble(strong: 500, weak: 600), .stop, .stop,
            ])
            #expect(recorded.prefix(4).map(\.deadlineNanoseconds) == [t0, t0 + 2 * ms, t0 + 4 * ms, t0 + 6 * ms])
            #expect(recorded.allSatisfy { $0.channel == index && $0.nowNanoseconds >= $0.deadlineNanoseconds })
            #expect(recorded.last?.command == .stop)
        }
        let statistics = scheduler.statistics
        #expect(statistics.realtimeThread != nil)
        #expect(statistics.realtimeThread?.timerSlack == .nanoseconds(1))
        // Woken at least once (the submission); a thread held off the processor past the last
        // deadline does everything in one pass, so no more is certain.
        #expect(statistics.wakeUps >= 1)
    }

    @Test func aSubmissionWakesTheThreadSleepingTowardsALaterDeadline() throws {
        let scheduler = Scheduler(clock: SystemMonotonicClock())
        let output = RecordingActuator()
        let channel = try scheduler.addChannel(output: output, profile: testRumble)
        // The thread's next deadline is this program's stop, 10 minutes away.
        let program = try scheduler.load(rumbleProgram([(0, 100, 200)], duration: 600_000 * ms))
        let player = try scheduler.makePlayer(program: program, channel: channel)
        try scheduler.startRealtimeThread()
        defer { scheduler.stopRealtimeThread() }
        scheduler.start(player, at: scheduler.clock.now())
        #expect(waitUntil { output.recorded.count == 1 })
        let stopAt = scheduler.clock.now()
        scheduler.stop(player, at: stopAt)
        #expect(waitUntil { output.recorded.count == 2 })
        let recorded = output.recorded
        #expect(recorded.map(\.command) == [.rumble(strong: 100, weak: 200), .stop])
        #expect(recorded.last?.deadlineNanoseconds == stopAt.nanoseconds)
    }

    @Test func stoppingTheThreadSilencesAProgramStillPlaying() throws {
        let scheduler = Scheduler(clock: SystemMonotonicClock())
        let output = RecordingActuator()
        let channel = try scheduler.addChannel(output: output, profile: testRumble)
        let program = try scheduler.load(rumbleProgram([(0, 100, 200)], duration: 60_000 * ms))
        let player = try scheduler.makePlayer(program: program, channel: channel)
        try scheduler.startRealtimeThread()
        scheduler.start(player, at: scheduler.clock.now())
        #expect(waitUntil { output.recorded.count >= 1 })
        scheduler.stopRealtimeThread()
        #expect(output.recorded.map(\.command) == [.rumble(strong: 100, weak: 200), .stop])
    }
}
