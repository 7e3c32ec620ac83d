/// A sound ready to mix: decoded WAV samples converted to the output rate.
///
/// The samples are held once, in storage the clip's voices share: a voice playing the clip — once,
/// or looped for an event's whole duration — reads them in place instead of a copy.
public struct AudioClip: Sendable, Hashable {
    /// Frames per second (the output rate).
    public var sampleRate: Int
    /// Channels per frame: 1 or 2.
    public var channelCount: Int
    /// The samples, shared by every copy of the clip and its voices; setting them stores new ones.
    var storage: _SampleStorage

    /// Samples in −1…1 at ``sampleRate``, interleaved by channel.
    public var samples: [Float] {
        get { storage.array }
        set { storage = _SampleStorage(newValue) }
    }

    /// Creates a clip from samples already at the output rate.
    public init(sampleRate: Int, channelCount: Int, samples: [Float]) {
        precondition(channelCount == 1 || channelCount == 2, "a clip is mono or stereo")
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        storage = _SampleStorage(samples)
    }

    /// Converts decoded WAV audio to `outputRate` with `resampler`.
    public init(_ audio: WAVSamples, outputRate: Int, resampler: Resampler = Resampler()) {
        self.init(sampleRate: outputRate, channelCount: audio.channelCount,
                  samples: resampler.resample(audio.samples, channelCount: audio.channelCount,
                                              from: audio.sampleRate, to: outputRate))
    }

    /// Number of frames.
    public var frameCount: Int { storage.count / channelCount }

    /// The memory the samples take, in bytes (4 per sample).
    public var byteCount: Int { storage.count * MemoryLayout<Float>.stride }

    /// The sample of `channel` (0 left, 1 right) at `frame`; a mono clip gives its one channel to both.
    @inline(__always)
    func sample(frame: Int, channel: Int) -> Float {
        storage.base[frame * channelCount + (channelCount == 1 ? 0 : channel)]
    }

    /// Same rate, channels and samples.
    public static func == (lhs: AudioClip, rhs: AudioClip) -> Bool {
        lhs.sampleRate == rhs.sampleRate && lhs.channelCount == rhs.channelCount
            && lhs.storage.elementsEqual(rhs.storage)
    }

    /// Hashes the rate, the channels and the samples.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(sampleRate)
        hasher.combine(channelCount)
        hasher.combine(storage.count)
        for index in 0..<storage.count { hasher.combine(storage.base[index]) }
    }
}
