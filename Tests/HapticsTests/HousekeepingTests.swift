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

    @Test("a pattern player playing or tracing on: one interval on; an idle player, its ending delivered, or tracing off: no next run")
    func watchedWorkKeepsTheInterval() throws {
        let fixture = EngineFixture(configuration: .init(housekeepingInterval: .milliseconds(50)))
        let now = fixture.clock.now()
        let player = try fixture.engine.makePlayer(pattern: Feedback.impact(.heavy).canonicalPattern)
        // Made but not started: nothing to watch.
        #expect(fixture.engine.nextHousekeeping(after: now) == nil)
        #expect(player.start().isScheduled)
        #expect(fixture.engine.nextHousekeeping(after: now) == now + .milliseconds(50))
        // Played out: its ending still waits to be delivered, then nothing is left to watch.
        fixture.run(for: 1_000_000_000)
        let later = fixture.clock.now()
        #expect(fixture.engine.nextHousekeeping(after: later) == later + .milliseconds(50))
        fixture.engine.performHousekeeping()
        #expect(fixture.engine.nextHousekeeping(after: later) == nil)
        fixture.engine.startTracing()
        #expect(fixture.engine.nextHousekeeping(after: now) == now + .milliseconds(50))
        fixture.engine.stopTracing()
        #expect(fixture.engine.nextHousekeeping(after: now) == nil)
    }

    @Test("a started idle engine never runs its housekeeping; an idle player does not wake it, a start's ending does")
    func startedIdleEngineSleeps() throws {
        let engine = HapticEngine(outputs: [.simulated(.genericRumble)],
                                  configuration: .init(housekeepingInterval: .milliseconds(10)))
        try engine.start()
        defer { engine.stop() }
        // Nothing is due at the start, so nothing runs. (The suite runs tests side by side, under
        // the sanitizers too: 300 ms is thirty intervals.)
        usleep(300_000)
        #expect(engine.housekeepingRuns == 0)
        let player = try engine.makePlayer(pattern: Feedback.impact(.heavy).canonicalPattern)
        usleep(300_000)
        #expect(engine.housekeepingRuns == 0)
        let completions = Recorder<PlayerCompletion>()
        player.completionHandler = { completions.append($0) }
        #expect(player.start().isScheduled)
        // The start does not wake it; its ending does, once, and the completion is delivered then.
        #expect(waitUntil { completions.all.count == 1 && engine.housekeepingRuns >= 1 })
        usleep(300_000)
        #expect(completions.all == [.finished])
        #expect(engine.housekeepingRuns == 1)
    }

    @Test("what was asked of housekeeping before the start runs once the engine starts")
    func requestBeforeStartRuns() throws {
        let engine = HapticEngine(outputs: [.simulated(.genericRumble)],
                                  configuration: .init(housekeepingInterval: .milliseconds(10)))
        engine.startTracing()
        try engine.start()
        defer { engine.stop() }
        // Tracing is watched every interval from the start.
        #expect(waitUntil { engine.housekeepingRuns >= 2 })
        engine.stopTracing()
    }
}
