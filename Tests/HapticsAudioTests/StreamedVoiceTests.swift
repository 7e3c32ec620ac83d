import Foundation
import HapticsPatterns
import HapticsSystem
import Testing
@testable import HapticsAudio

/// A sink that keeps every period it is given as floats, with position 0 audible at `origin`.
final class RecordingSink: AudioSink, @unchecked Sendable {
    let format: AudioStreamFormat
    let origin = MonotonicInstant(nanoseconds: 1_000_000_000)
    var written: [Float] = []

    init(periodFrames: Int) {
        format = AudioStreamFormat(periodFrames: periodFrames)
    }

    func open() throws(AudioSinkError) -> AudioTimestamp? {
        AudioTimestamp(framesWritten: 0, delayFrames: 0, instant: origin)
    }

    func write(_ frames: UnsafePointer<Float>) -> AudioSinkWrite {
        written += UnsafeBufferPointer(start: frames, count: 2 * format.periodFrames)
        return AudioSinkWrite(status: .written, timestamp: nil)
    }

    func close() {}
}

/// Voices made as they play — looped clips and synthesized tones — give the frames that rendering
/// the event in full up front gave, to the bit, through the audio thread's periods too.
@Suite struct StreamedVoiceTests {
    let rate = 48_000

    /// The controls every voice below follows: steps and curves on each of the four per-sample
    /// controls, a step and a curve starting together, unsorted and non-finite points, a source of
    /// another parameter in between.
    var controls: (parameters: [DynamicParameter], curves: [ParameterCurve]) {
        let parameters = [
            DynamicParameter(id: .audioPitchControl, time: 0.02, value: 0.5),
            DynamicParameter(id: .hapticIntensityControl, time: 0.03, value: 0.2),
            DynamicParameter(id: .audioPanControl, time: 0.05, value: -0.7),
            DynamicParameter(id: .audioVolumeControl, time: 0.06, value: 0.4),
            DynamicParameter(id: .audioBrightnessControl, time: 0.01, value: -0.5),
            DynamicParameter(id: .audioVolumeControl, time: .nan, value: 1),
        ]
        let curves = [
            ParameterCurve(id: .audioVolumeControl, time: 0.01, controlPoints: [
                .init(time: 0.04, value: 0.2), .init(time: 0, value: 1), .init(time: 0.02, value: 0.6),
                .init(time: 0.02, value: 0.9), .init(time: .infinity, value: 0),
            ]),
            ParameterCurve(id: .audioPitchControl, time: 0.02, controlPoints: [
                .init(time: 0, value: -1), .init(time: 0.05, value: 1),
            ]),
            ParameterCurve(id: .audioPanControl, time: 0, controlPoints: [
                .init(time: 0.01, value: -1), .init(time: 0.09, value: 1),
            ]),
            ParameterCurve(id: .audioBrightnessControl, time: 0.04, controlPoints: [
                .init(time: 0, value: 0.5), .init(time: 0.03, value: -1),
            ]),
        ]
        return (parameters, curves)
    }

    @Test func theControlCurvesReadAsTheParameterTimelineDoes() {
        let pattern = Pattern(events: [], parameters: controls.parameters, curves: controls.curves)
        let timeline = ParameterTimeline(pattern)
        let curves = _ControlCurves(pattern)
        let table = curves.table
        for (id, curve) in [(DynamicParameterID.audioVolumeControl, table.volume), (.audioPitchControl, table.pitch),
                            (.audioPanControl, table.pan), (.audioBrightnessControl, table.brightness)] {
            var cursor = _CurveCursor()
            for frame in 0..<7_200 {
                let time = 0.003 + Double(frame) / Double(rate)
                #expect(curve.value(at: time, &cursor) == timeline.value(id, at: time), "\(id) at \(time)")
            }
        }
        #expect(curves.byteCount == _ControlCurves.byteCount(for: pattern))
        // Five finite sources of volume, pitch, pan and brightness … and their points.
        #expect(curves.byteCount == 8 * MemoryLayout<_ControlCurves.Source>.stride
            + 14 * MemoryLayout<_ControlCurves.Point>.stride)
    }

    /// The pattern: a tone, a looped mono clip with its envelope, a stereo clip cut short.
    func pattern(mono: AudioClip, stereo: AudioClip) -> AudioPattern {
        let events = [
            PatternEvent(kind: .hapticTransient, time: 0),
            PatternEvent(kind: .audioContinuous, time: 0.003, duration: 0.15, parameters: EventParameters(
                attackTime: 0.01, decayTime: 0.05, releaseTime: 0.02, sustained: false, audioVolume: 0.8,
                audioPitch: 0.1, audioPan: 0.2, audioBrightness: 0.7)),
            PatternEvent(kind: .audioCustom, time: 0.01, duration: 0.12, waveformPath: "loop.wav",
                         waveformUseVolumeEnvelope: true, waveformLoopEnabled: true,
                         parameters: EventParameters(attackTime: 0.02, releaseTime: 0.03, audioVolume: 0.9, audioPan: -0.3)),
            PatternEvent(kind: .audioCustom, time: 0.02, duration: 0.01, waveformPath: "stereo.wav",
                         parameters: EventParameters(audioVolume: 0.6, audioPan: 0.4)),
        ]
        return AudioPattern(pattern: Pattern(events: events, parameters: controls.parameters, curves: controls.curves),
                            sampleRate: rate, clips: [2: mono, 3: stereo])
    }

    var clips: (mono: AudioClip, stereo: AudioClip) {
        let mono = AudioClip(sampleRate: rate, channelCount: 1,
                             samples: (0..<331).map { Float(sin(Double($0) * 0.37)) * 0.9 })
        let stereo = AudioClip(sampleRate: rate, channelCount: 2,
                               samples: (0..<2_000).map { Float(cos(Double($0) * 0.11)) * 0.5 })
        return (mono, stereo)
    }

    @Test func aVoiceMadeAsItPlaysIsTheUpFrontRenderingToTheBit() {
        let audio = pattern(mono: clips.mono, stereo: clips.stereo)
        let voices = AudioRenderer().voices(for: audio)
        #expect(voices.map(\.eventIndex) == [1, 2, 3])
        let reference = UpFrontRendering(sampleRate: rate)
        #expect(voices[0].voice.stereoSamples == reference.tone(event: audio.pattern.events[1], pattern: audio.pattern))
        #expect(voices[1].voice.stereoSamples
            == reference.clip(clips.mono, event: audio.pattern.events[2], pattern: audio.pattern))
        #expect(voices[2].voice.stereoSamples
            == reference.clip(clips.stereo, event: audio.pattern.events[3], pattern: audio.pattern))
        #expect(voices[1].voice.frameCount == 5_760)   // 120 ms of a 331-frame clip, looped
        // Random access gives the same frames (a tone computes its phase up to the frame).
        let tone = voices[0].voice.stereoSamples
        for frame in [0, 1, 4_321, 7_199] {
            #expect(voices[0].voice.frame(frame) == (tone[2 * frame], tone[2 * frame + 1]))
        }
    }

    @Test func theAudioThreadMakesTheSameFramesPeriodByPeriod() throws {
        let audio = pattern(mono: clips.mono, stereo: clips.stereo)
        let voices = AudioRenderer().voices(for: audio)
        // 100-frame periods: every voice starts and ends inside a period, none on a boundary.
        let sink = RecordingSink(periodFrames: 100)
        let output = AudioOutput(sink: sink)
        try output.open()
        #expect(output.schedule(voices, patternStart: sink.origin) == 3)
        // The tone again, 1 000 frames later, on top of itself: each playing voice has its own cursor.
        let later = sink.origin.advanced(by: sink.format.duration(ofFrames: 1_000) + voices[0].timeOffset)
        #expect(output.schedule(voices[0].voice, audibleAt: later))
        for _ in 0..<90 { output.process() }
        output.stop()
        var expected = AudioRenderer().mix(voices, frameCount: 9_000)
        let tone = voices[0].voice.stereoSamples
        for (index, sample) in tone.enumerated() { expected[2 * (voices[0].frameOffset + 1_000) + index] += sample }
        #expect(sink.written == expected)
        #expect(output.statistics.completed == 4)
    }
}

/// The pattern's sound rendered in full, frame by frame, as the renderer did before voices were
/// made as they play: the reference the streamed voices must equal.
struct UpFrontRendering {
    let sampleRate: Int
    let synthesizer = ToneSynthesizer()

    func envelope(for event: PatternEvent, duration: Double, controls: AudioControls) -> EventEnvelope {
        let parameters = event.parameters
        return EventEnvelope(
            duration: duration,
            attack: parameters.resolvedAttackTime * controls.timeScale(.audioAttackTimeControl, at: event.time),
            decay: parameters.resolvedDecayTime * controls.timeScale(.audioDecayTimeControl, at: event.time),
            release: parameters.resolvedReleaseTime * controls.timeScale(.audioReleaseTimeControl, at: event.time),
            sustained: parameters.resolvedSustained)
    }

    func clip(_ clip: AudioClip, event: PatternEvent, pattern: Pattern) -> [Float] {
        let controls = AudioControls(pattern)
        let rate = Double(sampleRate)
        let clipFrames = clip.frameCount
        var frames = clipFrames
        if let duration = event.duration, duration.isFinite, duration >= 0 {
            let wanted = Int((duration * rate).rounded())
            frames = event.waveformLoopEnabled == true ? wanted : min(wanted, clipFrames)
        }
        let samples = clip.samples
        let volume = event.parameters.resolvedAudioVolume
        let pan = event.parameters.resolvedAudioPan
        let shaped = event.waveformUseVolumeEnvelope == true
        let shape = envelope(for: event, duration: Double(frames) / rate, controls: controls)
        let volumeMoves = controls.drives(.audioVolumeControl)
        let panMoves = controls.drives(.audioPanControl)
        var gain = volume * controls.volumeScale(at: event.time)
        var gains = AudioRenderer.clipGains(pan: pan + controls.panShift(at: event.time), stereo: clip.channelCount == 2)
        var output = [Float](repeating: 0, count: 2 * frames)
        for frame in 0..<frames {
            let local = Double(frame) / rate
            let time = event.time + local
            if volumeMoves { gain = volume * controls.volumeScale(at: time) }
            if panMoves {
                gains = AudioRenderer.clipGains(pan: pan + controls.panShift(at: time), stereo: clip.channelCount == 2)
            }
            let level = shaped ? gain * shape.gain(at: local) : gain
            let source = (frame % clipFrames) * clip.channelCount
            output[2 * frame] = Float(level * gains.left * Double(samples[source]))
            output[2 * frame + 1] = Float(level * gains.right * Double(samples[source + clip.channelCount - 1]))
        }
        return output
    }

    /// The tone's frames, or its first `limit` frames.
    func tone(event: PatternEvent, pattern: Pattern, limit: Int? = nil) -> [Float] {
        let controls = AudioControls(pattern)
        let rate = Double(sampleRate)
        let duration = max(0, event.resolvedDuration.isFinite ? event.resolvedDuration : 0)
        let frames = min(Int((duration * rate).rounded()), limit ?? .max)
        let parameters = event.parameters
        let shape = envelope(for: event, duration: duration, controls: controls)
        var output = [Float](repeating: 0, count: 2 * frames)
        var phase = 0.0
        for frame in 0..<frames {
            let local = Double(frame) / rate
            let time = event.time + local
            let volume = parameters.resolvedAudioVolume * controls.volumeScale(at: time)
            let pitch = parameters.resolvedAudioPitch + controls.pitchShift(at: time)
            let pan = parameters.resolvedAudioPan + controls.panShift(at: time)
            let brightness = min(max(parameters.resolvedAudioBrightness + controls.brightnessShift(at: time), 0), 1)
            let level = volume * shape.gain(at: local) * synthesizer.declickGain(at: local, duration: duration)
            let value = level * synthesizer.waveform(phase: phase, brightness: brightness)
            let gains = ToneSynthesizer.panGains(pan)
            output[2 * frame] = Float(value * gains.left)
            output[2 * frame + 1] = Float(value * gains.right)
            phase += synthesizer.frequency(pitch: pitch) / rate
            phase -= phase.rounded(.down)
        }
        return output
    }
}
