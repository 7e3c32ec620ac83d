import CHapticsABI
import Glibc
import Haptics
import Synchronization

// HD haptics (haptics.h: "HD haptics (DualSense)"): the engine's voice coils of a pad, opened at
// the first play on it (a player's or these calls') and closed when the engine stops.

@_cdecl("haptics_device_set_hd")
public func haptics_device_set_hd(_ handle: OpaquePointer?, _ id: Int32, _ enabled: Int32, _ audioCard: UnsafePointer<CChar>?) -> Int32 {
    withEngineHandle(handle) { handle in
        guard let device = handle.device(id, for: "haptics_device_set_hd") else { return CResult.code(ENODEV) }
        handle.engine.setHDHaptics(enabled != 0, audioCard: audioCard.map { String(cString: $0) }, for: device)
        return CResult.ok
    }
}

@_cdecl("haptics_device_play_hd")
public func haptics_device_play_hd(
    _ handle: OpaquePointer?, _ id: Int32, _ path: UnsafePointer<CChar>?, _ audioCard: UnsafePointer<CChar>?, _ at: Int64
) -> Int32 {
    withEngineHandle(handle) { handle in
        let function = "haptics_device_play_hd"
        guard let device = handle.device(id, for: function) else { return CResult.code(ENODEV) }
        guard let path else {
            LastError.set("\(function): path is NULL")
            return CResult.invalidArgument
        }
        guard at >= 0 else {
            LastError.set("\(function): the instant \(at) is negative")
            return CResult.invalidArgument
        }
        guard device.hasVoiceCoils else {
            LastError.set("\(function): \(device.name) has no voice coils (not a DualSense or DualSense Edge)")
            return CResult.code(ENOTSUP)
        }
        do {
            let pattern = try decodePattern(contentsOf: String(cString: path)).pattern
            if let audioCard {
                handle.engine.setHDHaptics(device.settings.hdHaptics, audioCard: String(cString: audioCard), for: device)
            }
            let found = handle.engine.device(device.id) ?? device
            try handle.engine.playHDHaptics(pattern, on: found, at: at == 0 ? .now : MonotonicInstant(nanoseconds: at))
            return CResult.ok
        } catch {
            LastError.set("\(function): \(error)")
            return CResult.code(of: error)
        }
    }
}

@_cdecl("haptics_device_stop_hd")
public func haptics_device_stop_hd(_ handle: OpaquePointer?, _ id: Int32) -> Int32 {
    withEngineHandle(handle) { handle in
        guard let device = handle.device(id, for: "haptics_device_stop_hd") else { return CResult.code(ENODEV) }
        handle.engine.stopHDHaptics(on: device)
        return CResult.ok
    }
}

extension CEngine {
    /// The device with id `id`, or `nil` with "`function`: no device with id `id`" as the last error.
    func device(_ id: Int32, for function: String) -> HapticDevice? {
        guard id >= 0, let device = engine.device(HapticDevice.ID(rawValue: Int(id))) else {
            LastError.set("\(function): no device with id \(id)")
            return nil
        }
        return device
    }
}
