import HapticsPatterns
import HapticsScheduler
import HapticsSystem

extension HapticEngine {
    /// For apps that play the sound themselves: the sound becomes audible at `audibleAt`
    /// (`CLOCK_MONOTONIC`), and the feedback is felt then. The engine plays no sound of its own.
    ///
    /// If the devices cannot be ready by then (the instant is sooner than `leadTime(for:)` from
    /// now), the feedback is felt as soon as they can and the outcome's `feltAt` says when; schedule
    /// the sound at least `leadTime(for:)` ahead to avoid that. An instant more than
    /// `schedulingHorizon` (one hour) ahead is refused with `.notPlayed(.onsetOutOfRange)`. For an
    /// audio clock counted in frames, pass `AudioClockMapping.instant(ofFrame:)` of the sound's
    /// first frame as it leaves the speaker.
    @discardableResult
    public func play(_ feedback: Feedback, withSoundAudibleAt audibleAt: MonotonicInstant) -> PlaybackOutcome {
        play(feedback, feltAt: audibleAt)
    }

    /// For apps that play the sound themselves and start it now: it is heard after `latency` (the
    /// app's output latency), and the feedback is felt then. A negative latency counts as zero; one
    /// longer than `schedulingHorizon` (one hour) is refused with `.notPlayed(.onsetOutOfRange)`.
    @discardableResult
    public func play(_ feedback: Feedback, withSoundStartingNow latency: Duration) -> PlaybackOutcome {
        guard latency <= Self.schedulingHorizon else { return .notPlayed(.onsetOutOfRange) }
        return play(feedback, feltAt: scheduler.currentTime() + max(latency, .zero))
    }

    /// How long before its felt onset `feedback` must start on the slowest live device (its rise
    /// time): a sound heard sooner than this from now cannot have the haptic with it.
    public func leadTime(for feedback: Feedback) -> Duration {
        .nanoseconds(vocabularyEntry(for: feedback)?.maximumLeadTime(roster) ?? 0)
    }
}
