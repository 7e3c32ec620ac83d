import CEvdev
import Glibc
import HapticsRendering
import HapticsScheduler
import Testing
@testable import HapticsDevices
import HapticsSystem
import HapticsTestSupport

/// The actuator's error paths on the host, on the write end of a pipe standing in for an event node:
/// every `write()` the actuator makes can be read back, every ioctl fails with `ENOTTY` unless the
/// mocking seam forces another errno.
@Suite struct EvdevActuatorErrorTests {
    static let path = "/dev/input/event7"
    static let channel = ChannelID(rawValue: 0)
    static let t0 = MonotonicInstant(nanoseconds: 1_000_000_000)
    static let level = ActuatorCommand.rumble(strong: 0x8000, weak: 0x4000)
    static let program = Program(profileName: "generic-rumble", commands: [
        TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0.5, command: level),
        TimedCommand(offsetNanoseconds: 60_000_000, intensity: 0, sharpness: 0, command: .stop),
    ], durationNanoseconds: 60_000_000, leadTimeNanoseconds: 0)

    /// An actuator whose device descriptor is a pipe's write end; returns the read end too.
    static func makeActuator(codes: Set<ForceFeedbackCode> = [.rumble, .gain], slots: Int = 4) throws -> (EvdevActuator, FileDescriptor) {
        let pipe = try PipeBackedDevice(path: path, codes: codes, slots: slots)
        return (EvdevActuator(device: pipe.device, clock: ManualClock(start: t0)), pipe.reader)
    }

    static func writtenEvents(_ reader: FileDescriptor) -> [[Int32]] { PipeBackedDevice.writtenEvents(reader) }

    @Test func theTableHoldsOneLevelLessThanTheSlotsAndNothingOnAOneSlotDevice() throws {
        let (sixteen, reader16) = try Self.makeActuator(slots: 16)
        let (one, reader1) = try Self.makeActuator(slots: 1)
        let (many, readerMany) = try Self.makeActuator(slots: 64)
        defer { for reader in [reader16, reader1, readerMany] { try? reader.close() } }
        #expect(sixteen.preparedCapacity == 15)
        #expect(one.preparedCapacity == 0)
        #expect(many.preparedCapacity == 16)  // The realtime scan stays at 16 entries at most.
    }

    @Test func gainIsOneWriteOfFFGainTruncatedToSixteenBits() throws {
        let (actuator, reader) = try Self.makeActuator()
        defer { try? reader.close() }
        try actuator.setGain(0.5)
        try actuator.setGain(1)
        try actuator.setGain(0)
        #expect(Self.writtenEvents(reader) == [
            [Int32(EV_FF), Int32(FF_GAIN), 0x7FFF], [Int32(EV_FF), Int32(FF_GAIN), 0xFFFF], [Int32(EV_FF), Int32(FF_GAIN), 0],
        ])
        #expect(actuator.statistics.writes == 3)
    }

    @Test func gainOnADeviceWithoutFFGainIsATypedError() throws {
        let (actuator, reader) = try Self.makeActuator(codes: [.rumble])
        defer { try? reader.close() }
        #expect(throws: DeviceError.systemCall(path: Self.path, SystemCallError(call: "FF_GAIN", errno: .invalidArgument))) {
            try actuator.setGain(0.5)
        }
        #expect(Self.writtenEvents(reader) == [])
    }

    @Test func anUploadTheDeviceRefusesIsATypedErrorAndNothingIsPrepared() throws {
        let (actuator, reader) = try Self.makeActuator()
        defer { try? reader.close() }
        #expect(throws: DeviceError.systemCall(path: Self.path, SystemCallError(call: "EVIOCSFF", errno: .inappropriateIOCTLForDevice))) {
            try actuator.prepare(Self.program)
        }
        #expect(actuator.preparedLevels.isEmpty)
    }

    @Test func closeOfAnActuatorWithNothingUploadedOnlyClosesTheDescriptor() throws {
        let (actuator, reader) = try Self.makeActuator()
        defer { try? reader.close() }
        actuator.close()
        actuator.close()
        #expect(actuator.device.isClosed)
        actuator.perform(Self.level, channel: Self.channel, deadline: Self.t0, now: Self.t0)
        #expect(actuator.statistics.droppedCommands == 1)
        #expect(actuator.statistics.commands == 0)
    }

    #if DEBUG
    @Test func noSpaceAtPrepareWithNothingToEvictIsThrownTyped() throws {
        let (actuator, reader) = try Self.makeActuator()
        defer { try? reader.close() }
        let driver = SystemCallMocking.Driver()
        driver.force(.noSpace, on: "EVIOCSFF")

        #expect(throws: DeviceError.systemCall(path: Self.path, SystemCallError(call: "EVIOCSFF", errno: .noSpace))) {
            try SystemCallMocking.withDriver(driver) { try actuator.prepare(Self.program) }
        }
        #expect(driver.records.map(\.description) == ["EVIOCSFF(\(actuator.device.descriptor.rawValue)) → ENOSPC (No space left on device)"])
        #expect(actuator.statistics.noSpaceErrors == 1)
        #expect(actuator.preparedLevels.isEmpty)
    }

    @Test func noSpaceWhileStreamingIsCountedAndNothingPlays() throws {
        let (actuator, reader) = try Self.makeActuator(slots: 1)
        defer { try? reader.close() }
        let driver = SystemCallMocking.Driver()
        driver.force(.noSpace, on: "EVIOCSFF")

        SystemCallMocking.withDriver(driver) {
            actuator.perform(Self.level, channel: Self.channel, deadline: Self.t0, now: Self.t0)
            actuator.perform(.stop, channel: Self.channel, deadline: Self.t0, now: Self.t0)
        }

        // The streaming upload failed, so there is nothing to play and nothing to stop.
        #expect(driver.records.map(\.call) == ["EVIOCSFF"])
        #expect(Self.writtenEvents(reader) == [])
        #expect(actuator.lossError == nil)
        let statistics = actuator.statistics
        #expect(statistics.commands == 2)
        #expect(statistics.streamedLevels == 1)
        #expect(statistics.streamingUploads == 1)
        #expect(statistics.noSpaceErrors == 1)
        #expect(statistics.failedCalls == 1)
        #expect(statistics.writes == 0)
    }

    @Test func noSuchDeviceOnAWritePublishesTheLossAndEndsAllSystemCalls() throws {
        let (actuator, reader) = try Self.makeActuator()
        defer { try? reader.close() }
        let driver = SystemCallMocking.Driver()
        driver.force(.operationNotSupportedByDevice, on: "write")
        let descriptor = actuator.device.descriptor.rawValue
        let gone = SystemCallError(call: "write", errno: .operationNotSupportedByDevice)

        #expect(throws: DeviceError.deviceLost(path: Self.path, gone)) {
            try SystemCallMocking.withDriver(driver) { try actuator.setGain(0.5) }
        }
        #expect(actuator.lossError == gone)
        SystemCallMocking.withDriver(driver) {
            actuator.perform(Self.level, channel: Self.channel, deadline: Self.t0, now: Self.t0)
            actuator.perform(.stop, channel: Self.channel, deadline: Self.t0, now: Self.t0)
            actuator.expirePreparations(unusedSince: Self.t0.advanced(by: 10_000_000_000))
        }
        #expect(throws: DeviceError.deviceLost(path: Self.path, gone)) { try actuator.prepare(Self.program) }
        SystemCallMocking.withDriver(driver) { actuator.close() }

        // After the loss only the descriptor is closed: no stop, no erase on a device that is gone.
        #expect(driver.records.map(\.description) == ["write(\(descriptor)) → ENODEV (No such device)", "close(\(descriptor))"])
        #expect(actuator.statistics.droppedCommands == 2)
    }

    @Test func noSuchDeviceOnTheRealtimeThreadIsPublishedWithoutATrap() throws {
        let (actuator, reader) = try Self.makeActuator(slots: 1)
        defer { try? reader.close() }
        let driver = SystemCallMocking.Driver()
        driver.force(.operationNotSupportedByDevice, on: "EVIOCSFF")
        SystemCallMocking.withDriver(driver) {
            actuator.perform(Self.level, channel: Self.channel, deadline: Self.t0, now: Self.t0)
            actuator.perform(.rumble(strong: 1, weak: 2), channel: Self.channel, deadline: Self.t0, now: Self.t0)
        }
        #expect(actuator.lossError == SystemCallError(call: "EVIOCSFF", errno: .operationNotSupportedByDevice))
        #expect(driver.records.map(\.call) == ["EVIOCSFF"])
        #expect(actuator.statistics.droppedCommands == 1)
        #expect(actuator.statistics.failedCalls == 0)
    }
    #endif
}

@Suite("Caller values at the devices' entry points")
struct DeviceCallerValueTests {
    @Test("margins of any size are clamped to what a replay.length holds")
    func margins() throws {
        for (margin, streaming, expectedMargin, expectedStreaming) in [
            (Duration.seconds(Int64.max), Duration.seconds(Int64.min), Int64(65_535_000_000), Int64(0)),
            (.seconds(-1), .seconds(1e12), 0, 65_535_000_000),
        ] {
            let pipe = try PipeBackedDevice(path: EvdevActuatorErrorTests.path, codes: [.rumble], slots: 4)
            defer { try? pipe.reader.close() }
            let actuator = EvdevActuator(device: pipe.device, clock: ManualClock(start: EvdevActuatorErrorTests.t0),
                                         configuration: .init(safetyMargin: margin, minimumStreamingLength: streaming))
            #expect(actuator.safetyMarginNanoseconds == expectedMargin)
            #expect(actuator.minimumStreamingNanoseconds == expectedStreaming)
        }
    }

    @Test("holds of a program built with any offsets never overflow")
    func holds() {
        let level = EvdevActuatorErrorTests.level
        let program = Program(profileName: "wild", commands: [
            TimedCommand(offsetNanoseconds: Int64.min, intensity: 1, sharpness: 0.5, command: level),
            TimedCommand(offsetNanoseconds: Int64.max, intensity: 1, sharpness: 0.5, command: .rumble(strong: 1, weak: 1)),
        ], durationNanoseconds: Int64.min, leadTimeNanoseconds: 0)
        let levels = EvdevActuator.levels(of: program)
        #expect(levels.map(\.hold) == [Int64.max / 2, 0])
    }

    @Test("a simulated device's capacity is clamped to 1…2²⁰")
    func simulatedCapacity() {
        #expect(SimulatedDevice(profile: .simulated, capacity: 0).capacity == 1)
        #expect(SimulatedDevice(profile: .simulated, capacity: Int.min).capacity == 1)
        #expect(SimulatedDevice(profile: .simulated, capacity: Int.max).capacity == 1 << 20)
        let one = SimulatedDevice(profile: .simulated, capacity: -5)
        one.perform(.stop, channel: ChannelID(rawValue: 0), deadline: EvdevActuatorErrorTests.t0, now: EvdevActuatorErrorTests.t0)
        one.perform(.stop, channel: ChannelID(rawValue: 0), deadline: EvdevActuatorErrorTests.t0, now: EvdevActuatorErrorTests.t0)
        #expect(one.recording().count == 1)
        #expect(one.droppedCount == 1)
    }
}
