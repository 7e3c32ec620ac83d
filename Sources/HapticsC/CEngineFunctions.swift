import CHapticsABI
import Glibc
import Haptics

// The engine, its switches, devices, sound and events (haptics.h: "Engine", "Devices", "Sound",
// "Events"). Control side: these may block briefly; the plays are in CFeedbackFunctions.swift.

@_cdecl("haptics_last_error")
public func haptics_last_error() -> UnsafePointer<CChar> {
    LastError.current ?? UnsafeRawPointer(emptyText.utf8Start).assumingMemoryBound(to: CChar.self)
}

private let emptyText: StaticString = ""

@_cdecl("haptics_now")
public func haptics_now() -> Int64 {
    SystemMonotonicClock().now().nanoseconds
}

/// Stores a new started engine in `*out`.
private func make(_ out: UnsafeMutablePointer<OpaquePointer?>, _ build: () throws -> HapticEngine) -> Int32 {
    do {
        let engine = try build()
        if !engine.isRunning { try engine.start() }
        out.pointee = CEngine(engine: engine).retainedPointer()
        return CResult.ok
    } catch {
        return CResult.failure(error)
    }
}

@_cdecl("haptics_engine_new_automatic")
public func haptics_engine_new_automatic(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard let out else { return CResult.invalidArgument }
    return make(out) { try HapticEngine.automatic() }
}

@_cdecl("haptics_engine_new_simulated")
public func haptics_engine_new_simulated(_ count: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard let out, (1...16).contains(count) else {
        LastError.set("haptics_engine_new_simulated: count \(count) is outside 1…16, or the engine pointer is NULL")
        return CResult.invalidArgument
    }
    return make(out) { HapticEngine(outputs: (0..<count).map { _ in .simulated() }) }
}

@_cdecl("haptics_engine_new_with_nodes")
public func haptics_engine_new_with_nodes(
    _ paths: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    guard let paths, let out, (1...16).contains(count) else {
        LastError.set("haptics_engine_new_with_nodes: \(count) nodes (1…16 are accepted), or a NULL pointer")
        return CResult.invalidArgument
    }
    var nodes: [String] = []
    for index in 0..<count {
        guard let path = paths[index] else {
            LastError.set("haptics_engine_new_with_nodes: node \(index) is NULL")
            return CResult.invalidArgument
        }
        nodes.append(CText.string(path))
    }
    return make(out) { HapticEngine(outputs: try nodes.map { path throws(DeviceError) in try HapticEngine.evdevOutput(path: path) }) }
}

@_cdecl("haptics_engine_free")
public func haptics_engine_free(_ handle: OpaquePointer?) {
    guard let handle, let engine = CEngine.from(handle) else { return }
    engine.engine.setEventHandler(nil)
    engine.engine.stop()
    CEngine.release(handle)
}

/// Runs `body` on the engine behind `handle`, or refuses a NULL (-EINVAL) or foreign (-EBADF) one.
@inline(__always)
func withEngine(_ handle: OpaquePointer?, _ body: (HapticEngine) -> Int32) -> Int32 {
    withEngineHandle(handle) { body($0.engine) }
}

/// `withEngine` with the handle's object (its event queue too).
@inline(__always)
func withEngineHandle(_ handle: OpaquePointer?, _ body: (CEngine) -> Int32) -> Int32 {
    guard let handle else { return CResult.invalidArgument }
    guard let engine = CEngine.from(handle) else { return CResult.badHandle }
    return body(engine)
}

@_cdecl("haptics_engine_start")
public func haptics_engine_start(_ handle: OpaquePointer?) -> Int32 {
    withEngine(handle) { engine in
        do {
            try engine.start()
            return CResult.ok
        } catch {
            LastError.set("the realtime thread could not be started: \(error)")
            return CResult.code(EAGAIN)
        }
    }
}

@_cdecl("haptics_engine_stop")
public func haptics_engine_stop(_ handle: OpaquePointer?) -> Int32 {
    withEngine(handle) { engine in
        engine.stop()
        return CResult.ok
    }
}

@_cdecl("haptics_wait_until_sent")
public func haptics_wait_until_sent(_ handle: OpaquePointer?, _ through: Int64, _ timeout: Int64) -> Int32 {
    withEngine(handle) { engine in
        let hour = HapticEngine.schedulingHorizon.nanoseconds
        let now = engine.now
        guard through == 0 || through <= now.nanoseconds + hour else {
            LastError.set("haptics_wait_until_sent: through \(through) ns is more than an hour ahead of now (\(now.nanoseconds) ns)")
            return CResult.code(ERANGE)
        }
        guard timeout >= 0, timeout <= hour else {
            LastError.set("haptics_wait_until_sent: timeout \(timeout) ns is outside 0…1 h")
            return CResult.code(ERANGE)
        }
        guard engine.isRunning else {
            LastError.set("haptics_wait_until_sent: the engine is stopped")
            return CResult.code(ESHUTDOWN)
        }
        let instant = through == 0 ? now : MonotonicInstant(nanoseconds: through)
        guard engine.waitUntilSent(through: instant, timeout: .nanoseconds(timeout)) else {
            guard engine.isRunning else {
                LastError.set("haptics_wait_until_sent: the engine was stopped meanwhile")
                return CResult.code(ESHUTDOWN)
            }
            LastError.set("haptics_wait_until_sent: not sent \(timeout) ns after \(instant.nanoseconds) ns")
            return CResult.code(ETIMEDOUT)
        }
        return CResult.ok
    }
}

@_cdecl("haptics_set_enabled")
public func haptics_set_enabled(_ handle: OpaquePointer?, _ enabled: Int32) -> Int32 {
    withEngine(handle) { engine in
        engine.isEnabled = enabled != 0
        return CResult.ok
    }
}

@_cdecl("haptics_is_enabled")
public func haptics_is_enabled(_ handle: OpaquePointer?) -> Int32 {
    withEngine(handle) { $0.isEnabled ? 1 : 0 }
}

@_cdecl("haptics_set_gain")
public func haptics_set_gain(_ handle: OpaquePointer?, _ gain: Double) -> Int32 {
    withEngine(handle) { engine in
        guard !gain.isNaN else {
            LastError.set("haptics_set_gain: the gain is NaN; it stays \(engine.gain)")
            return CResult.invalidArgument
        }
        engine.gain = gain
        return CResult.ok
    }
}

@_cdecl("haptics_get_gain")
public func haptics_get_gain(_ handle: OpaquePointer?, _ gain: UnsafeMutablePointer<Double>?) -> Int32 {
    withEngine(handle) { engine in
        guard let gain else { return CResult.invalidArgument }
        gain.pointee = engine.gain
        return CResult.ok
    }
}

@_cdecl("haptics_set_application_active")
public func haptics_set_application_active(_ handle: OpaquePointer?, _ active: Int32) -> Int32 {
    withEngine(handle) { engine in
        engine.isApplicationActive = active != 0
        return CResult.ok
    }
}

// MARK: Devices

@_cdecl("haptics_device_count")
public func haptics_device_count(_ handle: OpaquePointer?) -> Int32 {
    withEngine(handle) { Int32($0.devices.count) }
}

@_cdecl("haptics_device_get_info")
public func haptics_device_get_info(_ handle: OpaquePointer?, _ index: Int32, _ info: UnsafeMutablePointer<haptics_device_info>?) -> Int32 {
    withEngine(handle) { engine in
        // A program built against the 0.9 header passes the size of the fields up to `profile`.
        let smallest = MemoryLayout<haptics_device_info>.offset(of: \haptics_device_info.capabilities)!
        guard let info, Int(info.pointee.size) >= smallest else {
            LastError.set("haptics_device_get_info: info is NULL or its size is not set to sizeof(haptics_device_info)")
            return CResult.invalidArgument
        }
        let devices = engine.devices
        guard index >= 0, Int(index) < devices.count else {
            LastError.set("haptics_device_get_info: no device \(index); the engine has \(devices.count)")
            return CResult.code(ERANGE)
        }
        let device = devices[Int(index)]
        var filled = haptics_device_info()
        fill(&filled, from: device)
        // Only what the caller's struct holds: an older one ends before the newer fields.
        let size = info.pointee.size
        withUnsafeBytes(of: &filled) { bytes in
            UnsafeMutableRawPointer(info).copyMemory(from: bytes.baseAddress!, byteCount: min(Int(size), bytes.count))
        }
        info.pointee.size = size
        return CResult.ok
    }
}

/// The C view of a device: every field of `haptics_device_info` but `size`.
private func fill(_ info: inout haptics_device_info, from device: HapticDevice) {
    info.id = Int32(clamping: device.id.rawValue)
    switch device.state {
    case .available:
        info.state = Int32(HAPTICS_DEVICE_AVAILABLE.rawValue)
    case let .unavailable(error):
        info.state = Int32(HAPTICS_DEVICE_UNAVAILABLE.rawValue)
        info.error = CResult.code(of: error)
    case let .lost(error):
        info.state = Int32(HAPTICS_DEVICE_LOST.rawValue)
        info.error = CResult.code(of: error)
    }
    info.simulated = device.isSimulatedFallback || device.path == nil ? 1 : 0
    if let ids = device.inputID {
        info.bus = ids.bus
        info.vendor = ids.vendor
        info.product = ids.product
        info.version = ids.version
    }
    CText.copy(device.name, into: &info.name)
    CText.copy(device.path ?? "", into: &info.path)
    CText.copy(device.uniqueIdentifier, into: &info.uniq)
    CText.copy(device.physicalLocation, into: &info.phys)
    CText.copy(device.joystickGUIDString ?? "", into: &info.sdl_guid)
    CText.copy(device.hidapiJoystickGUID?.string ?? "", into: &info.sdl_hidapi_guid)
    CText.copy((device.settings.profile ?? device.profile)?.name ?? "", into: &info.profile)
    info.capabilities = CCapabilities.bits(of: device.forceFeedbackCodes)
        | (device.hasAdaptiveTriggers ? HAPTICS_CAPABILITY_ADAPTIVE_TRIGGERS.rawValue : 0)
        | (device.hasVoiceCoils ? HAPTICS_CAPABILITY_HD_HAPTICS.rawValue : 0)
    info.effect_slots = Int32(clamping: device.effectSlots)
}

/// `haptics_capability` bits of a device's force-feedback codes.
enum CCapabilities {
    static func bits(of codes: Set<ForceFeedbackCode>) -> UInt32 {
        let bits: [(ForceFeedbackCode, haptics_capability)] = [
            (.rumble, HAPTICS_CAPABILITY_RUMBLE), (.periodic, HAPTICS_CAPABILITY_PERIODIC),
            (.constant, HAPTICS_CAPABILITY_CONSTANT), (.gain, HAPTICS_CAPABILITY_GAIN),
        ]
        return bits.reduce(0) { codes.contains($1.0) ? $0 | $1.1.rawValue : $0 }
    }
}

// MARK: Sound

@_cdecl("haptics_audio_attach")
public func haptics_audio_attach(_ handle: OpaquePointer?, _ device: UnsafePointer<CChar>?) -> Int32 {
    haptics_audio_attach_with_cues(handle, device, nil)
}

@_cdecl("haptics_audio_attach_with_cues")
public func haptics_audio_attach_with_cues(
    _ handle: OpaquePointer?, _ device: UnsafePointer<CChar>?, _ cueFolder: UnsafePointer<CChar>?
) -> Int32 {
    withEngine(handle) { engine in
        guard engine.audioOutput == nil else {
            LastError.set("haptics_audio_attach: the engine already has an audio output")
            return CResult.code(EBUSY)
        }
        let name = device.map(CText.string) ?? "default"
        let output = AudioOutput(sink: ALSAAudioSink(device: name))
        do {
            try output.start()
        } catch {
            LastError.set("\(name): \(error)")
            return CResult.code(ENODEV)
        }
        do {
            let cues = try cueFolder.map { folder throws(WAVError) in
                try SoundCueLibrary(folder: CText.string(folder), outputRate: output.streamFormat.sampleRate)
            }
            try engine.attachAudio(output, soundCues: cues)
            return CResult.ok
        } catch {
            output.stop()
            return CResult.failure(error)
        }
    }
}

@_cdecl("haptics_audio_set_muted")
public func haptics_audio_set_muted(_ handle: OpaquePointer?, _ muted: Int32) -> Int32 {
    withEngine(handle) { engine in
        engine.isAudioMuted = muted != 0
        return CResult.ok
    }
}

// MARK: Events

@_cdecl("haptics_poll_event")
public func haptics_poll_event(_ handle: OpaquePointer?, _ event: UnsafeMutablePointer<haptics_event>?) -> Int32 {
    guard let handle else { return CResult.invalidArgument }
    guard let engine = CEngine.from(handle) else { return CResult.badHandle }
    guard let event, Int(event.pointee.size) >= MemoryLayout<haptics_event>.size else {
        LastError.set("haptics_poll_event: event is NULL or its size is not set to sizeof(haptics_event)")
        return CResult.invalidArgument
    }
    let size = event.pointee.size
    event.pointee = haptics_event()
    event.pointee.size = size
    let (lost, next) = engine.events.take()
    if lost > 0 {
        event.pointee.type = Int32(HAPTICS_EVENT_EVENTS_LOST.rawValue)
        event.pointee.error = Int32(clamping: lost)
        return 1
    }
    guard let next else {
        event.pointee.type = Int32(HAPTICS_EVENT_NONE.rawValue)
        return 0
    }
    let engineEvent: HapticEngine.Event
    switch next {
    case let .player(address, completion):
        event.pointee.type = Int32(HAPTICS_EVENT_PLAYER_FINISHED.rawValue)
        event.pointee.error = completion == .finished ? 0 : CResult.code(ECANCELED)
        event.pointee.player = OpaquePointer(bitPattern: address)
        return 1
    case let .engine(delivered):
        engineEvent = delivered
    }
    switch engineEvent {
    case let .deviceAdded(name, path):
        event.pointee.type = Int32(HAPTICS_EVENT_DEVICE_ADDED.rawValue)
        CText.copy(name, into: &event.pointee.name)
        CText.copy(path ?? "", into: &event.pointee.path)
    case let .deviceLost(name, path, error):
        event.pointee.type = Int32(HAPTICS_EVENT_DEVICE_LOST.rawValue)
        event.pointee.error = CResult.code(of: error)
        CText.copy(name, into: &event.pointee.name)
        CText.copy(path ?? "", into: &event.pointee.path)
    case let .deviceUnavailable(name, path, error):
        event.pointee.type = Int32(HAPTICS_EVENT_DEVICE_UNAVAILABLE.rawValue)
        event.pointee.error = CResult.code(of: error)
        CText.copy(name, into: &event.pointee.name)
        CText.copy(path, into: &event.pointee.path)
    case .fallbackToSimulatedDevice:
        event.pointee.type = Int32(HAPTICS_EVENT_SIMULATED_FALLBACK.rawValue)
    case let .audioDeviceLost(errno):
        event.pointee.type = Int32(HAPTICS_EVENT_AUDIO_DEVICE_LOST.rawValue)
        event.pointee.error = CResult.code(errno.rawValue)
    }
    return 1
}
