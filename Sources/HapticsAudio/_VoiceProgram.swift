import HapticsPatterns

/// How to make a voice's frames as they are played, instead of holding them: a clip read in place
/// (once or looped) or a synthesized tone, each shaped by its event's values, envelope and controls.
///
/// Plain values and pointers fixed when the voice is made (the clip's samples, the pattern's control
/// curves, both kept alive by the voice), so the audio thread renders a period with no allocation,
/// no lock and no retain, at a bounded cost per frame: memory does not follow the event's duration.
/// The arithmetic is the same, in the same order, as rendering the event in full, so a frame
/// rendered here is the frame that would have been rendered up front, to the bit.
struct _VoiceProgram {
    enum Kind {
        /// `clip` played from frame 0, wrapping at its end (a looped `AudioCustom` event).
        case clip
        /// A ``ToneSynthesizer`` tone (`AudioContinuous`).
        case tone
    }

    var kind: Kind
    /// Frames the voice lasts.
    var frameCount: Int
    /// Frames per second.
    var rate: Double
    /// The event's time in the pattern (where the controls are read from), seconds.
    var eventTime: Double
    /// The event's volume envelope over its local time.
    var envelope: EventEnvelope
    /// The pattern's per-sample controls.
    var controls: _ControlTable

    // A clip.
    var samples: UnsafePointer<Float>?
    var clipFrames = 0
    var clipChannels = 1
    /// Whether the envelope shapes the clip (`EventWaveformUseVolumeEnvelope`).
    var shaped = false

    // Both: the event's own values, before the controls.
    var volume = 1.0
    var pan = 0.0
    /// The gain and pan gains while the volume and pan controls do not move.
    var fixedGain = 1.0
    var fixedPanGains = (left: 1.0, right: 1.0)

    // A tone.
    var synthesizer = ToneSynthesizer()
    var duration = 0.0
    var pitch = 0.0
    var brightness = 0.0
    /// The phase step per frame while the pitch control does not move.
    var fixedIncrement = 0.0

    /// Renders frames `from ..< from + count` as interleaved stereo into `output`. `cursor` is the
    /// voice's own state; it must have rendered up to `from` (else it catches up first).
    func render(into output: UnsafeMutablePointer<Float>, from: Int, count: Int, cursor: inout _VoiceCursor) {
        if cursor.next != from { catchUp(to: from, &cursor) }
        switch kind {
        case .clip: renderClip(into: output, from: from, count: count, &cursor)
        case .tone: renderTone(into: output, from: from, count: count, &cursor)
        }
        cursor.next = from + count
    }

    private func renderClip(into output: UnsafeMutablePointer<Float>, from: Int, count: Int,
                            _ cursor: inout _VoiceCursor) {
        guard let samples, clipFrames > 0 else {
            output.update(repeating: 0, count: 2 * count)
            return
        }
        let volumeMoves = controls.volume.drives
        let panMoves = controls.pan.drives
        let right = clipChannels == 1 ? 0 : 1
        var gain = fixedGain
        var gains = fixedPanGains
        for index in 0..<count {
            let frame = from + index
            let local = Double(frame) / rate
            let time = eventTime + local
            if volumeMoves { gain = volume * controls.volumeScale(at: time, &cursor.controls) }
            if panMoves {
                gains = AudioRenderer.clipGains(pan: pan + controls.panShift(at: time, &cursor.controls),
                                                stereo: clipChannels == 2)
            }
            let level = shaped ? gain * envelope.gain(at: local) : gain
            let source = (frame % clipFrames) * clipChannels
            output[2 * index] = Float(level * gains.left * Double(samples[source]))
            output[2 * index + 1] = Float(level * gains.right * Double(samples[source + right]))
        }
    }

    private func renderTone(into output: UnsafeMutablePointer<Float>, from: Int, count: Int,
                            _ cursor: inout _VoiceCursor) {
        let panMoves = controls.pan.drives
        let pitchMoves = controls.pitch.drives
        for index in 0..<count {
            let frame = from + index
            let local = Double(frame) / rate
            let time = eventTime + local
            let volume = self.volume * controls.volumeScale(at: time, &cursor.controls)
            let pitch = self.pitch + controls.pitchShift(at: time, &cursor.controls)
            let brightness = min(max(self.brightness + controls.brightnessShift(at: time, &cursor.controls), 0), 1)
            let level = volume * envelope.gain(at: local) * synthesizer.declickGain(at: local, duration: duration)
            let value = level * synthesizer.waveform(phase: cursor.phase, brightness: brightness)
            let gains = panMoves ? ToneSynthesizer.panGains(pan + controls.panShift(at: time, &cursor.controls))
                : fixedPanGains
            output[2 * index] = Float(value * gains.left)
            output[2 * index + 1] = Float(value * gains.right)
            cursor.phase += pitchMoves ? synthesizer.frequency(pitch: pitch) / rate : fixedIncrement
            cursor.phase -= cursor.phase.rounded(.down)
        }
    }

    /// Brings `cursor` to frame `frame` without rendering: from the start again if it is past it.
    /// Mixing renders every voice forward, period after period, so the audio thread never needs
    /// this; random access (``AudioVoice/frame(_:)``) does.
    private func catchUp(to frame: Int, _ cursor: inout _VoiceCursor) {
        if frame < cursor.next { cursor = _VoiceCursor() }
        if kind == .tone {
            // Only the phase carries history: it is the sum of the steps so far.
            let pitchMoves = controls.pitch.drives
            for past in cursor.next..<frame {
                let time = eventTime + Double(past) / rate
                cursor.phase += pitchMoves
                    ? synthesizer.frequency(pitch: pitch + controls.pitchShift(at: time, &cursor.controls)) / rate
                    : fixedIncrement
                cursor.phase -= cursor.phase.rounded(.down)
            }
        }
        cursor.next = frame
    }
}

/// Where one playing voice is in its program: the next frame, the tone's phase, the controls'
/// cursors. Held by the audio thread in its fixed voice slots, one per playing voice, so one voice
/// scheduled twice plays twice independently.
struct _VoiceCursor {
    var next = 0
    var phase = 0.0
    var controls = _ControlCursor()
}
