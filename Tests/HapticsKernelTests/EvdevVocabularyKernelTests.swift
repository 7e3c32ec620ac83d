import CEvdev
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Testing
import HapticsSystem
import HapticsVirtualDevices

/// Every vocabulary item, rendered with the profile the catalog picks, prepared on a real kernel
/// device and played by the scheduler's realtime thread.
@Suite(.requiresKernelTestbench, .serialized)
struct EvdevVocabularyKernelTests {
    /// How late a play or stop may reach the kernel after its deadline (the player's start plus the
    /// command's offset), by the kernel's own timestamp. Never early: the scheduler writes at or
    /// after the deadline. Under TCG most writes land within 1 ms, but the emulated machine stalls
    /// now and then (a late timer interrupt, the host's two cores shared with other work; up to
    /// ~8 ms seen); 16 ms is four jiffies and still below half the shortest pulse (40 ms), so a
    /// command sent at the wrong offset cannot pass.
    static let lateness: ClosedRange<Int64> = 0...16_000_000

    /// Plays `program` on `actuator` through a scheduler on the system clock with its realtime
    /// thread, starting 30 ms from now; `waitUntilDone` blocks until the device saw it all.
    @discardableResult
    static func play(_ program: Program, on actuator: EvdevActuator, profile: DeviceProfile,
                     waitUntilDone: () -> Void) throws -> MonotonicInstant {
        let scheduler = Scheduler(clock: SystemMonotonicClock())
        let channel = try scheduler.addChannel(output: actuator, profile: profile)
        let player = try scheduler.makePlayer(program: try scheduler.load(program), channel: channel)
        try scheduler.startRealtimeThread()
        let start = scheduler.clock.now().advanced(by: 30 * EvdevKernel.ms)
        #expect(scheduler.start(player, at: start))
        waitUntilDone()
        scheduler.stopRealtimeThread()
        return start
    }

    // One test per device rather than one per item: the testbench counts a test's cases as tests
    // that never finished. Issues name the item.
    @Test func uinputSinkSeesOneUploadPerLevelThenExactlyTheProgramsPlaysAndStops() throws {
        for feedback in Feedback.vocabulary { try uinputSink(feedback) }
    }

    @Test func virtualDualSenseReceivesTheExactMotorBytesEndingInSilence() throws {
        for feedback in Feedback.vocabulary { try virtualDualSense(feedback) }
    }

    func uinputSink(_ feedback: Feedback) throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test vocabulary sink", maximumEffects: 16))
        defer { sink.close() }
        let actuator = try EvdevActuator(path: sink.eventNodePath)
        let profile = DeviceCatalog.profile(for: actuator.device.info)
        #expect(profile.name == "generic-rumble", "\(feedback.name)")
        let program = Renderer(profile: profile).render(feedback.canonicalPattern)

        try actuator.prepare(program)
        let levels = EvdevKernel.levels(of: program)
        // The kernel gives a fresh device's slots in order, and the actuator keeps the ids it got.
        let ids = Dictionary(uniqueKeysWithValues: levels.enumerated().map { ($0.element.command, Int16($0.offset)) })
        var expected: [UInputForceFeedbackEvent] = levels.enumerated().map { index, level in
            guard case let .rumble(strong, weak) = level.command else { preconditionFailure("generic-rumble renders rumble") }
            return EvdevKernel.rumbleUpload(id: Int16(index), strong: strong, weak: weak, holdNanoseconds: level.hold)
        }
        var playing: Int16?
        var timed: [(event: UInputForceFeedbackEvent, offset: Int64)] = []
        // A change of level is a stop and a play in one write.
        var changes = 0
        for command in program.commands {
            if let id = ids[command.command] {
                if let playing, playing != id {
                    timed.append((.stop(effectID: playing), command.offsetNanoseconds))
                    changes += 1
                }
                timed.append((.play(effectID: id, count: 1), command.offsetNanoseconds))
                playing = id
            } else if let id = playing {
                timed.append((.stop(effectID: id), command.offsetNanoseconds))
                playing = nil
            }
        }
        expected += timed.map(\.event)
        #expect(sink.waitForRecords(count: levels.count).map(\.event) == Array(expected.prefix(levels.count)), "\(feedback.name)")

        let start = try Self.play(program, on: actuator, profile: profile) {
            sink.waitForRecords(count: expected.count)
        }
        actuator.close()
        // Closing erases each prepared effect; the kernel stops an effect before erasing it.
        for id in 0..<Int16(levels.count) { expected += [.stop(effectID: id), .erase(effectID: id)] }

        let records = sink.waitForRecords(count: expected.count)
        #expect(records.map(\.event) == expected, "\(feedback.name)")
        try #require(records.count == expected.count)
        // Kernel timestamps of plays and stops against their deadlines: start + program offset.
        let wire = records[levels.count..<levels.count + timed.count].map(\.timestamp)
        let late = zip(wire, timed).map { stamp, entry in stamp.nanoseconds - (start.nanoseconds + entry.offset) }
        #expect(late.allSatisfy { Self.lateness.contains($0) }, "\(feedback.name): lateness (ns): \(late)")
        let statistics = actuator.statistics
        #expect(statistics.preparedUploads == levels.count, "\(feedback.name)")
        #expect(statistics.streamingUploads == 0)
        #expect(statistics.writes == timed.count - changes, "\(feedback.name)")
    }

    func virtualDualSense(_ feedback: Feedback) throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let actuator = try EvdevActuator(path: node)
        defer { actuator.close() }
        let profile = DeviceCatalog.profile(for: actuator.device.info)
        #expect(profile.name == "dualsense", "\(feedback.name)")
        let program = Renderer(profile: profile).render(feedback.canonicalPattern)
        try actuator.prepare(program)

        // hid-playstation sends weak/256 in byte 3 and strong/256 in byte 4.
        var expected: [[UInt8]] = []
        for timed in program.commands {
            let state: [UInt8]
            switch timed.command {
            case let .rumble(strong, weak): state = [UInt8(weak >> 8), UInt8(strong >> 8)]
            default: state = [0, 0]
            }
            if expected.last != state { expected.append(state) }
        }
        #expect(expected.last == [0, 0])

        var reports: [DualSenseOutputReport] = []
        try Self.play(program, on: actuator, profile: profile) {
            reports = controller.waitForOutputReports { VirtualDualSenseTests.motorStates($0) == expected }
        }
        #expect(VirtualDualSenseTests.motorStates(reports) == expected, "\(feedback.name)")
        #expect(actuator.statistics.streamingUploads == 0)
    }
}
