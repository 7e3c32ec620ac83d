import CEvdev
import HapticsRendering

/// A non-silent actuator level packed into one machine word, so the realtime path can compare
/// levels with a single atomic load and no allocation.
///
/// Layout: bits 56–63 the kind (1 rumble, 2 periodic, 3 constant), 48–55 the periodic waveform,
/// 32–47 the period in ms, 16–31 the strong rumble magnitude, 0–15 the weak magnitude, periodic
/// magnitude or constant level. 0 is never a level (silence has no key).
internal enum _EffectLevel {
    /// The key of `command`, or 0 when it is silent.
    @inline(__always)
    static func key(_ command: ActuatorCommand) -> UInt64 {
        switch command {
        case .stop: return 0
        case let .rumble(strong, weak):
            guard strong != 0 || weak != 0 else { return 0 }
            return 1 << 56 | UInt64(strong) << 16 | UInt64(weak)
        case let .periodic(waveform, period, magnitude):
            guard magnitude != 0 else { return 0 }
            return 2 << 56 | UInt64(waveform.rawValue) << 48 | UInt64(period) << 32
                | UInt64(UInt16(bitPattern: magnitude))
        case let .constant(level):
            guard level != 0 else { return 0 }
            return 3 << 56 | UInt64(UInt16(bitPattern: level))
        }
    }

    /// Effects of the same class can replace each other in place (`EVIOCSFF` with the same id): the
    /// kernel refuses an update that changes the type, or the waveform of a periodic effect.
    @inline(__always)
    static func compatibilityClass(_ key: UInt64) -> UInt64 { key >> 48 }

    /// Writes the level `key` into `effect` (type and parameters), with `replay.length` in ms.
    /// Leaves `effect.id` alone: -1 allocates a slot, an owned id updates in place.
    @inline(__always)
    static func fill(_ effect: inout ff_effect, key: UInt64, lengthMilliseconds: UInt16) {
        let low = UInt16(truncatingIfNeeded: key)
        effect.direction = 0
        effect.trigger = ff_trigger()
        effect.replay.length = lengthMilliseconds
        effect.replay.delay = 0
        switch key >> 56 {
        case 1:
            effect.type = UInt16(FF_RUMBLE)
            effect.u.rumble.strong_magnitude = UInt16(truncatingIfNeeded: key >> 16)
            effect.u.rumble.weak_magnitude = low
        case 2:
            effect.type = UInt16(FF_PERIODIC)
            effect.u.periodic = ff_periodic_effect()
            effect.u.periodic.waveform = waveformCode(UInt8(truncatingIfNeeded: key >> 48))
            effect.u.periodic.period = UInt16(truncatingIfNeeded: key >> 32)
            effect.u.periodic.magnitude = Int16(bitPattern: low)
        default:
            effect.type = UInt16(FF_CONSTANT)
            effect.u.constant = ff_constant_effect()
            effect.u.constant.level = Int16(bitPattern: low)
        }
    }

    /// The kernel's waveform code for ``PeriodicWaveform``'s raw value.
    @inline(__always)
    static func waveformCode(_ rawValue: UInt8) -> UInt16 {
        switch PeriodicWaveform(rawValue: rawValue) ?? .sine {
        case .square: UInt16(FF_SQUARE)
        case .triangle: UInt16(FF_TRIANGLE)
        case .sine: UInt16(FF_SINE)
        case .sawUp: UInt16(FF_SAW_UP)
        case .sawDown: UInt16(FF_SAW_DOWN)
        }
    }

    /// The command a level key stands for.
    static func command(_ key: UInt64) -> ActuatorCommand {
        let low = UInt16(truncatingIfNeeded: key)
        switch key >> 56 {
        case 1: return .rumble(strong: UInt16(truncatingIfNeeded: key >> 16), weak: low)
        case 2:
            return .periodic(waveform: PeriodicWaveform(rawValue: UInt8(truncatingIfNeeded: key >> 48)) ?? .sine,
                             periodMilliseconds: UInt16(truncatingIfNeeded: key >> 32), magnitude: Int16(bitPattern: low))
        case 3: return .constant(level: Int16(bitPattern: low))
        default: return .stop
        }
    }
}
