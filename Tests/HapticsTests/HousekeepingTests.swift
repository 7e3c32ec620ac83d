import Glibc
import HapticsDevices
import HapticsPatterns
import HapticsRendering
@testable import Haptics
import HapticsSystem
import HapticsTestSupport
import Testing

/// An idle engine sleeps: housekeeping runs only for what is due — an interval apart while
/// something needs watching, at the expiry of what is prepared, and otherwise not at all.
@Suite("Housekeeping on demand")
struct HousekeepingTests {
    @Test("nothing prepared, nothing playing, nothing traced: no next run")
    func idleEngineHasNoNextRun() {
        let fixture = EngineFixture()
        #expect(fixture.engine.nextHousekeeping(after: fixture.clock.now()) == nil)
    }

    @Test("a prepared level: the next run is just after its expiry, not an interval from now")
    func preparedLevelWakesAtItsExpiry() throws {
        let fixture = EngineFixture(configuration: .init(prepareLifetime: .seconds(5), housekeepingInterval: .milliseconds(50)))
        let pad = PreparingDevice(profile: .dualSense)
        try fixture.engine.addOutput(.init(device: pad, profile: .dualSense, name: "pad", path: "/dev/input/event9"))
        let now = fixture.clock.now()
        pad.setOldestPreparationUse(now - .seconds(1))
        #expect(fixture.engine.nextHousekeeping(after: now) == now + .seconds(4) + .milliseconds(1))
        // One already expired (a run came late): at once, in a millisecond.
        pad.setOldestPreparationUse(now - .seconds(6))
        #expect(fixture.engine.nextHousekeeping(after: now) == now + .milliseconds(1))
    }

    @Test("a pattern player alive or tracing on: one interval on; let go or off: no next run")
    func watchedWorkKeepsTheInterval() throws {
        let fixture = EngineFixture(configuration: .init(housekeepingInterval: .milliseconds(50)))
        let now = fixture.clock.now()
        var player: HapticPatternPlayer? = try fixture.engine.makePlayer(pattern: Feedback.impact(.heavy).canonicalPattern)
        #expect(player != nil)
        #expect(fixture.engine.nextHousekeeping(after: now) == now + .milliseconds(50))
        player = nil
        #expect(fixture.engine.nextHousekeeping(after: now) == nil)
        fixture.engine.startTracing()
        #expect(fixture.engine.nextHousekeeping(after: now) == now + .milliseconds(50))
        fixture.engine.stopTracing()
        #expect(fixture.engine.nextHousekeeping(after: now) == nil)
    }

    @Test("a started idle engine runs its housekeeping once and then sleeps; a player wakes it")
    func startedIdleEngineSleeps() throws {
        let engine = HapticEngine(outputs: [.simulated(.genericRumble)],
                                  configuration: .init(housekeepingInterval: .milliseconds(10)))
        try engine.start()
        defer { engine.stop() }
        // The first run, an interval after the start, finds nothing to watch.
        usleep(300_000)
        #expect(engine.housekeepingRuns == 1)
        let player = try engine.makePlayer(pattern: Feedback.impact(.heavy).canonicalPattern)
        usleep(300_000)
        // Every 10 ms while the player is alive (a loaded machine runs fewer).
        #expect(engine.housekeepingRuns > 3)
        _ = player
    }
}
