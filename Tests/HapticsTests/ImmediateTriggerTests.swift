import Testing
@testable import Haptics
import HapticsPatterns
import HapticsRendering
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
