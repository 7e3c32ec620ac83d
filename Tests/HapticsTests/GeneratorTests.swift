import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Testing
@testable import Haptics

@Suite("Feedback generators")
struct GeneratorTests {
    @Test("prepare holds for the configured lifetime, and a play renews it")
    func prepareExpires() {
        let fixture = EngineFixture(configuration: .init(prepareLifetime: .seconds(2)))
        let generator = ImpactFeedbackGenerator(style: .rigid, engine: fixture.engine)
        #expect(!generator.isPrepared)
        generator.prepare()
        #expect(generator.isPrepared)
        fixture.clock.advance(by: .seconds(2) - .nanoseconds(1))
        #expect(generator.isPrepared)
        fixture.clock.advance(by: .nanoseconds(1))
        #expect(!generator.isPrepared)
        #expect(generator.impactOccurred().isScheduled)
        #expect(generator.isPrepared)
    }

    @Test("each generator plays its own vocabulary item")
    func generatorsPlayTheirItem() {
        func received(_ play: (HapticEngine) -> PlaybackOutcome) -> [(Int64, ActuatorCommand)] {
            let fixture = EngineFixture()
            let origin = fixture.clock.now()
            #expect(play(fixture.engine).isScheduled)
            fixture.run(for: 1_000_000_000)
            return fixture.received(since: origin)
        }
        func rendered(_ feedback: Feedback) -> [(Int64, ActuatorCommand)] {
            expected(Renderer(profile: .genericRumble).render(feedback.canonicalPattern))
        }
        #expect(same(received { ImpactFeedbackGenerator(style: .soft, engine: $0).impactOccurred() }, rendered(.impact(.soft))))
        #expect(same(received { NotificationFeedbackGenerator(engine: $0).notificationOccurred(.warning) }, rendered(.notification(.warning))))
        #expect(same(received { SelectionFeedbackGenerator(engine: $0).selectionChanged() }, rendered(.selection)))
    }

    @Test("a new impact on the same device replaces the one playing (no latency builds up)")
    func replaceOnOverlap() {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        let generator = ImpactFeedbackGenerator(style: .heavy, engine: fixture.engine)
        #expect(generator.impactOccurred().isScheduled)
        fixture.run(for: 100_000_000)
        #expect(generator.impactOccurred().isScheduled)
        fixture.run(for: 1_000_000_000)
        let program = Renderer(profile: .genericRumble).render(Feedback.impact(.heavy).canonicalPattern)
        let received = fixture.received(since: origin)
        // The second play restarts the program at 100 ms; the first one's remaining commands never go out.
        let first = expected(program).filter { $0.0 < 100_000_000 }
        #expect(same(Array(received.prefix(first.count)), first))
        #expect(same(Array(received.suffix(program.commands.count)), expected(program, startingAt: 100_000_000)))
    }
}

@Suite("Generators without an engine")
struct SharedEngineTests {
    @Test("a generator made without an engine plays on the shared one, the same engine every time, started")
    func sharedEngine() {
        let shared = HapticEngine.shared
        #expect(shared === HapticEngine.shared)
        #expect(ImpactFeedbackGenerator(style: .rigid).engine === shared)
        #expect(NotificationFeedbackGenerator().engine === shared)
        #expect(SelectionFeedbackGenerator().engine === shared)
        #expect(shared.isRunning)
    }
}
