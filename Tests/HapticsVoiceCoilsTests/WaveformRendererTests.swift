import HapticsPatterns
import Testing
@testable import HapticsVoiceCoils

/// The voice-coil waveform, sample by sample: onsets on their frame, frequencies counted by zero
/// crossings, silence outside events, intensity, envelopes, dynamic parameters and block rendering.
@Suite("Voice-coil waveform renderer")
struct WaveformRendererTests {
    /// Renders `frames` frames of `pattern` at `rate` in one call.
    static func render(_ pattern: Pattern, rate: Int = 48_000, frames: Int) -> [Float] {
        var renderer = WaveformRenderer(pattern, sampleRate: rate)
        var output = [Float](repeating: .nan, count: frames)
        output.withUnsafeMutableBufferPointer { renderer.render(from: 0, into: $0) }
        return output
    }

    /// Sign changes between consecutive non-zero samples of `samples`.
    static func zeroCrossings<S: Collection<Float>>(_ samples: S) -> Int {
        var count = 0
        var previous: Float = 0
        for sample in samples where sample != 0 {
            if previous != 0 && (sample > 0) != (previous > 0) { count += 1 }
            previous = sample
        }
        return count
    }

    static func transient(at time: Double, intensity: Double = 1, sharpness: Double) -> PatternEvent {
        PatternEvent(kind: .hapticTransient, time: time,
                     parameters: EventParameters(hapticIntensity: intensity, hapticSharpness: sharpness))
    }

    static func continuous(at time: Double, duration: Double, intensity: Double = 1, sharpness: Double,
                           attack: Double? = nil, release: Double? = nil) -> PatternEvent {
        PatternEvent(kind: .hapticContinuous, time: time, duration: duration,
                     parameters: EventParameters(hapticIntensity: intensity, hapticSharpness: sharpness,
                                                 attackTime: attack, releaseTime: release))
    }

    @Test("sharpness maps to 80 Hz at 0, √(80·300) Hz at 0.5 and 300 Hz at 1, clamped outside")
    func frequencyMapping() {
        #expect(VoiceCoilTone.frequency(sharpness: 0) == 80)
        #expect(abs(VoiceCoilTone.frequency(sharpness: 0.5) - (80.0 * 300).squareRoot()) < 1e-9)
        #expect(abs(VoiceCoilTone.frequency(sharpness: 1) - 300) < 1e-9)
        #expect(VoiceCoilTone.frequency(sharpness: -3) == 80)
        #expect(abs(VoiceCoilTone.frequency(sharpness: 7) - 300) < 1e-9)
        #expect(VoiceCoilTone.frequency(sharpness: .nan) == 80)
    }

    @Test("a transient sounds from the frame of its time to 3 cycles later, silence around it")
    func transientOnsetAndLength() {
        // 10 ms at 48 kHz is frame 480; 3 cycles of 80 Hz are 37.5 ms, 1,800 frames.
        let samples = Self.render(Pattern(events: [Self.transient(at: 0.010, sharpness: 0)]), frames: 4_800)
        #expect(samples.firstIndex { $0 != 0 } == 480)
        #expect(samples.lastIndex { $0 != 0 } == 2_279)
        #expect(samples[480..<2_280].allSatisfy { $0 != 0 })
        #expect(WaveformRenderer(Pattern(events: [Self.transient(at: 0.010, sharpness: 0)]), sampleRate: 48_000).frameCount == 2_280)
    }

    @Test("a transient's 3 cycles cross zero 5 times at every sharpness; its length follows its frequency")
    func transientFrequency() {
        for sharpness in [0.0, 0.25, 0.5, 0.75, 1] {
            let samples = Self.render(Pattern(events: [Self.transient(at: 0, sharpness: sharpness)]), frames: 2_000)
            let length = samples.lastIndex { $0 != 0 }! + 1
            #expect(Self.zeroCrossings(samples) == 5, "sharpness \(sharpness)")
            let expected = 3 / VoiceCoilTone.frequency(sharpness: sharpness) * 48_000
            #expect(abs(Double(length) - expected) <= 1, "sharpness \(sharpness): \(length) frames")
        }
    }

    @Test("a transient peaks at 0.9365 × its intensity (a sine's crest under the Hann window); half is half")
    func transientPeak() {
        // max over 0 < x < 1 of sin²(πx)·|sin(6πx)| is 0.93653; 48 kHz samples it within 0.0002 (160 frames a cycle).
        let full = Self.render(Pattern(events: [Self.transient(at: 0, intensity: 1, sharpness: 1)]), frames: 960)
        let half = Self.render(Pattern(events: [Self.transient(at: 0, intensity: 0.5, sharpness: 1)]), frames: 960)
        #expect(abs(Double(full.map(abs).max()!) - 0.93653) < 0.0002)
        #expect(zip(full, half).allSatisfy { $0.0 / 2 == $0.1 })
    }

    @Test("a continuous event's zero crossings are 2·f·T within one, at 48 kHz and 3 kHz")
    func continuousFrequency() {
        for rate in [48_000, 3_000] {
            for sharpness in [0.0, 0.5, 1] {
                let samples = Self.render(Pattern(events: [Self.continuous(at: 0, duration: 1, sharpness: sharpness)]),
                                          rate: rate, frames: rate)
                let expected = 2 * VoiceCoilTone.frequency(sharpness: sharpness)
                #expect(abs(Double(Self.zeroCrossings(samples)) - expected) <= 1, "\(rate) Hz, sharpness \(sharpness)")
            }
        }
    }

    @Test("silence before, between and after events; the frame count ends with the last one")
    func silenceOutsideEvents() {
        let pattern = Pattern(events: [
            Self.continuous(at: 0.1, duration: 0.05, sharpness: 0.3),
            Self.continuous(at: 0.3, duration: 0.05, sharpness: 0.7),
        ])
        let samples = Self.render(pattern, frames: 24_000)
        #expect(samples[..<4_800].allSatisfy { $0 == 0 })
        #expect(samples[4_800] != 0 && samples[7_199] != 0)
        #expect(samples[7_200..<14_400].allSatisfy { $0 == 0 })
        #expect(samples[14_400] != 0 && samples[16_799] != 0)
        #expect(samples[16_800...].allSatisfy { $0 == 0 })
        #expect(WaveformRenderer(pattern, sampleRate: 48_000).frameCount == 16_800)
    }

    @Test("half the intensity is exactly half of every sample; audio events stay silent")
    func intensityScaling() {
        let full = Self.render(Pattern(events: [Self.continuous(at: 0, duration: 0.1, intensity: 1, sharpness: 0.4)]), frames: 4_800)
        let half = Self.render(Pattern(events: [
            Self.continuous(at: 0, duration: 0.1, intensity: 0.5, sharpness: 0.4),
            PatternEvent(kind: .audioContinuous, time: 0, duration: 0.1),
        ]), frames: 4_800)
        #expect(full.contains { $0 > 0.99 })
        #expect(zip(full, half).allSatisfy { $0.0 / 2 == $0.1 })
    }

    @Test("an attack rises linearly from the onset and a release falls to the end")
    func envelope() {
        // 100 ms at 48 kHz: a 50 ms attack, then a 20 ms release; a sine's crest lands near each checked frame.
        let flat = Self.render(Pattern(events: [Self.continuous(at: 0, duration: 0.1, sharpness: 0.5)]), frames: 4_800)
        let shaped = Self.render(Pattern(events: [Self.continuous(at: 0, duration: 0.1, sharpness: 0.5, attack: 0.05, release: 0.02)]),
                                 frames: 4_800)
        for frame in stride(from: 0, to: 4_800, by: 7) where abs(flat[frame]) > 0.1 {
            let time = (Double(frame) + 0.5) / 48_000
            let gain = min(1, time / 0.05) * min(1, (0.1 - time) / 0.02)
            #expect(abs(Double(shaped[frame]) - Double(flat[frame]) * gain) < 1e-6, "frame \(frame)")
        }
    }

    @Test("an intensity control curve scales the level sample by sample, interpolated between its points")
    func intensityCurve() {
        let event = Self.continuous(at: 0, duration: 1, sharpness: 0.5)
        let flat = Self.render(Pattern(events: [event]), rate: 3_000, frames: 3_000)
        let curved = Self.render(Pattern(events: [event], curves: [
            ParameterCurve(id: .hapticIntensityControl, time: 0.2, controlPoints: [.init(time: 0, value: 0), .init(time: 0.5, value: 1)]),
        ]), rate: 3_000, frames: 3_000)
        for frame in 0..<3_000 {
            let time = (Double(frame) + 0.5) / 3_000
            // Before the curve starts there is no control: ×1. Then 0 → 1 over 0.2 … 0.7 s, held after.
            let scale = time < 0.2 ? 1 : min(1, (time - 0.2) / 0.5)
            #expect(abs(Double(curved[frame]) - Double(flat[frame]) * scale) < 1e-6, "frame \(frame)")
        }
    }

    @Test("a step parameter halves the level from its own frame on")
    func intensityStep() {
        let event = Self.continuous(at: 0, duration: 0.2, sharpness: 0.5)
        let flat = Self.render(Pattern(events: [event]), frames: 9_600)
        let stepped = Self.render(Pattern(events: [event], parameters: [
            DynamicParameter(id: .hapticIntensityControl, time: 0.1, value: 0.5),
        ]), frames: 9_600)
        #expect(flat[..<4_800] == stepped[..<4_800])
        #expect(zip(flat[4_800...], stepped[4_800...]).allSatisfy { $0.0 / 2 == $0.1 })
    }

    @Test("a sharpness control curve moves the frequency from 80 Hz to 300 Hz with a continuous phase")
    func sharpnessCurve() {
        let pattern = Pattern(events: [Self.continuous(at: 0, duration: 1, sharpness: 0.5)], curves: [
            ParameterCurve(id: .hapticSharpnessControl, time: 0, controlPoints: [
                .init(time: 0.25, value: -0.5), .init(time: 0.75, value: 0.5),
            ]),
        ])
        let samples = Self.render(pattern, frames: 48_000)
        // The first and last quarter hold 80 Hz and 300 Hz: 40 and 150 crossings within one.
        #expect(abs(Self.zeroCrossings(samples[..<12_000]) - 40) <= 1)
        #expect(abs(Self.zeroCrossings(samples[36_000...]) - 150) <= 1)
        // No jump: consecutive samples differ by at most one step of a 300 Hz full-scale sine.
        let step = Float(2 * Double.pi * 300 / 48_000)
        #expect(zip(samples, samples.dropFirst()).allSatisfy { abs($0.1 - $0.0) <= step })
    }

    @Test("transients take the controls at their onset: intensity scales, sharpness shifts")
    func transientControls() {
        let pattern = Pattern(events: [Self.transient(at: 0.1, sharpness: 0.5)], parameters: [
            DynamicParameter(id: .hapticIntensityControl, time: 0.05, value: 0.5),
            DynamicParameter(id: .hapticSharpnessControl, time: 0.05, value: 0.5),
        ])
        let samples = Self.render(pattern, frames: 9_600)
        let plain = Self.render(Pattern(events: [Self.transient(at: 0.1, sharpness: 1)]), frames: 9_600)
        #expect(zip(plain, samples).allSatisfy { $0.0 / 2 == $0.1 })
    }

    @Test("blocks of 48 frames, and a block that jumps ahead, give the samples of one long render")
    func blocks() {
        let pattern = Pattern(events: [
            Self.transient(at: 0.003, sharpness: 0.9),
            Self.continuous(at: 0.01, duration: 0.3, sharpness: 0.2),
        ], curves: [
            ParameterCurve(id: .hapticSharpnessControl, time: 0, controlPoints: [.init(time: 0, value: 0), .init(time: 0.3, value: 0.6)]),
        ])
        let whole = Self.render(pattern, frames: 19_200)
        var renderer = WaveformRenderer(pattern, sampleRate: 48_000)
        var blocks = [Float](repeating: .nan, count: 19_200)
        blocks.withUnsafeMutableBufferPointer { output in
            for start in stride(from: 0, to: 19_200, by: 48) {
                renderer.render(from: Int64(start), count: 48, into: output.baseAddress! + start)
            }
        }
        #expect(blocks == whole)
        var jumping = WaveformRenderer(pattern, sampleRate: 48_000)
        var late = [Float](repeating: .nan, count: 1_000)
        late.withUnsafeMutableBufferPointer { jumping.render(from: 12_345, into: $0) }
        #expect(late[...] == whole[12_345..<13_345])
        late.withUnsafeMutableBufferPointer { jumping.render(from: 600, into: $0) }
        #expect(late[...] == whole[600..<1_600])
    }

    @Test("overlapping events add up and are clipped to full scale")
    func clipping() {
        let samples = Self.render(Pattern(events: [
            Self.continuous(at: 0, duration: 0.1, sharpness: 0.5),
            Self.continuous(at: 0, duration: 0.1, sharpness: 0.5),
        ]), frames: 4_800)
        #expect(samples.max() == 1 && samples.min() == -1)
    }
}
