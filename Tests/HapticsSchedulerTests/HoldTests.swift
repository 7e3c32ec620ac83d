import Testing
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

/// Holds never end early: a level the scheduler holds longer than its output keeps it on its own
/// (a kernel `replay.length`) is performed again `renewalLead` before that runs out.
@Suite("Holds: renewals before the output's own end")
struct HoldTests {
    /// The emissions of `command` performed again at `deadlines` (each processed on time).
    func renewals(_ command: ActuatorCommand, at deadlines: [Int64]) -> [Emission] {
        deadlines.map { Emission(command, deadlineNanoseconds: $0, nowNanoseconds: $0) }
    }

    /// Instants `milliseconds` after `origin`, in nanoseconds.
    func offsets(_ milliseconds: [Int64], from origin: Int64) -> [Int64] {
        milliseconds.map { origin + $0 * ms }
    }

    @Test func aLevelHeldLongerThanTheLifetimeIsPerformedAgainFiftyMillisecondsBeforeItRunsOut() throws {
        let rig = SchedulerRig(levelLifetime: .seconds(2))
        let t0 = rig.nowNanoseconds
        let level = ActuatorCommand.rumble(strong: 1000, weak: 2000)
        let player = try rig.player(rumbleProgram([(0, 1000, 2000)], duration: 10_000 * ms))
        rig.scheduler.start(player, at: rig.at(t0))
        rig.runOnDeadlines(until: t0 + 20_000 * ms)
        // 1.95 s after each perform: the 2 s lifetime minus the 50 ms lead, until the program's stop.
        var expected = [Emission(level, deadlineNanoseconds: t0, nowNanoseconds: t0)]
        expected += renewals(level, at: offsets([1_950, 3_900, 5_850, 7_800, 9_750], from: t0))
        expected.append(Emission(.stop, deadlineNanoseconds: t0 + 10_000 * ms, nowNanoseconds: t0 + 10_000 * ms))
        #expect(rig.output.recorded == expected)
        let statistics = rig.scheduler.statistics
        #expect(statistics.renewed == 5)
        #expect(statistics.emitted == 2)
        #expect(statistics.maximumRenewalLateness == .zero)
        #expect(rig.scheduler.process() == nil)
    }

    @Test func anOutputWithoutALifetimeIsNeverRenewed() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(rumbleProgram([(0, 1000, 2000)], duration: 10_000 * ms))
        rig.scheduler.start(player, at: rig.at(t0))
        #expect(rig.run(to: t0) == t0 + 10_000 * ms)
        rig.runOnDeadlines(until: t0 + 20_000 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 1000, weak: 2000), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 + 10_000 * ms, nowNanoseconds: t0 + 10_000 * ms),
        ])
        #expect(rig.scheduler.statistics.renewed == 0)
    }

    @Test func aLoopingPlayerWhoseIntensityChangesAtRuntimeKeepsPlayingPastTheLifetime() throws {
        let rig = SchedulerRig(levelLifetime: .seconds(2))
        let t0 = rig.nowNanoseconds
        let full = ActuatorCommand.rumble(strong: 0xFFFF, weak: 0xFFFF)
        let player = try rig.player(rumbleProgram([(0, 0xFFFF, 0xFFFF)], duration: 3_000 * ms))
        rig.scheduler.setLoop(player, true, at: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0))
        try rig.scheduler.setParameter(player, .hapticIntensityControl, value: 0.5, at: rig.at(t0 + 1_000 * ms))
        rig.runOnDeadlines(until: t0 + 10_000 * ms)
        let half = testRumble.command(intensity: 0.5, sharpness: 0.5)
        // Renewed 1.95 s after each perform; each loop pass (every 3 s) performs the level anew.
        var expected = [Emission(full, deadlineNanoseconds: t0, nowNanoseconds: t0)]
        expected += renewals(half, at: offsets([1_000, 2_950, 3_000, 4_950, 6_000, 7_950, 9_000], from: t0))
        #expect(rig.output.recorded == expected)
        #expect(rig.scheduler.statistics.renewed == 3)
    }

    @Test func aSlowPlaybackRateHoldsEachLevelEightTimesAsLongWithoutAGap() throws {
        let rig = SchedulerRig(levelLifetime: .milliseconds(200))
        let t0 = rig.nowNanoseconds
        let first = ActuatorCommand.rumble(strong: 100, weak: 200)
        let second = ActuatorCommand.rumble(strong: 300, weak: 400)
        let player = try rig.player(rumbleProgram([(0, 100, 200), (100 * ms, 300, 400)], duration: 200 * ms))
        _ = try rig.scheduler.setRate(player, 1.0 / 8, at: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0))
        rig.runOnDeadlines(until: t0 + 5_000 * ms)
        // Each 100 ms level lasts 800 ms at rate 1/8: renewed every 150 ms (lifetime − 50 ms).
        var expected = [Emission(first, deadlineNanoseconds: t0, nowNanoseconds: t0)]
        expected += renewals(first, at: offsets([150, 300, 450, 600, 750], from: t0))
        expected.append(Emission(second, deadlineNanoseconds: t0 + 800 * ms, nowNanoseconds: t0 + 800 * ms))
        expected += renewals(second, at: offsets([950, 1_100, 1_250, 1_400, 1_550], from: t0))
        expected.append(Emission(.stop, deadlineNanoseconds: t0 + 1_600 * ms, nowNanoseconds: t0 + 1_600 * ms))
        #expect(rig.output.recorded == expected)
    }

    @Test func aShortLifetimeIsRenewedHalfwayAndALateRenewalIsMeasured() throws {
        let rig = SchedulerRig(levelLifetime: .milliseconds(60))
        let t0 = rig.nowNanoseconds
        let level = ActuatorCommand.rumble(strong: 1000, weak: 2000)
        let player = try rig.player(rumbleProgram([(0, 1000, 2000)], duration: 100 * ms))
        rig.scheduler.startTracing()
        rig.scheduler.start(player, at: rig.at(t0))
        // The lead is at most half the lifetime: 30 ms of 60.
        #expect(rig.run(to: t0) == t0 + 30 * ms)
        #expect(rig.run(to: t0 + 40 * ms) == t0 + 70 * ms)
        rig.runOnDeadlines(until: t0 + 200 * ms)
        #expect(rig.output.recorded == [
            Emission(level, deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(level, deadlineNanoseconds: t0 + 30 * ms, nowNanoseconds: t0 + 40 * ms),
            Emission(level, deadlineNanoseconds: t0 + 70 * ms, nowNanoseconds: t0 + 70 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 100 * ms, nowNanoseconds: t0 + 100 * ms),
        ])
        #expect(rig.scheduler.statistics.maximumRenewalLateness == .milliseconds(10))
        var records: [TraceRecord] = []
        rig.scheduler.drainTrace(into: &records)
        #expect(records.map(\.event) == [.submitted, .dequeued, .emitted, .renewed, .renewed, .emitted])
    }

    @Test func theRenewalLeadIsConfigurableAndClamped() {
        #expect(SchedulerConfiguration(renewalLead: .zero).clamped.renewalLead == .milliseconds(1))
        #expect(SchedulerConfiguration(renewalLead: .seconds(5)).clamped.renewalLead == .seconds(1))
        #expect(SchedulerConfiguration.default.renewalLead == .milliseconds(50))
    }
}

/// A channel's direct level: the motor levels a game sets (SDL rumble, Unity motor speeds), held
/// and renewed by the realtime side until their end, summed with the players' level.
@Suite("Direct levels: rumble and motor levels on a channel")
struct DirectLevelTests {
    @Test func aThirtySecondRumbleHoldsToItsEndWithRenewalsAndEndsInAStop() throws {
        let rig = SchedulerRig(levelLifetime: .seconds(2))
        let t0 = rig.nowNanoseconds
        #expect(try rig.scheduler.setMotorLevels(low: 0.25, high: 0.75, on: rig.channel, at: rig.at(t0),
                                                 until: rig.at(t0 + 30_000 * ms)))
        rig.runOnDeadlines(until: t0 + 60_000 * ms)
        let level = ActuatorCommand.rumble(strong: 16_384, weak: 49_151)
        let renewals: [Emission] = stride(from: 1_950 * ms, through: 29_250 * ms, by: Int(1_950 * ms)).map { (offset: Int64) in
            Emission(level, deadlineNanoseconds: t0 + offset, nowNanoseconds: t0 + offset)
        }
        var expected = [Emission(level, deadlineNanoseconds: t0, nowNanoseconds: t0)]
        expected += renewals
        expected.append(Emission(.stop, deadlineNanoseconds: t0 + 30_000 * ms, nowNanoseconds: t0 + 30_000 * ms))
        #expect(rig.output.recorded == expected)
        #expect(renewals.count == 15)
        #expect(rig.scheduler.process() == nil)
    }

    @Test func eachCallReplacesTheLastAndTheSameLevelsOnlyMoveTheEnd() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        try rig.scheduler.setMotorLevels(low: 1, high: 0, on: rig.channel, at: rig.at(t0), until: rig.at(t0 + 100 * ms))
        rig.run(to: t0)
        rig.run(to: t0 + 50 * ms)
        try rig.scheduler.setMotorLevels(low: 1, high: 0, on: rig.channel, at: rig.at(t0 + 50 * ms), until: rig.at(t0 + 150 * ms))
        try rig.scheduler.setMotorLevels(low: 0, high: 1, on: rig.channel, at: rig.at(t0 + 80 * ms), until: rig.at(t0 + 120 * ms))
        rig.runOnDeadlines(until: t0 + 500 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 0xFFFF, weak: 0), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 0, weak: 0xFFFF), deadlineNanoseconds: t0 + 80 * ms, nowNanoseconds: t0 + 80 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 120 * ms, nowNanoseconds: t0 + 120 * ms),
        ])
    }

    @Test func aStopAllDropsTheLevelsQueuedForAfterIt() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        // A live feed's levels, queued ahead: 0 ms, 10 ms, 20 ms; everything stops at 5 ms.
        for step in 0..<3 {
            let at = t0 + Int64(step) * 10 * ms
            try rig.scheduler.setMotorLevels(low: 0.5, high: 0.5, on: rig.channel, at: rig.at(at), until: rig.at(at + 10 * ms))
        }
        #expect(rig.scheduler.stopAll(at: rig.at(t0 + 5 * ms)))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 32_768, weak: 32_768), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
        ])
        #expect(rig.scheduler.statistics.ignored == 2)
    }

    @Test func zeroLevelsStopAtOnce() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        try rig.scheduler.setMotorLevels(low: 0.5, high: 0.5, on: rig.channel, at: rig.at(t0), until: rig.at(t0 + 10_000 * ms))
        try rig.scheduler.setMotorLevels(low: 0, high: 0, on: rig.channel, at: rig.at(t0 + 10 * ms), until: rig.at(t0 + 10_000 * ms))
        rig.runOnDeadlines(until: t0 + 20_000 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 32_768, weak: 32_768), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
        ])
    }

    @Test func stopAllEndsTheDirectLevel() throws {
        let rig = SchedulerRig(levelLifetime: .seconds(2))
        let t0 = rig.nowNanoseconds
        try rig.scheduler.setMotorLevels(low: 1, high: 1, on: rig.channel, at: rig.at(t0), until: rig.at(t0 + 10_000 * ms))
        rig.scheduler.stopAll(at: rig.at(t0 + 500 * ms))
        rig.runOnDeadlines(until: t0 + 20_000 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 0xFFFF, weak: 0xFFFF), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 + 500 * ms, nowNanoseconds: t0 + 500 * ms),
        ])
        #expect(rig.scheduler.process() == nil)
    }

    @Test func theDirectLevelIsAddedToThePlayersLevelSaturatingPerMotor() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(rumbleProgram([(0, 0x8000, 0x1000)], duration: 100 * ms))
        rig.scheduler.start(player, at: rig.at(t0))
        try rig.scheduler.setMotorLevels(low: 0.75, high: 0, on: rig.channel, at: rig.at(t0 + 10 * ms), until: rig.at(t0 + 200 * ms))
        rig.runOnDeadlines(until: t0 + 500 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 0x8000, weak: 0x1000), deadlineNanoseconds: t0, nowNanoseconds: t0),
            // 0x8000 + 49 151 saturates at 0xFFFF; the weak motor keeps the player's 0x1000.
            Emission(.rumble(strong: 0xFFFF, weak: 0x1000), deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
            // The player ends: the direct level alone.
            Emission(.rumble(strong: 49_151, weak: 0), deadlineNanoseconds: t0 + 100 * ms, nowNanoseconds: t0 + 100 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 200 * ms, nowNanoseconds: t0 + 200 * ms),
        ])
    }

    @Test func motorLevelsMapToEachKindOfDevice() {
        let swapped = DeviceProfile(name: "swapped", displayName: "Swapped", actuator: .dualRumble,
                                    riseTime: .zero, minimumPulse: .zero, controlInterval: .milliseconds(10), swapsMotors: true)
        #expect(testRumble.command(lowMotor: 0xFFFF, highMotor: 0x4000) == .rumble(strong: 0xFFFF, weak: 0x4000))
        #expect(swapped.command(lowMotor: 0xFFFF, highMotor: 0x4000) == .rumble(strong: 0x4000, weak: 0xFFFF))
        // Periodic 5…25 ms: all low is the longest period, all high the shortest; the larger level.
        #expect(testVibra.command(lowMotor: 0xFFFF, highMotor: 0) == .periodic(waveform: .sine, periodMilliseconds: 25, magnitude: 0x7FFF))
        #expect(testVibra.command(lowMotor: 0, highMotor: 0x8000) == .periodic(waveform: .sine, periodMilliseconds: 5, magnitude: 0x4000))
        #expect(testVibra.command(lowMotor: 0, highMotor: 0) == .stop)
        let wheel = DeviceProfile(name: "wheel", displayName: "Wheel", actuator: .constantForce,
                                  riseTime: .zero, minimumPulse: .zero, controlInterval: .milliseconds(10))
        #expect(wheel.command(lowMotor: 0x2000, highMotor: 0x8000) == .constant(level: 0x4000))
    }

    @Test func levelsThatAreNotNumbersAreRefusedAndFiniteOnesClamped() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        // NaN equals nothing, not even itself: the error is compared by what it says.
        let notANumber = #expect(throws: SchedulerError.self) {
            try rig.scheduler.setMotorLevels(low: .nan, high: 0, on: rig.channel, at: rig.at(t0), until: rig.at(t0 + ms))
        }
        #expect(notANumber?.description == "scheduler: low motor level nan is not a finite number")
        #expect(throws: SchedulerError.invalidMotorLevel(motor: "high", .infinity)) {
            try rig.scheduler.setMotorLevels(low: 0, high: .infinity, on: rig.channel, at: rig.at(t0), until: rig.at(t0 + ms))
        }
        #expect(throws: SchedulerError.unknownChannel(ChannelID(rawValue: 3))) {
            try rig.scheduler.setMotorLevels(low: 0, high: 0, on: ChannelID(rawValue: 3), at: rig.at(t0), until: rig.at(t0 + ms))
        }
        #expect(SchedulerError.invalidMotorLevel(motor: "high", -.infinity).description
            == "scheduler: high motor level -inf is not a finite number")
        #expect(rig.scheduler.statistics.submitted == 0)
        try rig.scheduler.setMotorLevels(low: -3, high: 7, on: rig.channel, at: rig.at(t0), until: rig.at(t0 + 10 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 0, weak: 0xFFFF), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
        ])
    }
}
