import Testing
import HapticsPatterns
@testable import HapticsRendering

private func continuous(at time: Double, duration: Double, intensity: Double = 1) -> PatternEvent {
    PatternEvent(
        kind: .hapticContinuous, time: time, duration: duration,
        parameters: EventParameters(hapticIntensity: intensity, hapticSharpness: 0.5))
}

private func transient(at time: Double, intensity: Double = 1) -> PatternEvent {
    PatternEvent(
        kind: .hapticTransient, time: time,
        parameters: EventParameters(hapticIntensity: intensity, hapticSharpness: 0.5))
}

private func render(_ events: [PatternEvent], on profile: DeviceProfile) -> [G] {
    Renderer(profile: profile).render(Pattern(events: events)).golden
}

/// The offsets at which the device goes from silent to sounding: one per pulse a person can count.
private func pulseOnsets(_ program: Program) -> [Int64] {
    var silent = true
    var onsets: [Int64] = []
    for command in program.commands {
        if silent && !command.command.isSilent { onsets.append(command.offsetNanoseconds) }
        silent = command.command.isSilent
    }
    return onsets
}

/// Both motors at the level `profile` gives intensity `intensity` at sharpness 0.5.
private func level(_ intensity: Float, on profile: DeviceProfile) -> ActuatorCommand {
    profile.command(intensity: intensity, sharpness: 0.5)
}

@Suite struct RendererSeparationTests {
    @Test func successOnPhoneVibraIsTwoPulsesWithASilentTickBetween() {
        // The 40 ms first pulse would be stretched to the 80 ms minimum and reach the second onset
        // at 80 ms; it is held to 60 ms so that the tick 60…80 ms is silent.
        let program = Renderer(profile: .phoneVibra).render(Feedback.notification(.success).canonicalPattern)
        #expect(program.golden == [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 10669)),
            G(60_000_000, .stop),
            G(80_000_000, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 32767)),
            G(240_000_000, .stop),
        ])
        #expect(pulseOnsets(program) == [0, 80_000_000])
    }

    @Test(arguments: [DeviceProfile.xboxController, .switchPro])
    func errorOnA52MillisecondGridIsFourPulsesOnTheSnappedOnsets(_ profile: DeviceProfile) {
        let pattern = Feedback.notification(.error).canonicalPattern
        let program = Renderer(profile: profile).render(pattern)
        // Written onsets 0, 0.12, 0.24, 0.44 s are ticks 0, 2.31 → 2, 4.62 → 5, 8.46 → 8.
        let snapped = pattern.events.map { Int64(($0.time * 1e9 / 52e6).rounded()) * 52_000_000 }
        #expect(snapped == [0, 104_000_000, 260_000_000, 416_000_000])
        #expect(pulseOnsets(program) == snapped)
        // Pulses 1 and 3 end on ticks 2 (1.54 → 2) and 8 (7.69 → 8), the next onsets' ticks; each
        // gives its last tick to the silence instead. Pulse 2 ends on tick 4 (3.85 → 4), one tick
        // before the third onset, and is left as it is.
        #expect(program.golden == [
            G(0, level(0.471, on: profile)), G(52_000_000, .stop),
            G(104_000_000, level(0.471, on: profile)), G(208_000_000, .stop),
            G(260_000_000, level(1, on: profile)), G(364_000_000, .stop),
            G(416_000_000, level(0.157, on: profile)), G(468_000_000, .stop),
        ])
    }

    @Test func aFiveMillisecondGapBecomesATickOfSilenceTakenFromTheEarlierEvent() {
        // 0…100 ms and 105…200 ms on 20 ms ticks: the second onset snaps to 100 ms (5.25 → 5),
        // where the first event ends; the first event stops at 80 ms and the onset stays.
        #expect(render([continuous(at: 0, duration: 0.1), continuous(at: 0.105, duration: 0.095)], on: .genericRumble) == [
            G(0, level(1, on: .genericRumble)), G(80_000_000, .stop),
            G(100_000_000, level(1, on: .genericRumble)), G(200_000_000, .stop),
        ])
    }

    @Test func touchingEventsStillCombine() {
        // No gap in the pattern, so no silence: one command for both.
        #expect(render([continuous(at: 0, duration: 0.1), continuous(at: 0.1, duration: 0.1)], on: .genericRumble) == [
            G(0, level(1, on: .genericRumble)), G(200_000_000, .stop),
        ])
        // 0.7 + 0.1 is 0.7999999999999999 in binary; in whole nanoseconds the events touch.
        #expect(render([continuous(at: 0.7, duration: 0.1), continuous(at: 0.8, duration: 0.1)], on: .simulated) == [
            G(700_000_000, level(1, on: .simulated)), G(900_000_000, .stop),
        ])
    }

    @Test func aStretchedTransientLeavesTheTickBeforeTheNextOnsetSilent() {
        // Transients 40 ms apart on generic-rumble: the first would last the 60 ms minimum pulse
        // into the second; it keeps one 20 ms tick, then silence, then the second at 40 ms.
        #expect(render([transient(at: 0), transient(at: 0.04, intensity: 0.5)], on: .genericRumble) == [
            G(0, level(1, on: .genericRumble)), G(20_000_000, .stop),
            G(40_000_000, level(0.5, on: .genericRumble)), G(100_000_000, .stop),
        ])
    }

    @Test func anEventCoveringTheGapKeepsThePulseTogether() {
        // The transient ends at 0 and the second continuous event starts at 20 ms, but the long
        // event sounds through both: the pattern never falls silent, so neither does the device.
        let events = [
            continuous(at: 0, duration: 0.04, intensity: 0.5), transient(at: 0, intensity: 0.3),
            continuous(at: 0.02, duration: 0.02, intensity: 0.2),
        ]
        #expect(render(events, on: .simulated) == [
            G(0, level(0.8, on: .simulated)), G(20_000_000, level(0.7, on: .simulated)), G(40_000_000, .stop),
        ])
    }

    @Test func onsetsOnNeighbouringTicksHaveNoRoomForSilence() {
        // 0 and 30 ms on xbox's 52 ms grid snap to ticks 0 and 1: the first event keeps its one
        // tick and the second follows it directly; onsets are not moved to make room.
        #expect(render([transient(at: 0), transient(at: 0.03, intensity: 0.5)], on: .xboxController) == [
            G(0, level(1, on: .xboxController)), G(52_000_000, level(0.5, on: .xboxController)),
            G(104_000_000, .stop),
        ])
    }

    @Test func everyVocabularyItemKeepsItsPulseCountOnEveryProfile() {
        let pulses: [String: Int] = [
            "notification.success": 2, "notification.warning": 2, "notification.error": 4,
            "impact.light": 1, "impact.medium": 1, "impact.heavy": 1, "impact.soft": 1, "impact.rigid": 1,
            "selection": 1,
        ]
        for profile in DeviceProfile.builtins {
            for feedback in Feedback.vocabulary {
                let program = Renderer(profile: profile).render(feedback.canonicalPattern)
                #expect(pulseOnsets(program).count == pulses[feedback.name], "\(profile.name) \(feedback.name)")
            }
        }
    }
}
