import CEvdev
import Glibc
import HapticsDevices
import Testing
import HapticsSystem
@testable import HapticsVirtualDevices

@Suite(.requiresKernelTestbench, .serialized)
struct VirtualDualSenseTests {
    /// Distinct consecutive (weak, strong) motor states: ff-memless may repeat a report a jiffy
    /// later or coalesce updates, so tests compare the sequence of states, not the report count.
    static func motorStates(_ reports: [DualSenseOutputReport]) -> [[UInt8]] {
        var states: [[UInt8]] = []
        for report in reports where report.setsMotors {
            let state = [report.weakMotor, report.strongMotor]
            if states.last != state { states.append(state) }
        }
        return states
    }

    @Test func hidPlaystationBindsAndExposesSixteenRumbleSlots() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let pad = try FileDescriptor.open(node, .readWrite)
        defer { try? pad.close() }

        #expect(try pad.effectCapacity() == 16)
        let described = try EvdevDeviceInfo(describing: pad, path: node)
        #expect(described.forceFeedbackCodes.contains(.rumble))
        #expect(described.uniqueIdentifier == controller.uniqueIdentifier)
        // The driver read exactly the three feature reports a real controller answers at probe.
        let requested = controller.events.compactMap { event -> UInt8? in
            if case .featureReportRequested(let id, answered: true) = event { id } else { nil }
        }
        #expect(requested == [0x09, 0x20, 0x05])
        #expect(controller.outputReports.allSatisfy { !$0.setsMotors })
    }

    @Test func rawRumbleReachesTheMotorBytesAndStopZeroesThem() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let pad = try FileDescriptor.open(node, .readWrite)
        defer { try? pad.close() }

        var effect = rawRumble(strong: 0x8000, weak: 0x4000)
        try pad.uploadEffect(&effect)
        #expect(effect.id == 0)
        try pad.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 1)
        let playing = controller.waitForOutputReports { Self.motorStates($0).last == [0x40, 0x80] }
        let rumble = try #require(playing.last { $0.setsMotors })
        #expect(rumble.bytes.count == 63)
        #expect(rumble.reportID == 0x02)
        // Firmware update version 0x0224 (≥ 0x0215): haptics select in byte 1, vibration 2 in byte 39.
        #expect(rumble.bytes[1] == 0x02)
        #expect(rumble.bytes[39] == 0x04)
        #expect(rumble.bytes[3] == 0x40)  // weak motor = 0x4000 / 256
        #expect(rumble.bytes[4] == 0x80)  // strong motor = 0x8000 / 256

        try pad.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 0)
        let stopped = controller.waitForOutputReports { Self.motorStates($0).last == [0, 0] }
        #expect(Self.motorStates(stopped) == [[0x40, 0x80], [0x00, 0x00]])
    }

    @Test func aBluetoothPadIsBoundAndEveryReportCarriesItsCRC() throws {
        let controller = try VirtualDualSense(connection: .bluetooth, inputReportInterval: .milliseconds(8))
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let pad = try FileDescriptor.open(node, .readWrite)
        defer { try? pad.close() }
        // The driver checks each feature report's CRC: with a wrong one it would not have bound.
        #expect(try EvdevDeviceInfo(describing: pad, path: node).id.bus == 0x05)
        #expect(try pad.effectCapacity() == 16)

        var effect = rawRumble(strong: 0x8000, weak: 0x4000)
        try pad.uploadEffect(&effect)
        try pad.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 1)
        let playing = controller.waitForOutputReports { Self.motorStates($0).last == [0x40, 0x80] }
        let rumble = try #require(playing.last { $0.setsMotors })
        #expect(rumble.bytes.count == 78)
        #expect(rumble.reportID == 0x31)
        #expect(rumble.bytes[2] == 0x10)  // the tag the driver puts before the fields
        #expect([rumble.bytes[5], rumble.bytes[6]] == [0x40, 0x80])
        #expect(Array(rumble.bytes[74...]) == Array(VirtualDualSense.sealed(rumble.bytes, seed: 0xA2)[74...]))
        try pad.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 0)

        // Its hidraw node (SDL's HIDAPI reads it) carries the input reports, CRC and all.
        let hidraw = try FileDescriptor.open(try #require(try controller.waitForHidrawNode()), .readOnly,
                                             options: [.nonBlocking, .closeOnExec])
        defer { try? hidraw.close() }
        var ready = [pollfd(fd: hidraw.rawValue, events: Int16(POLLIN), revents: 0)]
        #expect(poll(&ready, 1, 2_000) == 1)
        var report = [UInt8](repeating: 0, count: 128)
        let count = try report.withUnsafeMutableBytes { try hidraw.read(into: $0) }
        #expect(count == 78)
        #expect(report[0] == 0x31)
        let input = Array(report[..<78])
        #expect(input == VirtualDualSense.sealed(input, seed: 0xA1))
    }

    @Test func unplugMakesTheGamepadNodeFailWithNoSuchDevice() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let pad = try FileDescriptor.open(node, .readWrite)
        defer { try? pad.close() }
        var effect = rawRumble(strong: 0x8000, weak: 0x4000)
        try pad.uploadEffect(&effect)

        try controller.unplug()

        #expect(throws: SystemCallError(call: "write", errno: .operationNotSupportedByDevice)) {
            try pad.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 1)
        }
    }
}
