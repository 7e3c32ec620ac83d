import HapticsRendering

/// A dual-motor rumble profile for the benchmarks (kept here so they do not depend on the built-in
/// profile table).
let benchRumble = DeviceProfile(
    name: "bench-rumble", displayName: "Benchmark rumble", actuator: .dualRumble,
    riseTime: .zero, minimumPulse: .zero, controlInterval: .milliseconds(1))
