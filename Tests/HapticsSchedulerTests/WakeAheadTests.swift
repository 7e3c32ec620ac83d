import Testing
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

/// Records each command it performs with its deadline and this actuator's own reading of the
/// clock — not the scheduler's `now` — so that a write before its deadline shows whatever the
/// scheduler believes.
final class ClockReadingActuator: Actuator {
    let emissions = Recorder<Emission>(reservingCapacity: 256)

    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        emissions.append(Emission(command, channel: channel.rawValue, deadlineNanoseconds: deadline.nanoseconds,
                                  nowNanoseconds: SystemMonotonicClock().now().nanoseconds))
    }
}

@Suite("Waking ahead")
struct WakeAheadTests {
    @Test("the wake-ahead is zero until 8 wake-ups are measured, then the shortest of the last 32")
    func shortestOfTheLast32() {
        var floor = WakeLatencyFloor(limitNanoseconds: 1_000_000)
        for latency in Int64(2)...8 { floor.record(latencyNanoseconds: 100_000 + latency) }
        #expect(floor.aheadNanoseconds == 0)
        floor.record(latencyNanoseconds: 100_001)
        #expect(floor.aheadNanoseconds == 100_001)
        for latency in Int64(9)...30 { floor.record(latencyNanoseconds: 100_000 + latency) }
        #expect(floor.aheadNanoseconds == 100_001)
        floor.record(latencyNanoseconds: 150_000)
        #expect(floor.aheadNanoseconds == 100_001)
        // 31 samples: 100 002…100 008, 100 001, 100 009…100 030, 150 000. The 32nd fills the
        // window; the 7 after it push out 100 002…100 008, and the 100 001 one stays.
        for _ in 0..<8 { floor.record(latencyNanoseconds: 200_000) }
        #expect(floor.aheadNanoseconds == 100_001)
        // The next pushes out 100 001: the shortest left is 100 009.
        floor.record(latencyNanoseconds: 200_000)
        #expect(floor.aheadNanoseconds == 100_009)
        floor.record(latencyNanoseconds: 40_000)
        #expect(floor.aheadNanoseconds == 40_000)
        // 32 slower wake-ups push the fast one out: the floor rises again.
        for _ in 0..<31 { floor.record(latencyNanoseconds: 90_000) }
        #expect(floor.aheadNanoseconds == 40_000)
        floor.record(latencyNanoseconds: 90_000)
        #expect(floor.aheadNanoseconds == 90_000)
    }

    @Test("the wake-ahead is capped at the limit, ignores wake-ups before their instant, and a zero limit never wakes ahead")
    func limitsAndIgnoredSamples() {
        var capped = WakeLatencyFloor(limitNanoseconds: 500_000)
        for _ in 0..<8 { capped.record(latencyNanoseconds: 2_000_000) }
        #expect(capped.aheadNanoseconds == 500_000)
        capped.record(latencyNanoseconds: -5)
        #expect(capped.aheadNanoseconds == 500_000)

        var never = WakeLatencyFloor(limitNanoseconds: 0)
        for _ in 0..<64 { never.record(latencyNanoseconds: 100_000) }
        #expect(never.aheadNanoseconds == 0)
        #expect(never.target(for: at(7_000_000), now: at(1_000_000)) == at(7_000_000))
        #expect(WakeLatencyFloor(limitNanoseconds: -1).limitNanoseconds == 0)
    }

    @Test("the timer is armed ahead of the deadline, or at the deadline itself once within the wake-ahead of it")
    func targets() {
        var floor = WakeLatencyFloor(limitNanoseconds: 1_000_000)
        #expect(floor.target(for: at(5_000_000), now: at(1_000_000)) == at(5_000_000))
        for _ in 0..<8 { floor.record(latencyNanoseconds: 120_000) }
        #expect(floor.target(for: at(5_000_000), now: at(1_000_000)) == at(4_880_000))
        // Woke faster than the floor (before the deadline): sleeps the rest of the way, to the deadline.
        #expect(floor.target(for: at(5_000_000), now: at(4_900_000)) == at(5_000_000))
        #expect(floor.target(for: at(5_000_000), now: at(4_880_000)) == at(5_000_000))
        #expect(floor.target(for: MonotonicInstant(nanoseconds: .max), now: at(1_000_000)) == MonotonicInstant(nanoseconds: .max))
    }

    @Test("the wake-ahead limit is clamped to 0…10 ms; 1 ms by default")
    func configuration() {
        #expect(SchedulerConfiguration.default.wakeAheadLimit == .milliseconds(1))
        #expect(SchedulerConfiguration(wakeAheadLimit: .milliseconds(-3)).clamped.wakeAheadLimit == .zero)
        #expect(SchedulerConfiguration(wakeAheadLimit: .seconds(1)).clamped.wakeAheadLimit == .milliseconds(10))
    }

    /// 100 levels 1 ms apart through the realtime thread; what its output saw.
    func playThroughTheRealtimeThread(wakeAheadLimit: Duration) throws -> (recorded: [Emission], statistics: SchedulerStatistics) {
        let scheduler = Scheduler(clock: SystemMonotonicClock(), configuration: SchedulerConfiguration(wakeAheadLimit: wakeAheadLimit))
        let output = ClockReadingActuator()
        let channel = try scheduler.addChannel(output: output, profile: testRumble, policy: .replace)
        let levels = (0..<100).map { (Int64($0) * ms, UInt16(100 + $0), UInt16(200 + $0)) }
        let player = try scheduler.makePlayer(program: scheduler.load(rumbleProgram(levels, duration: 100 * ms)), channel: channel)
        try scheduler.startRealtimeThread()
        scheduler.startTracing()
        #expect(scheduler.start(player, at: scheduler.clock.now().advanced(by: 2 * ms)))
        #expect(waitUntil { output.emissions.all.count >= 101 })
        scheduler.stopRealtimeThread()
        var records: [TraceRecord] = []
        scheduler.drainTrace(into: &records)
        // The thread's timer wake-ups: each after the instant its timer was armed for, which is
        // no later than the deadline it was armed ahead of, on the realtime thread.
        let wakes = records.filter { $0.event == .woke }
        #expect(wakes.count >= 10)
        #expect(wakes.allSatisfy { $0.time >= $0.began && $0.began <= $0.deadline && $0.deadline.nanoseconds - $0.began.nanoseconds <= wakeAheadLimit.nanoseconds })
        #expect(Set(wakes.map(\.thread)) == [scheduler.realtimeThread.id])
        return (output.emissions.all, scheduler.statistics)
    }

    @Test("the realtime thread wakes ahead of its deadlines but writes nothing before one")
    func neverBeforeTheDeadline() throws {
        let (recorded, statistics) = try playThroughTheRealtimeThread(wakeAheadLimit: .milliseconds(1))
        let expected: [ActuatorCommand] = (0..<100).map { index in .rumble(strong: UInt16(100 + index), weak: UInt16(200 + index)) }
        #expect(Array(recorded.prefix(100).map(\.command)) == expected)
        let early = recorded.filter { $0.nowNanoseconds < $0.deadlineNanoseconds }
        #expect(early.isEmpty, "written before their deadline: \(early)")
        #expect(statistics.wakeAhead > .zero)
        #expect(statistics.wakeAhead <= .milliseconds(1))
        #expect(statistics.earlyWakeUps < statistics.wakeUps)
    }

    @Test("a wake-up that comes before its deadline spins the rest of the way: one timer wake-up for the deadline, the write at or after it")
    func anEarlyWakeUpSpins() throws {
        // A floor of 9 ms learned beforehand: the first timed wake-up comes about 9 ms early (the
        // thread's real latency is far shorter). Tried up to 3 times, for a machine so loaded that a
        // wake-up took longer than that.
        var early = 0
        for _ in 0..<3 where early == 0 {
            let scheduler = Scheduler(clock: SystemMonotonicClock(), configuration: SchedulerConfiguration(wakeAheadLimit: .milliseconds(10)))
            for _ in 0..<WakeLatencyFloor.minimumSamples { scheduler.wake.record(latencyNanoseconds: 9 * ms) }
            let output = ClockReadingActuator()
            let channel = try scheduler.addChannel(output: output, profile: testRumble, policy: .replace)
            let player = try scheduler.makePlayer(program: scheduler.load(rumbleProgram([(0, 100, 200)], duration: 50 * ms)), channel: channel)
            try scheduler.startRealtimeThread()
            scheduler.startTracing()
            let deadline = scheduler.clock.now().advanced(by: 30 * ms)
            #expect(scheduler.start(player, at: deadline))
            #expect(waitUntil { output.emissions.all.count >= 2 })
            scheduler.stopRealtimeThread()
            var records: [TraceRecord] = []
            scheduler.drainTrace(into: &records)
            let wakes = records.filter { $0.event == .woke && $0.deadline == deadline }
            guard let first = wakes.first, first.time < deadline else { continue }
            early += 1
            // The old way slept again to the deadline itself: a second timer wake-up for it.
            #expect(wakes.count == 1, "timer wake-ups for the deadline: \(wakes)")
            let level = output.emissions.all.first
            #expect(level?.command == .rumble(strong: 100, weak: 200))
            #expect(level.map { $0.nowNanoseconds >= deadline.nanoseconds } == true, "written before its deadline: \(String(describing: level))")
            #expect(scheduler.statistics.earlyWakeUps >= 1)
        }
        #expect(early == 1, "no wake-up came before its deadline in 3 tries")
    }

    @Test("with a zero limit the realtime thread wakes at its deadlines")
    func neverAhead() throws {
        let (recorded, statistics) = try playThroughTheRealtimeThread(wakeAheadLimit: .zero)
        #expect(recorded.count >= 101)
        #expect(recorded.allSatisfy { $0.nowNanoseconds >= $0.deadlineNanoseconds })
        #expect(statistics.wakeAhead == .zero)
        #expect(statistics.earlyWakeUps == 0)
    }
}

/// The instant `nanoseconds` on the clock.
private func at(_ nanoseconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: nanoseconds) }
