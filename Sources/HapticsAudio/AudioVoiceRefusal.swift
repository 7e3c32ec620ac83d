/// Why an audio output refused a voice (``AudioOutput/enqueue(_:audibleAt:gain:group:)``). Each
/// refusal is counted in ``AudioOutputStatistics/dropped``.
public enum AudioVoiceRefusal: Error, Sendable, Hashable {
    /// The device was lost: the output plays nothing until it is opened again.
    case deviceLost
    /// Every voice slot is held (``AudioOutputConfiguration/maximumVoices``) by voices queued,
    /// playing, or finished and not yet released. Counted in ``AudioOutputStatistics/noVoiceSlot``.
    case noVoiceSlot
    /// The queue to the audio thread is full (``AudioOutputConfiguration/queueCapacity``).
    case queueFull
}
