import CHapticsABI
import Glibc
import Haptics

// Pattern players (haptics.h: "Pattern players"). Making one reads and renders (control side);
// the controls are realtime-safe: one lock-free submission each, refused with -EAGAIN when the
// queue is full.

@inline(__always)
func withPlayer(_ handle: OpaquePointer?, _ body: (HapticPatternPlayer) -> Int32) -> Int32 {
    guard let handle else { return CResult.invalidArgument }
    guard let player = CPlayer.from(handle) else { return CResult.badHandle }
    return body(player.player)
}

@inline(__always)
private func queued(_ accepted: Bool) -> Int32 {
    accepted ? CResult.ok : CResult.code(EAGAIN)
}

private func store(_ make: () throws -> HapticPatternPlayer, events: EventQueue, in out: UnsafeMutablePointer<OpaquePointer?>) -> Int32 {
    do {
        out.pointee = CPlayer(player: try make(), events: events).retainedPointer()
        return CResult.ok
    } catch {
        return CResult.failure(error)
    }
}

@_cdecl("haptics_player_new_from_file")
public func haptics_player_new_from_file(
    _ handle: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    withEngineHandle(handle) { handle in
        let engine = handle.engine
        guard let path, let out else {
            LastError.set("haptics_player_new_from_file: the path or the player pointer is NULL")
            return CResult.invalidArgument
        }
        return store({ try engine.makePlayer(contentsOf: CText.string(path)) }, events: handle.events, in: out)
    }
}

@_cdecl("haptics_device_player_new_from_file")
public func haptics_device_player_new_from_file(
    _ handle: OpaquePointer?, _ id: Int32, _ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    withEngineHandle(handle) { handle in
        let engine = handle.engine
        guard let path, let out else {
            LastError.set("haptics_device_player_new_from_file: the path or the player pointer is NULL")
            return CResult.invalidArgument
        }
        guard id >= 0, let device = engine.device(HapticDevice.ID(rawValue: Int(id))) else {
            LastError.set("haptics_device_player_new_from_file: no device with id \(id)")
            return CResult.code(ENODEV)
        }
        return store({ try engine.makePlayer(contentsOf: CText.string(path), on: DeviceSelection(device)) }, events: handle.events, in: out)
    }
}

@_cdecl("haptics_player_new_from_memory")
public func haptics_player_new_from_memory(
    _ handle: OpaquePointer?, _ bytes: UnsafeRawPointer?, _ size: Int, _ name: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    withEngineHandle(handle) { handle in
        let engine = handle.engine
        guard let bytes, let out else {
            LastError.set("haptics_player_new_from_memory: the bytes or the player pointer is NULL")
            return CResult.invalidArgument
        }
        let fileName = name.map(CText.string) ?? "memory"
        let limit = PatternLimits.default.maximumFileSize
        guard size <= limit else {
            LastError.set("\(fileName): the pattern is \(size) bytes, more than the limit of \(limit) bytes")
            return CResult.code(EFBIG)
        }
        let text = Array(UnsafeRawBufferPointer(start: bytes, count: size))
        return store({ try engine.makePlayer(pattern: decodePattern(text, fileName: fileName).pattern) }, events: handle.events, in: out)
    }
}

@_cdecl("haptics_player_free")
public func haptics_player_free(_ handle: OpaquePointer?) {
    guard let handle, let player = CPlayer.from(handle) else { return }
    player.player.stop()
    CPlayer.release(handle)
}

@_cdecl("haptics_player_start")
public func haptics_player_start(
    _ handle: OpaquePointer?, _ feltAt: Int64, _ withSound: Int32, _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    withPlayer(handle) { player in
        if withSound != 0 {
            let both = player.start(at: instant(feltAt))
            return COutcome.report(both.haptics, audio: both.audio, into: outcome)
        }
        return COutcome.report(player.start(feltAt: instant(feltAt)), into: outcome)
    }
}

@_cdecl("haptics_player_stop")
public func haptics_player_stop(_ handle: OpaquePointer?, _ at: Int64) -> Int32 {
    withPlayer(handle) { queued($0.stop(at: instant(at))) }
}

@_cdecl("haptics_player_set_looping")
public func haptics_player_set_looping(_ handle: OpaquePointer?, _ looping: Int32, _ at: Int64) -> Int32 {
    withPlayer(handle) { queued($0.setLooping(looping != 0, at: instant(at))) }
}

@_cdecl("haptics_player_prepare")
public func haptics_player_prepare(_ handle: OpaquePointer?) -> Int32 {
    withPlayer(handle) { player in
        player.prepare()
        return CResult.ok
    }
}

@_cdecl("haptics_player_set_hd")
public func haptics_player_set_hd(_ handle: OpaquePointer?, _ enabled: Int32) -> Int32 {
    withPlayer(handle) { player in
        player.usesHDHaptics = enabled != 0
        return CResult.ok
    }
}

@_cdecl("haptics_player_seek")
public func haptics_player_seek(_ handle: OpaquePointer?, _ offset: Int64, _ at: Int64) -> Int32 {
    withPlayer(handle) { player in
        guard offset >= 0 else { return CResult.invalidArgument }
        return queued(player.seek(to: .nanoseconds(offset), at: instant(at)))
    }
}

@_cdecl("haptics_player_set_rate")
public func haptics_player_set_rate(_ handle: OpaquePointer?, _ rate: Double, _ at: Int64) -> Int32 {
    withPlayer(handle) { player in
        do {
            return queued(try player.setPlaybackRate(rate, at: instant(at)))
        } catch {
            return CResult.invalidArgument
        }
    }
}

@_cdecl("haptics_player_set_parameter")
public func haptics_player_set_parameter(_ handle: OpaquePointer?, _ parameter: Int32, _ value: Double, _ at: Int64) -> Int32 {
    withPlayer(handle) { player in
        guard let id = parameterID(parameter) else { return CResult.invalidArgument }
        do {
            return queued(try player.send(id, value: value, at: instant(at)))
        } catch {
            return CResult.invalidArgument
        }
    }
}

@_cdecl("haptics_player_get_duration")
public func haptics_player_get_duration(_ handle: OpaquePointer?, _ duration: UnsafeMutablePointer<Int64>?) -> Int32 {
    withPlayer(handle) { player in
        guard let duration else { return CResult.invalidArgument }
        duration.pointee = player.duration.nanoseconds
        return CResult.ok
    }
}

@_cdecl("haptics_player_pause")
public func haptics_player_pause(_ handle: OpaquePointer?, _ at: Int64) -> Int32 {
    withPlayer(handle) { queued($0.pause(at: instant(at))) }
}

@_cdecl("haptics_player_resume")
public func haptics_player_resume(_ handle: OpaquePointer?, _ at: Int64) -> Int32 {
    withPlayer(handle) { queued($0.resume(at: instant(at))) }
}

@_cdecl("haptics_player_get_state")
public func haptics_player_get_state(
    _ handle: OpaquePointer?, _ state: UnsafeMutablePointer<Int32>?, _ position: UnsafeMutablePointer<Int64>?
) -> Int32 {
    withPlayer(handle) { player in
        let value: haptics_player_state = player.isPlaying ? HAPTICS_PLAYER_PLAYING : player.isPaused ? HAPTICS_PLAYER_PAUSED : HAPTICS_PLAYER_STOPPED
        state?.pointee = Int32(value.rawValue)
        position?.pointee = player.position.nanoseconds
        return CResult.ok
    }
}

/// The dynamic parameter of a `haptics_parameter` value.
@inline(__always)
private func parameterID(_ parameter: Int32) -> DynamicParameterID? {
    switch parameter {
    case 0: return .hapticIntensityControl
    case 1: return .hapticSharpnessControl
    case 2: return .hapticAttackTimeControl
    case 3: return .hapticDecayTimeControl
    case 4: return .hapticReleaseTimeControl
    case 5: return .audioVolumeControl
    default: return nil
    }
}

@_cdecl("haptics_player_send_curve")
public func haptics_player_send_curve(
    _ handle: OpaquePointer?, _ parameter: Int32, _ points: UnsafePointer<haptics_curve_point>?, _ count: Int, _ start: Int64
) -> Int32 {
    withPlayer(handle) { player in
        guard let id = parameterID(parameter), let points, count > 0 else {
            LastError.set("haptics_player_send_curve: \(parameter) is not a haptics_parameter value (0…5), or there are no points")
            return CResult.invalidArgument
        }
        let limit = 1_024
        guard count <= limit else {
            LastError.set("haptics_player_send_curve: \(count) points, more than the limit of \(limit)")
            return CResult.invalidArgument
        }
        let controlPoints = UnsafeBufferPointer(start: points, count: count).map {
            ParameterCurve.ControlPoint(time: $0.time, value: $0.value)
        }
        do {
            return queued(try player.send(ParameterCurve(id: id, time: 0, controlPoints: controlPoints), startingAt: instant(start)))
        } catch {
            return CResult.failure(error)
        }
    }
}
