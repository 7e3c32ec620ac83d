extension EvdevActuator {
    /// Tuning of an ``EvdevActuator``.
    public struct Configuration: Hashable, Sendable {
        /// Added to the longest hold of a level to make its `replay.length` safety net.
        ///
        /// The engine stops every level itself at the right time; the kernel's `replay.length` only
        /// ends a level if the engine hangs. ff-memless rounds lengths *up* (to jiffies, and to the
        /// timer wheel's 32 ms steps from ~252 ms), so the kernel never cuts early; the margin covers
        /// a late stop from a busy realtime thread. A level held longer than its program's hold (a
        /// slow playback rate, a paused curve) is played again by the scheduler before its length
        /// runs out, so the margin is also how long a prepared level outlives a hung engine.
        /// Default 100 ms; 0…65.535 s (the longest `replay.length`), clamped into it.
        public var safetyMargin: Duration
        /// The smallest `replay.length` of the streaming effect, which plays every level that was
        /// not prepared (runtime parameters, mixes, rumble and motor levels): the streaming length
        /// is this or the longest hold of any prepared program plus the margin, whichever is
        /// longer. A streamed level held longer is played again by the scheduler shortly before
        /// (`SchedulerConfiguration.renewalLead`): one `write()` per this length of hold, and this
        /// is how long a streamed level outlives a hung engine. Default 2 s; 0…65.535 s, clamped
        /// into it.
        public var minimumStreamingLength: Duration
        /// The most levels kept prepared at once (the table the realtime thread scans), 0…16. The
        /// device's slot count minus one (kept for streaming) caps it further. Default 16.
        public var maximumPreparedLevels: Int

        /// Creates a configuration.
        public init(safetyMargin: Duration = .milliseconds(100), minimumStreamingLength: Duration = .seconds(2),
                    maximumPreparedLevels: Int = 16) {
            self.safetyMargin = safetyMargin
            self.minimumStreamingLength = minimumStreamingLength
            self.maximumPreparedLevels = maximumPreparedLevels
        }
    }
}
