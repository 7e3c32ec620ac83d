import HapticsPatterns
@testable import HapticsRendering
import Testing

/// The test profile with one value changed.
private func profile(_ change: (inout DeviceProfile) -> Void) -> DeviceProfile {
    var profile = rumbleProfile()
    change(&profile)
    return profile
}

/// The error `validate()` throws, or `nil`.
private func refusal(_ profile: DeviceProfile) -> DeviceProfileError? {
    do {
        try profile.validate()
        return nil
    } catch {
        return error
    }
}

@Suite("Device profile ranges")
struct DeviceProfileValidationTests {
    @Test("every built-in profile is valid, and clamping leaves it unchanged", arguments: DeviceProfile.builtins)
    func builtinsAreValid(builtin: DeviceProfile) throws {
        try builtin.validate()
        #expect(builtin.clamped == builtin)
    }

    @Test("spans outside 0…1 s are refused, naming the field", arguments: [
        Duration.nanoseconds(-1), .seconds(1) + .nanoseconds(1), .seconds(Int64.max), .seconds(Int64.min), .seconds(1e12),
    ])
    func spans(value: Duration) {
        #expect(refusal(profile { $0.riseTime = value }) == .riseTimeOutOfRange(value))
        #expect(refusal(profile { $0.minimumPulse = value }) == .minimumPulseOutOfRange(value))
        #expect(refusal(profile { $0.overdrive = value }) == .overdriveOutOfRange(value))
    }

    @Test("control intervals outside 1 ms…1 s are refused", arguments: [
        Duration.zero, .nanoseconds(1), .nanoseconds(999_999), .milliseconds(-4), .seconds(2), .seconds(Int64.max),
    ])
    func controlIntervals(value: Duration) {
        #expect(refusal(profile { $0.controlInterval = value }) == .controlIntervalOutOfRange(value))
    }

    @Test("exponents outside 0.1…10 and floors outside 0…1 are refused, NaN included", arguments: [
        Double.nan, .infinity, -.infinity, 0, -1, 1e-12, 1e12,
    ])
    func curves(value: Double) {
        guard case let .magnitudeExponentOutOfRange(exponent)? = refusal(profile { $0.magnitudeExponent = value }) else {
            Issue.record("exponent \(value) was accepted")
            return
        }
        #expect(exponent.bitPattern == value.bitPattern)
        // 0 and 1e-12 are valid floors.
        guard value < 0 || value > 1 || value.isNaN else { return }
        guard case let .magnitudeFloorOutOfRange(floor)? = refusal(profile { $0.magnitudeFloor = value }) else {
            Issue.record("floor \(value) was accepted")
            return
        }
        #expect(floor.bitPattern == value.bitPattern)
    }

    @Test("a periodic range needs 1 ≤ minimum ≤ maximum")
    func periodRanges() throws {
        let zero = profile { $0.actuator = .periodic(minimumPeriodMilliseconds: 0, maximumPeriodMilliseconds: 10) }
        #expect(refusal(zero) == .periodRangeInvalid(minimumMilliseconds: 0, maximumMilliseconds: 10))
        let reversed = profile { $0.actuator = .periodic(minimumPeriodMilliseconds: 30, maximumPeriodMilliseconds: 20) }
        #expect(refusal(reversed) == .periodRangeInvalid(minimumMilliseconds: 30, maximumMilliseconds: 20))
        try profile { $0.actuator = .periodic(minimumPeriodMilliseconds: 1, maximumPeriodMilliseconds: 1) }.validate()
    }

    @Test("the boundaries are valid")
    func boundaries() throws {
        try profile {
            $0.riseTime = .seconds(1)
            $0.minimumPulse = .zero
            $0.overdrive = .seconds(1)
            $0.controlInterval = .milliseconds(1)
            $0.magnitudeExponent = 10
            $0.magnitudeFloor = 1
        }.validate()
        try profile {
            $0.controlInterval = .seconds(1)
            $0.magnitudeExponent = 0.1
        }.validate()
    }

    @Test("clamping brings each value to its nearest bound")
    func clamping() {
        let clamped = profile {
            $0.riseTime = .seconds(Int64.min)
            $0.minimumPulse = .seconds(Int64.max)
            $0.overdrive = .seconds(1e12)
            $0.controlInterval = .nanoseconds(1)
            $0.magnitudeExponent = 1e12
            $0.magnitudeFloor = -.infinity
        }.clamped
        #expect(clamped.riseTime == .zero)
        #expect(clamped.minimumPulse == .seconds(1))
        #expect(clamped.overdrive == .seconds(1))
        #expect(clamped.controlInterval == .milliseconds(1))
        #expect(clamped.magnitudeExponent == 10)
        #expect(clamped.magnitudeFloor == 0)
        let small = profile {
            $0.magnitudeExponent = 1e-12
            $0.magnitudeFloor = 1e12
            $0.controlInterval = .seconds(Int64.max)
        }.clamped
        #expect(small.magnitudeExponent == 0.1)
        #expect(small.magnitudeFloor == 1)
        #expect(small.controlInterval == .seconds(1))
        let notANumber = profile {
            $0.magnitudeExponent = .nan
            $0.magnitudeFloor = .nan
        }.clamped
        #expect(notANumber.magnitudeExponent == 1)
        #expect(notANumber.magnitudeFloor == 0)
        let reversed = profile { $0.actuator = .periodic(minimumPeriodMilliseconds: 30, maximumPeriodMilliseconds: 20) }.clamped
        #expect(reversed.actuator == .periodic(minimumPeriodMilliseconds: 20, maximumPeriodMilliseconds: 30))
        let zero = profile { $0.actuator = .periodic(minimumPeriodMilliseconds: 0, maximumPeriodMilliseconds: 0) }.clamped
        #expect(zero.actuator == .periodic(minimumPeriodMilliseconds: 1, maximumPeriodMilliseconds: 1))
    }

    @Test("errors name the field and its range")
    func descriptions() {
        #expect(DeviceProfileError.riseTimeOutOfRange(.seconds(2)).description == "riseTime 2.0 seconds is outside 0…1 s")
        #expect(DeviceProfileError.controlIntervalOutOfRange(.nanoseconds(1)).description
            == "controlInterval 1e-09 seconds is outside 1 ms…1 s")
        #expect(DeviceProfileError.magnitudeExponentOutOfRange(.nan).description == "magnitudeExponent nan is outside 0.1…10")
        #expect(DeviceProfileError.periodRangeInvalid(minimumMilliseconds: 30, maximumMilliseconds: 20).description
            == "period range 30…20 ms is not 1 ≤ minimum ≤ maximum")
    }
}

@Suite("What rendering costs is bounded")
struct RendererBoundsTests {
    let pattern = Pattern(events: [
        PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.05, parameters: EventParameters(hapticIntensity: 0.8, hapticSharpness: 0.4)),
        PatternEvent(kind: .hapticTransient, time: 0.1),
    ])

    @Test("a profile out of range renders as its clamped profile")
    func clampedProfile() {
        let wild = profile {
            $0.controlInterval = .nanoseconds(1)
            $0.riseTime = .seconds(Int64.max)
            $0.magnitudeExponent = .nan
        }
        #expect(Renderer(profile: wild).render(pattern) == Renderer(profile: wild.clamped).render(pattern))
        let program = Renderer(profile: wild).render(pattern)
        #expect(program.leadTimeNanoseconds == 1_000_000_000)
        #expect(program.commands.allSatisfy { $0.offsetNanoseconds % 1_000_000 == 0 })
    }

    @Test("events ending after an hour are left out, the one ending at the hour is kept")
    func longPatterns() {
        let late = Pattern(events: [
            PatternEvent(kind: .hapticTransient, time: 3_600),
            PatternEvent(kind: .hapticTransient, time: 3_600.001),
            PatternEvent(kind: .hapticContinuous, time: 3_599, duration: 2),
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 1e12),
            PatternEvent(kind: .hapticTransient, time: 1e12),
            PatternEvent(kind: .hapticTransient, time: .infinity),
            PatternEvent(kind: .hapticTransient, time: .nan),
        ])
        let kept = Pattern(events: [PatternEvent(kind: .hapticTransient, time: 3_600)])
        let profile = rumbleProfile()
        #expect(Renderer(profile: profile).render(late) == Renderer(profile: profile).render(kept))
        let program = Renderer(profile: profile).render(late)
        #expect(program.commands.first?.offsetNanoseconds == 3_600_000_000_000)
        #expect(Renderer.maximumPatternDuration == .seconds(3_600))
    }
}
