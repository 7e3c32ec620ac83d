import HapticsSystem

/// Something the audio thread wants the control side to know, reported without blocking it.
public enum AudioEvent: Sendable, Hashable {
    /// The device is gone or unusable (`errno`, e.g. `ENODEV`, `EBADFD`): the audio thread
    /// stopped, later voices are refused, and nothing else (haptics) is affected.
    case deviceLost(errno: Errno)
    /// The device ran dry at `instant` and was recovered; sound resumed after a gap.
    case underrunRecovered(at: MonotonicInstant)
    /// A voice was placed `lateness` after the instant it should have been audible (it was
    /// scheduled too close to that instant for the output latency); it played from its start.
    case voiceLate(lateness: Duration)
}
