import CEvdev
import HapticsSystem

/// Trying what a device advertises, because capability bits do not prove an effect plays.
extension EvdevDevice {
    /// Tries every ``EffectVerification/Kind`` in order: rumble, periodic, constant, gain.
    ///
    /// The device plays short, weak effects meanwhile (200 ms at most, stopped at once) and is left
    /// at full gain. Control side; do not call it while an ``EvdevActuator`` drives the device. See
    /// ``verifyEffect(_:)``.
    public func verifyEffects() -> [EffectVerification] {
        EffectVerification.Kind.allCases.map(verifyEffect)
    }

    /// Tries one effect type, when the device advertises it.
    ///
    /// An effect type is uploaded (`EVIOCSFF`), played and stopped (two `write`s of `EV_FF`) and
    /// erased (`EVIOCRMFF`) — erased even when playing failed; the first failure is the outcome. A
    /// periodic effect uses the first advertised waveform (sine, square, triangle, saw up, saw
    /// down), or sine when none is advertised, so that the kernel gives its own verdict. The gain is
    /// written at half and then at full (`FF_GAIN`).
    ///
    /// The corresponding ioctls are `EVIOCSFF` and `EVIOCRMFF`; the corresponding C function is `write`.
    public func verifyEffect(_ kind: EffectVerification.Kind) -> EffectVerification {
        precondition(!isClosed, "verifyEffect(_:) on a closed device")
        guard info.forceFeedbackCodes.contains(kind.code) else {
            return EffectVerification(kind: kind, outcome: .notAdvertised)
        }
        if kind == .gain { return verifyGain() }

        var effect = ff_effect()
        effect.id = -1
        // Long enough to be felt, short enough that a lost stop ends by itself.
        effect.replay.length = 200
        var waveform: ForceFeedbackCode?
        switch kind {
        case .rumble:
            effect.type = UInt16(FF_RUMBLE)
            effect.u.rumble.strong_magnitude = 0x4000
            effect.u.rumble.weak_magnitude = 0x4000
        case .periodic:
            let chosen = ForceFeedbackCode.waveforms.first(where: info.forceFeedbackCodes.contains) ?? .sine
            waveform = chosen
            effect.type = UInt16(FF_PERIODIC)
            effect.u.periodic.waveform = chosen.rawValue
            effect.u.periodic.period = 50
            effect.u.periodic.magnitude = 0x2000
        case .constant:
            effect.type = UInt16(FF_CONSTANT)
            effect.u.constant.level = 0x2000
        case .gain:
            preconditionFailure("handled above")
        }

        var result = EffectVerification(kind: kind, outcome: .accepted, waveform: waveform)
        do {
            try descriptor.uploadEffect(&effect)
            result.accepted.append(.upload)
        } catch {
            result.outcome = .rejected(error)
            return result
        }
        var failure: SystemCallError?
        for (step, value) in [(EffectVerification.Step.play, Int32(1)), (.stop, 0)] {
            do {
                try descriptor.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: value)
                result.written.append(step)
            } catch {
                failure = error
                break
            }
        }
        do {
            try descriptor.eraseEffect(id: effect.id)
            result.accepted.append(.erase)
        } catch {
            failure = failure ?? error
        }
        if let failure { result.outcome = .rejected(failure) }
        return result
    }

    private func verifyGain() -> EffectVerification {
        var result = EffectVerification(kind: .gain, outcome: .written)
        for (step, value) in [(EffectVerification.Step.halfGain, Int32(0x8000)), (.fullGain, 0xFFFF)] {
            do {
                try descriptor.writeInputEvent(type: UInt16(EV_FF), code: UInt16(FF_GAIN), value: value)
                result.written.append(step)
            } catch {
                result.outcome = .rejected(error)
                return result
            }
        }
        return result
    }
}
