import CHapticsABI
import Glibc
import Haptics
import Synchronization

// Adaptive triggers (haptics.h: "Adaptive triggers (DualSense)"): the engine's own
// (`HapticEngine.setTriggerEffects`), opened at the first call for a device and set off when the
// engine stops or is freed.

/// Sets `effect` on the triggers of `mask` of device `id`, at `at` (monotonic ns; 0: now).
private func setTriggers(
    _ handle: OpaquePointer?, _ id: Int32, _ mask: Int32, at: Int64 = 0, _ function: String, _ effect: () throws -> TriggerEffect
) -> Int32 {
    withEngineHandle(handle) { handle in
        guard mask & Int32(HAPTICS_TRIGGER_BOTH.rawValue) != 0, mask & ~Int32(HAPTICS_TRIGGER_BOTH.rawValue) == 0 else {
            LastError.set("\(function): triggers \(mask) is not a mask of HAPTICS_TRIGGER_LEFT and HAPTICS_TRIGGER_RIGHT")
            return CResult.invalidArgument
        }
        guard handle.device(id, for: function) != nil else { return CResult.code(ENODEV) }
        guard at >= 0 else {
            LastError.set("\(function): the instant \(at) is negative")
            return CResult.invalidArgument
        }
        do {
            let effect = try effect()
            let left = mask & Int32(HAPTICS_TRIGGER_LEFT.rawValue) != 0 ? effect : nil
            let right = mask & Int32(HAPTICS_TRIGGER_RIGHT.rawValue) != 0 ? effect : nil
            let outcome = try handle.engine.setTriggerEffects(
                left: left, right: right, on: HapticDevice.ID(rawValue: Int(id)), at: at == 0 ? nil : MonotonicInstant(nanoseconds: at))
            if case let .notPlayed(why) = outcome {
                LastError.set("\(function): not set: \(why)")
                return CResult.code(why)
            }
            return CResult.ok
        } catch {
            LastError.set("\(function): \(error)")
            return CResult.code(of: error)
        }
    }
}

@_cdecl("haptics_device_set_trigger_effect")
public func haptics_device_set_trigger_effect(
    _ handle: OpaquePointer?, _ id: Int32, _ triggers: Int32, _ effect: UnsafePointer<haptics_trigger_effect>?
) -> Int32 {
    setTriggerEffect(handle, id, triggers, effect, at: 0, "haptics_device_set_trigger_effect")
}

@_cdecl("haptics_device_set_trigger_effect_at")
public func haptics_device_set_trigger_effect_at(
    _ handle: OpaquePointer?, _ id: Int32, _ triggers: Int32, _ effect: UnsafePointer<haptics_trigger_effect>?, _ at: Int64
) -> Int32 {
    setTriggerEffect(handle, id, triggers, effect, at: at, "haptics_device_set_trigger_effect_at")
}

/// Reads a `haptics_trigger_effect` and sets it.
private func setTriggerEffect(
    _ handle: OpaquePointer?, _ id: Int32, _ triggers: Int32, _ effect: UnsafePointer<haptics_trigger_effect>?, at: Int64,
    _ function: String
) -> Int32 {
    guard let effect else {
        LastError.set("\(function): the effect is NULL")
        return CResult.invalidArgument
    }
    let smallest = MemoryLayout<haptics_trigger_effect>.size
    guard effect.pointee.size >= smallest else {
        LastError.set("\(function): effect size \(effect.pointee.size) is smaller than sizeof(haptics_trigger_effect), \(smallest)")
        return CResult.invalidArgument
    }
    let mode = Int(effect.pointee.mode)
    let values = withUnsafeBytes(of: effect.pointee.values) { Array($0.bindMemory(to: Int32.self)).map(Int.init) }
    return setTriggers(handle, id, triggers, at: at, function) {
        guard TriggerEffect.syntax.indices.contains(mode) else {
            throw TriggerEffectError.outOfRange(effect: "haptics_trigger_effect", parameter: "mode", value: mode, allowed: 0...(TriggerEffect.syntax.count - 1))
        }
        let syntax = TriggerEffect.syntax[mode]
        if let extra = values.indices.dropFirst(syntax.valueCount).first(where: { values[$0] != 0 }) {
            throw TriggerEffectError.outOfRange(effect: syntax.name, parameter: "values[\(extra)] (unused)", value: values[extra], allowed: 0...0)
        }
        return try syntax.effect(values: Array(values.prefix(syntax.valueCount)))
    }
}

@_cdecl("haptics_device_set_trigger_effect_text")
public func haptics_device_set_trigger_effect_text(
    _ handle: OpaquePointer?, _ id: Int32, _ triggers: Int32, _ text: UnsafePointer<CChar>?
) -> Int32 {
    guard let text else {
        LastError.set("haptics_device_set_trigger_effect_text: the effect is NULL")
        return CResult.invalidArgument
    }
    let string = String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self)
    return setTriggers(handle, id, triggers, "haptics_device_set_trigger_effect_text") { try TriggerEffect(parsing: string) }
}

@_cdecl("haptics_device_reset_triggers")
public func haptics_device_reset_triggers(_ handle: OpaquePointer?, _ id: Int32) -> Int32 {
    withEngineHandle(handle) { handle in
        guard handle.device(id, for: "haptics_device_reset_triggers") != nil else { return CResult.code(ENODEV) }
        do {
            try handle.engine.resetTriggers(on: HapticDevice.ID(rawValue: Int(id)))
            return CResult.ok
        } catch {
            LastError.set("haptics_device_reset_triggers: \(error)")
            return CResult.code(of: error)
        }
    }
}
