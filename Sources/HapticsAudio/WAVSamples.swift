/// Decoded WAV audio as floating-point samples in −1…1, mono or stereo.
public struct WAVSamples: Sendable, Hashable {
    /// Frames per second.
    public var sampleRate: Int
    /// Channels per frame: 1 or 2.
    public var channelCount: Int
    /// How the file stored its samples.
    public var encoding: WAVSampleEncoding
    /// Samples, interleaved by channel.
    public var samples: [Float]

    /// Creates decoded audio.
    public init(sampleRate: Int, channelCount: Int, encoding: WAVSampleEncoding, samples: [Float]) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.encoding = encoding
        self.samples = samples
    }

    /// Number of frames (one sample per channel each).
    public var frameCount: Int { samples.count / channelCount }

    /// The samples as the integers a ``WAVSampleEncoding/signedInteger16`` file stores, or `nil`
    /// for any other encoding.
    ///
    /// Exact: the reader divided each by 32 768, which a `Float` holds without rounding.
    public var pcm16Samples: [Int16]? {
        guard encoding == .signedInteger16 else { return nil }
        return samples.map { Int16($0 * 32_768) }
    }
}
