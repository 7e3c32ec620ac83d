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
    ///
    /// Nothing is rendered here: each voice describes how its frames are made as they play (see
    /// ``AudioVoice``) — an `AudioCustom` voice reads its clip in place, looping it for the event's
    /// duration; an `AudioContinuous` voice synthesizes its tone — so making the voices costs time
    /// and memory in the number of events and control points, not in how long they sound
    /// (``storageByteCount(for:)``).
    public func voices(for audio: AudioPattern) -> [ScheduledVoice] {
        precondition(audio.sampleRate == sampleRate,
                     "clips loaded at \(audio.sampleRate) Hz cannot play at \(sampleRate) Hz")
        precondition((1...ToneSynthesizer.maximumHarmonicCount).contains(synthesizer.harmonicCount),
                     "a tone has 1 to \(ToneSynthesizer.maximumHarmonicCount) harmonics, not \(synthesizer.harmonicCount)")
        let controls = AudioControls(audio.pattern)
        let curves = audio.pattern.events.contains { !$0.kind.isHaptic } ? _ControlCurves(audio.pattern) : nil
        var voices: [ScheduledVoice] = []
        for (index, event) in audio.pattern.events.enumerated() {
            let program: _VoiceProgram
            var storage: _SampleStorage?
            switch event.kind {
            case .hapticTransient, .hapticContinuous:
                continue
            case .audioCustom:
                guard let clip = audio.clips[index] else {
                    preconditionFailure("AudioCustom event \(index) has no loaded clip; load with AudioPatternLoader")
                }
                program = clipProgram(clip, event: event, controls: controls, table: curves?.table ?? .none)
                storage = clip.storage
            case .audioContinuous:
                program = toneProgram(event: event, controls: controls, table: curves?.table ?? .none)
            }
            voices.append(ScheduledVoice(
                eventIndex: index,
                frameOffset: Int((event.time * Double(sampleRate)).rounded()),
                timeOffset: Duration(patternSeconds: event.time),
                voice: AudioVoice(program: program, clip: storage, curves: curves)))
        }
        return voices
    }

    /// The memory the voices of `pattern` hold beyond its clips, in bytes: a fixed description per
    /// audio event and the pattern's audio control curves — however long the events last.
    public static func storageByteCount(for pattern: Pattern) -> Int {
        let events = pattern.events.filter { !$0.kind.isHaptic }.count
        guard events > 0 else { return 0 }
        return events * AudioVoice.programByteCount + _ControlCurves.byteCount(for: pattern)
    }

    /// Mixes `voices` into interleaved stereo frames from the pattern start; the length is where the
    /// last voice ends unless `frameCount` is given. Samples are summed without limiting.
    public func mix(_ voices: [ScheduledVoice], frameCount: Int? = nil) -> [Float] {
        let length = frameCount ?? voices.map { $0.frameOffset + $0.voice.frameCount }.max() ?? 0
        var output = [Float](repeating: 0, count: 2 * max(0, length))
        // Voices made as they play are rendered a block at a time, in order, as the audio thread does.
        let block = 4_096
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 2 * block)
        scratch.initialize(repeating: 0, count: 2 * block)
        defer { scratch.deallocate() }
        output.withUnsafeMutableBufferPointer { mixed in
            for placed in voices {
                let first = max(0, placed.frameOffset)
                let last = min(length, placed.frameOffset + placed.voice.frameCount)
                guard first < last else { continue }
                var cursor = _VoiceCursor()
                var frame = first
                while frame < last {
                    let count = min(block, last - frame)
                    placed.voice.render(into: scratch, from: frame - placed.frameOffset, count: count, cursor: &cursor)
                    for index in 0..<2 * count { mixed[2 * frame + index] += scratch[index] }
                    frame += count
                }
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

    /// An `AudioCustom` event: its clip for `EventDuration` (cut short, or wrapping when looped),
    /// else once.
    private func clipProgram(_ clip: AudioClip, event: PatternEvent, controls: AudioControls,
                             table: _ControlTable) -> _VoiceProgram {
        let rate = Double(sampleRate)
        let clipFrames = clip.frameCount
        var frames = clipFrames
        if let duration = event.duration, duration.isFinite, duration >= 0 {
            let wanted = Int((duration * rate).rounded())
            frames = event.waveformLoopEnabled == true ? wanted : min(wanted, clipFrames)
        }
        if clipFrames == 0 { frames = 0 }
        let volume = event.parameters.resolvedAudioVolume
        let pan = event.parameters.resolvedAudioPan
        var program = _VoiceProgram(
            kind: .clip, frameCount: frames, rate: rate, eventTime: event.time,
            envelope: envelope(for: event, duration: Double(frames) / rate, controls: controls), controls: table)
        program.samples = UnsafePointer(clip.storage.base)
        program.clipFrames = clipFrames
        program.clipChannels = clip.channelCount
        program.shaped = event.waveformUseVolumeEnvelope == true
        program.volume = volume
        program.pan = pan
        program.fixedGain = volume * controls.volumeScale(at: event.time)
        program.fixedPanGains = Self.clipGains(pan: pan + controls.panShift(at: event.time), stereo: clip.channelCount == 2)
        return program
    }

    /// Equal-power gains for a mono clip; for a stereo clip a balance that keeps the centre at unity.
    static func clipGains(pan: Double, stereo: Bool) -> (left: Double, right: Double) {
        let pan = min(max(pan, -1), 1)
        if stereo { return (min(1, 1 - pan), min(1, 1 + pan)) }
        return ToneSynthesizer.panGains(pan)
    }

    /// An `AudioContinuous` event: a tone for `EventDuration`.
    private func toneProgram(event: PatternEvent, controls: AudioControls, table: _ControlTable) -> _VoiceProgram {
        let rate = Double(sampleRate)
        let duration = max(0, event.resolvedDuration.isFinite ? event.resolvedDuration : 0)
        let parameters = event.parameters
        var program = _VoiceProgram(
            kind: .tone, frameCount: Int((duration * rate).rounded()), rate: rate, eventTime: event.time,
            envelope: envelope(for: event, duration: duration, controls: controls), controls: table)
        program.synthesizer = synthesizer
        program.duration = duration
        program.volume = parameters.resolvedAudioVolume
        program.pitch = parameters.resolvedAudioPitch
        program.pan = parameters.resolvedAudioPan
        program.brightness = parameters.resolvedAudioBrightness
        // What the pan and pitch give while their controls do not move: the same expressions, once.
        program.fixedPanGains = ToneSynthesizer.panGains(parameters.resolvedAudioPan + AudioControls.clamp(0, -1, 1))
        program.fixedIncrement = synthesizer.frequency(pitch: parameters.resolvedAudioPitch + AudioControls.clamp(0, -1, 1)) / rate
        return program
    }
}
