import Foundation
import HapticsPatterns
import Testing
@testable import HapticsAudio

@Suite struct AudioRendererTests {
    let rate = 48_000.0

    func custom(_ clip: AudioClip, at time: Double = 0, duration: Double? = nil, loop: Bool? = nil,
                envelope: Bool? = nil, parameters: EventParameters = EventParameters(audioVolume: 1, audioPan: -1),
                parametersOfPattern: [DynamicParameter] = [], curves: [ParameterCurve] = []) -> AudioPattern {
        let event = PatternEvent(kind: .audioCustom, time: time, duration: duration, waveformPath: "x.wav",
                                 waveformUseVolumeEnvelope: envelope, waveformLoopEnabled: loop, parameters: parameters)
        return AudioPattern(pattern: Pattern(events: [PatternEvent(kind: .hapticTransient, time: 0), event],
                                             parameters: parametersOfPattern, curves: curves),
                            sampleRate: 48_000, clips: [1: clip])
    }

    func mono(_ samples: [Float]) -> AudioClip { AudioClip(sampleRate: 48_000, channelCount: 1, samples: samples) }
    func left(_ stereo: [Float]) -> [Float] { stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] } }
    func right(_ stereo: [Float]) -> [Float] { stride(from: 1, to: stereo.count, by: 2).map { stereo[$0] } }

    @Test func aClipLandsAtExactlyTimeTimesRate() {
        let audio = custom(mono([0.5, -0.25]), at: 0.0125, parameters: EventParameters())
        let voices = AudioRenderer().voices(for: audio)
        #expect(voices.map(\.eventIndex) == [1])
        #expect(voices[0].frameOffset == 600)
        #expect(voices[0].timeOffset == .microseconds(12_500))
        let output = AudioRenderer().render(audio)
        #expect(output.count == 2 * 602)
        // Default volume 0.75, centre pan: equal-power cos 45° on both sides.
        let gain = Float(0.75 * cos(Double.pi / 4))
        #expect(Array(output[1_200...]) == [0.5 * gain, 0.5 * gain, -0.25 * gain, -0.25 * gain])
        #expect(output[..<1_200].allSatisfy { $0 == 0 })
    }

    @Test func panMovesAMonoClipWithEqualPowerAndBalancesAStereoOne() {
        let hardLeft = AudioRenderer().render(custom(mono([1])))
        #expect(hardLeft == [1, 0])
        let stereo = AudioClip(sampleRate: 48_000, channelCount: 2, samples: [0.8, 0.8])
        let rightish = AudioRenderer().render(custom(stereo, parameters: EventParameters(audioVolume: 0.5, audioPan: 0.5)))
        #expect(rightish == [0.2, 0.4])
    }

    @Test func durationCutsAClipAndLoopingRepeatsIt() {
        let clip = mono([0.1, 0.2, 0.3])
        let eightFrames = 8 / rate
        #expect(left(AudioRenderer().render(custom(clip, duration: eightFrames, loop: true)))
            == [0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.1, 0.2])
        #expect(left(AudioRenderer().render(custom(clip, duration: eightFrames))) == [0.1, 0.2, 0.3])
        #expect(left(AudioRenderer().render(custom(clip, duration: 2 / rate))) == [0.1, 0.2])
        // Looping without a duration plays the clip once.
        #expect(left(AudioRenderer().render(custom(clip, loop: true))) == [0.1, 0.2, 0.3])
    }

    @Test func theVolumeEnvelopeAppliesOnlyWhenAsked() {
        let clip = mono(Array(repeating: 1, count: 96))
        let shaped = EventParameters(attackTime: 0.001, audioVolume: 1, audioPan: -1)
        let withEnvelope = left(AudioRenderer().render(custom(clip, envelope: true, parameters: shaped)))
        #expect(withEnvelope[0] == 0)
        #expect(withEnvelope[24] == 0.5)
        #expect(withEnvelope[48] == 1)
        let without = left(AudioRenderer().render(custom(clip, envelope: false, parameters: shaped)))
        #expect(without[0] == 1)
        #expect(without[24] == 1)
    }

    @Test func volumeAndPanControlsFollowTheirCurves() {
        let clip = mono(Array(repeating: 1, count: 960))
        let fadeIn = ParameterCurve(id: .audioVolumeControl, time: 0, controlPoints: [.init(time: 0, value: 0), .init(time: 0.01, value: 1)])
        let output = left(AudioRenderer().render(custom(clip, curves: [fadeIn])))
        #expect(output[0] == 0)
        #expect(output[120] == 0.25)
        #expect(output[240] == 0.5)
        #expect(output[480] == 1)
        // A pan control step of +2 is clamped to a +1 shift: from −1 (all left) to the centre at 10 ms.
        let step = DynamicParameter(id: .audioPanControl, time: 0.01, value: 2)
        let panned = AudioRenderer().render(custom(clip, parametersOfPattern: [step]))
        #expect(left(panned)[479] == 1)
        #expect(right(panned)[479] == 0)
        #expect(left(panned)[480] == Float(cos(Double.pi / 4)))
        #expect(right(panned)[480] == Float(sin(Double.pi / 4)))
    }
}

@Suite struct ToneSynthesisTests {
    func tone(duration: Double = 0.1, parameters: EventParameters, parametersOfPattern: [DynamicParameter] = [],
              curves: [ParameterCurve] = []) -> [Float] {
        let pattern = Pattern(events: [PatternEvent(kind: .audioContinuous, time: 0, duration: duration, parameters: parameters)],
                              parameters: parametersOfPattern, curves: curves)
        let stereo = AudioRenderer().render(AudioPattern(pattern: pattern, sampleRate: 48_000, clips: [:]))
        return stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] }
    }

    func zeroCrossings(_ samples: ArraySlice<Float>) -> Int {
        zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
    }

    @Test func pitchSpansAnOctaveEitherWayAroundFourHundredForty() {
        let synthesizer = ToneSynthesizer()
        #expect(synthesizer.frequency(pitch: -1) == 220)
        #expect(synthesizer.frequency(pitch: 0) == 440)
        #expect(synthesizer.frequency(pitch: 1) == 880)
        #expect(synthesizer.frequency(pitch: 3) == 880)
        #expect(ToneSynthesizer.panGains(-1) == (1, 0))
        #expect(abs(ToneSynthesizer.panGains(0).left - 0.5.squareRoot()) < 1e-15)
        #expect(abs(ToneSynthesizer.panGains(0).right - 0.5.squareRoot()) < 1e-15)
    }

    @Test func brightnessMixesInHarmonicsWithoutRaisingThePeak() {
        let synthesizer = ToneSynthesizer()
        #expect(synthesizer.waveform(phase: 0.25, brightness: 0) == 1)
        // At a quarter cycle: sin 90° = 1, harmonics 2…6 give 0, −1/3, 0, +1/5, 0 (× brightness).
        let expected = (1 - 1.0 / 3 + 1.0 / 5) / (1 + 1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5 + 1.0 / 6)
        #expect(abs(synthesizer.waveform(phase: 0.25, brightness: 1) - expected) < 1e-15)
        for step in 0..<200 {
            #expect(abs(synthesizer.waveform(phase: Double(step) / 200, brightness: 1)) <= 1)
        }
    }

    @Test func aToneIsTheSineOfItsPitchAtItsVolumeAfterTheDeclick() {
        let samples = tone(parameters: EventParameters(audioVolume: 0.5, audioPitch: 0, audioPan: -1, audioBrightness: 0))
        #expect(samples.count == 4_800)
        #expect(samples[0] == 0)
        for frame in 96..<4_704 {
            let ideal = 0.5 * sin(2 * Double.pi * 440 * Double(frame) / 48_000)
            #expect(abs(Double(samples[frame]) - ideal) < 1e-6)
        }
        #expect(samples[4_799].magnitude < 0.01)
    }

    @Test func pitchAndVolumeFollowTheirControls() {
        let jump = DynamicParameter(id: .audioPitchControl, time: 0.05, value: 1)
        let fade = ParameterCurve(id: .audioVolumeControl, time: 0, controlPoints: [.init(time: 0.05, value: 1), .init(time: 0.1, value: 0)])
        let samples = tone(parameters: EventParameters(audioVolume: 1, audioPitch: 0, audioPan: -1, audioBrightness: 0),
                           parametersOfPattern: [jump], curves: [fade])
        // 20 ms windows: 440 Hz crosses zero 17–18 times, 880 Hz 35–36 times.
        #expect([17, 18].contains(zeroCrossings(samples[480..<1_440])))
        #expect([35, 36].contains(zeroCrossings(samples[2_880..<3_840])))
        // The volume curve holds 1 until 50 ms, then falls to 0 at 100 ms: at 75 ms the peak is ½.
        let around75 = samples[3_570..<3_630].map { abs($0) }.max()!
        #expect(around75 > 0.49 && around75 < 0.51)
        let early = samples[1_000..<1_200].map { abs($0) }.max()!
        #expect(early > 0.99)
    }

    @Test func theEventEnvelopeShapesTheTone() {
        let samples = tone(parameters: EventParameters(attackTime: 0.02, audioVolume: 1, audioPitch: 0, audioPan: -1,
                                                       audioBrightness: 0))
        // Half way up the 20 ms attack the gain is ½: the peak near 10 ms is about 0.5.
        let middle = samples[420..<540].map { abs($0) }.max()!
        #expect(middle > 0.45 && middle < 0.56)
        #expect(samples[1_200..<1_400].map { abs($0) }.max()! > 0.99)
    }
}
