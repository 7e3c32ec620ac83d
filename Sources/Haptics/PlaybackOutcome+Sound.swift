import HapticsScheduler
import HapticsSystem

extension PlaybackOutcome {
    /// What happened to both halves of a play with sound: the haptic (exactly the outcome a play
    /// without sound gives) and the sound.
    ///
    /// The two share one timeline: when both are scheduled, the haptic is felt when the sound is
    /// heard (`feltAt == audibleAt`). Either half can fail alone; a sound that cannot play never
    /// delays or drops the haptic.
    public struct WithSound: Sendable, Hashable {
        /// The haptic half.
        public var haptics: PlaybackOutcome
        /// The sound half.
        public var audio: AudioOutcome

        /// Creates an outcome.
        public init(haptics: PlaybackOutcome, audio: AudioOutcome) {
            self.haptics = haptics
            self.audio = audio
        }

        /// Whether anything plays (felt, heard, or both).
        public var isScheduled: Bool { haptics.isScheduled || audio.isScheduled }

        /// The cue's instant: when it is felt and heard, or the one of them that plays.
        public var onset: MonotonicInstant? {
            if case let .scheduled(feltAt) = haptics { return feltAt }
            if case let .scheduled(audibleAt) = audio { return audibleAt }
            return nil
        }
    }
}
