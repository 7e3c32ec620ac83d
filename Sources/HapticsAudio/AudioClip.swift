/// A sound ready to mix: decoded WAV samples converted to the output rate.
public struct AudioClip: Sendable, Hashable {
    /// Frames per second (the output rate).
    public var sampleRate: Int
    /// Channels per frame: 1 or 2.
    public var channelCount: Int
    /// Samples in −1…1 at ``sampleRate``, interleaved by channel.
    public var samples: [Float]

    /// Creates a clip from samples already at the output rate.
    public init(sampleRate: Int, channelCount: Int, samples: [Float]) {
        precondition(channelCount == 1 || channelCount == 2, "a clip is mono or stereo")
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.samples = samples
    }

    /// Converts decoded WAV audio to `outputRate` with `resampler`.
    public init(_ audio: WAVSamples, outputRate: Int, resampler: Resampler = Resampler()) {
        self.init(sampleRate: outputRate, channelCount: audio.channelCount,
                  samples: resampler.resample(audio.samples, channelCount: audio.channelCount,
                                              from: audio.sampleRate, to: outputRate))
    }

    /// Number of frames.
    public var frameCount: Int { samples.count / channelCount }

    /// The sample of `channel` (0 left, 1 right) at `frame`; a mono clip gives its one channel to both.
    @inline(__always)
    func sample(frame: Int, channel: Int) -> Float {
        samples[frame * channelCount + (channelCount == 1 ? 0 : channel)]
    }
}
