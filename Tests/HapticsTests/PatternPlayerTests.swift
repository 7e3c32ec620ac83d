import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Testing
@testable import Haptics

@Suite("Pattern players")
struct PatternPlayerTests {
    let pattern = Pattern(events: [
        PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.2, parameters: EventParameters(hapticIntensity: 0.8, hapticSharpness: 0.4)),
    ])

    @Test("a player plays its pattern as rendered and ends with a stop")
    func plays() throws {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        let player = try fixture.engine.makePlayer(pattern: pattern)
        #expect(player.start() == .scheduled(feltAt: origin.advanced(by: 60_000_000)))
        fixture.run(for: 1_000_000_000)
        #expect(same(fixture.received(since: origin), expected(player.programs[0])))
        #expect(player.duration == .nanoseconds(player.programs[0].durationNanoseconds))
    }

    @Test("stop at a time silences at that time")
    func stopAt() throws {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        let player = try fixture.engine.makePlayer(pattern: pattern)
        #expect(player.start().isScheduled)
        #expect(player.stop(at: origin.advanced(by: 50_000_000)))
        fixture.run(for: 1_000_000_000)
        let received = fixture.received(since: origin)
        #expect(received.last?.0 == 50_000_000)
        #expect(received.last?.1 == .stop)
        #expect(received.allSatisfy { $0.0 <= 50_000_000 })
    }

    @Test("a looping player repeats until stopped, then is silent")
    func loops() throws {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        let player = try fixture.engine.makePlayer(pattern: pattern)
        #expect(player.setLooping(true))
        #expect(player.start().isScheduled)
        let duration = player.duration.nanoseconds
        fixture.run(for: duration * 2 + duration / 2)
        #expect(player.stop())
        fixture.run(for: 500_000_000)
        let received = fixture.received(since: origin)
        let onsets = received.filter { !$0.1.isSilent }.map(\.0)
        let firstOnset = try #require(onsets.first)
        #expect(onsets.contains(firstOnset + duration))
        #expect(onsets.contains(firstOnset + 2 * duration))
        #expect(received.last?.1 == .stop)
    }

    @Test("the intensity control sent to a playing pattern re-maps what follows")
    func dynamicIntensity() throws {
        let fixture = EngineFixture(profiles: [.simulated])
        let origin = fixture.clock.now()
        let player = try fixture.engine.makePlayer(pattern: pattern)
        #expect(player.start().isScheduled)
        fixture.run(for: 100_000_000)
        #expect(try player.send(.hapticIntensityControl, value: 0.5))
        fixture.run(for: 1_000_000)
        let last = fixture.received(since: origin).last
        #expect(last?.1 == DeviceProfile.simulated.command(intensity: 0.4, sharpness: 0.4))
    }
}
