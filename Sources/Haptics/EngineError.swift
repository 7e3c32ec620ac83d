import HapticsAudio
import HapticsRendering
import HapticsScheduler

/// Errors of the engine itself.
public enum EngineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `start()` was called on an engine whose clock is not the system monotonic clock; drive it
    /// with `startManuallyDriven()` and `process()` instead.
    case clockNotRealtime
    /// Every scheduler channel serves a device: at most this many devices play at once
    /// (`SchedulerConfiguration.maximumChannels`). A lost device's channel serves the next device.
    case tooManyOutputs(maximum: Int)
    /// The scheduler has no room left for the device's programs or players.
    case schedulerFull(SchedulerError)
    /// `attachAudio` was called on an engine that already has an audio output.
    case audioAlreadyAttached
    /// The audio output given to `attachAudio` could not be opened.
    case audioUnavailable(AudioSinkError)
    /// A sound cue file could not be read (missing, unreadable, not a WAV file we read).
    case soundCue(WAVError)
    /// A sound cue library given to `attachAudio` lacks the cues of these vocabulary items.
    case soundCuesMissing([String])
    /// An output given to `addOutput` has a profile value outside its range
    /// (`DeviceProfile.validate()`).
    case invalidProfile(DeviceProfileError)
    /// A device gain given to `setGain(_:for:)` is NaN or outside 0…1.
    case gainOutOfRange(Double)
    /// `setProfile(named:for:)` was given a name no built-in profile has; `available` lists them.
    case unknownProfile(name: String, available: [String])
    /// A device profile file given to `loadProfile(contentsOf:for:)` is unreadable or wrong, at
    /// the line and column the error names.
    case profileFile(DeviceProfileFileError)
    /// A pattern given to `makePlayer(pattern:)` has a time that is negative, not a finite number,
    /// or ends after `HapticEngine.maximumPatternDuration`: `path` names it (`events[2].duration`,
    /// `curves[0].controlPoints[3].time`), `seconds` is the offending time or end.
    case patternTimeOutOfRange(path: String, seconds: Double)
    /// A pattern given to `makePlayer(pattern:)` has haptic continuous events whose durations
    /// sum past `Renderer.maximumHapticTime` (four hours), what rendering's work grows with:
    /// `path` names the event that takes the sum past it, `seconds` is the sum there.
    case hapticTimeOverLimit(path: String, seconds: Double)

    /// What went wrong.
    public var description: String {
        switch self {
        case .clockNotRealtime:
            return "the realtime thread needs the system monotonic clock; drive this engine with process()"
        case let .tooManyOutputs(maximum):
            return "all \(maximum) device channels are in use (SchedulerConfiguration.maximumChannels)"
        case let .schedulerFull(error):
            return "no room for the device's programs: \(error)"
        case .audioAlreadyAttached:
            return "the engine already has an audio output"
        case let .audioUnavailable(error):
            return error.description
        case let .soundCue(error):
            return "sound cue: \(error)"
        case let .soundCuesMissing(names):
            return "no sound cue for \(names.joined(separator: ", "))"
        case let .invalidProfile(error):
            return "device profile: \(error)"
        case let .gainOutOfRange(gain):
            return "device gain \(gain) is outside 0…1"
        case let .unknownProfile(name, available):
            return "unknown profile '\(name)' (built in: \(available.joined(separator: ", ")))"
        case let .profileFile(error):
            return "profile file \(error)"
        case let .patternTimeOutOfRange(path, seconds):
            return "pattern: \(path) is \(seconds) s, outside 0…3600 s"
        case let .hapticTimeOverLimit(path, seconds):
            return "pattern: at \(path) the haptic continuous events add up to \(seconds) s, more than the limit of 14400 s"
        }
    }
}
