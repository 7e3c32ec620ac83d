import Glibc
import Haptics
import HapticsDevices
import HapticsPatterns
import Testing
import HapticsVirtualDevices

/// The engine and CLI kernel suites, nested here so that they run one test at a time: a test that
/// watches /dev/input, or finds a device by name, must not see another of these tests' devices.
@Suite(.requiresKernelTestbench, .serialized)
struct EngineKernelTests {}

/// Waits until `condition` holds or `timeout` seconds pass, and returns whether it held. The
/// kernel and the engine's own threads do their work asynchronously: tests wait for the result
/// they expect instead of sleeping a guessed time.
func waitUntil(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let deadline = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + timeout
    while !condition() {
        clock_gettime(CLOCK_MONOTONIC, &now)
        if Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 > deadline { return false }
        var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
        nanosleep(&pause, nil)
    }
    return true
}

/// Distinct consecutive (weak, strong) motor states the DualSense received.
func motorStates(_ reports: [DualSenseOutputReport]) -> [[UInt8]] {
    VirtualDualSenseTests.motorStates(reports)
}

/// Full strength for `seconds`: long enough to be interrupted by whatever a test does.
func sustainedPattern(seconds: Double = 3) -> Pattern {
    Pattern(events: [
        PatternEvent(kind: .hapticContinuous, time: 0, duration: seconds,
                     parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.5)),
    ])
}
