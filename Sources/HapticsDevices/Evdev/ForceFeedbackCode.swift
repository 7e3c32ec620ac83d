import CEvdev

/// One code of the `EV_FF` capability bitmap: an effect type (`FF_RUMBLE`, `FF_PERIODIC`…), a
/// waveform of periodic effects (`FF_SINE`…) or a device control (`FF_GAIN`, `FF_AUTOCENTER`).
///
/// Bits are claims, not proof: ``EvdevDevice/verifyEffects()`` tries what a device advertises.
public struct ForceFeedbackCode: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The kernel's code, e.g. 0x50 for `FF_RUMBLE`.
    public let rawValue: UInt16

    /// Wraps a kernel code.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    private init(_ code: CInt) { rawValue = UInt16(code) }

    /// `FF_RUMBLE`: dual-motor rumble (a strong and a weak motor).
    public static let rumble = ForceFeedbackCode(FF_RUMBLE)
    /// `FF_PERIODIC`: a periodic waveform (single vibra motors; ff-memless plays it on rumble motors).
    public static let periodic = ForceFeedbackCode(FF_PERIODIC)
    /// `FF_CONSTANT`: a constant force (wheels, joysticks).
    public static let constant = ForceFeedbackCode(FF_CONSTANT)
    /// `FF_SPRING`: a condition effect pulling towards a centre.
    public static let spring = ForceFeedbackCode(FF_SPRING)
    /// `FF_FRICTION`: a condition effect resisting movement.
    public static let friction = ForceFeedbackCode(FF_FRICTION)
    /// `FF_DAMPER`: a condition effect resisting speed.
    public static let damper = ForceFeedbackCode(FF_DAMPER)
    /// `FF_INERTIA`: a condition effect resisting acceleration.
    public static let inertia = ForceFeedbackCode(FF_INERTIA)
    /// `FF_RAMP`: a force that changes linearly.
    public static let ramp = ForceFeedbackCode(FF_RAMP)
    /// `FF_SQUARE`: the square waveform of periodic effects.
    public static let square = ForceFeedbackCode(FF_SQUARE)
    /// `FF_TRIANGLE`: the triangle waveform of periodic effects.
    public static let triangle = ForceFeedbackCode(FF_TRIANGLE)
    /// `FF_SINE`: the sine waveform of periodic effects.
    public static let sine = ForceFeedbackCode(FF_SINE)
    /// `FF_SAW_UP`: the rising saw-tooth waveform of periodic effects.
    public static let sawUp = ForceFeedbackCode(FF_SAW_UP)
    /// `FF_SAW_DOWN`: the falling saw-tooth waveform of periodic effects.
    public static let sawDown = ForceFeedbackCode(FF_SAW_DOWN)
    /// `FF_CUSTOM`: a periodic effect with samples of its own.
    public static let custom = ForceFeedbackCode(FF_CUSTOM)
    /// `FF_GAIN`: a device-wide gain, set with one write.
    public static let gain = ForceFeedbackCode(FF_GAIN)
    /// `FF_AUTOCENTER`: a self-centring spring (wheels).
    public static let autocenter = ForceFeedbackCode(FF_AUTOCENTER)

    /// Every code `input.h` names, in code order.
    public static let named: [ForceFeedbackCode] = [
        .rumble, .periodic, .constant, .spring, .friction, .damper, .inertia, .ramp,
        .square, .triangle, .sine, .sawUp, .sawDown, .custom, .gain, .autocenter,
    ]

    /// The waveforms a periodic effect can have, in the order ``EvdevDevice/verifyEffects()`` tries them.
    public static let waveforms: [ForceFeedbackCode] = [.sine, .square, .triangle, .sawUp, .sawDown]

    /// Whether the code names a waveform of periodic effects (`FF_SQUARE` … `FF_CUSTOM`) rather than
    /// an effect type or a control.
    public var isWaveform: Bool { rawValue >= UInt16(FF_WAVEFORM_MIN) && rawValue <= UInt16(FF_WAVEFORM_MAX) }

    /// The name as `input.h` spells it, in lower case with dashes (`rumble`, `saw-up`); a code
    /// without a name is its decimal number.
    public var name: String {
        switch self {
        case .rumble: "rumble"
        case .periodic: "periodic"
        case .constant: "constant"
        case .spring: "spring"
        case .friction: "friction"
        case .damper: "damper"
        case .inertia: "inertia"
        case .ramp: "ramp"
        case .square: "square"
        case .triangle: "triangle"
        case .sine: "sine"
        case .sawUp: "saw-up"
        case .sawDown: "saw-down"
        case .custom: "custom"
        case .gain: "gain"
        case .autocenter: "autocenter"
        default: String(rawValue)
        }
    }

    /// The ``name``.
    public var description: String { name }

    /// Orders codes by their kernel value.
    public static func < (lhs: ForceFeedbackCode, rhs: ForceFeedbackCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
