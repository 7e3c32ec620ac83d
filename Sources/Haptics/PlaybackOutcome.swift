import HapticsScheduler
import HapticsSystem

/// What happened to a request to play: scheduled (and when it will be felt), or why nothing plays.
///
/// The guidelines the vocabulary comes from say users can turn haptics off and feedback only plays
/// while the app is active; an app asking "did that play?" gets the reason, not silence.
public enum PlaybackOutcome: Sendable, Hashable {
    /// The feedback is scheduled; its felt onset is at `feltAt` (after the actuator's rise time).
    case scheduled(feltAt: MonotonicInstant)
    /// Nothing will play, for this reason.
    case notPlayed(SilenceReason)

    /// Whether the feedback will play.
    public var isScheduled: Bool {
        if case .scheduled = self { return true }
        return false
    }
}

/// Why a feedback did not play.
public enum SilenceReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Haptics are switched off (`HapticEngine.isEnabled == false`).
    case disabled
    /// The gain is zero.
    case muted
    /// The application is not active (`HapticEngine.isApplicationActive == false`).
    case applicationInactive
    /// The engine has no output device.
    case noDevice
    /// The engine is stopped (`HapticEngine.stop()` was called, or it was never started).
    case engineStopped
    /// The pattern has no haptic content this device can play.
    case unsupported
    /// The scheduler's queue was full; the request was dropped and counted.
    case queueFull
    /// The impact intensity was NaN or infinite (finite intensities are clamped to 0…1).
    case invalidIntensity
    /// The requested onset (or a sound's latency) lies more than `HapticEngine.schedulingHorizon`
    /// (one hour) ahead: nothing is scheduled that far ahead.
    case onsetOutOfRange
    /// The only device the play reached is the simulated one the engine fell back to when it found
    /// no device it could open: nothing is felt. `HapticEngine.devices` lists the devices that
    /// exist and why they do not play (e.g. no permission, with the fix).
    case noRealDevice

    /// A short human-readable explanation.
    public var description: String {
        switch self {
        case .disabled: return "haptics are disabled"
        case .muted: return "haptics gain is zero"
        case .applicationInactive: return "the application is not active"
        case .noDevice: return "no haptic device"
        case .engineStopped: return "the engine is stopped"
        case .unsupported: return "nothing in the pattern can play on this device"
        case .queueFull: return "the scheduler queue is full (request dropped)"
        case .invalidIntensity: return "the intensity is not a finite number"
        case .onsetOutOfRange: return "the onset is more than an hour ahead"
        case .noRealDevice: return "only the simulated fallback device plays: nothing is felt"
        }
    }
}
