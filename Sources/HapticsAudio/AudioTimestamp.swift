import HapticsSystem

/// One reading of where a stream is: at `instant`, `delayFrames` of the `framesWritten` frames
/// written so far were not yet audible.
///
/// So the frame at stream position *p* becomes audible at
/// `instant + (p − (framesWritten − delayFrames)) / rate`. For ALSA, `delayFrames` is
/// `snd_pcm_delay` and `instant` the status `htstamp` on `CLOCK_MONOTONIC`, read together.
public struct AudioTimestamp: Sendable, Hashable {
    /// Frames written to the stream so far (the position of the next frame to write).
    public var framesWritten: Int64
    /// Frames written but not yet audible at `instant`.
    public var delayFrames: Int64
    /// When the reading was taken, on `CLOCK_MONOTONIC`.
    public var instant: MonotonicInstant

    /// Creates a reading.
    public init(framesWritten: Int64, delayFrames: Int64, instant: MonotonicInstant) {
        self.framesWritten = framesWritten
        self.delayFrames = delayFrames
        self.instant = instant
    }

    /// The instant stream position 0 was (or would have been) audible, in nanoseconds.
    func origin(sampleRate: Int) -> Int64 {
        let played = framesWritten - delayFrames
        return instant.nanoseconds - played * 1_000_000_000 / Int64(sampleRate)
    }
}
