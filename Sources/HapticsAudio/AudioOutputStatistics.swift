import HapticsSystem

/// Counters of an audio output, read on the control side.
public struct AudioOutputStatistics: Sendable, Hashable {
    /// Periods written to the sink.
    public var periods: Int
    /// Voices accepted by `schedule`.
    public var scheduled: Int
    /// Voices refused: queue full, no free voice slot, or the device lost.
    public var dropped: Int
    /// Of `dropped`, the voices refused because every voice slot was held
    /// (`AudioOutputConfiguration.maximumVoices`).
    public var noVoiceSlot: Int
    /// Voices that became audible later than asked.
    public var late: Int
    /// The largest lateness of a late voice (`.zero` while none was late).
    public var maximumLateness: Duration
    /// Voices played to their end.
    public var completed: Int
    /// Voices cancelled: let go before their first frame, or faded out before their end.
    public var cancelled: Int
    /// Underruns recovered.
    public var underruns: Int
    /// Times the device's position jumped later without an underrun (the stream lost time: a
    /// stall longer than the device buffer) and the timing estimate started again from it.
    public var timingJumps: Int
    /// What the system granted the audio thread (its id, timer slack, and `SCHED_FIFO` directly,
    /// through rtkit, or why not),
    /// `nil` before it first started.
    public var realtimeThread: RealtimeThread.Grant?

    /// Creates statistics.
    public init(periods: Int = 0, scheduled: Int = 0, dropped: Int = 0, noVoiceSlot: Int = 0, late: Int = 0, maximumLateness: Duration = .zero,
                completed: Int = 0, cancelled: Int = 0, underruns: Int = 0, timingJumps: Int = 0,
                realtimeThread: RealtimeThread.Grant? = nil) {
        self.periods = periods
        self.scheduled = scheduled
        self.dropped = dropped
        self.noVoiceSlot = noVoiceSlot
        self.late = late
        self.maximumLateness = maximumLateness
        self.completed = completed
        self.cancelled = cancelled
        self.underruns = underruns
        self.timingJumps = timingJumps
        self.realtimeThread = realtimeThread
    }
}
