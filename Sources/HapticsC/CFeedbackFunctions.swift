import CHapticsABI
import Glibc
import Haptics

// The plays (haptics.h: "Feedback vocabulary"). Realtime-safe: no allocation, no lock, no
// haptics_last_error; the code and the outcome say what happened.

/// The vocabulary item of a `haptics_feedback` value at an intensity, or `nil` for another value.
@inline(__always)
func feedback(_ item: Int32, intensity: Double) -> Feedback? {
    switch item {
    case 0: return .notification(.success)
    case 1: return .notification(.warning)
    case 2: return .notification(.error)
    case 3: return .impact(.light, intensity: intensity)
    case 4: return .impact(.medium, intensity: intensity)
    case 5: return .impact(.heavy, intensity: intensity)
    case 6: return .impact(.soft, intensity: intensity)
    case 7: return .impact(.rigid, intensity: intensity)
    case 8: return .selection
    default: return nil
    }
}

/// A C time as an instant: 0 (or less) is "as soon as possible".
@inline(__always)
func instant(_ nanoseconds: Int64) -> MonotonicInstant? {
    nanoseconds > 0 ? MonotonicInstant(nanoseconds: nanoseconds) : nil
}

enum COutcome {
    static func reason(_ reason: SilenceReason) -> Int32 {
        let value: haptics_reason
        switch reason {
        case .disabled: value = HAPTICS_REASON_DISABLED
        case .muted: value = HAPTICS_REASON_MUTED
        case .applicationInactive: value = HAPTICS_REASON_APPLICATION_INACTIVE
        case .noDevice: value = HAPTICS_REASON_NO_DEVICE
        case .noRealDevice: value = HAPTICS_REASON_NO_REAL_DEVICE
        case .engineStopped: value = HAPTICS_REASON_ENGINE_STOPPED
        case .unsupported: value = HAPTICS_REASON_UNSUPPORTED
        case .queueFull: value = HAPTICS_REASON_QUEUE_FULL
        case .invalidIntensity: value = HAPTICS_REASON_INVALID_INTENSITY
        case .onsetOutOfRange: value = HAPTICS_REASON_ONSET_OUT_OF_RANGE
        }
        return Int32(value.rawValue)
    }

    static func reason(_ reason: AudioSilenceReason) -> Int32 {
        let value: haptics_reason
        switch reason {
        case .notRequested: value = HAPTICS_REASON_NOT_REQUESTED
        case .noSound: value = HAPTICS_REASON_NO_SOUND
        case .noAudioOutput: value = HAPTICS_REASON_NO_AUDIO_OUTPUT
        case .muted: value = HAPTICS_REASON_MUTED
        case .deviceLost: value = HAPTICS_REASON_AUDIO_DEVICE_LOST
        case .noVoiceSlot: value = HAPTICS_REASON_NO_VOICE_SLOT
        case .applicationInactive: value = HAPTICS_REASON_APPLICATION_INACTIVE
        case .engineStopped: value = HAPTICS_REASON_ENGINE_STOPPED
        case .queueFull: value = HAPTICS_REASON_QUEUE_FULL
        case .invalidIntensity: value = HAPTICS_REASON_INVALID_INTENSITY
        case .onsetOutOfRange: value = HAPTICS_REASON_ONSET_OUT_OF_RANGE
        }
        return Int32(value.rawValue)
    }

    /// Fills `outcome` (when given, with its size set) and returns the play's code.
    @inline(__always)
    static func report(_ haptics: PlaybackOutcome, audio: AudioOutcome, into outcome: UnsafeMutablePointer<haptics_outcome>?) -> Int32 {
        if let outcome, Int(outcome.pointee.size) >= MemoryLayout<haptics_outcome>.size {
            switch haptics {
            case let .scheduled(feltAt):
                outcome.pointee.reason = Int32(HAPTICS_REASON_NONE.rawValue)
                outcome.pointee.felt_at = feltAt.nanoseconds
            case let .notPlayed(why):
                outcome.pointee.reason = reason(why)
                outcome.pointee.felt_at = 0
            }
            switch audio {
            case let .scheduled(audibleAt):
                outcome.pointee.audio_reason = Int32(HAPTICS_REASON_NONE.rawValue)
                outcome.pointee.audible_at = audibleAt.nanoseconds
            case let .notPlayed(why):
                outcome.pointee.audio_reason = reason(why)
                outcome.pointee.audible_at = 0
            }
            outcome.pointee.reserved = 0
        }
        if case let .notPlayed(why) = haptics { return CResult.code(why) }
        return CResult.ok
    }

    /// Fills `outcome` for a play without sound and returns its code.
    @inline(__always)
    static func report(_ haptics: PlaybackOutcome, into outcome: UnsafeMutablePointer<haptics_outcome>?) -> Int32 {
        report(haptics, audio: .notPlayed(.notRequested), into: outcome)
    }

    /// A value that is no vocabulary item: nothing plays (the outcome says `unsupported`), -EINVAL.
    @inline(__always)
    static func refuse(_ outcome: UnsafeMutablePointer<haptics_outcome>?) -> Int32 {
        _ = report(.notPlayed(.unsupported), into: outcome)
        return CResult.invalidArgument
    }
}

@_cdecl("haptics_play")
public func haptics_play(
    _ handle: OpaquePointer?, _ item: Int32, _ intensity: Double, _ feltAt: Int64,
    _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    withEngine(handle) { engine in
        guard let feedback = feedback(item, intensity: intensity) else { return COutcome.refuse(outcome) }
        return COutcome.report(engine.play(feedback, feltAt: instant(feltAt)), into: outcome)
    }
}

@_cdecl("haptics_play_with_sound")
public func haptics_play_with_sound(
    _ handle: OpaquePointer?, _ item: Int32, _ intensity: Double, _ onset: Int64,
    _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    withEngine(handle) { engine in
        guard let feedback = feedback(item, intensity: intensity) else { return COutcome.refuse(outcome) }
        let both = engine.play(feedback, withSound: true, at: instant(onset))
        return COutcome.report(both.haptics, audio: both.audio, into: outcome)
    }
}

@_cdecl("haptics_play_synced")
public func haptics_play_synced(
    _ handle: OpaquePointer?, _ item: Int32, _ intensity: Double, _ audibleAt: Int64,
    _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    withEngine(handle) { engine in
        guard let feedback = feedback(item, intensity: intensity) else { return COutcome.refuse(outcome) }
        let played = engine.play(feedback, withSoundAudibleAt: MonotonicInstant(nanoseconds: audibleAt))
        return COutcome.report(played, into: outcome)
    }
}

@_cdecl("haptics_prepare")
public func haptics_prepare(_ handle: OpaquePointer?, _ item: Int32) -> Int32 {
    withEngine(handle) { engine in
        guard let feedback = feedback(item, intensity: 1) else {
            LastError.set("haptics_prepare: \(item) is not a haptics_feedback value (0…8)")
            return CResult.invalidArgument
        }
        engine.prepare(feedback)
        return CResult.ok
    }
}

@_cdecl("haptics_rumble")
public func haptics_rumble(
    _ handle: OpaquePointer?, _ low: Double, _ high: Double, _ duration: Int64, _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    withEngine(handle) { engine in
        guard isPlayableRumble(duration, in: "haptics_rumble") else { return COutcome.refuse(outcome) }
        return COutcome.report(engine.rumble(low: low, high: high, duration: .nanoseconds(duration)), into: outcome)
    }
}

/// Whether a rumble's `duration` (ns) is one to play: 0 or less stops, 1 ms or more plays. In
/// between no device can play it, and it is most likely milliseconds passed as nanoseconds: the
/// message says so and names the helper.
func isPlayableRumble(_ duration: Int64, in function: String) -> Bool {
    guard duration > 0, duration < 1_000_000 else { return true }
    LastError.set("\(function): a duration of \(duration) ns is shorter than any device can play (1 ms); "
                  + "durations are nanoseconds: write HAPTICS_MS(\(duration)) for \(duration) ms")
    return false
}

@_cdecl("haptics_set_motor_levels")
public func haptics_set_motor_levels(
    _ handle: OpaquePointer?, _ low: Double, _ high: Double, _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    withEngine(handle) { engine in
        COutcome.report(engine.setMotorLevels(low: low, high: high), into: outcome)
    }
}

@_cdecl("haptics_set_motor_level_timeout")
public func haptics_set_motor_level_timeout(_ handle: OpaquePointer?, _ timeout: Int64) -> Int32 {
    withEngine(handle) { engine in
        engine.motorLevelTimeout = .nanoseconds(timeout)
        return CResult.ok
    }
}
