import HapticsScheduler
import HapticsSystem

/// What happened to the sound half of a play: scheduled (and when it will be heard), or why not.
public enum AudioOutcome: Sendable, Hashable {
    /// The sound is queued; it becomes audible at `audibleAt` (for a pattern: its start, each
    /// audio event at its own time after that).
    case scheduled(audibleAt: MonotonicInstant)
    /// No sound will play, for this reason. The haptic half is never delayed or dropped for it.
    case notPlayed(AudioSilenceReason)

    /// Whether the sound will play.
    public var isScheduled: Bool {
        if case .scheduled = self { return true }
        return false
    }
}
