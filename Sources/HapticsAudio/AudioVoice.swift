/// One sound ready for the audio thread: stereo `Float` frames, rendered in full on the control side.
///
/// The frames live in memory the voice allocates once and frees in `deinit`; the audio thread only
/// reads them, so mixing a voice never allocates, locks or retains. Immutable after creation.
public final class AudioVoice: @unchecked Sendable {
    /// Number of stereo frames.
    public let frameCount: Int
    /// Interleaved left/right samples, 2 × ``frameCount``.
    let frames: UnsafeMutablePointer<Float>

    /// Creates a voice from interleaved stereo samples (left, right, left, …).
    public init(stereoSamples: [Float]) {
        precondition(stereoSamples.count % 2 == 0, "stereo samples come in left/right pairs")
        frameCount = stereoSamples.count / 2
        frames = .allocate(capacity: max(1, stereoSamples.count))
        stereoSamples.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { frames.initialize(from: base, count: source.count) }
        }
    }

    deinit {
        frames.deallocate()
    }

    /// A copy of the interleaved stereo samples.
    public var stereoSamples: [Float] {
        Array(UnsafeBufferPointer(start: frames, count: 2 * frameCount))
    }

    /// The left and right sample of `frame`.
    public func frame(_ frame: Int) -> (left: Float, right: Float) {
        (frames[2 * frame], frames[2 * frame + 1])
    }
}
