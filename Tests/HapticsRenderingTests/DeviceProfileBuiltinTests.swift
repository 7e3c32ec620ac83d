import Testing
@testable import HapticsRendering
import HapticsSystem

@Suite struct DeviceProfileBuiltinTests {
    @Test func builtinsAreListedInAStableOrder() {
        #expect(DeviceProfile.builtins.map(\.name) == [
            "generic-rumble", "dualsense", "dualshock4", "xbox", "switch-pro", "phone-vibra",
            "constant-force-wheel", "simulated",
        ])
    }

    @Test func namedFindsBuiltinsAndNothingElse() {
        #expect(DeviceProfile.named("dualsense") == .dualSense)
        #expect(DeviceProfile.named("phone-vibra") == .phoneVibra)
        #expect(DeviceProfile.named("DualSense") == nil)
        #expect(DeviceProfile.named("") == nil)
    }

    /// The documented table (docs/reference/profiles.md): rise, minimum pulse, control interval in ms;
    /// exponent; floor; swap; overdrive.
    @Test func valuesMatchTheDocumentedTable() {
        func ms(_ span: Duration) -> Int64 { span.nanoseconds / 1_000_000 }
        let table = DeviceProfile.builtins.map {
            "\($0.name) \(ms($0.riseTime)) \(ms($0.minimumPulse)) \(ms($0.controlInterval)) "
                + "\($0.magnitudeExponent) \($0.magnitudeFloor) \($0.swapsMotors) \(ms($0.overdrive))"
        }
        #expect(table == [
            "generic-rumble 60 60 20 1.0 0.1 false 0",
            "dualsense 30 40 8 1.0 0.05 false 0",
            "dualshock4 60 50 8 1.0 0.1 false 0",
            "xbox 60 50 52 1.0 0.1 false 0",
            "switch-pro 15 20 52 1.0 0.05 false 0",
            "phone-vibra 80 80 20 1.0 0.2 false 0",
            "constant-force-wheel 10 20 4 1.0 0.0 false 0",
            "simulated 0 4 4 1.0 0.0 false 0",
        ])
        #expect(DeviceProfile.phoneVibra.actuator == .periodic(minimumPeriodMilliseconds: 20, maximumPeriodMilliseconds: 50))
        #expect(DeviceProfile.constantForceWheel.actuator == .constantForce)
        #expect(DeviceProfile.builtins.allSatisfy { $0.limits == .ffMemless })
    }

    @Test func everyProfileUpdatesNoFasterThanTheKernelTimer() {
        for profile in DeviceProfile.builtins {
            #expect(profile.controlInterval >= profile.limits.jiffy, "\(profile.name)")
            #expect(profile.controlInterval.nanoseconds % profile.limits.jiffy.nanoseconds == 0, "\(profile.name)")
        }
    }

    @Test func pacedTransportsNeverGetReportsCloserThanFiftyMilliseconds() {
        #expect(DeviceProfile.xboxController.controlInterval >= .milliseconds(50))
        #expect(DeviceProfile.switchPro.controlInterval >= .milliseconds(50))
    }
}
