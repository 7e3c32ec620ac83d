import CEvdev
import HapticsDevices
import Testing
import HapticsSystem
import HapticsVirtualDevices

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
