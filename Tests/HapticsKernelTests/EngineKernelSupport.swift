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
