import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Testing
@testable import Haptics

@Suite("Playing the vocabulary")
struct FeedbackPlaybackTests {
    @Test("every vocabulary item reaches the device exactly as rendered, felt after the rise time", arguments: Feedback.vocabulary)
    func vocabularyPlaysAsRendered(feedback: Feedback) {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        let outcome = fixture.engine.play(feedback)
        #expect(outcome == .scheduled(feltAt: origin.advanced(by: DeviceProfile.genericRumble.riseTime)))
        fixture.run(for: 1_000_000_000)
        let program = Renderer(profile: .genericRumble).render(feedback.canonicalPattern)
        let received = fixture.received(since: origin)
        #expect(same(received, expected(program)), "\(received)")
    }

    @Test("a felt time in the future starts the device early by its rise time")
    func feltAtInTheFuture() {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        let felt = origin.advanced(by: 500_000_000)
        #expect(fixture.engine.play(.selection, feltAt: felt) == .scheduled(feltAt: felt))
        fixture.run(for: 1_000_000_000)
        let program = Renderer(profile: .genericRumble).render(Feedback.selection.canonicalPattern)
        #expect(same(fixture.received(since: origin), expected(program, startingAt: 500_000_000 - 60_000_000)))
    }

    @Test("a felt time that can no longer be met moves to the earliest possible one")
    func feltAtInThePast() {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        let outcome = fixture.engine.play(.selection, feltAt: origin.advanced(by: 10_000_000))
        #expect(outcome == .scheduled(feltAt: origin.advanced(by: 60_000_000)))
    }

    @Test("devices with different rise times are felt together")
    func onsetsAlignAcrossDevices() {
        let fixture = EngineFixture(profiles: [.genericRumble, .dualSense])
        let origin = fixture.clock.now()
        let outcome = fixture.engine.play(.impact(.heavy))
        // The slower device decides the earliest felt onset: 60 ms.
        #expect(outcome == .scheduled(feltAt: origin.advanced(by: 60_000_000)))
        fixture.run(for: 1_000_000_000)
        let pattern = Feedback.impact(.heavy).canonicalPattern
        #expect(same(fixture.received(0, since: origin), expected(Renderer(profile: .genericRumble).render(pattern))))
        // The DualSense rises in 30 ms, so it starts 30 ms later.
        #expect(same(fixture.received(1, since: origin), expected(Renderer(profile: .dualSense).render(pattern), startingAt: 30_000_000)))
    }

    @Test("impact intensity scales the motors through the profile's mapping")
    func impactIntensity() {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        #expect(fixture.engine.play(.impact(.medium, intensity: 0.5)).isScheduled)
        fixture.run(for: 1_000_000_000)
        let program = Renderer(profile: .genericRumble).render(Feedback.impact(.medium).canonicalPattern)
        let scaled = program.commands.map { command -> (Int64, ActuatorCommand) in
            if command.command == .stop { return (command.offsetNanoseconds, .stop) }
            return (command.offsetNanoseconds, DeviceProfile.genericRumble.command(intensity: command.intensity * 0.5, sharpness: command.sharpness))
        }
        #expect(same(fixture.received(since: origin), scaled), "\(fixture.received(since: origin))")
    }

    @Test("the global gain scales every feedback")
    func gainScales() {
        let fixture = EngineFixture()
        fixture.engine.gain = 0.25
        let origin = fixture.clock.now()
        #expect(fixture.engine.play(.impact(.heavy)).isScheduled)
        fixture.run(for: 1_000_000_000)
        let program = Renderer(profile: .genericRumble).render(Feedback.impact(.heavy).canonicalPattern)
        let scaled = program.commands.map { command -> (Int64, ActuatorCommand) in
            if command.command == .stop { return (command.offsetNanoseconds, .stop) }
            return (command.offsetNanoseconds, DeviceProfile.genericRumble.command(intensity: command.intensity * 0.25, sharpness: command.sharpness))
        }
        #expect(same(fixture.received(since: origin), scaled))
    }
}

@Suite("Why nothing plays")
struct SilenceReasonTests {
    @Test("disabled, muted, inactive, stopped and no device each say so, and nothing reaches the device")
    func reasons() {
        var fixture = EngineFixture()
        fixture.engine.isEnabled = false
        #expect(fixture.engine.play(.selection) == .notPlayed(.disabled))
        fixture.engine.isEnabled = true
        fixture.engine.gain = 0
        #expect(fixture.engine.play(.selection) == .notPlayed(.muted))
        fixture.engine.gain = 1
        fixture.engine.isApplicationActive = false
        #expect(fixture.engine.play(.selection) == .notPlayed(.applicationInactive))
        fixture.engine.isApplicationActive = true
        fixture.engine.stop()
        #expect(fixture.engine.play(.selection) == .notPlayed(.engineStopped))
        fixture.run(for: 200_000_000)
        // Only the silence the switches themselves sent: no feedback command at all.
        #expect(fixture.devices[0].recording().allSatisfy { $0.command.isSilent })

        fixture = EngineFixture(profiles: [])
        #expect(fixture.engine.play(.selection) == .notPlayed(.noDevice))
        #expect(ImpactFeedbackGenerator(style: .light, engine: fixture.engine).impactOccurred() == .notPlayed(.noDevice))
    }

    @Test("an audio-only pattern has nothing a haptic device can play")
    func unsupported() throws {
        let fixture = EngineFixture()
        let player = try fixture.engine.makePlayer(pattern: Pattern(events: [
            PatternEvent(kind: .audioContinuous, time: 0, duration: 0.1),
        ]))
        #expect(player.start() == .notPlayed(.unsupported))
    }
}

@Suite("Nothing keeps rumbling")
struct SilenceTests {
    /// The last command the device received, after running a while.
    func lastCommand(_ fixture: EngineFixture) -> ActuatorCommand? {
        fixture.devices[0].recording().last?.command
    }

    @Test("the application becoming inactive stops a playing feedback at once")
    func inactiveStops() {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        #expect(fixture.engine.play(.notification(.error)).isScheduled)
        fixture.run(for: 100_000_000)
        fixture.engine.isApplicationActive = false
        let count = fixture.devices[0].recording().count
        fixture.run(for: 1_000_000_000)
        let after = Array(fixture.received(since: origin).dropFirst(count))
        #expect(after.count == 1)
        #expect(after.first?.1 == .stop)
        #expect(after.first?.0 == 100_000_000)
    }

    @Test("disabling haptics stops a playing feedback")
    func disableStops() {
        let fixture = EngineFixture()
        #expect(fixture.engine.play(.impact(.heavy)).isScheduled)
        fixture.run(for: 80_000_000)
        #expect(lastCommand(fixture).map { !$0.isSilent } == true)
        fixture.engine.isEnabled = false
        fixture.run(for: 1_000_000)
        #expect(lastCommand(fixture) == .stop)
    }

    @Test("engine stop silences the device")
    func engineStop() {
        let fixture = EngineFixture()
        #expect(fixture.engine.play(.notification(.warning)).isScheduled)
        fixture.run(for: 70_000_000)
        #expect(lastCommand(fixture).map { !$0.isSilent } == true)
        fixture.engine.stop()
        #expect(lastCommand(fixture) == .stop)
        #expect(fixture.engine.isRunning == false)
    }
}
