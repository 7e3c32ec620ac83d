import CHapticsABI
import Glibc
import Haptics

// One device at a time (haptics.h: "One device at a time", "Devices"). The plays are
// realtime-safe: a device id becomes a one-device selection, which allocates nothing.

/// The selection of the device with `id`, or `nil` for a negative id.
@inline(__always)
private func selection(_ id: Int32) -> DeviceSelection? {
    id >= 0 ? DeviceSelection(HapticDevice.ID(rawValue: Int(id))) : nil
}

/// Plays `body` on the engine with the one-device selection of `id`; a negative id reaches no
/// device (`.noDevice`, -ENODEV), as an unknown one does in the engine. Realtime-safe.
@inline(__always)
private func play(
    _ handle: OpaquePointer?, on id: Int32, into outcome: UnsafeMutablePointer<haptics_outcome>?,
    _ body: (HapticEngine, DeviceSelection) -> PlaybackOutcome
) -> Int32 {
    withEngine(handle) { engine in
        COutcome.report(selection(id).map { body(engine, $0) } ?? .notPlayed(.noDevice), into: outcome)
    }
}

/// Runs a control-side `body` on the engine's device with `id`, or refuses an unknown id (-ENODEV).
private func withDevice(_ handle: OpaquePointer?, _ id: Int32, _ function: String,
                        _ body: (HapticEngine, HapticDevice) throws -> Void) -> Int32 {
    withEngine(handle) { engine in
        guard id >= 0, let device = engine.device(HapticDevice.ID(rawValue: Int(id))) else {
            LastError.set("\(function): no device with id \(id)")
            return CResult.code(ENODEV)
        }
        do {
            try body(engine, device)
            return CResult.ok
        } catch {
            return CResult.failure(error)
        }
    }
}

@_cdecl("haptics_device_play")
public func haptics_device_play(
    _ handle: OpaquePointer?, _ id: Int32, _ item: Int32, _ intensity: Double, _ feltAt: Int64,
    _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    guard let feedback = feedback(item, intensity: intensity) else {
        return withEngine(handle) { _ in COutcome.refuse(outcome) }
    }
    return play(handle, on: id, into: outcome) { engine, devices in engine.play(feedback, on: devices, feltAt: instant(feltAt)) }
}

@_cdecl("haptics_device_prepare")
public func haptics_device_prepare(_ handle: OpaquePointer?, _ id: Int32, _ item: Int32) -> Int32 {
    withEngine(handle) { engine in
        guard let feedback = feedback(item, intensity: 1), let devices = selection(id) else {
            LastError.set("haptics_device_prepare: \(item) is not a haptics_feedback value (0…8), or device id \(id) is negative")
            return CResult.invalidArgument
        }
        engine.prepare(feedback, on: devices)
        return CResult.ok
    }
}

@_cdecl("haptics_device_rumble")
public func haptics_device_rumble(
    _ handle: OpaquePointer?, _ id: Int32, _ low: Double, _ high: Double, _ duration: Int64,
    _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    guard isPlayableRumble(duration, in: "haptics_device_rumble") else {
        return withEngine(handle) { _ in COutcome.refuse(outcome) }
    }
    return play(handle, on: id, into: outcome) { engine, devices in
        engine.rumble(low: low, high: high, duration: .nanoseconds(duration), on: devices)
    }
}

@_cdecl("haptics_device_find_by_path")
public func haptics_device_find_by_path(_ handle: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    withEngine(handle) { engine in
        guard let path else {
            LastError.set("haptics_device_find_by_path: path is NULL")
            return CResult.invalidArgument
        }
        let node = CText.string(path)
        guard let device = engine.device(atPath: node) else {
            LastError.set("haptics_device_find_by_path: no device of the engine has the node \(node)")
            return CResult.code(ENODEV)
        }
        return Int32(clamping: device.id.rawValue)
    }
}

@_cdecl("haptics_device_set_motor_levels")
public func haptics_device_set_motor_levels(
    _ handle: OpaquePointer?, _ id: Int32, _ low: Double, _ high: Double, _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    play(handle, on: id, into: outcome) { engine, devices in engine.setMotorLevels(low: low, high: high, on: devices) }
}

@_cdecl("haptics_device_set_gain")
public func haptics_device_set_gain(_ handle: OpaquePointer?, _ id: Int32, _ gain: Double) -> Int32 {
    withDevice(handle, id, "haptics_device_set_gain") { engine, device in try engine.setGain(gain, for: device) }
}

@_cdecl("haptics_device_set_enabled")
public func haptics_device_set_enabled(_ handle: OpaquePointer?, _ id: Int32, _ enabled: Int32) -> Int32 {
    withDevice(handle, id, "haptics_device_set_enabled") { engine, device in engine.setEnabled(enabled != 0, for: device) }
}

@_cdecl("haptics_device_set_profile")
public func haptics_device_set_profile(_ handle: OpaquePointer?, _ id: Int32, _ name: UnsafePointer<CChar>?) -> Int32 {
    guard let name else { return CResult.invalidArgument }
    return withDevice(handle, id, "haptics_device_set_profile") { engine, device in
        try engine.setProfile(named: CText.string(name), for: device)
    }
}

@_cdecl("haptics_device_load_profile")
public func haptics_device_load_profile(_ handle: OpaquePointer?, _ id: Int32, _ path: UnsafePointer<CChar>?) -> Int32 {
    guard let path else { return CResult.invalidArgument }
    return withDevice(handle, id, "haptics_device_load_profile") { engine, device in
        try engine.loadProfile(contentsOf: CText.string(path), for: device)
    }
}
