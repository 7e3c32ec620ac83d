/// Sizes and policies of an audio output, fixed at creation.
public struct AudioOutputConfiguration: Sendable, Hashable {
    /// Voice start commands that can wait for the audio thread.
    public var queueCapacity: Int
    /// Voices playing or waiting for their start at once.
    public var maximumVoices: Int
    /// Periods over which the stream's timing is estimated (see ``AudioOutput/latency``).
    public var timingWindow: Int
    /// `SCHED_FIFO` priority asked for the audio thread (refusal is tolerated). The default, 40, is
    /// below the haptic scheduler's (50): a trigger is one `write()` due at an instant, while a
    /// period has the whole device buffer to be mixed in, so above the scheduler a mix pass on a
    /// single processor makes a trigger wait for it.
    public var realtimePriority: Int32
    /// Frames a cancelled voice takes to fade out (a linear ramp, so stopping never clicks): 240 is
    /// 5 ms at 48 kHz. 0 cuts at once.
    public var fadeOutFrames: Int

    /// Creates a configuration.
    public init(queueCapacity: Int = 256, maximumVoices: Int = 64, timingWindow: Int = 16, realtimePriority: Int32 = 40,
                fadeOutFrames: Int = 240) {
        precondition(queueCapacity > 0 && maximumVoices > 0 && timingWindow > 0, "audio output sizes must be positive")
        precondition(fadeOutFrames >= 0, "a fade cannot last a negative number of frames")
        self.queueCapacity = queueCapacity
        self.maximumVoices = maximumVoices
        self.timingWindow = timingWindow
        self.realtimePriority = realtimePriority
        self.fadeOutFrames = fadeOutFrames
    }
}
