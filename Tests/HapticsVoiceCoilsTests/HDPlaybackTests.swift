import HapticsPatterns
import HapticsSystem
import Testing
@testable import HapticsVoiceCoils

/// A play's timing on the voice coils: pattern time from an offset, a loop, an end, a gain — every
/// frame compared with the renderer's own output at the pattern time it stands for.
@Suite("HD playback")
struct HDPlaybackTests {
    /// A transient at 0 and a continuous event from 10 ms to 30 ms: 40 frames of pattern at 1 kHz.
    static let pattern = Pattern(events: [
        PatternEvent(kind: .hapticTransient, time: 0, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 1)),
        PatternEvent(kind: .hapticContinuous, time: 0.01, duration: 0.02, parameters: EventParameters(hapticIntensity: 0.5, hapticSharpness: 0)),
    ])
    static let rate = 1_000

    /// The pattern's frames, rendered from 0 in one go, then silence up to `count`.
    static func reference(count: Int) -> [Float] {
        var renderer = WaveformRenderer(pattern, sampleRate: rate)
        var frames = [Float](repeating: 0, count: count)
        frames.withUnsafeMutableBufferPointer { renderer.render(from: 0, into: $0) }
        return frames
    }

    /// Job frames `from..<from + count` of `playback`, rendered in blocks of `block`.
    static func render(_ playback: HDPlayback, from: Int64, count: Int, block: Int = 7) -> [Float] {
        let job = _HDJob(renderer: WaveformRenderer(pattern, sampleRate: rate), playback: playback)
        var frames = [Float](repeating: .nan, count: count)
        frames.withUnsafeMutableBufferPointer { buffer in
            var done = 0
            while done < count {
                let run = min(block, count - done)
                job.render(from: from + Int64(done), count: run, into: buffer.baseAddress! + done)
                done += run
            }
        }
        return frames
    }

    static let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test("from an offset: frame n is pattern frame offset + n; silence before frame 0 and after the pattern")
    func offset() {
        let reference = Self.reference(count: 200)
        let frames = Self.render(HDPlayback(start: Self.start, offset: .milliseconds(12)), from: -5, count: 100)
        #expect(frames == Array(repeating: 0, count: 5) + Array(reference[12..<107]))
        let job = _HDJob(renderer: WaveformRenderer(Self.pattern, sampleRate: Self.rate), playback: HDPlayback(start: Self.start, offset: .milliseconds(12)))
        let end = WaveformRenderer(Self.pattern, sampleRate: Self.rate).frameCount - 12
        #expect(!job.isFinished(at: end - 1) && job.isFinished(at: end))
    }

    @Test("looping: pattern time wraps at the loop length, a pattern longer than the loop is cut there")
    func loop() {
        let reference = Self.reference(count: 200)
        let long = Self.render(HDPlayback(start: Self.start, loopLength: .milliseconds(50)), from: 0, count: 160)
        #expect(long == (0..<160).map { reference[$0 % 50] })
        let cut = Self.render(HDPlayback(start: Self.start, offset: .milliseconds(5), loopLength: .milliseconds(20)), from: 0, count: 60)
        #expect(cut == (0..<60).map { reference[($0 + 5) % 20] })
        let job = _HDJob(renderer: WaveformRenderer(Self.pattern, sampleRate: Self.rate), playback: HDPlayback(start: Self.start, loopLength: .milliseconds(20)))
        #expect(!job.isFinished(at: 1_000_000))
    }

    @Test("an end: nothing from the end's frame on, however it is set; an earlier end stays")
    func end() {
        let reference = Self.reference(count: 100)
        let ended = Self.render(HDPlayback(start: Self.start, end: Self.start + .milliseconds(15)), from: 0, count: 40)
        #expect(ended == Array(reference[0..<15]) + Array(repeating: 0, count: 25))
        let job = _HDJob(renderer: WaveformRenderer(Self.pattern, sampleRate: Self.rate), playback: HDPlayback(start: Self.start, loopLength: .milliseconds(20)))
        let play = HDPlay(job: job)
        play.end(at: Self.start + .milliseconds(30))
        play.end(at: Self.start + .milliseconds(45))
        #expect(play.playback.end == Self.start + .milliseconds(30))
        #expect(!job.isFinished(at: 29) && job.isFinished(at: 30))
    }

    @Test("a gain scales every frame; out-of-range gains are clamped")
    func gain() {
        let reference = Self.reference(count: 60)
        let half = Self.render(HDPlayback(start: Self.start, gain: 0.5), from: 0, count: 60)
        #expect(half == reference.map { $0 * 0.5 })
        #expect(HDPlayback(start: Self.start, gain: 3).gain == 1 && HDPlayback(start: Self.start, gain: -1).gain == 0)
        #expect(HDPlayback(start: Self.start, gain: .nan).gain == 0)
        #expect(HDPlayback(start: Self.start, offset: .milliseconds(-4)).offset == .zero)
    }

    @Test("a gain change takes effect on the frame of its instant; one without an instant on the next frame rendered")
    func gainChange() {
        let reference = Self.reference(count: 60)
        let job = _HDJob(renderer: WaveformRenderer(Self.pattern, sampleRate: Self.rate), playback: HDPlayback(start: Self.start, gain: 0.5))
        let play = HDPlay(job: job)
        play.setGain(0.25, at: Self.start + .milliseconds(13))
        var frames = [Float](repeating: .nan, count: 60)
        frames.withUnsafeMutableBufferPointer { buffer in
            job.render(from: 0, count: 20, into: buffer.baseAddress!)
            play.setGain(1)
            job.render(from: 20, count: 40, into: buffer.baseAddress! + 20)
        }
        #expect(frames == reference[0..<13].map { $0 * 0.5 } + reference[13..<20].map { $0 * 0.25 } + Array(reference[20..<60]))
        #expect(HDPlay(job: job).playback.gain == 0.5, "the playback keeps the gain it started with")
    }
}
