#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HapticsPatterns
import HapticsRendering
import HapticsSystem

/// Renders a pattern's haptic events as the waveform a voice-coil actuator plays, block by block,
/// at a fixed sample rate: 48 kHz for the DualSense's USB audio, 3 kHz for its Bluetooth reports.
///
/// ```swift
/// var renderer = WaveformRenderer(pattern, sampleRate: 48_000)
/// renderer.render(from: 0, count: 48, into: buffer)   // the first millisecond
/// ```
///
/// - A transient is a burst of ``VoiceCoilTone/transientCycles`` cycles of a sine under a Hann
///   window; its frequency follows its sharpness (``VoiceCoilTone``) and its peak its intensity,
///   both with the pattern's dynamic parameters at its onset applied.
/// - A continuous event is a sine whose amplitude follows its intensity, its envelope
///   (``EventEnvelope``: attack, decay, release, sustained) and the intensity control, and whose
///   frequency follows its sharpness plus the sharpness control, all sample by sample, curves
///   interpolated; the phase runs on without a jump when the frequency changes.
/// - Events start on the frame nearest their time; frame `n` stands for the instant
///   `(n + 0.5) / sampleRate`, so an event's first frame already sounds. Overlapping events add up
///   and the sum is clipped to −1…1. Audio events are not rendered: they are for the speaker.
///
/// Everything is laid out when the renderer is made; ``render(from:count:into:)`` neither
/// allocates nor locks, so it can run on a realtime thread. Rendering consecutive blocks is what it
/// is made for; a block that does not continue the last one works out each continuous event's
/// phase from its onset (more work, the same samples).
public struct WaveformRenderer: ~Copyable {
    /// Frames per second.
    public let sampleRate: Int
    /// The frame after the pattern's last sounding frame: the renderer's output is silent from it on.
    public let frameCount: Int64

    private let voices: FixedArray<_Voice>
    private let intensityControl: _ControlTrack
    private let sharpnessControl: _ControlTrack
    /// Per-block scratch: the two controls at each frame of one chunk.
    private let intensityScratch: FixedArray<Double>
    private let sharpnessScratch: FixedArray<Double>

    /// How many frames the renderer works on at once; longer blocks are rendered in chunks of it.
    public static let chunkFrames = 256

    /// Lays out the haptic events of `pattern` for rendering at `sampleRate` frames per second (> 0).
    public init(_ pattern: Pattern, sampleRate: Int) {
        precondition(sampleRate > 0, "a sample rate of \(sampleRate) Hz")
        self.sampleRate = sampleRate
        let rate = Double(sampleRate)
        let timeline = ParameterTimeline(pattern)
        let controls = DynamicControls(pattern)
        var voices: [_Voice] = []
        for event in pattern.events where event.kind.isHaptic && event.time.isFinite && event.time >= 0 {
            let onset = Self.frame(event.time, rate: rate)
            let intensity = DynamicControls.clamp(event.parameters.resolvedIntensity, 0, 1)
            let sharpness = DynamicControls.clamp(event.parameters.resolvedSharpness, 0, 1)
            switch event.kind {
            case .hapticTransient:
                let shifted = DynamicControls.clamp(sharpness + controls.sharpnessShift(at: event.time), 0, 1)
                // The frames whose middle lies inside the burst.
                let length = max(1, Int64((VoiceCoilTone.transientDuration(sharpness: shifted) * rate - 0.5).rounded(.up)))
                voices.append(_Voice(
                    kind: .transient, onset: onset, end: onset + length,
                    amplitude: intensity * controls.intensityScale(at: event.time),
                    frequencyOrSharpness: VoiceCoilTone.frequency(sharpness: shifted),
                    attack: 0, decay: 0, release: 0, sustained: true, phase: 0, phaseFrame: onset))
            default:
                let duration = event.resolvedDuration
                guard duration.isFinite, duration > 0 else { continue }
                let end = Self.frame(event.time + duration, rate: rate)
                guard end > onset else { continue }
                let parameters = event.parameters
                voices.append(_Voice(
                    kind: .continuous, onset: onset, end: end, amplitude: intensity, frequencyOrSharpness: sharpness,
                    attack: max(0, parameters.resolvedAttackTime) * controls.timeScale(.hapticAttackTimeControl, at: event.time),
                    decay: max(0, parameters.resolvedDecayTime) * controls.timeScale(.hapticDecayTimeControl, at: event.time),
                    release: max(0, parameters.resolvedReleaseTime) * controls.timeScale(.hapticReleaseTimeControl, at: event.time),
                    sustained: parameters.resolvedSustained, phase: 0, phaseFrame: onset))
            }
        }
        voices.sort { $0.onset < $1.onset }
        frameCount = voices.reduce(0) { max($0, $1.end) }
        self.voices = FixedArray(count: voices.count) { voices[$0] }
        intensityControl = _ControlTrack(.hapticIntensityControl, of: pattern, timeline: timeline, neutral: 1, range: 0...1)
        sharpnessControl = _ControlTrack(.hapticSharpnessControl, of: pattern, timeline: timeline, neutral: 0, range: -1...1)
        intensityScratch = FixedArray(repeating: 0, count: Self.chunkFrames)
        sharpnessScratch = FixedArray(repeating: 0, count: Self.chunkFrames)
    }

    /// The frame nearest `seconds`.
    static func frame(_ seconds: Double, rate: Double) -> Int64 {
        let frame = (seconds * rate).rounded()
        return frame < 9.0e18 ? Int64(frame) : Int64.max / 2
    }

    /// Writes frames `position ..< position + count` of the waveform into `output` (at least
    /// `count` values, −1…1): zeros outside every event. Does not allocate.
    public mutating func render(from position: Int64, count: Int, into output: UnsafeMutablePointer<Float>) {
        var done = 0
        while done < count {
            let chunk = min(Self.chunkFrames, count - done)
            renderChunk(from: position + Int64(done), count: chunk, into: output + done)
            done += chunk
        }
    }

    /// `render(from:count:into:)` into a buffer, all of it.
    public mutating func render(from position: Int64, into output: UnsafeMutableBufferPointer<Float>) {
        guard let base = output.baseAddress else { return }
        render(from: position, count: output.count, into: base)
    }

    private mutating func renderChunk(from position: Int64, count: Int, into output: UnsafeMutablePointer<Float>) {
        let rate = Double(sampleRate)
        let chunkEnd = position + Int64(count)
        var controlsFilled = false
        for index in 0..<count { output[index] = 0 }
        for voiceIndex in 0..<voices.count {
            let voice = voices.base + voiceIndex
            if voice.pointee.onset >= chunkEnd { break }  // sorted by onset: none later sounds here
            if voice.pointee.end <= position { continue }
            let first = max(position, voice.pointee.onset)
            let last = min(chunkEnd, voice.pointee.end)
            switch voice.pointee.kind {
            case .transient:
                let frequency = voice.pointee.frequencyOrSharpness
                let length = VoiceCoilTone.transientCycles / frequency
                for frame in first..<last {
                    let time = (Double(frame - voice.pointee.onset) + 0.5) / rate
                    let window = sin(Double.pi * time / length)
                    output[Int(frame - position)] += Float(voice.pointee.amplitude * window * window * sin(2 * Double.pi * frequency * time))
                }
            case .continuous:
                if !controlsFilled {
                    intensityControl.fill(intensityScratch.base, count: count, firstFrame: position, rate: rate)
                    sharpnessControl.fill(sharpnessScratch.base, count: count, firstFrame: position, rate: rate)
                    controlsFilled = true
                }
                renderContinuous(voice, from: first, to: last, chunkStart: position, into: output)
            }
        }
        for index in 0..<count { output[index] = min(max(output[index], -1), 1) }
    }

    private func renderContinuous(
        _ voice: UnsafeMutablePointer<_Voice>, from first: Int64, to last: Int64, chunkStart: Int64,
        into output: UnsafeMutablePointer<Float>
    ) {
        let rate = Double(sampleRate)
        if voice.pointee.phaseFrame > first {
            voice.pointee.phase = 0
            voice.pointee.phaseFrame = voice.pointee.onset
        }
        if voice.pointee.phaseFrame < first { advancePhase(voice, to: first) }
        let envelope = Self.envelope(voice.pointee, rate: rate)
        var phase = voice.pointee.phase
        // The frequency is worked out again only when the sharpness moves (a `pow` per frame otherwise).
        var sharpness = -1.0
        var step = 0.0
        for frame in first..<last {
            let index = Int(frame - chunkStart)
            let local = (Double(frame - voice.pointee.onset) + 0.5) / rate
            let current = min(max(voice.pointee.frequencyOrSharpness + sharpnessScratch.base[index], 0), 1)
            if current != sharpness {
                sharpness = current
                step = 2 * Double.pi * VoiceCoilTone.frequency(sharpness: sharpness) / rate
            }
            let level = voice.pointee.amplitude * envelope.gain(at: local) * intensityScratch.base[index]
            output[index] += Float(level * sin(phase + step / 2))
            phase += step
            if phase >= 2 * Double.pi { phase -= 2 * Double.pi }
        }
        voice.pointee.phase = phase
        voice.pointee.phaseFrame = last
    }

    /// Runs a voice's phase forward to `frame` (a block that skipped ahead), reading the sharpness
    /// control chunk by chunk into a buffer on the stack.
    private func advancePhase(_ voice: UnsafeMutablePointer<_Voice>, to frame: Int64) {
        let rate = Double(sampleRate)
        var phase = voice.pointee.phase
        var at = voice.pointee.phaseFrame
        while at < frame {
            let count = Int(min(Int64(Self.chunkFrames), frame - at))
            withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.chunkFrames) { shifts in
                sharpnessControl.fill(shifts.baseAddress!, count: count, firstFrame: at, rate: rate)
                for index in 0..<count {
                    let sharpness = min(max(voice.pointee.frequencyOrSharpness + shifts[index], 0), 1)
                    phase += 2 * Double.pi * VoiceCoilTone.frequency(sharpness: sharpness) / rate
                    if phase >= 2 * Double.pi { phase -= 2 * Double.pi }
                }
            }
            at += Int64(count)
        }
        voice.pointee.phase = phase
        voice.pointee.phaseFrame = frame
    }

    private static func envelope(_ voice: _Voice, rate: Double) -> EventEnvelope {
        EventEnvelope(
            duration: Double(voice.end - voice.onset) / rate, attack: voice.attack, decay: voice.decay,
            release: voice.release, sustained: voice.sustained)
    }
}
