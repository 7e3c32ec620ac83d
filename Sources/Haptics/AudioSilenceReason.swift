/// Why the sound of a play did not play.
public enum AudioSilenceReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The play did not ask for sound (`withSound: false`, or a generator with `playsSound` off).
    case notRequested
    /// The feedback or pattern has no sound (a pattern without audio events or loaded from memory).
    case noSound
    /// No audio output is attached to the engine (`HapticEngine.attachAudio(_:)`).
    case noAudioOutput
    /// Sound is muted (`HapticEngine.isAudioMuted`).
    case muted
    /// The audio device was lost (`HapticEngine.Event.audioDeviceLost`).
    case deviceLost
    /// The application is not active (`HapticEngine.isApplicationActive == false`).
    case applicationInactive
    /// The engine is stopped.
    case engineStopped
    /// The audio output's queue was full; the sound was dropped and counted.
    case queueFull
    /// Every voice slot of the audio output was held (`AudioOutputConfiguration.maximumVoices`):
    /// too many sounds at once. The sound was dropped and counted (`AudioOutputStatistics.noVoiceSlot`).
    case noVoiceSlot
    /// The play's intensity (the cue's gain) was NaN or infinite; the haptic was refused too.
    case invalidIntensity
    /// The requested onset lies more than `HapticEngine.schedulingHorizon` ahead; the haptic was
    /// refused too.
    case onsetOutOfRange

    /// A short human-readable explanation.
    public var description: String {
        switch self {
        case .notRequested: return "no sound was asked for"
        case .noSound: return "there is no sound to play"
        case .noAudioOutput: return "no audio output"
        case .muted: return "sound is muted"
        case .deviceLost: return "the audio device was lost"
        case .applicationInactive: return "the application is not active"
        case .engineStopped: return "the engine is stopped"
        case .queueFull: return "the audio queue is full (sound dropped)"
        case .noVoiceSlot: return "every audio voice is taken (sound dropped)"
        case .invalidIntensity: return "the intensity is not a finite number"
        case .onsetOutOfRange: return "the onset is more than an hour ahead"
        }
    }
}
