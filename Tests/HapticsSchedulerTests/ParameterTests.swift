import Testing
import HapticsRendering
@testable import HapticsScheduler
import HapticsTestSupport

@Suite("Dynamic parameters re-map through the channel profile")
struct ParameterTests {
    let program = rumbleProgram([(0, 100, 200), (10 * ms, 300, 400)], duration: 20 * ms, intensity: 0.8, sharpness: 0.5)

    @Test func intensityControlScalesThePlayingLevelAndTheNextCommands() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(program)
        rig.scheduler.start(player, at: rig.at(t0))
        try rig.scheduler.setParameter(player, .hapticIntensityControl, value: 0.5, at: rig.at(t0 + 5 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        let scaled = testRumble.command(intensity: Float(0.8) * Float(0.5), sharpness: 0.5)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(scaled, deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
            Emission(scaled, deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 20 * ms, nowNanoseconds: t0 + 20 * ms),
        ])
        #expect(scaled != .rumble(strong: 300, weak: 400))
    }

    @Test func sharpnessControlIsAddedToTheSharpness() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(program)
        try rig.scheduler.setParameter(player, .hapticSharpnessControl, value: 0.25, at: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        let shifted = testRumble.command(intensity: 0.8, sharpness: 0.75)
        #expect(rig.output.recorded == [
            Emission(shifted, deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(shifted, deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 20 * ms, nowNanoseconds: t0 + 20 * ms),
        ])
    }

    @Test func resultsAreClampedToTheNormalizedRange() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(program)
        try rig.scheduler.setParameter(player, .hapticIntensityControl, value: 3, at: rig.at(t0))
        try rig.scheduler.setParameter(player, .hapticSharpnessControl, value: -2, at: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0))
        rig.run(to: t0)
        #expect(rig.output.recorded == [Emission(testRumble.command(intensity: 1, sharpness: 0), deadlineNanoseconds: t0, nowNanoseconds: t0)])
    }

    @Test func neutralValuesPlayTheProgramAsRendered() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(program)
        try rig.scheduler.setParameter(player, .hapticIntensityControl, value: 0.5, at: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0))
        try rig.scheduler.setParameter(player, .hapticIntensityControl, value: 1, at: rig.at(t0 + 5 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(testRumble.command(intensity: 0.4, sharpness: 0.5), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 20 * ms, nowNanoseconds: t0 + 20 * ms),
        ])
    }

    @Test func audioParametersLeaveHapticsUnchanged() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(program)
        rig.scheduler.start(player, at: rig.at(t0))
        try rig.scheduler.setParameter(player, .audioVolumeControl, value: 0.1, at: rig.at(t0 + 1 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded.map(\.command) == [
            .rumble(strong: 100, weak: 200), .rumble(strong: 300, weak: 400), .stop,
        ])
    }

    @Test func periodicProfilesRemapToPeriodicCommands() throws {
        let rig = SchedulerRig(profile: testVibra)
        let t0 = rig.nowNanoseconds
        let vibraProgram = Program(
            profileName: "test-vibra",
            commands: [
                TimedCommand(offsetNanoseconds: 0, intensity: 0.6, sharpness: 0.5,
                             command: .periodic(waveform: .sine, periodMilliseconds: 15, magnitude: 20_000)),
                TimedCommand(offsetNanoseconds: 10 * ms, intensity: 0, sharpness: 0, command: .stop),
            ],
            durationNanoseconds: 10_000_000, leadTimeNanoseconds: 0)
        let player = try rig.player(vibraProgram)
        rig.scheduler.start(player, at: rig.at(t0))
        try rig.scheduler.setParameter(player, .hapticIntensityControl, value: 0.5, at: rig.at(t0 + 1 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.periodic(waveform: .sine, periodMilliseconds: 15, magnitude: 20_000), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(testVibra.command(intensity: 0.3, sharpness: 0.5), deadlineNanoseconds: t0 + 1 * ms, nowNanoseconds: t0 + 1 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
        ])
    }
}
