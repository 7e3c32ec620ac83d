import Testing
@testable import Haptics
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsTestSupport

@Suite("Immediate triggers: a play due now reaches the device during the game's call")
struct ImmediateTriggerTests {
    @Test("a prepared impact's first level reaches the device inside impactOccurred(); the rest plays at its times")
    func preparedImpactPlaysDuringTheCall() {
        let fixture = EngineFixture()
        let generator = ImpactFeedbackGenerator(style: .medium, engine: fixture.engine)
        generator.prepare()
        let origin = fixture.clock.now()
        #expect(generator.impactOccurred() == .scheduled(feltAt: origin.advanced(by: DeviceProfile.genericRumble.riseTime)))
        let program = Renderer(profile: .genericRumble).render(Feedback.impact(.medium).canonicalPattern)
        let all = expected(program)
        // No processing pass yet: only what is due now, the first level, written from this call.
        #expect(same(fixture.received(since: origin), Array(all.prefix(1))))
        fixture.run(for: 1_000_000_000)
        #expect(same(fixture.received(since: origin), all))
    }

    @Test("a play with a lead time leaves its start to the realtime side, which plays it then")
    func aLaterStartWaitsForItsTime() {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        let felt = origin.advanced(by: 500_000_000)
        #expect(fixture.engine.play(.selection, feltAt: felt) == .scheduled(feltAt: felt))
        #expect(fixture.received(since: origin).isEmpty)
        fixture.run(for: 1_000_000_000)
        let program = Renderer(profile: .genericRumble).render(Feedback.selection.canonicalPattern)
        #expect(same(fixture.received(since: origin), expected(program, startingAt: 500_000_000 - 60_000_000)))
    }

    @Test("a pattern player's start plays its first level during start()")
    func playerStartPlaysDuringTheCall() throws {
        let fixture = EngineFixture()
        let player = try fixture.engine.makePlayer(pattern: Feedback.notification(.success).canonicalPattern)
        let origin = fixture.clock.now()
        #expect(player.start().isScheduled)
        let all = expected(player.programs[0])
        #expect(same(fixture.received(since: origin), Array(all.prefix(1))))
        fixture.run(for: 1_000_000_000)
        #expect(same(fixture.received(since: origin), all))
    }
}

@Suite("One pad: a play now takes the one-call start, and plays and answers what the general walk does")
struct OnePadPlayTests {
    /// One way an engine with one pad can stand when a game plays.
    struct Situation: CustomStringConvertible {
        var intensity = 1.0
        var gain = 1.0
        var deviceGain = 1.0
        var deviceEnabled = true
        var engineEnabled = true
        var applicationActive = true
        var otherDevice = false
        var description: String {
            "intensity \(intensity), gain \(gain), device gain \(deviceGain), device on \(deviceEnabled), "
                + "engine on \(engineEnabled), active \(applicationActive), other device \(otherDevice)"
        }
    }

    static let situations: [Situation] = [
        Situation(), Situation(intensity: 0.7), Situation(intensity: 0.7, gain: 0.5), Situation(intensity: 0.03, deviceGain: 0.25),
        Situation(intensity: 0), Situation(intensity: -1), Situation(intensity: .nan), Situation(intensity: 2),
        Situation(gain: 0), Situation(deviceEnabled: false), Situation(engineEnabled: false),
        Situation(applicationActive: false), Situation(otherDevice: true),
    ]

    @Test("every situation: the same outcome, the same levels at the same instants, the same scheduler counts",
          arguments: situations)
    func sameAsTheGeneralWalk(_ situation: Situation) throws {
        // A play without sound, and the same play asked with sound (and no audio output
        // attached): one outcome, one path to the device.
        let oneCall = EngineFixture()
        let walk = EngineFixture()
        for fixture in [oneCall, walk] {
            fixture.engine.gain = situation.gain
            try fixture.engine.setGain(situation.deviceGain, for: .all)
            fixture.engine.setEnabled(situation.deviceEnabled, for: .all)
            fixture.engine.isEnabled = situation.engineEnabled
            fixture.engine.isApplicationActive = situation.applicationActive
        }
        let feedback = Feedback.impact(.heavy, intensity: situation.intensity)
        func selection(_ fixture: EngineFixture) -> DeviceSelection {
            situation.otherDevice ? DeviceSelection(HapticDevice.ID(rawValue: fixture.engine.devices[0].id.rawValue + 1)) : .all
        }
        let origin = oneCall.clock.now()
        // Twice: the second play restarts the first, which is still playing.
        for _ in 0..<2 {
            let played = oneCall.engine.play(feedback, on: selection(oneCall))
            let walked = walk.engine.play(feedback, withSound: true, on: selection(walk))
            #expect(played == walked.haptics, "\(situation)")
            oneCall.run(for: 30_000_000)
            walk.run(for: 30_000_000)
        }
        oneCall.run(for: 1_000_000_000)
        walk.run(for: 1_000_000_000)
        #expect(same(oneCall.received(since: origin), walk.received(since: origin)), "\(situation)")
        let a = oneCall.engine.scheduler.statistics
        let b = walk.engine.scheduler.statistics
        #expect(a.submitted == b.submitted && a.applied == b.applied && a.emitted == b.emitted
                    && a.immediatePasses == b.immediatePasses, "\(situation): \(a) vs \(b)")
    }
}
