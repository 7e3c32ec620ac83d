import Glibc
import HapticsDevices
import HapticsPatterns
import HapticsRendering
@testable import HapticsScheduler
@testable import Haptics
import HapticsSystem
import HapticsTestSupport
import Synchronization
import Testing

/// `waitUntilSent(through:timeout:)`: a tool that stops the engine after a play must not cut off
/// what the realtime thread has not sent yet, however late that thread runs.
@Suite("Waiting until a play's last command has gone out")
struct SendWaitTests {
    /// A started engine on one simulated device.
    struct StartedEngine {
        let device = SimulatedDevice(profile: .genericRumble)
        let engine: HapticEngine

        init() throws {
            engine = HapticEngine(outputs: [HapticEngine.Output(device: device, profile: .genericRumble)])
            try engine.start()
        }

        var sent: [ActuatorCommand] { device.recording().map(\.command) }
    }

    /// The error notification played on `engine`: its rendered commands, and the instant its last
    /// one is due at the latest.
    struct Play {
        let rendered: [ActuatorCommand]
        let end: MonotonicInstant

        init(on engine: HapticEngine) {
            let program = Renderer(profile: .genericRumble).render(Feedback.notification(.error).canonicalPattern)
            rendered = program.commands.map(\.command)
            guard case let .scheduled(feltAt) = engine.play(.notification(.error)) else {
                Issue.record("the play was not scheduled")
                end = .now
                return
            }
            end = feltAt.advanced(by: program.durationNanoseconds)
        }
    }

    /// Takes processing on another thread (an immediate group of its own, so neither the realtime
    /// thread nor a caller can send anything), then runs `body` on this thread; the holder lets
    /// processing go at the instant `body` passes to its argument. Holding before `body` plays
    /// makes the play wait for the holder however late either thread runs.
    func whileProcessingIsHeld(by engine: HapticEngine, _ body: @escaping @Sendable (_ holdUntil: (MonotonicInstant) -> Void) -> Void) {
        let held = Atomic<Bool>(false)
        let release = Atomic<Int64>(.min)
        runConcurrently(2) { index in
            if index == 0 {
                var group = engine.scheduler.beginImmediateGroup(now: nil)
                while !group.owner {
                    engine.scheduler.endImmediateGroup(group)
                    usleep(100)
                    group = engine.scheduler.beginImmediateGroup(now: nil)
                }
                held.store(true, ordering: .releasing)
                var until = release.load(ordering: .acquiring)
                while until == .min {
                    usleep(100)
                    until = release.load(ordering: .acquiring)
                }
                SystemMonotonicClock.sleep(until: MonotonicInstant(nanoseconds: until))
                engine.scheduler.endImmediateGroup(group)
            } else {
                while !held.load(ordering: .acquiring) { usleep(100) }
                body { release.store($0.nanoseconds, ordering: .releasing) }
            }
        }
    }

    /// What the thread that played saw.
    struct Seen {
        var play: Play?
        var release = MonotonicInstant.now
        var unsentAfterMargin = false
        var sent = false
        var returnedAt = MonotonicInstant.now
    }

    @Test("held past its end, the play's last command is still unsent 20 ms after it was due; the wait returns once it has gone out, before stop() adds the silencing stop")
    func waitsForTheRealtimeThread() throws {
        let fixture = try StartedEngine()
        defer { fixture.engine.stop() }
        let seen = OrderedMutex(Seen())
        whileProcessingIsHeld(by: fixture.engine) { holdUntil in
            let play = Play(on: fixture.engine)
            let release = play.end + .milliseconds(60)
            holdUntil(release)
            SystemMonotonicClock.sleep(until: play.end + .milliseconds(20))
            let unsent = fixture.sent.count < play.rendered.count
            let sent = fixture.engine.waitUntilSent(through: play.end, timeout: .seconds(10))
            seen.withLock { $0 = Seen(play: play, release: release, unsentAfterMargin: unsent, sent: sent, returnedAt: .now) }
        }
        let result = seen.withLock { $0 }
        let play = try #require(result.play)
        #expect(result.unsentAfterMargin)
        #expect(result.sent)
        #expect(result.returnedAt >= result.release)
        #expect(fixture.sent == play.rendered)
        fixture.engine.stop()
        #expect(fixture.sent == play.rendered + [.stop])
    }

    @Test("a wait that times out says so no sooner than its timeout after the instant, and a later wait gets there")
    func timesOut() throws {
        let fixture = try StartedEngine()
        defer { fixture.engine.stop() }
        let seen = OrderedMutex(Seen())
        whileProcessingIsHeld(by: fixture.engine) { holdUntil in
            let play = Play(on: fixture.engine)
            holdUntil(play.end + .seconds(1))
            let sent = fixture.engine.waitUntilSent(through: play.end, timeout: .milliseconds(50))
            seen.withLock { $0 = Seen(play: play, sent: sent, returnedAt: .now) }
        }
        let result = seen.withLock { $0 }
        let play = try #require(result.play)
        #expect(!result.sent)
        #expect(result.returnedAt >= play.end + .milliseconds(50))
        #expect(fixture.engine.waitUntilSent(through: play.end, timeout: .seconds(10)))
        #expect(fixture.sent == play.rendered)
    }

    @Test("without a realtime thread (manually driven, or stopped) there is nothing to wait for: false at once")
    func withoutARealtimeThread() throws {
        let fixture = EngineFixture()
        #expect(fixture.engine.play(.notification(.error)).isScheduled)
        let far = fixture.clock.now() + .seconds(3_600)
        #expect(!fixture.engine.waitUntilSent(through: far))
        let stopped = try StartedEngine()
        _ = Play(on: stopped.engine)
        stopped.engine.stop()
        let before = MonotonicInstant.now
        #expect(!stopped.engine.waitUntilSent(through: before + .seconds(3_600)))
        #expect(MonotonicInstant.now - before < .seconds(1))
    }
}
