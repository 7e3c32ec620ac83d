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
    /// A started engine on one simulated device, playing the error notification; its rendered
    /// commands, and the instant its last one is due at the latest.
    struct Play {
        let device = SimulatedDevice(profile: .genericRumble)
        let engine: HapticEngine
        let rendered: [ActuatorCommand]
        let end: MonotonicInstant

        init() throws {
            engine = HapticEngine(outputs: [HapticEngine.Output(device: device, profile: .genericRumble)])
            try engine.start()
            let program = Renderer(profile: .genericRumble).render(Feedback.notification(.error).canonicalPattern)
            rendered = program.commands.map(\.command)
            guard case let .scheduled(feltAt) = engine.play(.notification(.error)) else {
                Issue.record("the play was not scheduled")
                end = .now
                return
            }
            end = feltAt + program.duration
        }

        var sent: [ActuatorCommand] { device.recording().map(\.command) }
    }

    /// Runs `body` on this thread while another thread holds processing (an immediate group of its
    /// own, so neither the realtime thread nor a caller can send anything) until `release`.
    func whileProcessingIsHeld(by engine: HapticEngine, until release: MonotonicInstant, _ body: @escaping @Sendable () -> Void) {
        let held = Atomic<Bool>(false)
        runConcurrently(2) { index in
            if index == 0 {
                var group = engine.scheduler.beginImmediateGroup(now: nil)
                while !group.owner {
                    engine.scheduler.endImmediateGroup(group)
                    usleep(100)
                    group = engine.scheduler.beginImmediateGroup(now: nil)
                }
                held.store(true, ordering: .releasing)
                SystemMonotonicClock.sleep(until: release)
                engine.scheduler.endImmediateGroup(group)
            } else {
                while !held.load(ordering: .acquiring) { usleep(100) }
                body()
            }
        }
    }

    @Test("held past its end, the play's last command is still unsent 20 ms after it was due; the wait returns once it has gone out, before stop() adds the silencing stop")
    func waitsForTheRealtimeThread() throws {
        let play = try Play()
        defer { play.engine.stop() }
        let release = play.end + .milliseconds(60)
        let waited = Mutex<(unsentAfterMargin: Bool, sent: Bool, returnedAt: MonotonicInstant)>((false, false, .now))
        whileProcessingIsHeld(by: play.engine, until: release) {
            SystemMonotonicClock.sleep(until: play.end + .milliseconds(20))
            let unsent = play.sent.count < play.rendered.count
            let sent = play.engine.waitUntilSent(through: play.end, timeout: .seconds(10))
            waited.withLock { $0 = (unsent, sent, .now) }
        }
        let (unsentAfterMargin, sent, returnedAt) = waited.withLock { $0 }
        #expect(unsentAfterMargin)
        #expect(sent)
        #expect(returnedAt >= release)
        #expect(play.sent == play.rendered)
        play.engine.stop()
        #expect(play.sent == play.rendered + [.stop])
    }

    @Test("a wait that times out says so no sooner than its timeout after the instant, and a later wait gets there")
    func timesOut() throws {
        let play = try Play()
        defer { play.engine.stop() }
        let release = play.end + .milliseconds(200)
        let waited = Mutex<(sent: Bool, returnedAt: MonotonicInstant)>((true, .now))
        whileProcessingIsHeld(by: play.engine, until: release) {
            let sent = play.engine.waitUntilSent(through: play.end, timeout: .milliseconds(50))
            waited.withLock { $0 = (sent, .now) }
        }
        let (sent, returnedAt) = waited.withLock { $0 }
        #expect(!sent)
        #expect(returnedAt >= play.end + .milliseconds(50))
        #expect(play.engine.waitUntilSent(through: play.end, timeout: .seconds(10)))
        #expect(play.sent == play.rendered)
    }

    @Test("without a realtime thread (manually driven, or stopped) there is nothing to wait for: false at once")
    func withoutARealtimeThread() throws {
        let fixture = EngineFixture()
        #expect(fixture.engine.play(.notification(.error)).isScheduled)
        let far = fixture.clock.now() + .seconds(3_600)
        #expect(!fixture.engine.waitUntilSent(through: far))
        let play = try Play()
        play.engine.stop()
        let before = MonotonicInstant.now
        #expect(!play.engine.waitUntilSent(through: before + .seconds(3_600)))
        #expect(MonotonicInstant.now - before < .seconds(1))
    }
}
