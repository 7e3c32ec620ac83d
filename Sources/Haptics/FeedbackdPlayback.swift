import HapticsPatterns

/// What playing a feedbackd event did: the outcome of both halves, and what of the theme's
/// feedbacks for the event was felt, heard, or left out and why.
public struct FeedbackdPlayback: Sendable, Hashable {
    /// A `Sound` feedback that was not played, and why (no sound folder, no file of its name, a
    /// file that could not be loaded).
    public struct UnplayedSound: Sendable, Hashable {
        /// The feedback.
        public var feedback: FeedbackdFeedback
        /// Why it was not played.
        public var reason: String
    }

    /// The event.
    public var event: String
    /// The level it was played at.
    public var level: FeedbackdLevel
    /// What happened to the felt and the heard half (`.notPlayed(.unsupported)` and
    /// `.notPlayed(.noSound)` when the event has nothing of that kind at this level).
    public var outcome: PlaybackOutcome.WithSound
    /// The `Vibra…` feedbacks the haptic half plays.
    public var felt: [FeedbackdFeedback]
    /// The `Sound` feedbacks the sound half plays, each from `<sound folder>/<effect>.wav`.
    public var heard: [FeedbackdFeedback]
    /// The `Sound` feedbacks left out.
    public var unplayedSounds: [UnplayedSound]
    /// The `Led` and `Dummy` feedbacks: accepted, neither felt nor heard.
    public var notHaptic: [FeedbackdFeedback]
}

/// A feedbackd event's player, made once (the pattern rendered and loaded, the sounds read) and
/// started as often as wanted; see `HapticEngine.makePlayer(feedbackdEvent:theme:level:soundFolder:on:)`.
public struct FeedbackdEventPlayer: Sendable {
    /// The player; `nil` when the event has nothing to feel or hear at this level.
    public var player: HapticPatternPlayer?
    /// What the event does at this level.
    public var plan: FeedbackdTheme.EventPlan
    /// The `Sound` feedbacks the player plays.
    public var heard: [FeedbackdFeedback]
    /// The `Sound` feedbacks it leaves out, and why.
    public var unplayedSounds: [FeedbackdPlayback.UnplayedSound]
    /// How long the longest sound lasts, zero without sound.
    public var soundDuration: Duration

    /// Starts it (see `HapticPatternPlayer.start(at:)`) and reports on every feedback.
    @discardableResult
    public func start(at onset: MonotonicInstant? = nil) -> FeedbackdPlayback {
        let outcome = player?.start(at: onset)
            ?? PlaybackOutcome.WithSound(haptics: .notPlayed(.unsupported), audio: .notPlayed(.noSound))
        return FeedbackdPlayback(event: plan.event, level: plan.level, outcome: outcome, felt: plan.haptic,
                                 heard: heard, unplayedSounds: unplayedSounds, notHaptic: plan.notHaptic)
    }
}
