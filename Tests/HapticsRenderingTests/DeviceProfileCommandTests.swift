import Testing
@testable import HapticsRendering

/// A linear dual-rumble profile with the given curve, for mapping tests.
func rumbleProfile(exponent: Double = 1, floor: Double = 0, swapsMotors: Bool = false) -> DeviceProfile {
    DeviceProfile(
        name: "test-rumble", displayName: "Test rumble", actuator: .dualRumble,
        riseTime: .zero, minimumPulse: .zero, controlInterval: .milliseconds(4),
        magnitudeExponent: exponent, magnitudeFloor: floor, swapsMotors: swapsMotors)
}

@Suite struct DeviceProfileCommandTests {
    @Test func zeroIntensityStaysSilentDespiteTheFloor() {
        #expect(DeviceProfile.genericRumble.command(intensity: 0, sharpness: 0.5) == .rumble(strong: 0, weak: 0))
        #expect(DeviceProfile.phoneVibra.command(intensity: 0, sharpness: 0.5)
            == .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 0))
        #expect(DeviceProfile.constantForceWheel.command(intensity: 0, sharpness: 0.5) == .constant(level: 0))
        #expect(DeviceProfile.genericRumble.command(intensity: 0, sharpness: 0.5).isSilent)
    }

    @Test func exponentShapesTheMagnitude() {
        let squared = rumbleProfile(exponent: 2)
        // 0.5² = 0.25 → 16383.75 → 16384 on both motors at mid sharpness.
        #expect(squared.command(intensity: 0.5, sharpness: 0.5) == .rumble(strong: 16384, weak: 16384))
        #expect(squared.command(intensity: 1, sharpness: 0.5) == .rumble(strong: 65535, weak: 65535))
    }

    @Test func floorLiftsEveryNonZeroIntensity() {
        let floored = rumbleProfile(floor: 0.2)
        // 0.2 + 0.8 · 0.5 = 0.6 → 39321.
        #expect(floored.command(intensity: 0.5, sharpness: 0.5) == .rumble(strong: 39321, weak: 39321))
        // 0.2 + 0.8 · 0.001 = 0.2008 → 13159: a whisper still spins the motor.
        #expect(floored.command(intensity: 0.001, sharpness: 0.5) == .rumble(strong: 13159, weak: 13159))
        // The floor applies per motor: an undriven motor stays at 0.
        #expect(floored.command(intensity: 0.5, sharpness: 1) == .rumble(strong: 0, weak: 39321))
    }

    @Test func sharpnessBalancesStrongAndWeakMotors() {
        let linear = rumbleProfile()
        #expect(linear.command(intensity: 1, sharpness: 0) == .rumble(strong: 65535, weak: 0))
        #expect(linear.command(intensity: 1, sharpness: 0.25) == .rumble(strong: 65535, weak: 32768))
        #expect(linear.command(intensity: 1, sharpness: 0.5) == .rumble(strong: 65535, weak: 65535))
        #expect(linear.command(intensity: 1, sharpness: 0.75) == .rumble(strong: 32768, weak: 65535))
        #expect(linear.command(intensity: 1, sharpness: 1) == .rumble(strong: 0, weak: 65535))
    }

    @Test func swappedMotorsExchangeOutputs() {
        let swapped = rumbleProfile(swapsMotors: true)
        #expect(swapped.command(intensity: 1, sharpness: 0) == .rumble(strong: 0, weak: 65535))
        #expect(swapped.command(intensity: 1, sharpness: 0.75) == .rumble(strong: 65535, weak: 32768))
    }

    @Test func sharpnessPicksThePeriodOnPeriodicDevices() {
        let vibra = DeviceProfile.phoneVibra  // 20…50 ms, floor 0.2
        #expect(vibra.command(intensity: 1, sharpness: 0) == .periodic(waveform: .sine, periodMilliseconds: 50, magnitude: 32767))
        #expect(vibra.command(intensity: 1, sharpness: 1) == .periodic(waveform: .sine, periodMilliseconds: 20, magnitude: 32767))
        // 0.2 + 0.8 · 0.5 = 0.6 → 19660; period 50 − 0.5 · 30 = 35.
        #expect(vibra.command(intensity: 0.5, sharpness: 0.5) == .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 19660))
    }

    @Test func constantForceUsesTheMagnitudeAndIgnoresSharpness() {
        let wheel = DeviceProfile.constantForceWheel
        #expect(wheel.command(intensity: 0.5, sharpness: 0) == .constant(level: 16384))
        #expect(wheel.command(intensity: 0.5, sharpness: 1) == .constant(level: 16384))
        #expect(wheel.command(intensity: 1, sharpness: 0.5) == .constant(level: 32767))
    }

    @Test func outOfRangeAndNaNInputsAreClamped() {
        let linear = rumbleProfile()
        #expect(linear.command(intensity: 7, sharpness: 0.5) == .rumble(strong: 65535, weak: 65535))
        #expect(linear.command(intensity: -1, sharpness: 0.5) == .rumble(strong: 0, weak: 0))
        #expect(linear.command(intensity: .nan, sharpness: 0.5) == .rumble(strong: 0, weak: 0))
        #expect(linear.command(intensity: 1, sharpness: .nan) == .rumble(strong: 65535, weak: 0))
        #expect(linear.command(intensity: 1, sharpness: 5) == .rumble(strong: 0, weak: 65535))
        #expect(linear.command(intensity: .infinity, sharpness: -.infinity) == .rumble(strong: 65535, weak: 0))
    }
}
