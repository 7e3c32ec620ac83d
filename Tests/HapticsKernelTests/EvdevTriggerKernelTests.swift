import CEvdev
import Glibc
import HapticsDevices
import HapticsRendering
import HapticsScheduler
import Testing
import HapticsSystem
import HapticsTestSupport
import HapticsVirtualDevices

@Suite(.requiresKernelTestbench, .serialized)
struct EvdevTriggerKernelTests {
    static let ms = EvdevKernel.ms

    /// A one-pulse program: `level` for 20 ms, then silence.
    static func pulse(_ level: ActuatorCommand) -> Program {
        Program(profileName: "generic-rumble", commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0.5, command: level),
            TimedCommand(offsetNanoseconds: 20 * ms, intensity: 0, sharpness: 0, command: .stop),
        ], durationNanoseconds: 20 * ms, leadTimeNanoseconds: 0)
    }

    /// 50 distinct levels: different strong and weak magnitudes for each pattern.
    static let fiftyLevels: [ActuatorCommand] = (0..<50).map { (index: Int) -> ActuatorCommand in
        let strong = UInt16(1_000 + index * 1_200)
        let weak = UInt16(60_000 - index * 1_100)
        return .rumble(strong: strong, weak: weak)
    }

    #if DEBUG
    @Test func aPreparedTriggerIsExactlyOneWriteAndTheSinkSeesExactlyOnePlay() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test one-write sink", maximumEffects: 16))
        defer { sink.close() }
        let actuator = try EvdevActuator(path: sink.eventNodePath)
        defer { actuator.close() }
        let level = ActuatorCommand.rumble(strong: 0x8000, weak: 0x4000)
        try actuator.prepare(Self.pulse(level))
        try #require(sink.waitForRecords(count: 1).count == 1)
        let descriptor = actuator.device.descriptor.rawValue

        for trigger in 1...5 {
            // Every call through the typed system-call layer, recorded by the debug seam.
            let driver = SystemCallMocking.Driver()
            SystemCallMocking.withDriver(driver) { EvdevKernel.perform(actuator, level) }
            #expect(driver.records.map(\.description) == ["write(\(descriptor))"])
            // The kernel's side: exactly one more record, a play of the prepared id.
            let records = sink.waitForRecords(count: 2 * trigger)
            #expect(records.count == 2 * trigger)
            #expect(records.last?.event == .play(effectID: 0, count: 1))

            let stopDriver = SystemCallMocking.Driver()
            SystemCallMocking.withDriver(stopDriver) { EvdevKernel.perform(actuator, .stop) }
            #expect(stopDriver.records.map(\.description) == ["write(\(descriptor))"])
            #expect(sink.waitForRecords(count: 2 * trigger + 1).last?.event == .stop(effectID: 0))
        }

        // The kernel's own count of write system calls made by this thread: one per trigger, and the
        // recorder above already showed no ioctl went with it.
        let before = try #require(EvdevKernel.threadWriteCalls())
        EvdevKernel.perform(actuator, level)
        let after = try #require(EvdevKernel.threadWriteCalls())
        #expect(after - before == 1)
        EvdevKernel.perform(actuator, .stop)
        #expect(sink.waitForRecords(count: 13).suffix(2).map(\.event) == [.play(effectID: 0, count: 1), .stop(effectID: 0)])

        let statistics = actuator.statistics
        #expect(statistics.preparedTriggers == 6)
        #expect(statistics.writes == 12)
        #expect(statistics.preparedUploads == 1)
        #expect(statistics.streamingUploads == 0)
    }
    #endif

    /// A change of level is one `write()` of two events: the old effect's stop, then the new one's
    /// play (the driver applies both before its worker runs: no silence between them).
    @Test func aLevelChangeStopsTheOldEffectBeforePlayingTheNewOneInTheSameWrite() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test level change sink", maximumEffects: 16))
        defer { sink.close() }
        let actuator = try EvdevActuator(path: sink.eventNodePath)
        let first = ActuatorCommand.rumble(strong: 0x1000, weak: 0x2000)
        let second = ActuatorCommand.rumble(strong: 0x3000, weak: 0x4000)
        let unprepared = ActuatorCommand.rumble(strong: 0x5000, weak: 0x6000)
        try actuator.prepare(Self.pulse(first))
        try actuator.prepare(Self.pulse(second))
        let before = try #require(EvdevKernel.threadWriteCalls())
        for command in [first, second, second, unprepared, first, ActuatorCommand.stop] {
            EvdevKernel.perform(actuator, command)
        }
        // play; stop + play; play again; stop + play (after the streaming upload); stop + play; stop.
        let after = try #require(EvdevKernel.threadWriteCalls())
        #expect(after - before == 6)
        #expect(actuator.statistics.writes == 6)
        #expect(actuator.statistics.streamingUploads == 1)
        actuator.close()
        let stream = UploadedForceFeedbackEffect(type: UInt16(FF_RUMBLE), id: 2, direction: 0, replayLength: 2_000,
                                                 replayDelay: 0, parameters: .rumble(strongMagnitude: 0x5000, weakMagnitude: 0x6000))
        let expected: [UInputForceFeedbackEvent] = [
            EvdevKernel.rumbleUpload(id: 0, strong: 0x1000, weak: 0x2000, holdNanoseconds: 20 * Self.ms),
            EvdevKernel.rumbleUpload(id: 1, strong: 0x3000, weak: 0x4000, holdNanoseconds: 20 * Self.ms),
            .play(effectID: 0, count: 1),
            .stop(effectID: 0), .play(effectID: 1, count: 1),
            .play(effectID: 1, count: 1),  // The same level again: played again, one write.
            .upload(stream, previous: nil), .stop(effectID: 1), .play(effectID: 2, count: 1),  // Not prepared: streamed.
            .stop(effectID: 2), .play(effectID: 0, count: 1),
            .stop(effectID: 0),
            .stop(effectID: 0), .erase(effectID: 0), .stop(effectID: 1), .erase(effectID: 1),
            .stop(effectID: 2), .erase(effectID: 2),
        ]
        #expect(sink.waitForRecords(count: expected.count).map(\.event) == expected)
    }

    /// 10,000 triggers cycling through 50 patterns (stride 7, so consecutive triggers differ and
    /// every pattern recurs only after 49 others: the worst case for the prepared table). Each is
    /// prepared, then played and stopped without sleeping: the test is about slots, not time.
    func tenThousandTriggers(slots: UInt32) throws -> (records: [UInputForceFeedbackRecord], statistics: EvdevActuatorStatistics) {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test \(slots)-slot stress sink", maximumEffects: slots))
        defer { sink.close() }
        let actuator = try EvdevActuator(path: sink.eventNodePath)
        let programs = Self.fiftyLevels.map(Self.pulse)
        for trigger in 0..<10_000 {
            let pattern = trigger * 7 % 50
            try actuator.prepare(programs[pattern])
            EvdevKernel.perform(actuator, Self.fiftyLevels[pattern])
            EvdevKernel.perform(actuator, .stop)
        }
        actuator.close()
        let statistics = actuator.statistics
        // One record per write (play or stop), per upload, and a stop plus an erase per erasure.
        let count = statistics.writes + statistics.preparedUploads + statistics.streamingUploads + 2 * statistics.erasures
        return (sink.waitForRecords(count: count, timeout: .seconds(30)), statistics)
    }

    @Test func tenThousandTriggersOfFiftyPatternsOnSixteenSlotsNeverExceedTheSlots() throws {
        let (records, statistics) = try tenThousandTriggers(slots: 16)
        #expect(statistics.noSpaceErrors == 0)
        #expect(statistics.failedCalls == 0)
        #expect(statistics.preparedTriggers == 10_000)
        #expect(statistics.streamedLevels == 0)
        let live = EvdevKernel.liveEffects(records)
        #expect(live.maximum == 15)  // The table's 15 entries; the streaming slot was never needed.
        #expect(live.final == 0)
        #expect(records.filter { if case .play = $0.event { true } else { false } }.count == 10_000)
    }

    @Test func tenThousandTriggersOfFiftyPatternsOnOneSlotStreamInPlace() throws {
        let (records, statistics) = try tenThousandTriggers(slots: 1)
        #expect(statistics.noSpaceErrors == 0)
        #expect(statistics.failedCalls == 0)
        #expect(statistics.streamedLevels == 10_000)
        #expect(statistics.streamingUploads == 10_000)
        #expect(statistics.preparedUploads == 0)
        let live = EvdevKernel.liveEffects(records)
        #expect(live.maximum == 1)
        #expect(live.final == 0)
        #expect(records.filter { if case .play = $0.event { true } else { false } }.count == 10_000)
        // Every streamed level after the first is an in-place update of effect 0.
        let updates = records.filter { if case .upload(_, previous: .some) = $0.event { true } else { false } }
        #expect(updates.count == 9_999)
    }

    @Test func noSpaceFromSlotsHeldElsewhereEvictsAndRetriesThenIsThrownTyped() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test shared slots sink", maximumEffects: 4))
        defer { sink.close() }
        // Another descriptor (as another application would) holds two of the four slots.
        let other = try FileDescriptor.open(sink.eventNodePath, .readWrite)
        defer { try? other.close() }
        var held = [rawRumble(strong: 1, weak: 1), rawRumble(strong: 2, weak: 2)]
        for index in held.indices { try other.uploadEffect(&held[index]) }

        let actuator = try EvdevActuator(path: sink.eventNodePath)
        defer { actuator.close() }
        let levels = (1...4).map { ActuatorCommand.rumble(strong: UInt16($0) * 0x1000, weak: 0) }
        try actuator.prepare(Self.pulse(levels[0]))
        try actuator.prepare(Self.pulse(levels[1]))
        // The device is full: ENOSPC, the least recently used level goes, the upload is retried.
        try actuator.prepare(Self.pulse(levels[2]))
        #expect(actuator.statistics.noSpaceErrors == 1)
        #expect(actuator.statistics.evictions == 1)
        // The table's first entry was evicted; the retried upload got that level's kernel slot.
        #expect(actuator.preparedLevels.map(\.command) == [levels[1], levels[2]])
        #expect(actuator.preparedLevels.map(\.effectID) == [3, 2])

        // A third slot held elsewhere: a two-level program cannot fit, and nothing may be evicted
        // for it but its own levels: a typed ENOSPC.
        var third = rawRumble(strong: 3, weak: 3)
        try actuator.prepare(Self.pulse(levels[1]))  // levels[1] most recently used; levels[2] goes next.
        actuator.expirePreparations(unusedSince: SystemMonotonicClock().now())
        try other.uploadEffect(&third)
        let twoLevels = Program(profileName: "generic-rumble", commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0, command: levels[0]),
            TimedCommand(offsetNanoseconds: 20 * Self.ms, intensity: 1, sharpness: 0, command: levels[3]),
            TimedCommand(offsetNanoseconds: 40 * Self.ms, intensity: 0, sharpness: 0, command: .stop),
        ], durationNanoseconds: 40 * Self.ms, leadTimeNanoseconds: 0)
        #expect(throws: DeviceError.systemCall(path: sink.eventNodePath, SystemCallError(call: "EVIOCSFF", errno: .noSpace))) {
            try actuator.prepare(twoLevels)
        }
        #expect(actuator.preparedLevels.map(\.command) == [levels[0]])
    }

    @Test func preparationsUnusedSinceAnInstantExpireAndFreeTheirSlots() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test expiry sink", maximumEffects: 16))
        defer { sink.close() }
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 5_000 * Self.ms))
        let actuator = try EvdevActuator(path: sink.eventNodePath, clock: clock)
        defer { actuator.close() }
        let levels = (1...4).map { ActuatorCommand.rumble(strong: UInt16($0) * 0x1000, weak: 0x0800) }
        for level in levels { try actuator.prepare(Self.pulse(level)) }  // Prepared at 5 s.

        clock.advance(by: .seconds(3))
        try actuator.prepare(Self.pulse(levels[1]))  // Prepared again at 8 s: recently used.
        let eight = clock.now()
        actuator.perform(levels[2], channel: EvdevKernel.channel, deadline: eight, now: eight)  // Played at 8 s…
        actuator.perform(levels[3], channel: EvdevKernel.channel, deadline: eight, now: eight)  // …and still playing.
        // What housekeeping wakes for: the least recently used level, levels[0] at 5 s.
        #expect(actuator.oldestPreparationUse == MonotonicInstant(nanoseconds: 5_000 * Self.ms))
        actuator.expirePreparations(unusedSince: MonotonicInstant(nanoseconds: 7_000 * Self.ms))
        // Then 8 s: levels[1] prepared and levels[2] played then, levels[3] playing (used now).
        #expect(actuator.oldestPreparationUse == eight)

        // Only levels[0] was neither prepared, played nor playing since 7 s.
        #expect(actuator.preparedLevels.map(\.command) == Array(levels[1...]))
        let records = sink.waitForRecords(count: 9)
        #expect(records.suffix(5).map(\.event) == [
            .play(effectID: 2, count: 1), .stop(effectID: 2), .play(effectID: 3, count: 1),
            .stop(effectID: 0), .erase(effectID: 0),
        ])
        // A freed slot is reused by the next prepare.
        try actuator.prepare(Self.pulse(.rumble(strong: 0xAAAA, weak: 0)))
        #expect(actuator.preparedLevels.map(\.effectID) == [0, 1, 2, 3])
    }

    @Test func periodicAndConstantLevelsUploadTheirOwnEffectTypesAndTheStreamChangesType() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test periodic and constant sink",
                                                     effectTypes: [UInt16(FF_PERIODIC), UInt16(FF_SINE), UInt16(FF_SQUARE), UInt16(FF_CONSTANT)],
                                                     maximumEffects: 2))
        defer { sink.close() }
        let actuator = try EvdevActuator(path: sink.eventNodePath)
        // The input core adds FF_RUMBLE to any periodic device (it emulates rumble with periodic effects).
        #expect(actuator.device.info.forceFeedbackCodes == [.rumble, .periodic, .sine, .square, .constant])
        #expect(DeviceCatalog.profile(for: actuator.device.info).name == "constant-force-wheel")
        #expect(actuator.preparedCapacity == 1)
        let sine = ActuatorCommand.periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 10_000)
        let constant = ActuatorCommand.constant(level: 5_000)
        let square = ActuatorCommand.periodic(waveform: .square, periodMilliseconds: 20, magnitude: -8_000)
        try actuator.prepare(Self.pulse(sine))
        for command in [sine, constant, square, ActuatorCommand.stop] { EvdevKernel.perform(actuator, command) }
        actuator.close()

        /// (type, id, replay length, parameters summary) of an upload.
        func upload(_ event: UInputForceFeedbackEvent) -> [Int]? {
            guard case let .upload(effect, previous: nil) = event else { return nil }
            switch effect.parameters {
            case let .periodic(waveform, period, magnitude, offset, phase, envelope):
                let flat = [envelope.attackLength, envelope.attackLevel, envelope.fadeLength, envelope.fadeLevel] == [0, 0, 0, 0]
                return [Int(effect.type), Int(effect.id), Int(effect.replayLength), Int(waveform), Int(period), Int(magnitude),
                        Int(offset), Int(phase), flat ? 0 : 1]
            case let .constant(level, envelope):
                let flat = [envelope.attackLength, envelope.attackLevel, envelope.fadeLength, envelope.fadeLevel] == [0, 0, 0, 0]
                return [Int(effect.type), Int(effect.id), Int(effect.replayLength), Int(level), flat ? 0 : 1]
            default: return []
            }
        }
        let records = sink.waitForRecords(count: 15).map(\.event)
        try #require(records.count == 15)
        #expect(upload(records[0]) == [Int(FF_PERIODIC), 0, 120, Int(FF_SINE), 35, 10_000, 0, 0, 0])
        #expect(records[1] == .play(effectID: 0, count: 1))
        // Not prepared: the streaming effect is allocated as a constant force (before the prepared
        // level stops, so that the change is two adjacent writes)…
        #expect(upload(records[2]) == [Int(FF_CONSTANT), 1, 2_000, 5_000, 0])
        #expect(records[3...6] == [.stop(effectID: 0), .play(effectID: 1, count: 1), .stop(effectID: 1), .stop(effectID: 1)])
        // …and a periodic level cannot replace it in place: erased, allocated again with the new type.
        #expect(records[7] == .erase(effectID: 1))
        #expect(upload(records[8]) == [Int(FF_PERIODIC), 1, 2_000, Int(FF_SQUARE), 20, -8_000, 0, 0, 0])
        #expect(Array(records[9...]) == [
            .play(effectID: 1, count: 1), .stop(effectID: 1),
            .stop(effectID: 0), .erase(effectID: 0), .stop(effectID: 1), .erase(effectID: 1),
        ])
    }

    @Test func preparingAgainUploadsNothingAndDeinitEndsInSilence() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test deinit sink", maximumEffects: 16))
        defer { sink.close() }
        let level = ActuatorCommand.rumble(strong: 0x2222, weak: 0x3333)
        do {
            let actuator = try EvdevActuator(path: sink.eventNodePath)
            try actuator.prepare(Self.pulse(level))
            try actuator.prepare(Self.pulse(level))  // Idempotent: the level is already there.
            #expect(actuator.statistics.preparedUploads == 1)
            EvdevKernel.perform(actuator, level)
            #expect(sink.waitForRecords(count: 2).count == 2)
            // The last reference goes while the level plays: deinit stops it and erases it.
        }
        #expect(sink.waitForRecords(count: 5).map(\.event) == [
            EvdevKernel.rumbleUpload(id: 0, strong: 0x2222, weak: 0x3333, holdNanoseconds: 20 * Self.ms),
            .play(effectID: 0, count: 1),
            .stop(effectID: 0),
            .stop(effectID: 0), .erase(effectID: 0),
        ])
    }

    @Test func gainHalvesTheDualSenseMotorBytes() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let actuator = try EvdevActuator(path: node)
        defer { actuator.close() }
        let levels: [ActuatorCommand] = [.rumble(strong: 0xFFFF, weak: 0xFFFF), .rumble(strong: 0x8000, weak: 0x4000)]
        for level in levels { try actuator.prepare(Self.pulse(level)) }

        try actuator.setGain(0.5)  // FF_GAIN 0x7FFF
        for level in levels {
            EvdevKernel.perform(actuator, level)
            controller.waitForOutputReports { VirtualDualSenseTests.motorStates($0).count >= 1 && VirtualDualSenseTests.motorStates($0).last != [0, 0] }
            EvdevKernel.perform(actuator, .stop)
            controller.waitForOutputReports { VirtualDualSenseTests.motorStates($0).last == [0, 0] }
        }
        try actuator.setGain(1)
        EvdevKernel.perform(actuator, levels[1])
        let reports = controller.waitForOutputReports { VirtualDualSenseTests.motorStates($0).last == [0x40, 0x80] }
        EvdevKernel.perform(actuator, .stop)

        // ff-memless scales each magnitude by gain/0xFFFF: 0xFFFF → 0x7FFF (byte 0x7F),
        // 0x8000 → 0x3FFF (0x3F), 0x4000 → 0x1FFF (0x1F). At gain 1 the bytes are 0x40 and 0x80 again.
        #expect(VirtualDualSenseTests.motorStates(reports) == [[0x7F, 0x7F], [0, 0], [0x1F, 0x3F], [0, 0], [0x40, 0x80]])
    }

    /// ff-memless marks an effect updated in place as not playing until its next timer tick (a
    /// jiffy, 4 ms at 250 Hz) and drops a stop written before that tick: without the play after
    /// each update, the pad would keep the last streamed level for good. Levels nobody prepared,
    /// changed and stopped within the same millisecond, as a game's held levels are.
    @Test func aStreamedLevelChangedAndStoppedAtOnceLeavesTheDualSenseSilent() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let actuator = try EvdevActuator(path: node)
        defer { actuator.close() }
        for round in 0..<20 {
            let strong = UInt16(0x1000 + round * 0x400), weak = UInt16(0x8000 + round * 0x200)
            EvdevKernel.perform(actuator, .rumble(strong: strong, weak: weak))
            EvdevKernel.perform(actuator, .rumble(strong: weak, weak: strong))  // In place, while it plays.
            EvdevKernel.perform(actuator, .stop)
            let reports = controller.waitForOutputReports(timeout: .seconds(2)) { VirtualDualSenseTests.motorStates($0).last == [0, 0] }
            #expect(VirtualDualSenseTests.motorStates(reports).last == [0, 0], "round \(round)")
        }
        #expect(actuator.statistics.streamingUploads == 40)
        #expect(actuator.statistics.failedCalls == 0)
    }

    @Test func unplugMidPatternPublishesTheLossAndAnotherDeviceGoesOn() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let pad = try EvdevActuator(path: node)
        defer { pad.close() }
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test survivor sink", maximumEffects: 16))
        defer { sink.close() }
        let survivor = try EvdevActuator(path: sink.eventNodePath)
        defer { survivor.close() }
        let level = ActuatorCommand.rumble(strong: 0x8000, weak: 0x4000)
        try pad.prepare(Self.pulse(level))
        try survivor.prepare(Self.pulse(level))

        EvdevKernel.perform(pad, level)
        controller.waitForOutputReports { VirtualDualSenseTests.motorStates($0).last == [0x40, 0x80] }
        try controller.unplug()
        EvdevKernel.perform(pad, .stop)  // Mid-pattern: the stop finds the device gone.
        #expect(pad.lossError == SystemCallError(call: "write", errno: .operationNotSupportedByDevice))
        EvdevKernel.perform(pad, level)  // No further system call, no trap.
        #expect(pad.statistics.droppedCommands == 1)
        #expect(throws: DeviceError.deviceLost(path: node, SystemCallError(call: "write", errno: .operationNotSupportedByDevice))) {
            try pad.prepare(Self.pulse(.rumble(strong: 1, weak: 1)))
        }

        EvdevKernel.perform(survivor, level)
        EvdevKernel.perform(survivor, .stop)
        #expect(survivor.lossError == nil)
        #expect(sink.waitForRecords(count: 3).map(\.event).suffix(2) == [.play(effectID: 0, count: 1), .stop(effectID: 0)])
    }
}
