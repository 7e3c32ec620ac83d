import HapticsPatterns

/// Turns a pattern's audio events into voices placed on its timeline, and mixes them offline.
///
/// Each audio event becomes one ``ScheduledVoice`` whose first frame lies at
/// round(event time × rate) — the exact frame a WAV sink writes it at. Haptic events are ignored.
///
/// - `AudioCustom`: the event's clip, for `EventDuration` when given (cut short, or repeated when
///   `EventWaveformLoopEnabled`), else for the clip's length. Its gain is `AudioVolume` ×
///   `AudioVolumeControl`, shaped by the event envelope only when `EventWaveformUseVolumeEnvelope`
///   is true; `AudioPan` + `AudioPanControl` places it (equal-power for mono clips, balance for
///   stereo ones). Pitch and brightness do not apply to recorded waveforms.
/// - `AudioContinuous`: a ``ToneSynthesizer`` tone for `EventDuration`, its volume, pitch, pan and
///   brightness following the event's values plus the `Audio*Control` parameters and curves at every
///   sample, shaped by the event envelope.
public struct AudioRenderer: Sendable {
    /// Frames per second.
    public var sampleRate: Int
    /// The synthesizer for `AudioContinuous` events.
    public var synthesizer: ToneSynthesizer

    /// Creates a renderer.
    public init(sampleRate: Int = 48_000, synthesizer: ToneSynthesizer = ToneSynthesizer()) {
        self.sampleRate = sampleRate
        self.synthesizer = synthesizer
    }

    /// The voices of `audio`'s audio events, in event order.
    public func voices(for audio: AudioPattern) -> [ScheduledVoice] {
        precondition(audio.sampleRate == sampleRate,
                     "clips loaded at \(audio.sampleRate) Hz cannot play at \(sampleRate) Hz")
        let controls = AudioControls(audio.pattern)
        var voices: [ScheduledVoice] = []
        for (index, event) in audio.pattern.events.enumerated() {
            let samples: [Float]
            switch event.kind {
            case .hapticTransient, .hapticContinuous:
                continue
            case .audioCustom:
                guard let clip = audio.clips[index] else {
                    preconditionFailure("AudioCustom event \(index) has no loaded clip; load with AudioPatternLoader")
                }
                samples = renderClip(clip, event: event, controls: controls)
            case .audioContinuous:
                samples = renderTone(event: event, controls: controls)
            }
            voices.append(ScheduledVoice(
                eventIndex: index,
                frameOffset: Int((event.time * Double(sampleRate)).rounded()),
                timeOffset: Duration(patternSeconds: event.time),
                voice: AudioVoice(stereoSamples: samples)))
        }
        return voices
    }

    /// Mixes `voices` into interleaved stereo frames from the pattern start; the length is where the
    /// last voice ends unless `frameCount` is given. Samples are summed without limiting.
    public func mix(_ voices: [ScheduledVoice], frameCount: Int? = nil) -> [Float] {
        let length = frameCount ?? voices.map { $0.frameOffset + $0.voice.frameCount }.max() ?? 0
        var output = [Float](repeating: 0, count: 2 * length)
        for placed in voices {
            let first = max(0, placed.frameOffset)
            let last = min(length, placed.frameOffset + placed.voice.frameCount)
            guard first < last else { continue }
            for frame in first..<last {
                let source = frame - placed.frameOffset
                output[2 * frame] += placed.voice.frames[2 * source]
                output[2 * frame + 1] += placed.voice.frames[2 * source + 1]
            }
        }
        return output
    }

    /// The whole sound of `audio`, offline: ``voices(for:)`` mixed by ``mix(_:frameCount:)``.
    public func render(_ audio: AudioPattern, frameCount: Int? = nil) -> [Float] {
        mix(voices(for: audio), frameCount: frameCount)
    }

    private func envelope(for event: PatternEvent, duration: Double, controls: AudioControls) -> EventEnvelope {
        let parameters = event.parameters
        return EventEnvelope(
            duration: duration,
            attack: parameters.resolvedAttackTime * controls.timeScale(.audioAttackTimeControl, at: event.time),
            decay: parameters.resolvedDecayTime * controls.timeScale(.audioDecayTimeControl, at: event.time),
            release: parameters.resolvedReleaseTime * controls.timeScale(.audioReleaseTimeControl, at: event.time),
            sustained: parameters.resolvedSustained)
    }

    private func renderClip(_ clip: AudioClip, event: PatternEvent, controls: AudioControls) -> [Float] {
        let rate = Double(sampleRate)
        let clipFrames = clip.frameCount
        var frames = clipFrames
        if let duration = event.duration, duration.isFinite, duration >= 0 {
            let wanted = Int((duration * rate).rounded())
            frames = event.waveformLoopEnabled == true ? wanted : min(wanted, clipFrames)
        }
        guard clipFrames > 0 else { return [] }
        let volume = event.parameters.resolvedAudioVolume
        let pan = event.parameters.resolvedAudioPan
        let shaped = event.waveformUseVolumeEnvelope == true
        let shape = envelope(for: event, duration: Double(frames) / rate, controls: controls)
        let volumeMoves = controls.drives(.audioVolumeControl)
        let panMoves = controls.drives(.audioPanControl)
        var gain = volume * controls.volumeScale(at: event.time)
        var gains = Self.clipGains(pan: pan + controls.panShift(at: event.time), stereo: clip.channelCount == 2)
        var output = [Float](repeating: 0, count: 2 * frames)
        for frame in 0..<frames {
            let local = Double(frame) / rate
            let time = event.time + local
            if volumeMoves { gain = volume * controls.volumeScale(at: time) }
            if panMoves { gains = Self.clipGains(pan: pan + controls.panShift(at: time), stereo: clip.channelCount == 2) }
            let level = shaped ? gain * shape.gain(at: local) : gain
            let source = frame % clipFrames
            output[2 * frame] = Float(level * gains.left * Double(clip.sample(frame: source, channel: 0)))
            output[2 * frame + 1] = Float(level * gains.right * Double(clip.sample(frame: source, channel: 1)))
        }
        return output
    }

    /// Equal-power gains for a mono clip; for a stereo clip a balance that keeps the centre at unity.
    static func clipGains(pan: Double, stereo: Bool) -> (left: Double, right: Double) {
        let pan = min(max(pan, -1), 1)
        if stereo { return (min(1, 1 - pan), min(1, 1 + pan)) }
        return ToneSynthesizer.panGains(pan)
    }

    private func renderTone(event: PatternEvent, controls: AudioControls) -> [Float] {
        let rate = Double(sampleRate)
        let duration = max(0, event.resolvedDuration.isFinite ? event.resolvedDuration : 0)
        let frames = Int((duration * rate).rounded())
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
