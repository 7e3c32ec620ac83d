/// A device-independent haptic and audio pattern: the engine's intermediate representation.
///
/// Every source format (AHAP, the built-in vocabulary, …) decodes to a `Pattern`; rendering turns a
/// pattern into a device program. Times are in seconds, as in AHAP. Optional values keep "absent in the
/// source" apart from "present", so that decode → encode → decode is the identity; the `resolved…`
/// accessors apply the defaults.
public struct Pattern: Sendable, Hashable {
    /// The format version the source declared (AHAP `Version`), `1.0` when absent.
    public var version: Double
    /// Free-form metadata (AHAP `Metadata`), in source order.
    public var metadata: [MetadataEntry]
    /// Events in source order (not necessarily sorted by time).
    public var events: [PatternEvent]
    /// Dynamic parameter changes (AHAP `Parameter`).
    public var parameters: [DynamicParameter]
    /// Dynamic parameter curves (AHAP `ParameterCurve`).
    public var curves: [ParameterCurve]
    /// Adaptive trigger effects on the pattern's timeline (the AHAP extension `DualSenseTriggers`,
    /// which other players ignore), in source order.
    public var triggerEvents: [TriggerPatternEvent]

    /// Creates a pattern.
    public init(
        version: Double = 1.0,
        metadata: [MetadataEntry] = [],
        events: [PatternEvent] = [],
        parameters: [DynamicParameter] = [],
        curves: [ParameterCurve] = [],
        triggerEvents: [TriggerPatternEvent] = []
    ) {
        self.version = version
        self.metadata = metadata
        self.events = events
        self.parameters = parameters
        self.curves = curves
        self.triggerEvents = triggerEvents
    }

    /// The time at which the last event, parameter or curve ends, in seconds.
    public var duration: Double {
        var end = 0.0
        for event in events { end = max(end, event.time + event.resolvedDuration) }
        for parameter in parameters { end = max(end, parameter.time) }
        for curve in curves { end = max(end, curve.time + (curve.controlPoints.last?.time ?? 0)) }
        return end
    }
}

/// One `key: value` pair of pattern metadata.
public struct MetadataEntry: Sendable, Hashable {
    /// The key, e.g. `Project`.
    public var key: String
    /// The value as text.
    public var value: String
    /// Creates an entry.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// One event of a pattern: a haptic transient or continuous event, or an audio event.
public struct PatternEvent: Sendable, Hashable {
    /// What kind of event this is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A short tap; its length is chosen by the device (no duration).
        case hapticTransient = "HapticTransient"
        /// A vibration of a given duration, shaped by attack/decay/release.
        case hapticContinuous = "HapticContinuous"
        /// A sound from a waveform file (`EventWaveformPath`).
        case audioCustom = "AudioCustom"
        /// A synthesized tone of a given duration.
        case audioContinuous = "AudioContinuous"

        /// Whether the event is felt (as opposed to heard).
        public var isHaptic: Bool { self == .hapticTransient || self == .hapticContinuous }
    }

    /// What kind of event this is.
    public var kind: Kind
    /// Start time relative to the pattern start, in seconds (≥ 0).
    public var time: Double
    /// Duration in seconds (`EventDuration`); `nil` when the source gave none.
    public var duration: Double?
    /// The waveform file of an `AudioCustom` event, as written in the source (relative path).
    public var waveformPath: String?
    /// `EventWaveformUseVolumeEnvelope` of an `AudioCustom` event.
    public var waveformUseVolumeEnvelope: Bool?
    /// `EventWaveformLoopEnabled` of an `AudioCustom` event.
    public var waveformLoopEnabled: Bool?
    /// The event's parameters (`EventParameters`).
    public var parameters: EventParameters

    /// Creates an event.
    public init(
        kind: Kind,
        time: Double,
        duration: Double? = nil,
        waveformPath: String? = nil,
        waveformUseVolumeEnvelope: Bool? = nil,
        waveformLoopEnabled: Bool? = nil,
        parameters: EventParameters = EventParameters()
    ) {
        self.kind = kind
        self.time = time
        self.duration = duration
        self.waveformPath = waveformPath
        self.waveformUseVolumeEnvelope = waveformUseVolumeEnvelope
        self.waveformLoopEnabled = waveformLoopEnabled
        self.parameters = parameters
    }

    /// The duration the engine uses: the given one for continuous events, 0 for transients.
    public var resolvedDuration: Double {
        switch kind {
        case .hapticTransient: return 0
        case .hapticContinuous, .audioContinuous, .audioCustom: return duration ?? 0
        }
    }
}

/// The parameters of one event (AHAP `EventParameters`). `nil` means "not given": use the default.
public struct EventParameters: Sendable, Hashable {
    /// `HapticIntensity`, 0…1 (default 1).
    public var hapticIntensity: Double?
    /// `HapticSharpness`, 0…1 (default 0.5).
    public var hapticSharpness: Double?
    /// `AttackTime`, 0…1, default 0. Apple documents it as an adjuster of the envelope attack; the renderer reads it
    /// as seconds (0…1 s), see docs/internals/rendering.md.
    public var attackTime: Double?
    /// `DecayTime`, 0…1, default 0. Apple documents it as an adjuster of the envelope decay; the renderer reads it
    /// as seconds (0…1 s), see docs/internals/rendering.md.
    public var decayTime: Double?
    /// `ReleaseTime`, 0…1, default 0. Apple documents it as an adjuster of the envelope release; the renderer reads it
    /// as seconds (0…1 s), see docs/internals/rendering.md.
    public var releaseTime: Double?
    /// `Sustained`: hold the level for the whole duration (default true).
    public var sustained: Bool?
    /// `AudioVolume`, 0…1 (default 0.75).
    public var audioVolume: Double?
    /// `AudioPitch`, −1…1 (default 0).
    public var audioPitch: Double?
    /// `AudioPan`, −1…1 (default 0).
    public var audioPan: Double?
    /// `AudioBrightness`, 0…1 (default 1: no high-frequency reduction, as Core Haptics documents).
    public var audioBrightness: Double?

    /// Creates parameters; all absent by default.
    public init(
        hapticIntensity: Double? = nil,
        hapticSharpness: Double? = nil,
        attackTime: Double? = nil,
        decayTime: Double? = nil,
        releaseTime: Double? = nil,
        sustained: Bool? = nil,
        audioVolume: Double? = nil,
        audioPitch: Double? = nil,
        audioPan: Double? = nil,
        audioBrightness: Double? = nil
    ) {
        self.hapticIntensity = hapticIntensity
        self.hapticSharpness = hapticSharpness
        self.attackTime = attackTime
        self.decayTime = decayTime
        self.releaseTime = releaseTime
        self.sustained = sustained
        self.audioVolume = audioVolume
        self.audioPitch = audioPitch
        self.audioPan = audioPan
        self.audioBrightness = audioBrightness
    }

    /// Intensity with the default applied.
    public var resolvedIntensity: Double { hapticIntensity ?? 1.0 }
    /// Sharpness with the default applied.
    public var resolvedSharpness: Double { hapticSharpness ?? 0.5 }
    /// Attack time with the default applied.
    public var resolvedAttackTime: Double { attackTime ?? 0 }
    /// Decay time with the default applied.
    public var resolvedDecayTime: Double { decayTime ?? 0 }
    /// Release time with the default applied.
    public var resolvedReleaseTime: Double { releaseTime ?? 0 }
    /// Sustained with the default applied.
    public var resolvedSustained: Bool { sustained ?? true }
    /// Audio volume with the default applied.
    public var resolvedAudioVolume: Double { audioVolume ?? 0.75 }
    /// Audio pitch with the default applied.
    public var resolvedAudioPitch: Double { audioPitch ?? 0 }
    /// Audio pan with the default applied.
    public var resolvedAudioPan: Double { audioPan ?? 0 }
    /// Audio brightness with the default applied.
    public var resolvedAudioBrightness: Double { audioBrightness ?? 1.0 }
}

/// The dynamic parameters a pattern (or a running player) can change over time (AHAP `ParameterID`).
public enum DynamicParameterID: String, Sendable, Hashable, CaseIterable {
    /// Multiplies the intensity of haptic events.
    case hapticIntensityControl = "HapticIntensityControl"
    /// Shifts the sharpness of haptic events.
    case hapticSharpnessControl = "HapticSharpnessControl"
    /// Scales attack times of haptic events.
    case hapticAttackTimeControl = "HapticAttackTimeControl"
    /// Scales decay times of haptic events.
    case hapticDecayTimeControl = "HapticDecayTimeControl"
    /// Scales release times of haptic events.
    case hapticReleaseTimeControl = "HapticReleaseTimeControl"
    /// Multiplies the volume of audio events.
    case audioVolumeControl = "AudioVolumeControl"
    /// Shifts the pan of audio events.
    case audioPanControl = "AudioPanControl"
    /// Shifts the pitch of audio events.
    case audioPitchControl = "AudioPitchControl"
    /// Shifts the brightness of audio events.
    case audioBrightnessControl = "AudioBrightnessControl"
    /// Scales attack times of audio events.
    case audioAttackTimeControl = "AudioAttackTimeControl"
    /// Scales decay times of audio events.
    case audioDecayTimeControl = "AudioDecayTimeControl"
    /// Scales release times of audio events.
    case audioReleaseTimeControl = "AudioReleaseTimeControl"
}

/// A step change of a dynamic parameter at a time (AHAP `Parameter`).
public struct DynamicParameter: Sendable, Hashable {
    /// Which parameter changes.
    public var id: DynamicParameterID
    /// When, in seconds from the pattern start.
    public var time: Double
    /// The new value.
    public var value: Double
    /// Creates a parameter change.
    public init(id: DynamicParameterID, time: Double, value: Double) {
        self.id = id
        self.time = time
        self.value = value
    }
}

/// A linearly interpolated curve of a dynamic parameter (AHAP `ParameterCurve`).
public struct ParameterCurve: Sendable, Hashable {
    /// One control point; `time` is relative to the curve's own start.
    public struct ControlPoint: Sendable, Hashable {
        /// Seconds from the curve's start.
        public var time: Double
        /// The parameter value at that time.
        public var value: Double
        /// Creates a control point.
        public init(time: Double, value: Double) {
            self.time = time
            self.value = value
        }
    }

    /// Which parameter the curve drives.
    public var id: DynamicParameterID
    /// When the curve starts, in seconds from the pattern start.
    public var time: Double
    /// Control points in time order.
    public var controlPoints: [ControlPoint]
    /// Creates a curve.
    public init(id: DynamicParameterID, time: Double, controlPoints: [ControlPoint]) {
        self.id = id
        self.time = time
        self.controlPoints = controlPoints
    }
}
