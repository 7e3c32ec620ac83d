import Testing
import HapticsPatterns
@testable import HapticsRendering
import HapticsSystem

/// Renders on the ideal simulated profile: 4 ms ticks, no rise time, linear, no floor.
private func simulated(
    _ events: [PatternEvent], parameters: [DynamicParameter] = [], curves: [ParameterCurve] = []
) -> [G] {
    Renderer(profile: .simulated).render(Pattern(events: events, parameters: parameters, curves: curves)).golden
}

private func continuous(
    at time: Double = 0, duration: Double = 0.02, intensity: Double = 0.8, sharpness: Double = 0.5,
    attack: Double? = nil, decay: Double? = nil, release: Double? = nil, sustained: Bool? = nil
) -> PatternEvent {
    PatternEvent(
        kind: .hapticContinuous, time: time, duration: duration,
        parameters: EventParameters(
            hapticIntensity: intensity, hapticSharpness: sharpness,
            attackTime: attack, decayTime: decay, releaseTime: release, sustained: sustained))
}

private func transient(at time: Double = 0, intensity: Double = 1, sharpness: Double = 0.5) -> PatternEvent {
    PatternEvent(
        kind: .hapticTransient, time: time,
        parameters: EventParameters(hapticIntensity: intensity, hapticSharpness: sharpness))
}

/// Both motors at the same magnitude (mid sharpness on a linear profile).
private func both(_ magnitude: UInt16) -> ActuatorCommand { .rumble(strong: magnitude, weak: magnitude) }

/// Intensity 0.8 ramped 0.1, 0.3, 0.5, 0.7, 0.9 over five 4 ms ticks, sampled mid-tick.
private let rampUp: [G] = [
    G(0, both(5243)), G(4_000_000, both(15728)), G(8_000_000, both(26214)),
    G(12_000_000, both(36700)), G(16_000_000, both(47185)), G(20_000_000, .stop),
]

@Suite struct RendererEmptyAndAudioTests {
    @Test func emptyPatternIsJustAStopAtZero() {
        let program = Renderer(profile: .genericRumble).render(Pattern())
        #expect(program.golden == [G(0, .stop)])
        #expect(program.durationNanoseconds == 0)
        #expect(program.profileName == "generic-rumble")
    }

    @Test func audioEventsAreNotRendered() {
        let audioOnly = Pattern(events: [
            PatternEvent(kind: .audioCustom, time: 0, waveformPath: "click.wav"),
            PatternEvent(kind: .audioContinuous, time: 0.1, duration: 0.5),
        ])
        #expect(Renderer(profile: .dualSense).render(audioOnly).golden == [G(0, .stop)])

        var mixed = audioOnly
        mixed.events.append(transient(at: 0.2))
        #expect(simulated(mixed.events) == [G(200_000_000, both(65535)), G(220_000_000, .stop)])
    }
}

@Suite struct RendererTimingTests {
    @Test func leadTimeIsTheRiseTimeAndOffsetsArePatternTimes() {
        let program = Renderer(profile: .genericRumble).render(Pattern(events: [transient(at: 0.1)]))
        #expect(program.leadTimeNanoseconds == 60_000_000)
        #expect(program.golden == [G(100_000_000, .rumble(strong: 65535, weak: 65535)), G(160_000_000, .stop)])
        // To feel pattern time zero at T, the player starts sending at T − leadTime; the pulse is
        // written 100 ms later and felt one rise time after that: at T + 100 ms.
        let feltZero = MonotonicInstant(nanoseconds: 1_000_000_000)
        let sendStart = feltZero.advanced(by: -program.leadTimeNanoseconds)
        let written = sendStart + .nanoseconds(program.commands[0].offsetNanoseconds)
        #expect(written == MonotonicInstant(nanoseconds: 1_040_000_000))
        #expect(written + DeviceProfile.genericRumble.riseTime == feltZero + .milliseconds(100))
    }

    @Test func idealDeviceHasNoLeadTime() {
        #expect(Renderer(profile: .simulated).render(Feedback.selection.canonicalPattern).leadTimeNanoseconds == 0)
    }

    @Test func onsetsSnapToTheNearestTick() {
        // genericRumble ticks every 20 ms; halves round up.
        let renderer = Renderer(profile: .genericRumble)
        let offsets = [0.009, 0.010, 0.013, 0.031].map {
            renderer.render(Pattern(events: [transient(at: $0)])).commands[0].offsetNanoseconds
        }
        #expect(offsets == [0, 20_000_000, 20_000_000, 40_000_000])
    }

    @Test func everyOffsetLiesOnTheControlGrid() {
        for profile in DeviceProfile.builtins {
            for feedback in Feedback.vocabulary {
                let program = Renderer(profile: profile).render(feedback.canonicalPattern)
                #expect(program.commands.allSatisfy { $0.offsetNanoseconds % profile.controlInterval.nanoseconds == 0 }, "\(profile.name) \(feedback.name)")
            }
        }
    }

    @Test func aTinyEventStillGetsATick() {
        let bare = DeviceProfile(
            name: "bare", displayName: "Bare", actuator: .dualRumble,
            riseTime: .zero, minimumPulse: .zero, controlInterval: .milliseconds(20))
        let renderer = Renderer(profile: bare)
        // 1 ms of vibration rounds to no ticks; it is kept as one.
        #expect(renderer.render(Pattern(events: [continuous(duration: 0.001, intensity: 1)])).golden
            == [G(0, both(65535)), G(20_000_000, .stop)])
        // With no minimum pulse a transient lasts its nominal 20 ms.
        #expect(renderer.render(Pattern(events: [transient()])).golden
            == [G(0, both(65535)), G(20_000_000, .stop)])
    }
}

@Suite struct RendererMinimumPulseTests {
    @Test func transientsLastTheMinimumPulse() {
        #expect(Renderer(profile: .genericRumble).render(Pattern(events: [transient()])).durationNanoseconds == 60_000_000)
        #expect(Renderer(profile: .phoneVibra).render(Pattern(events: [transient()])).durationNanoseconds == 80_000_000)
        #expect(Renderer(profile: .dualSense).render(Pattern(events: [transient()])).durationNanoseconds == 40_000_000)
        // The ideal device's 4 ms minimum is below the nominal 20 ms transient.
        #expect(Renderer(profile: .simulated).render(Pattern(events: [transient()])).durationNanoseconds == 20_000_000)
    }

    @Test func shortContinuousEventsAreStretchedWithTheirEnvelope() {
        // 20 ms with a 20 ms release on a vibra that needs 80 ms: the envelope is laid over the
        // stretched 80 ms, so the release still ends the pulse (samples at 10, 30, 50, 70 ms:
        // gains 1, 1, 1, 0.5; magnitude 0.2 + 0.8 · 0.5 = 0.6 → 19660).
        let program = Renderer(profile: .phoneVibra).render(
            Pattern(events: [continuous(duration: 0.02, intensity: 1, release: 0.02)]))
        #expect(program.golden == [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 32767)),
            G(60_000_000, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 19660)),
            G(80_000_000, .stop),
        ])
    }
}

@Suite struct RendererEnvelopeTests {
    @Test func flatSustainedEventIsOneCommand() {
        #expect(simulated([continuous()]) == [G(0, both(52428)), G(20_000_000, .stop)])
    }

    @Test func attackRampsUpFromZero() {
        #expect(simulated([continuous(attack: 0.02)]) == rampUp)
    }

    @Test func unsustainedEventWithoutDecayFadesOverItsDuration() {
        #expect(simulated([continuous(sustained: false)]) == [
            G(0, both(47185)), G(4_000_000, both(36700)), G(8_000_000, both(26214)),
            G(12_000_000, both(15728)), G(16_000_000, both(5243)), G(20_000_000, .stop),
        ])
    }

    @Test func unsustainedEventDecaysAwayAfterItsDecayTime() {
        // Gains 0.75, 0.25, then 0: the motor stops at 8 ms and nothing follows.
        #expect(simulated([continuous(decay: 0.008, sustained: false)]) == [
            G(0, both(39321)), G(4_000_000, both(13107)), G(8_000_000, .stop),
        ])
    }

    @Test func sustainedEventIgnoresItsDecayTime() {
        #expect(simulated([continuous(decay: 0.008, sustained: true)]) == [G(0, both(52428)), G(20_000_000, .stop)])
    }

    @Test func releaseFadesOutInsideTheDuration() {
        // Gains 1, 1, 1, 0.75, 0.25 over the last 8 ms of the 20 ms event.
        #expect(simulated([continuous(release: 0.008)]) == [
            G(0, both(52428)), G(12_000_000, both(39321)), G(16_000_000, both(13107)), G(20_000_000, .stop),
        ])
    }
}

/// `AttackTime`, `DecayTime` and `ReleaseTime` are read as seconds; the decoder clamps them to 0…1,
/// so these are the two ends of what a decoded pattern can hold.
@Suite struct RendererEnvelopeBoundaryTests {
    /// An ideal device with 200 ms ticks, so a one-second event has five mid-tick samples.
    private static let slowGrid = DeviceProfile(
        name: "slow-grid", displayName: "Slow grid", actuator: .dualRumble,
        riseTime: .zero, minimumPulse: .zero, controlInterval: .milliseconds(200))

    private func slow(_ event: PatternEvent) -> [G] {
        Renderer(profile: Self.slowGrid).render(Pattern(events: [event])).golden
    }

    /// `rampUp` on the 200 ms grid: 0.1, 0.3, 0.5, 0.7, 0.9 of intensity 0.8.
    private let slowRampUp: [G] = [
        G(0, both(5243)), G(200_000_000, both(15728)), G(400_000_000, both(26214)),
        G(600_000_000, both(36700)), G(800_000_000, both(47185)), G(1_000_000_000, .stop),
    ]
    private let slowRampDown: [G] = [
        G(0, both(47185)), G(200_000_000, both(36700)), G(400_000_000, both(26214)),
        G(600_000_000, both(15728)), G(800_000_000, both(5243)), G(1_000_000_000, .stop),
    ]

    @Test func zeroTimesAreNoEnvelope() {
        #expect(simulated([continuous(attack: 0, decay: 0, release: 0)]) == [G(0, both(52428)), G(20_000_000, .stop)])
        // Not sustained with a zero decay time: it decays away over its duration, as with none.
        #expect(simulated([continuous(attack: 0, decay: 0, release: 0, sustained: false)])
            == simulated([continuous(sustained: false)]))
    }

    @Test func oneIsOneSecond() {
        #expect(slow(continuous(duration: 1, attack: 1)) == slowRampUp)
        #expect(slow(continuous(duration: 1, release: 1)) == slowRampDown)
        #expect(slow(continuous(duration: 1, decay: 1, sustained: false)) == slowRampDown)
    }

    @Test func oneSecondPhasesStayInsideAShortEvent() {
        // A 20 ms event with a 1 s attack reaches only 2 % of its level and still ends at 20 ms.
        #expect(simulated([continuous(attack: 1)]) == [
            G(0, both(105)), G(4_000_000, both(315)), G(8_000_000, both(524)),
            G(12_000_000, both(734)), G(16_000_000, both(944)), G(20_000_000, .stop),
        ])
        #expect(simulated([continuous(release: 1)]) == [
            G(0, both(944)), G(4_000_000, both(734)), G(8_000_000, both(524)),
            G(12_000_000, both(315)), G(16_000_000, both(105)), G(20_000_000, .stop),
        ])
    }

    @Test func decodedTimesAboveOneRenderAsOneSecond() throws {
        let text = """
            {"Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1,
              "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8},
                                  {"ParameterID": "AttackTime", "ParameterValue": 2.5}]}}]}
            """
        let decoded = try AHAPDecoder().decode(text, fileName: "attack.ahap")
        #expect(decoded.pattern.events.first?.parameters.attackTime == 1)
        #expect(Renderer(profile: Self.slowGrid).render(decoded.pattern).golden == slowRampUp)
    }
}

@Suite struct RendererDynamicParameterTests {
    @Test func intensityCurveInterpolatesLinearly() {
        let curve = ParameterCurve(
            id: .hapticIntensityControl, time: 0,
            controlPoints: [.init(time: 0, value: 0), .init(time: 0.02, value: 1)])
        #expect(simulated([continuous()], curves: [curve]) == rampUp)
    }

    @Test func latestSourceWinsAndCurvesHoldTheirEnds() {
        // Step 0.5 from 0; from 8 ms a curve 1 → 0 over 8 ms, then holding 0.
        let step = DynamicParameter(id: .hapticIntensityControl, time: 0, value: 0.5)
        let curve = ParameterCurve(
            id: .hapticIntensityControl, time: 0.008,
            controlPoints: [.init(time: 0, value: 1), .init(time: 0.008, value: 0)])
        #expect(simulated([continuous()], parameters: [step], curves: [curve]) == [
            G(0, both(26214)), G(8_000_000, both(39321)), G(12_000_000, both(13107)), G(16_000_000, .stop),
        ])
    }

    @Test func intensityStepAppliesFromItsTime() {
        let step = DynamicParameter(id: .hapticIntensityControl, time: 0.009, value: 0.5)
        #expect(simulated([continuous()], parameters: [step]) == [
            G(0, both(52428)), G(8_000_000, both(26214)), G(20_000_000, .stop),
        ])
    }

    @Test func sharpnessControlShiftsAndClamps() {
        let sharper = DynamicParameter(id: .hapticSharpnessControl, time: 0, value: 0.5)
        #expect(simulated([transient()], parameters: [sharper]) == [
            G(0, .rumble(strong: 0, weak: 65535)), G(20_000_000, .stop),
        ])
        let duller = DynamicParameter(id: .hapticSharpnessControl, time: 0, value: -3)
        #expect(simulated([transient()], parameters: [duller]) == [
            G(0, .rumble(strong: 65535, weak: 0)), G(20_000_000, .stop),
        ])
    }

    @Test func timeControlsScaleEnvelopeTimesByPowersOfTen() {
        let longerAttack = DynamicParameter(id: .hapticAttackTimeControl, time: 0, value: 1)
        #expect(simulated([continuous(attack: 0.002)], parameters: [longerAttack]) == rampUp)

        let shorterRelease = DynamicParameter(id: .hapticReleaseTimeControl, time: 0, value: -1)
        #expect(simulated([continuous(release: 0.08)], parameters: [shorterRelease]) == [
            G(0, both(52428)), G(12_000_000, both(39321)), G(16_000_000, both(13107)), G(20_000_000, .stop),
        ])

        let longerDecay = DynamicParameter(id: .hapticDecayTimeControl, time: 0, value: 1)
        #expect(simulated([continuous(decay: 0.0008, sustained: false)], parameters: [longerDecay]) == [
            G(0, both(39321)), G(4_000_000, both(13107)), G(8_000_000, .stop),
        ])
    }

    @Test func audioControlsDoNotTouchHaptics() {
        let volume = DynamicParameter(id: .audioVolumeControl, time: 0, value: 0)
        #expect(simulated([continuous()], parameters: [volume]) == [G(0, both(52428)), G(20_000_000, .stop)])
    }
}

@Suite struct RendererCombinationTests {
    @Test func overlappingEventsSumIntensityAndWeighSharpness() {
        // 0.2 at sharpness 0 plus 0.6 at sharpness 1: intensity 0.8, sharpness 0.75 →
        // strong at half drive (0.4 → 26214), weak at full (0.8 → 52428).
        #expect(simulated([transient(intensity: 0.2, sharpness: 0), continuous(intensity: 0.6, sharpness: 1)]) == [
            G(0, .rumble(strong: 26214, weak: 52428)), G(20_000_000, .stop),
        ])
    }

    @Test func summedIntensitySaturates() {
        #expect(simulated([transient(intensity: 0.7), continuous(intensity: 0.7)]) == [
            G(0, both(65535)), G(20_000_000, .stop),
        ])
    }

    @Test func aTransientOnAContinuousEventIsFelt() {
        #expect(simulated([continuous(duration: 0.04, intensity: 0.5), transient(at: 0.02, intensity: 0.3)]) == [
            G(0, both(32768)), G(20_000_000, both(52428)), G(40_000_000, .stop),
        ])
    }

    @Test func backToBackEqualEventsSendOneCommand() {
        #expect(simulated([continuous(at: 0), continuous(at: 0.02)]) == [G(0, both(52428)), G(40_000_000, .stop)])
    }

    @Test func gapsBetweenEventsAreSilent() {
        #expect(simulated([transient(at: 0), transient(at: 0.1)]) == [
            G(0, both(65535)), G(20_000_000, .stop), G(100_000_000, both(65535)), G(120_000_000, .stop),
        ])
    }
}

@Suite struct RendererOverdriveTests {
    @Test func onsetsFromSilenceAreKicked() {
        var kicked = DeviceProfile.simulated
        kicked.overdrive = .milliseconds(8)
        let pattern = Pattern(events: [
            continuous(at: 0, intensity: 0.5), continuous(at: 0.02, intensity: 0.25), continuous(at: 0.1, intensity: 0.5),
        ])
        let program = Renderer(profile: kicked).render(pattern)
        // The first onset kicks for two ticks; the change at 20 ms is not from silence; the onset
        // at 100 ms kicks again.
        #expect(program.golden == [
            G(0, both(65535)), G(8_000_000, both(32768)), G(20_000_000, both(16384)), G(40_000_000, .stop),
            G(100_000_000, both(65535)), G(108_000_000, both(32768)), G(120_000_000, .stop),
        ])
        #expect(program.commands[0].intensity == 1)
        #expect(program.commands[1].intensity == 0.5)
    }
}

@Suite struct RendererProgramInvariantTests {
    @Test func everyProgramEndsInOneStopWithoutRepeats() {
        for profile in DeviceProfile.builtins {
            for feedback in Feedback.vocabulary {
                let program = Renderer(profile: profile).render(feedback.canonicalPattern)
                let label = "\(profile.name) \(feedback.name)"
                #expect(program.commands.last?.command == .stop, "\(label)")
                #expect(program.durationNanoseconds == program.commands.last?.offsetNanoseconds, "\(label)")
                #expect(zip(program.commands, program.commands.dropFirst()).allSatisfy {
                    $0.offsetNanoseconds < $1.offsetNanoseconds && $0.command != $1.command
                }, "\(label)")
            }
        }
    }

    @Test func storedLevelsReproduceEveryCommand() {
        // The scheduler re-maps commands from their intensity and sharpness at play time.
        for profile in DeviceProfile.builtins {
            for feedback in Feedback.vocabulary {
                for command in Renderer(profile: profile).render(feedback.canonicalPattern).commands where command.command != .stop {
                    #expect(profile.command(intensity: command.intensity, sharpness: command.sharpness) == command.command,
                            "\(profile.name) \(feedback.name)")
                }
            }
        }
    }

    /// The whole program, not only its offsets and commands (the vocabulary goldens): the stored
    /// intensity and sharpness the scheduler re-maps from, the duration, the lead time, the
    /// profile's name — and the same program whatever order the pattern lists its events in.
    @Test func errorOnDualSenseIsExactlyThisProgramWhateverTheEventOrder() {
        let expected = Program(profileName: "dualsense", commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 0.471, sharpness: 0.5, command: .rumble(strong: 32600, weak: 32600)),
            TimedCommand(offsetNanoseconds: 80_000_000, intensity: 0, sharpness: 0, command: .stop),
            TimedCommand(offsetNanoseconds: 120_000_000, intensity: 0.471, sharpness: 0.5, command: .rumble(strong: 32600, weak: 32600)),
            TimedCommand(offsetNanoseconds: 200_000_000, intensity: 0, sharpness: 0, command: .stop),
            TimedCommand(offsetNanoseconds: 240_000_000, intensity: 1, sharpness: 0.5, command: .rumble(strong: 65535, weak: 65535)),
            TimedCommand(offsetNanoseconds: 400_000_000, intensity: 0, sharpness: 0, command: .stop),
            TimedCommand(offsetNanoseconds: 440_000_000, intensity: 0.157, sharpness: 0.5, command: .rumble(strong: 13051, weak: 13051)),
            TimedCommand(offsetNanoseconds: 480_000_000, intensity: 0, sharpness: 0, command: .stop),
        ], durationNanoseconds: 480_000_000, leadTimeNanoseconds: 30_000_000)
        let renderer = Renderer(profile: .dualSense)
        let pattern = Feedback.notification(.error).canonicalPattern
        #expect(renderer.render(pattern) == expected)
        var reversed = pattern
        reversed.events.reverse()
        #expect(renderer.render(reversed) == expected)
    }
}

@Suite struct RendererDeviceKindTests {
    @Test func constantForceDeviceGetsForceLevels() {
        // The heavy impact on a wheel: full force for its 160 ms (40 one-jiffy ticks).
        #expect(Renderer(profile: .constantForceWheel).render(Feedback.impact(.heavy).canonicalPattern).golden == [
            G(0, .constant(level: 32767)), G(160_000_000, .stop),
        ])
    }

    @Test func pacedProfilesKeepReportsFiftyMillisecondsApart() {
        for profile in [DeviceProfile.xboxController, .switchPro] {
            for feedback in Feedback.vocabulary {
                let offsets = Renderer(profile: profile).render(feedback.canonicalPattern).commands.map(\.offsetNanoseconds)
                #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $1 - $0 >= 50_000_000 }, "\(profile.name) \(feedback.name)")
            }
        }
    }

    @Test func coarseGridSnapsOnsetsToTheNearestTick() {
        // Xbox ticks every 52 ms: success's second pulse, 80…240 ms, lands on 104…260 ms
        // (1.54 → 2 and 4.62 → 5 ticks).
        #expect(Renderer(profile: .xboxController).render(Feedback.notification(.success).canonicalPattern).golden == [
            G(0, .rumble(strong: 15814, weak: 15814)), G(52_000_000, .stop),
            G(104_000_000, .rumble(strong: 65535, weak: 65535)), G(260_000_000, .stop),
        ])
    }
}

@Suite struct RendererWorkBoundTests {
    @Test func continuousEventsPastTheHapticTimeAreLeftOut() {
        // Five one-hour layers: four fit the four hours, the fifth is left out, so the level is
        // four layers' 0.2 each (0.8), not saturated at 1.
        let layers = Array(repeating: continuous(duration: 3_600, intensity: 0.2, sharpness: 0.5), count: 5)
        let program = Renderer(profile: .simulated).render(Pattern(events: layers))
        #expect(program.golden == [G(0, both(52428)), G(3_600_000_000_000, .stop)])
    }

    @Test func theLargestDecodedPatternRendersForEveryProfile() throws {
        // Six 600-second layers (the 3,600 s a file may hold) under a 4,096-point intensity curve:
        // every tick of every layer is sampled, and each sample finds its curve segment by binary
        // search. One command a tick where the curve moves the level.
        let layers = Array(repeating: continuous(duration: 600, intensity: 0.1, sharpness: 0.5), count: 6)
        let points = (0..<4_096).map { ParameterCurve.ControlPoint(time: Double($0) * 600 / 4_095, value: Double($0 % 2)) }
        let pattern = Pattern(events: layers, curves: [ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: points)])
        for profile in DeviceProfile.builtins {
            let program = Renderer(profile: profile).render(pattern)
            #expect(program.commands.last?.command == .stop, "\(profile.name)")
            #expect(program.durationNanoseconds >= 599_000_000_000, "\(profile.name)")  // 600 s snapped to 52 ms ticks is 599.976 s
        }
    }
}
