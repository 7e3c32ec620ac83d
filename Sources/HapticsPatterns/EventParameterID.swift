/// The identifiers of AHAP `EventParameters`, with the ranges Core Haptics documents for them.
enum EventParameterID: String, CaseIterable {
    case hapticIntensity = "HapticIntensity"
    case hapticSharpness = "HapticSharpness"
    case attackTime = "AttackTime"
    case decayTime = "DecayTime"
    case releaseTime = "ReleaseTime"
    case sustained = "Sustained"
    case audioVolume = "AudioVolume"
    case audioPitch = "AudioPitch"
    case audioPan = "AudioPan"
    case audioBrightness = "AudioBrightness"

    /// The accepted range; values outside are clamped with a warning (Apple's `CHHapticParameter.h`).
    var range: ClosedRange<Double> {
        switch self {
        case .audioPitch, .audioPan: return -1...1
        default: return 0...1
        }
    }

    /// The value stored in `parameters` for this id, if any (the encoder's view).
    func value(in parameters: EventParameters) -> Double? {
        switch self {
        case .hapticIntensity: return parameters.hapticIntensity
        case .hapticSharpness: return parameters.hapticSharpness
        case .attackTime: return parameters.attackTime
        case .decayTime: return parameters.decayTime
        case .releaseTime: return parameters.releaseTime
        case .sustained: return parameters.sustained.map { $0 ? 1 : 0 }
        case .audioVolume: return parameters.audioVolume
        case .audioPitch: return parameters.audioPitch
        case .audioPan: return parameters.audioPan
        case .audioBrightness: return parameters.audioBrightness
        }
    }

    /// Stores `value` for this id in `parameters` (the decoder's view; `Sustained` is true unless 0).
    func set(_ value: Double, in parameters: inout EventParameters) {
        switch self {
        case .hapticIntensity: parameters.hapticIntensity = value
        case .hapticSharpness: parameters.hapticSharpness = value
        case .attackTime: parameters.attackTime = value
        case .decayTime: parameters.decayTime = value
        case .releaseTime: parameters.releaseTime = value
        case .sustained: parameters.sustained = value != 0
        case .audioVolume: parameters.audioVolume = value
        case .audioPitch: parameters.audioPitch = value
        case .audioPan: parameters.audioPan = value
        case .audioBrightness: parameters.audioBrightness = value
        }
    }
}
