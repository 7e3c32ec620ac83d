/// One sound ready for the audio thread: stereo `Float` frames, either held (rendered in full on the
/// control side) or made as they play from a fixed description — a clip read in place, once or
/// looped, or a synthesized tone — so that memory does not follow how long the sound lasts.
///
/// Either way the audio thread only reads what the voice fixed at creation: mixing a voice never
/// allocates, locks or retains, and a period of a made-as-played voice costs a bounded amount of
/// arithmetic per frame. Immutable after creation; one voice may be scheduled many times at once.
public final class AudioVoice: @unchecked Sendable {
    /// Number of stereo frames.
    public let frameCount: Int
    /// Interleaved left/right samples, 2 × ``frameCount``, for a voice made from samples.
    let frames: UnsafeMutablePointer<Float>?
    /// How the frames are made as they play, for a clip or tone voice.
    let program: UnsafeMutablePointer<_VoiceProgram>?
    /// What the program reads: the clip's samples and the pattern's control curves.
    private let clipStorage: _SampleStorage?
    private let curves: _ControlCurves?

    /// Creates a voice from interleaved stereo samples (left, right, left, …).
    public init(stereoSamples: [Float]) {
        precondition(stereoSamples.count % 2 == 0, "stereo samples come in left/right pairs")
        frameCount = stereoSamples.count / 2
        let frames = UnsafeMutablePointer<Float>.allocate(capacity: max(1, stereoSamples.count))
        stereoSamples.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { frames.initialize(from: base, count: source.count) }
        }
        self.frames = frames
        program = nil
        clipStorage = nil
        curves = nil
    }

    /// A voice made as it plays by `program`, which reads `clip`'s samples and `curves`.
    init(program: _VoiceProgram, clip: _SampleStorage?, curves: _ControlCurves?) {
        frameCount = program.frameCount
        frames = nil
        let stored = UnsafeMutablePointer<_VoiceProgram>.allocate(capacity: 1)
        stored.initialize(to: program)
        self.program = stored
        clipStorage = clip
        self.curves = curves
    }

    deinit {
        frames?.deallocate()
        if let program {
            program.deinitialize(count: 1)
            program.deallocate()
        }
    }

    /// The memory the voice holds itself, in bytes: its frames, or its description of them (not
    /// the clip or control curves it shares with other voices).
    public var byteCount: Int {
        frames != nil ? 2 * max(1, frameCount) * MemoryLayout<Float>.stride : Self.programByteCount
    }

    /// What a voice made as it plays holds itself, in bytes, however long it lasts.
    static var programByteCount: Int { MemoryLayout<_VoiceProgram>.stride }

    /// A copy of the interleaved stereo samples. A clip or tone voice renders them now, in full.
    public var stereoSamples: [Float] {
        if let frames { return Array(UnsafeBufferPointer(start: frames, count: 2 * frameCount)) }
        var samples = [Float](repeating: 0, count: 2 * frameCount)
        samples.withUnsafeMutableBufferPointer { buffer in
            var cursor = _VoiceCursor()
            if let base = buffer.baseAddress { render(into: base, from: 0, count: frameCount, cursor: &cursor) }
        }
        return samples
    }

    /// The left and right sample of `frame`. A tone voice computes the tone up to it (its phase is
    /// the sum of every step before).
    public func frame(_ frame: Int) -> (left: Float, right: Float) {
        precondition(frame >= 0 && frame < frameCount, "frame \(frame) is outside the voice's \(frameCount) frames")
        if let frames { return (frames[2 * frame], frames[2 * frame + 1]) }
        var pair: (Float, Float) = (0, 0)
        withUnsafeMutableBytes(of: &pair) { bytes in
            var cursor = _VoiceCursor()
            render(into: bytes.baseAddress!.assumingMemoryBound(to: Float.self), from: frame, count: 1, cursor: &cursor)
        }
        return pair
    }

    /// Renders frames `from ..< from + count` of a clip or tone voice into `output` (interleaved).
    func render(into output: UnsafeMutablePointer<Float>, from: Int, count: Int, cursor: inout _VoiceCursor) {
        if let frames {
            output.update(from: frames + 2 * from, count: 2 * count)
        } else if let program {
            program.pointee.render(into: output, from: from, count: count, cursor: &cursor)
        }
    }
}
