import CHapticsABI
import Glibc
import Haptics
import Synchronization

// Adaptive triggers (haptics.h: "Adaptive triggers (DualSense)"). Each device's triggers are
// opened at the first call for it and kept by the engine's handle until it is freed, which sets
// them off.

/// The open triggers of an engine's devices, by device id.
final class CTriggerOutlets: Sendable {
    private let outlets = Mutex<[Int: AdaptiveTriggers]>([:])

    /// Sets `left` and `right` on the device, opening its triggers first if need be. A pad found
    /// lost is forgotten, so that the next call opens it again once it is back.
    func set(_ device: HapticDevice, left: TriggerEffect?, right: TriggerEffect?) throws(TriggerDeviceError) {
        guard device.hasAdaptiveTriggers, let path = device.path else {
            throw .noAdaptiveTriggers(
                eventNode: device.path ?? device.name, vendor: device.inputID?.vendor ?? 0, product: device.inputID?.product ?? 0
            )
        }
        let key = device.id.rawValue
        let open: AdaptiveTriggers
        if let existing = outlets.withLock({ $0[key] }) {
            open = existing
        } else {
            // Opened outside the lock: it reads sysfs and starts a thread.
            let opened = try AdaptiveTriggers(eventNode: path)
            open = outlets.withLock { outlets in
                if let raced = outlets[key] { return raced }
                outlets[key] = opened
                return opened
            }
            if open !== opened { opened.close() }
        }
        do {
            try open.setEffects(left: left, right: right)
        } catch {
            if case .padLost = error { forget(key, open) }
            if case .closed = error { forget(key, open) }
            throw error
        }
    }

    private func forget(_ key: Int, _ triggers: AdaptiveTriggers) {
        outlets.withLock { outlets in
            if outlets[key] === triggers { outlets[key] = nil }
        }
        triggers.close()
    }

    /// Closes every device's triggers, which sets them off.
    func closeAll() {
        let all = outlets.withLock { outlets in
            defer { outlets = [:] }
            return Array(outlets.values)
        }
        for triggers in all { triggers.close() }
    }
}

/// Sets `effect` on the triggers of `mask` of device `id`.
private func setTriggers(
    _ handle: OpaquePointer?, _ id: Int32, _ mask: Int32, _ function: String, _ effect: () throws -> TriggerEffect
) -> Int32 {
    withEngineHandle(handle) { handle in
        guard mask & Int32(HAPTICS_TRIGGER_BOTH.rawValue) != 0, mask & ~Int32(HAPTICS_TRIGGER_BOTH.rawValue) == 0 else {
            LastError.set("\(function): triggers \(mask) is not a mask of HAPTICS_TRIGGER_LEFT and HAPTICS_TRIGGER_RIGHT")
            return CResult.invalidArgument
        }
        guard id >= 0, let device = handle.engine.device(HapticDevice.ID(rawValue: Int(id))) else {
            LastError.set("\(function): no device with id \(id)")
            return CResult.code(ENODEV)
        }
        do {
            let effect = try effect()
            let left = mask & Int32(HAPTICS_TRIGGER_LEFT.rawValue) != 0 ? effect : nil
            let right = mask & Int32(HAPTICS_TRIGGER_RIGHT.rawValue) != 0 ? effect : nil
            try handle.triggers.set(device, left: left, right: right)
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
    guard let effect else {
        LastError.set("haptics_device_set_trigger_effect: the effect is NULL")
        return CResult.invalidArgument
    }
    let smallest = MemoryLayout<haptics_trigger_effect>.size
    guard effect.pointee.size >= smallest else {
        LastError.set("haptics_device_set_trigger_effect: effect size \(effect.pointee.size) is smaller than sizeof(haptics_trigger_effect), \(smallest)")
        return CResult.invalidArgument
    }
    let mode = Int(effect.pointee.mode)
    let values = withUnsafeBytes(of: effect.pointee.values) { Array($0.bindMemory(to: Int32.self)).map(Int.init) }
    return setTriggers(handle, id, triggers, "haptics_device_set_trigger_effect") {
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
    setTriggers(handle, id, Int32(HAPTICS_TRIGGER_BOTH.rawValue), "haptics_device_reset_triggers") { .off }
}
