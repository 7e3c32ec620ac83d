import CEvdev
import Glibc
import Haptics
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsTestSupport
import Testing
import HapticsVirtualDevices

/// Prepared plays at any intensity on a real kernel: the engine on a uinput sink with 16 slots and
/// `FF_RUMBLE` only (no `FF_GAIN`, so the engine gain is applied in software), driven by the test
/// thread so that the trigger's system calls are the test thread's; and the table rules of
/// `prepareAhead` on the actuator.
extension EngineKernelTests {
@Suite struct PreparedIntensity {
    static let ms = EvdevKernel.ms

    /// A manually driven engine on a new uinput sink, with a medium impact generator; the test
    /// thread's `process()` performs what the realtime thread would.
    final class EngineOnSink {
        let sink: UInputForceFeedbackSink
        let actuator: EvdevActuator
        let engine: HapticEngine
        let generator: ImpactFeedbackGenerator
        /// The medium impact rendered for the sink's profile.
        let program: Program
        let profile: DeviceProfile

        private init(sink: UInputForceFeedbackSink, actuator: EvdevActuator, output: HapticEngine.Output) {
            self.sink = sink
            self.actuator = actuator
            profile = output.profile
            engine = HapticEngine(clock: SystemMonotonicClock(), outputs: [output])
            engine.startManuallyDriven()
            generator = ImpactFeedbackGenerator(style: .medium, engine: engine)
            program = Renderer(profile: profile).render(Feedback.impact(.medium).canonicalPattern)
        }

        static func make(name: String, slots: UInt32) throws -> EngineOnSink {
            let sink = try UInputForceFeedbackSink(.init(name: name, maximumEffects: slots))
            let output = try HapticEngine.evdevOutput(path: sink.eventNodePath)
            let actuator = try #require(output.device as? EvdevActuator)
            #expect(!actuator.supportsHardwareGain)  // The engine gain is applied in software.
            return EngineOnSink(sink: sink, actuator: actuator, output: output)
        }

        deinit {
            engine.stop()
            sink.close()
        }

        /// The impact's one level at intensity `step`/16 on this device, with its hold.
        func level(_ step: Int) -> (command: ActuatorCommand, hold: Int64) {
            let levels = EvdevKernel.levels(of: program.scaled(intensity: Double(step) / 16, profile: profile))
            #expect(levels.count == 1)
            return levels[0]
        }

        /// What the sink receives when that level is uploaded as kernel effect `id`.
        func upload(_ id: Int16, _ step: Int) -> UInputForceFeedbackEvent {
            let level = level(step)
            guard case let .rumble(strong, weak) = level.command else { return .erase(effectID: -1) }
            return EvdevKernel.rumbleUpload(id: id, strong: strong, weak: weak, holdNanoseconds: level.hold)
        }

        /// Processes until the sink has `count` records (the impact's own stop is due 80 ms later).
        func process(untilRecords count: Int) -> [UInputForceFeedbackEvent] {
            _ = waitUntil {
                engine.process()
                return sink.records.count >= count
            }
            return sink.records.map(\.event)
        }
    }

    #if DEBUG
    @Test func aPreparedImpactAtSevenTenthsAndUnderASoftwareGainOfOneHalfIsExactlyOneWrite() throws {
        let fixture = try EngineOnSink.make(name: "haptics-test prepared intensity sink", slots: 16)
        let (sink, actuator, engine, generator) = (fixture.sink, fixture.actuator, fixture.engine, fixture.generator)
        #expect(actuator.preparedCapacity == 15)
        generator.prepare()

        // Intensity 1 first, then the other steps ahead nearest first: 15/16 … 2/16 fill the table;
        // 1/16, the farthest, is left to the streaming slot. The kernel ids follow upload order.
        let expectedUploads = (2...16).reversed().enumerated().map { fixture.upload(Int16($0), $1) }
        #expect(sink.waitForRecords(count: 15).map(\.event) == expectedUploads)
        #expect(actuator.preparedLevels.map(\.command) == (2...16).reversed().map { fixture.level($0).command })

        let descriptor = actuator.device.descriptor.rawValue
        // (intensity, gain, the step it plays at): 0.7 → 11/16; 1 at gain 0.5 → 8/16; 0.7 at gain
        // 0.5 → 5.5/16, rounded to 6/16. Setting the gain prepares again: nothing new to upload.
        var expected = expectedUploads
        for (intensity, gain, step) in [(0.7, 1.0, 11), (1, 0.5, 8), (0.7, 0.5, 6), (1, 1, 16)] {
            engine.gain = gain
            let driver = SystemCallMocking.Driver()
            let writesBefore = try #require(EvdevKernel.threadWriteCalls())
            let outcome = SystemCallMocking.withDriver(driver) { () -> PlaybackOutcome in
                let outcome = generator.impactOccurred(intensity: intensity)
                engine.process()
                return outcome
            }
            let writesAfter = try #require(EvdevKernel.threadWriteCalls())
            #expect(outcome.isScheduled)
            // Every call of the trigger through the typed system-call layer: one write, no ioctl;
            // and the kernel's own count of this thread's writes agrees.
            #expect(driver.records.map(\.description) == ["write(\(descriptor))"], "intensity \(intensity), gain \(gain)")
            #expect(writesAfter - writesBefore == 1, "intensity \(intensity), gain \(gain)")
            let id = Int16(16 - step)
            expected += [.play(effectID: id, count: 1), .stop(effectID: id)]
            #expect(fixture.process(untilRecords: expected.count) == expected, "intensity \(intensity), gain \(gain)")
        }
        let statistics = actuator.statistics
        #expect(statistics.preparedUploads == 15)
        #expect(statistics.streamingUploads == 0)
        #expect(statistics.streamedLevels == 0)
        #expect(statistics.preparedTriggers == 4)
    }
    #endif

    #if DEBUG
    @Test func aGainChangePreparesAgainEvictingALevelPreparedAheadSoThePlayStaysOneWrite() throws {
        let fixture = try EngineOnSink.make(name: "haptics-test gain change sink", slots: 4)
        let (sink, actuator, engine, generator, upload) = (fixture.sink, fixture.actuator, fixture.engine, fixture.generator, fixture.upload)
        #expect(actuator.preparedCapacity == 3)

        generator.prepare()  // 16/16 asked for, 15/16 and 14/16 ahead: the table is full.
        #expect(sink.waitForRecords(count: 3).map(\.event) == [upload(0, 16), upload(1, 15), upload(2, 14)])
        // At gain 0.5 intensity 1 plays at 8/16: asked for again, it evicts the oldest level
        // prepared ahead (15/16), not the one asked for before (16/16).
        engine.gain = 0.5
        let descriptor = actuator.device.descriptor.rawValue
        let driver = SystemCallMocking.Driver()
        SystemCallMocking.withDriver(driver) {
            #expect(generator.impactOccurred().isScheduled)
            engine.process()
        }
        #expect(driver.records.map(\.description) == ["write(\(descriptor))"])
        let expected: [UInputForceFeedbackEvent] = [
            upload(0, 16), upload(1, 15), upload(2, 14),
            .stop(effectID: 1), .erase(effectID: 1), upload(1, 8),
            .play(effectID: 1, count: 1), .stop(effectID: 1),
        ]
        #expect(fixture.process(untilRecords: expected.count) == expected)
        #expect(actuator.statistics.streamedLevels == 0)
    }
    #endif

    @Test func levelsPreparedAheadTakeOnlyFreeSlotsAndGoFirstWhenAPrepareNeedsRoom() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test prepare ahead sink", maximumEffects: 4))
        defer { sink.close() }
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 5_000 * Self.ms))
        let actuator = try EvdevActuator(path: sink.eventNodePath, clock: clock)
        defer { actuator.close() }
        #expect(actuator.preparedCapacity == 3)
        let levels = (1...6).map { ActuatorCommand.rumble(strong: UInt16($0) * 0x1000, weak: 0) }
        let pulses = levels.map(EvdevTriggerKernelTests.pulse)

        try actuator.prepare(pulses[0])  // Asked for.
        clock.advance(by: .milliseconds(1))
        #expect(try actuator.prepareAhead(pulses[1]))
        clock.advance(by: .milliseconds(1))
        #expect(try actuator.prepareAhead(pulses[2]))
        clock.advance(by: .milliseconds(1))
        // The table is full: ahead of time nothing is evicted, and nothing is uploaded.
        #expect(try actuator.prepareAhead(pulses[3]) == false)
        #expect(actuator.preparedLevels.map(\.command) == Array(levels[0...2]))

        // An asked-for level evicts the oldest level only prepared ahead (1), not the older asked one (0).
        clock.advance(by: .milliseconds(1))
        try actuator.prepare(pulses[4])
        #expect(actuator.preparedLevels.map(\.command) == [levels[0], levels[4], levels[2]])
        // Once played, a level prepared ahead is an ordinary one: the least recently used (0) goes next.
        clock.advance(by: .milliseconds(1))
        let now = clock.now()
        actuator.perform(levels[2], channel: EvdevKernel.channel, deadline: now, now: now)
        actuator.perform(.stop, channel: EvdevKernel.channel, deadline: now, now: now)
        clock.advance(by: .milliseconds(1))
        try actuator.prepare(pulses[5])
        #expect(actuator.preparedLevels.map(\.command) == [levels[5], levels[4], levels[2]])
        #expect(actuator.statistics.evictions == 2)

        func upload(_ id: Int16, _ index: Int) -> UInputForceFeedbackEvent {
            EvdevKernel.rumbleUpload(id: id, strong: UInt16(index + 1) * 0x1000, weak: 0, holdNanoseconds: 20 * Self.ms)
        }
        let expected: [UInputForceFeedbackEvent] = [
            upload(0, 0), upload(1, 1), upload(2, 2),
            .stop(effectID: 1), .erase(effectID: 1), upload(1, 4),
            .play(effectID: 2, count: 1), .stop(effectID: 2),
            .stop(effectID: 0), .erase(effectID: 0), upload(0, 5),
        ]
        #expect(sink.waitForRecords(count: expected.count).map(\.event) == expected)
    }
}
}
