/// Decoded 16-bit PCM audio.
public struct WAVAudio: Sendable, Hashable {
    /// Frames per second.
    public var sampleRate: Int
    /// Channels per frame.
    public var channelCount: Int
    /// Samples, interleaved by channel.
    public var samples: [Int16]

    /// Creates audio.
    public init(sampleRate: Int, channelCount: Int, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.samples = samples
    }

    /// Number of frames (one sample per channel each).
    public var frameCount: Int { samples.count / channelCount }

    /// Length in nanoseconds.
    public var duration: Int64 { Int64(frameCount) * 1_000_000_000 / Int64(sampleRate) }
}
