/// The stream an audio sink plays: frames of one or more channels (stereo unless said otherwise)
/// at a rate, moved a period at a time.
public struct AudioStreamFormat: Sendable, Hashable {
    /// How each sample travels to the device (mixing is always in `Float`).
    public enum SampleFormat: Sendable, Hashable {
        /// Signed 16-bit little-endian integers (`SND_PCM_FORMAT_S16_LE`).
        case signed16
        /// 32-bit little-endian floats (`SND_PCM_FORMAT_FLOAT_LE`).
        case float32
    }

    /// Frames per second.
    public var sampleRate: Int
    /// Frames per period: the unit the audio thread mixes and writes, and the granularity of its
    /// latency measurement.
    public var periodFrames: Int
    /// Periods in the device buffer.
    public var periodCount: Int
    /// The sample format on the wire.
    public var sampleFormat: SampleFormat
    /// Channels per frame: 2 for sound; 4 for a DualSense's sound card, whose channels 2 and 3
    /// drive its actuators.
    public var channelCount: Int

    /// Creates a format. The default is 48 kHz, 256-frame periods (5.3 ms), 4 periods, 16-bit stereo.
    public init(sampleRate: Int = 48_000, periodFrames: Int = 256, periodCount: Int = 4,
                sampleFormat: SampleFormat = .signed16, channelCount: Int = 2) {
        precondition(sampleRate > 0 && periodFrames > 0 && periodCount > 0 && channelCount > 0, "stream sizes must be positive")
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
        self.periodCount = periodCount
        self.sampleFormat = sampleFormat
        self.channelCount = channelCount
    }

    /// Frames in the device buffer.
    public var bufferFrames: Int { periodFrames * periodCount }

    /// How long `frames` frames last, rounded toward zero to the nanosecond.
    public func duration(ofFrames frames: Int64) -> Duration {
        .nanoseconds(nanoseconds(frames: frames))
    }

    /// The frames in `duration`, rounded to the nearest frame (halves away from zero).
    public func frames(in duration: Duration) -> Int64 {
        frames(nanoseconds: duration.nanoseconds)
    }

    /// ``duration(ofFrames:)`` in `Int64` nanoseconds: the spelling of the audio realtime loop, which
    /// keeps instants and spans as integers.
    package func nanoseconds(frames: Int64) -> Int64 {
        frames * 1_000_000_000 / Int64(sampleRate)
    }

    /// ``frames(in:)`` from `Int64` nanoseconds, for the audio realtime loop.
    package func frames(nanoseconds: Int64) -> Int64 {
        let scaled = nanoseconds * Int64(sampleRate)
        let half: Int64 = 500_000_000
        return scaled >= 0 ? (scaled + half) / 1_000_000_000 : -((-scaled + half) / 1_000_000_000)
    }
}
