import Glibc
import HapticsRendering
import HapticsSystem

/// A dual-motor profile whose re-mapping the parameter tests compare against.
let testRumble = DeviceProfile(
    name: "test-rumble", displayName: "Test rumble", actuator: .dualRumble,
    riseTime: .zero, minimumPulse: .zero, controlInterval: .milliseconds(10))

/// A single periodic vibra, for re-mapping to periodic commands.
let testVibra = DeviceProfile(
    name: "test-vibra", displayName: "Test vibra",
    actuator: .periodic(minimumPeriodMilliseconds: 5, maximumPeriodMilliseconds: 25),
    riseTime: .zero, minimumPulse: .zero, controlInterval: .milliseconds(10))

let ms: Int64 = 1_000_000

/// A rumble program: one level per (offset, strong, weak), then `.stop` at `duration`.
func rumbleProgram(_ levels: [(Int64, UInt16, UInt16)], duration: Int64, intensity: Float = 1, sharpness: Float = 0.5) -> Program {
    var commands = levels.map { offset, strong, weak in
        TimedCommand(offsetNanoseconds: offset, intensity: intensity, sharpness: sharpness, command: .rumble(strong: strong, weak: weak))
    }
    commands.append(TimedCommand(offsetNanoseconds: duration, intensity: 0, sharpness: 0, command: .stop))
    return Program(profileName: "test-rumble", commands: commands, durationNanoseconds: duration, leadTimeNanoseconds: 0)
}
