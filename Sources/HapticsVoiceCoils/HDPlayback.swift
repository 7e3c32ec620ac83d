import HapticsSystem
import Synchronization

/// How a pattern plays on a pad's voice coils: from which pattern time, at which instant, how
/// loud, looping or once, and until when.
///
/// ```swift
/// // The pattern's 0.5 s point at an instant 20 ms from now, looping every 2 s, at half strength.
/// let playback = HDPlayback(start: .now + .milliseconds(20), offset: .milliseconds(500),
///                           gain: 0.5, loopLength: .seconds(2))
/// ```
public struct HDPlayback: Sendable, Hashable {
    /// The instant at which pattern time ``offset`` sounds.
    public var start: MonotonicInstant
    /// The pattern time that sounds at ``start``; what comes before it is not played.
    public var offset: Duration
    /// The waveform's scale, 0…1 (clamped).
    public var gain: Double
    /// When set, the pattern loops: pattern time runs from 0 to this length and starts over (a
    /// pattern longer than it is cut there, a shorter one is followed by silence). `nil`: once.
    public var loopLength: Duration?
    /// Nothing sounds at or after this instant (`nil`: the pattern's end, or never while looping).
    public var end: MonotonicInstant?

    public init(start: MonotonicInstant, offset: Duration = .zero, gain: Double = 1, loopLength: Duration? = nil,
                end: MonotonicInstant? = nil) {
        self.start = start
        self.offset = max(offset, .zero)
        self.gain = gain.isNaN ? 0 : min(max(gain, 0), 1)
        self.loopLength = loopLength.flatMap { $0 > .zero ? $0 : nil }
        self.end = end
    }
}

/// One play handed to a pad's voice coils (``DualSenseHDHaptics/play(_:_:)``): ends it at an
/// instant, or tells whether it was replaced. Ending a play that was replaced changes nothing.
public final class HDPlay: Sendable {
    let job: _HDJob

    init(job: _HDJob) {
        self.job = job
    }

    /// The playback it was started with (its end as last set).
    public var playback: HDPlayback {
        var playback = job.playback
        let end = job.endNanoseconds.load(ordering: .acquiring)
        playback.end = end == .max ? nil : MonotonicInstant(nanoseconds: end)
        return playback
    }

    /// Plays on at `gain` (0…1, clamped) from `instant` (now when `nil` or passed: from the next
    /// frame written), in place of the gain it was started with. A change waiting for its instant
    /// is replaced by the next one.
    public func setGain(_ gain: Double, at instant: MonotonicInstant? = nil) {
        let clamped = gain.isNaN ? 0 : min(max(gain, 0), 1)
        job.nextGainBits.store(clamped.bitPattern, ordering: .releasing)
        job.gainChangeNanoseconds.store(instant?.nanoseconds ?? .min, ordering: .releasing)
    }

    /// Makes nothing of this play sound at or after `instant` (an instant passed already: from the
    /// next frame written). An earlier end set before stays.
    public func end(at instant: MonotonicInstant) {
        var current = job.endNanoseconds.load(ordering: .relaxed)
        while instant.nanoseconds < current {
            let (exchanged, original) = job.endNanoseconds.compareExchange(
                expected: current, desired: instant.nanoseconds, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }
}

/// A pattern laid out for one stream, with its playback: renders any run of stream frames, frame 0
/// being the one that sounds at the playback's start. Shared by the caller (its end) and the
/// stream's thread (everything else).
final class _HDJob: @unchecked Sendable {
    var renderer: WaveformRenderer
    let playback: HDPlayback
    /// The end as an instant's nanoseconds (`Int64.max`: none); set by ``HDPlay/end(at:)``.
    let endNanoseconds: Atomic<Int64>
    /// The pattern frame at stream frame 0, and the loop's length in frames (0: once).
    let offsetFrames: Int64
    let loopFrames: Int64
    /// Where the stream placed frame 0, once it knows (USB: a frame of its own count).
    var origin: Int64?
    /// Job frames `0..<head.count`, rendered ahead (before the gain), or none.
    private var head: [Float] = []
    /// The gain in effect, and the next one from the instant in `gainChangeNanoseconds`
    /// (`Int64.max`: none waiting); set by ``HDPlay/setGain(_:at:)``, taken by the stream's thread.
    let gainBits: Atomic<UInt64>
    let nextGainBits: Atomic<UInt64>
    let gainChangeNanoseconds = Atomic<Int64>(.max)

    init(renderer: consuming WaveformRenderer, playback: HDPlayback) {
        let rate = Int64(renderer.sampleRate)
        offsetFrames = Self.frames(playback.offset.nanoseconds, rate: rate)
        loopFrames = playback.loopLength.map { max(1, Self.frames($0.nanoseconds, rate: rate)) } ?? 0
        self.renderer = renderer
        self.playback = playback
        endNanoseconds = Atomic(playback.end?.nanoseconds ?? .max)
        gainBits = Atomic(playback.gain.bitPattern)
        nextGainBits = Atomic(playback.gain.bitPattern)
    }

    static func frames(_ nanoseconds: Int64, rate: Int64) -> Int64 {
        nanoseconds.multipliedFullWidth(by: rate).high == 0 && nanoseconds >= 0
            ? (nanoseconds * rate + 500_000_000) / 1_000_000_000
            : Int64((Double(nanoseconds) * Double(rate) / 1e9).rounded())
    }

    /// The first job frame (frame 0 sounding at the start) that must not sound: the end's.
    var endFrame: Int64 { frame(ofInstant: endNanoseconds.load(ordering: .acquiring)) }

    /// The job frame that sounds at the instant `nanoseconds` (`Int64.max` stays it: never).
    private func frame(ofInstant nanoseconds: Int64) -> Int64 {
        if nanoseconds == .max { return .max }
        if nanoseconds == .min { return .min }
        return Self.frames(nanoseconds - playback.start.nanoseconds, rate: Int64(renderer.sampleRate))
    }

    /// Whether nothing sounds from job frame `frame` on.
    func isFinished(at frame: Int64) -> Bool {
        frame >= endFrame || (loopFrames == 0 && offsetFrames + frame >= renderer.frameCount)
    }

    /// Renders job frames `frame..<frame + count` into `output`, at the play's gain: silence
    /// before frame 0 and from the end on; pattern time wraps at the loop length.
    func render(from frame: Int64, count: Int, into output: UnsafeMutablePointer<Float>) {
        // The frames rendered ahead (``prerender(frames:)``), as far as they reach, then the renderer.
        let fromHead = frame >= 0 ? Int(max(0, min(Int64(count), Int64(head.count) - frame))) : 0
        if fromHead > 0 {
            head.withUnsafeBufferPointer { (output).update(from: $0.baseAddress! + Int(frame), count: fromHead) }
            // Rendered before an end was set: nothing sounds from it on.
            let end = endFrame
            if end < frame + Int64(fromHead) {
                let silentFrom = Int(max(0, end - frame))
                (output + silentFrom).update(repeating: 0, count: fromHead - silentFrom)
            }
        }
        renderPattern(from: frame + Int64(fromHead), count: count - fromHead, into: output + fromHead)
        applyGain(from: frame, count: count, to: output)
    }

    /// Renders job frames `0..<frames` now, on the calling thread, for ``render(from:count:into:)``
    /// to copy: what a stream writes first after a handover costs it no rendering.
    func prerender(frames: Int) {
        var samples = [Float](repeating: 0, count: max(0, frames))
        samples.withUnsafeMutableBufferPointer { renderPattern(from: 0, count: $0.count, into: $0.baseAddress!) }
        head = samples
    }

    /// Scales job frames `frame..<frame + count` in `output` by the gain of each; a change whose
    /// frame has come becomes the gain in effect.
    private func applyGain(from first: Int64, count: Int, to output: UnsafeMutablePointer<Float>) {
        let change = gainChangeNanoseconds.load(ordering: .acquiring)
        let changeFrame = frame(ofInstant: change)
        let current = Float(Double(bitPattern: gainBits.load(ordering: .acquiring)))
        let next = Float(Double(bitPattern: nextGainBits.load(ordering: .acquiring)))
        let split = changeFrame <= first ? 0 : changeFrame >= first + Int64(count) ? count : Int(changeFrame - first)
        if current != 1 { for index in 0..<split { output[index] *= current } }
        if next != 1 { for index in split..<count { output[index] *= next } }
        if split < count {
            // Taken: unless a newer change came in the meantime, it is the gain now.
            gainBits.store(Double(next).bitPattern, ordering: .releasing)
            _ = gainChangeNanoseconds.compareExchange(expected: change, desired: .max, ordering: .acquiringAndReleasing)
        }
    }

    private func renderPattern(from frame: Int64, count: Int, into output: UnsafeMutablePointer<Float>) {
        let end = endFrame
        var done = 0
        while done < count {
            let at = frame + Int64(done)
            let left = count - done
            if at < 0 {
                let silent = Int(min(Int64(left), -at))
                (output + done).update(repeating: 0, count: silent)
                done += silent
                continue
            }
            guard at < end else { break }
            var position = offsetFrames + at
            var run = Int(min(Int64(left), end - at))
            if loopFrames > 0 {
                position %= loopFrames
                run = Int(min(Int64(run), loopFrames - position))
            } else if position >= renderer.frameCount {
                break
            }
            renderer.render(from: position, count: run, into: output + done)
            done += run
        }
        if done < count { (output + done).update(repeating: 0, count: count - done) }
    }
}
