import CEvdev

/// A copy of a force-feedback effect as a uinput device received it in an upload.
///
/// Holds the fields that identify and time the effect and the parameters of the common effect
/// types; the uploader's pointers (custom periodic data) are meaningless to the device and dropped.
public struct UploadedForceFeedbackEffect: Hashable, Sendable {
    /// The effect type: `FF_RUMBLE`, `FF_PERIODIC`, `FF_CONSTANT`…
    public var type: UInt16
    /// The slot id. The device always sees the kernel-assigned id, never -1.
    public var id: Int16
    /// Direction (0x4000 = left, 0xC000 = right), for directional effects.
    public var direction: UInt16
    /// `replay.length` in milliseconds (0 = until stopped).
    public var replayLength: UInt16
    /// `replay.delay` in milliseconds.
    public var replayDelay: UInt16
    /// The type-specific parameters.
    public var parameters: Parameters

    /// Type-specific parameters of an uploaded effect.
    public enum Parameters: Hashable, Sendable {
        /// `FF_RUMBLE`: the strong (low-frequency, left) and weak (high-frequency, right) motors.
        case rumble(strongMagnitude: UInt16, weakMagnitude: UInt16)
        /// `FF_PERIODIC`: waveform (`FF_SINE`…), period in ms, magnitude, offset, phase, envelope.
        case periodic(waveform: UInt16, period: UInt16, magnitude: Int16, offset: Int16, phase: UInt16,
                      envelope: Envelope)
        /// `FF_CONSTANT`: level and envelope.
        case constant(level: Int16, envelope: Envelope)
        /// Any other type (condition, ramp, …): not decoded.
        case undecoded
    }

    /// An `ff_envelope`: attack and fade lengths (ms) and levels.
    public struct Envelope: Hashable, Sendable {
        /// Attack length in milliseconds.
        public var attackLength: UInt16
        /// Level at the start of the attack.
        public var attackLevel: UInt16
        /// Fade length in milliseconds.
        public var fadeLength: UInt16
        /// Level at the end of the fade.
        public var fadeLevel: UInt16

        init(_ envelope: ff_envelope) {
            attackLength = envelope.attack_length
            attackLevel = envelope.attack_level
            fadeLength = envelope.fade_length
            fadeLevel = envelope.fade_level
        }
    }

    /// Creates an effect description, e.g. the one a test expects the device to receive.
    public init(type: UInt16, id: Int16, direction: UInt16, replayLength: UInt16, replayDelay: UInt16,
                parameters: Parameters) {
        self.type = type
        self.id = id
        self.direction = direction
        self.replayLength = replayLength
        self.replayDelay = replayDelay
        self.parameters = parameters
    }

    /// Copies the kernel's `ff_effect`.
    public init(_ effect: ff_effect) {
        type = effect.type
        id = effect.id
        direction = effect.direction
        replayLength = effect.replay.length
        replayDelay = effect.replay.delay
        switch CInt(effect.type) {
        case FF_RUMBLE:
            parameters = .rumble(strongMagnitude: effect.u.rumble.strong_magnitude,
                                 weakMagnitude: effect.u.rumble.weak_magnitude)
        case FF_PERIODIC:
            let periodic = effect.u.periodic
            parameters = .periodic(waveform: periodic.waveform, period: periodic.period, magnitude: periodic.magnitude,
                                   offset: periodic.offset, phase: periodic.phase, envelope: Envelope(periodic.envelope))
        case FF_CONSTANT:
            parameters = .constant(level: effect.u.constant.level, envelope: Envelope(effect.u.constant.envelope))
        default:
            parameters = .undecoded
        }
    }
}
