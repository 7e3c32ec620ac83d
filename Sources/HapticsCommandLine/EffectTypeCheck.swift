import CEvdev
import HapticsDevices
import HapticsSystem

/// What `verify` found out about one effect type by exercising it, not by reading its bit.
enum EffectTypeCheck: Equatable {
    /// Upload, play, stop and erase all succeeded.
    case works
    /// A step failed: the kernel's (or driver's) answer.
    case rejected(SystemCallError)
    /// The device does not advertise the type.
    case notAdvertised

    /// The effect types `verify` exercises, in order.
    enum Kind: String, CaseIterable {
        case rumble, periodic, constant, gain
    }

    /// Exercises `kind` on an open device: for an effect, upload (`EVIOCSFF`), play and stop
    /// (`write` of `EV_FF`) and erase (`EVIOCRMFF`) — the effect is erased even when playing
    /// failed; for the gain, set it to half and back to full.
    static func run(_ kind: Kind, on device: EvdevDevice) -> EffectTypeCheck {
        let codes = Set(device.info.forceFeedbackCodes.map(\.rawValue))
        let descriptor = device.descriptor
        var effect = ff_effect()
        effect.id = -1
        // Long enough to be felt, short enough that a lost stop ends by itself.
        effect.replay.length = 200
        switch kind {
        case .gain:
            guard codes.contains(UInt16(FF_GAIN)) else { return .notAdvertised }
            do {
                try descriptor.writeInputEvent(type: UInt16(EV_FF), code: UInt16(FF_GAIN), value: 0x8000)
                try descriptor.writeInputEvent(type: UInt16(EV_FF), code: UInt16(FF_GAIN), value: 0xFFFF)
                return .works
            } catch {
                return .rejected(error)
            }
        case .rumble:
            guard codes.contains(UInt16(FF_RUMBLE)) else { return .notAdvertised }
            effect.type = UInt16(FF_RUMBLE)
            effect.u.rumble.strong_magnitude = 0x4000
            effect.u.rumble.weak_magnitude = 0x4000
        case .periodic:
            guard codes.contains(UInt16(FF_PERIODIC)) else { return .notAdvertised }
            let waveforms = [FF_SINE, FF_SQUARE, FF_TRIANGLE, FF_SAW_UP, FF_SAW_DOWN].map(UInt16.init)
            // A periodic effect without any advertised waveform cannot be uploaded honestly.
            guard let waveform = waveforms.first(where: codes.contains) else {
                return .rejected(SystemCallError(call: "EVIOCGBIT", errno: .invalidArgument))
            }
            effect.type = UInt16(FF_PERIODIC)
            effect.u.periodic.waveform = waveform
            effect.u.periodic.period = 50
            effect.u.periodic.magnitude = 0x2000
        case .constant:
            guard codes.contains(UInt16(FF_CONSTANT)) else { return .notAdvertised }
            effect.type = UInt16(FF_CONSTANT)
            effect.u.constant.level = 0x2000
        }
        do {
            try descriptor.uploadEffect(&effect)
        } catch {
            return .rejected(error)
        }
        var failure: SystemCallError?
        do {
            try descriptor.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 1)
            try descriptor.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 0)
        } catch {
            failure = error
        }
        do {
            try descriptor.eraseEffect(id: effect.id)
        } catch {
            failure = failure ?? error
        }
        return failure.map(EffectTypeCheck.rejected) ?? .works
    }

    /// `works`, `not advertised`, or `rejected: EVIOCSFF: EINVAL (Invalid argument)`.
    var text: String {
        switch self {
        case .works: return "works"
        case .notAdvertised: return "not advertised"
        case let .rejected(error): return "rejected: \(error)"
        }
    }

    /// The JSON result name.
    var result: String {
        switch self {
        case .works: return "works"
        case .notAdvertised: return "not-advertised"
        case .rejected: return "rejected"
        }
    }
}
