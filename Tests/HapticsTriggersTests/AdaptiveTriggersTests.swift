import HapticsSystem
import HapticsTestSupport
import Testing
@testable import HapticsTriggers

/// The writer on a plain file standing for the hidraw node: every report it wrote, in order.
@Suite("Adaptive triggers writer")
struct AdaptiveTriggersTests {
    func reports(in path: String, size: Int) throws -> [[UInt8]] {
        let bytes = try FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 16)
        return stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }

    @Test("each set is one report with the next sequence number; closing sets both triggers off")
    func bluetoothSequence() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write([UInt8](), to: "hidraw0")
        let path = folder.path + "/hidraw0"
        let triggers = try AdaptiveTriggers(node: TriggerNode(path: path, transport: .bluetooth))
        let weapon = try TriggerEffect.weapon(start: 2, end: 6, strength: 8)
        try triggers.setEffects(left: weapon, right: nil)
        try triggers.flush()
        try triggers.setEffects(left: nil, right: .off)
        try triggers.flush()
        triggers.close()
        #expect(try reports(in: path, size: 78) == [
            DualSenseTriggerReport(transport: .bluetooth, left: weapon, right: nil, sequence: 0).bytes,
            DualSenseTriggerReport(transport: .bluetooth, left: nil, right: .off, sequence: 1).bytes,
            DualSenseTriggerReport(transport: .bluetooth, left: .off, right: .off, sequence: 2).bytes,
        ])
        #expect(throws: TriggerDeviceError.closed(node: path)) { try triggers.reset() }
    }

    @Test("effects set before the writer runs are merged: the latest of each trigger, in one report")
    func coalescing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write([UInt8](), to: "hidraw0")
        let path = folder.path + "/hidraw0"
        let triggers = try AdaptiveTriggers(node: TriggerNode(path: path, transport: .usb))
        defer { triggers.close() }
        let feedback = try TriggerEffect.feedback(zone: 3, strength: 5)
        // Several sets, then one wait for the writer thread: whatever it wrote between them, the
        // last report holds the latest effect of each trigger.
        try triggers.setEffects(left: .off, right: .off)
        try triggers.setEffects(left: feedback, right: nil)
        try triggers.flush()
        let written = try reports(in: path, size: 63)
        #expect(written.last.map { Array($0[22..<33]) } == feedback.bytes)
        #expect(written.allSatisfy { $0.count == 63 && $0[0] == 0x02 })
    }

    @Test("a node that cannot be opened says which and why")
    func openErrors() throws {
        #expect(throws: TriggerDeviceError.nodeMissing(node: "/nonexistent/hidraw9")) {
            try AdaptiveTriggers(node: TriggerNode(path: "/nonexistent/hidraw9", transport: .usb))
        }
        #expect(TriggerDeviceError(node: "/dev/hidraw2", SystemCallError(call: "open", errno: .permissionDenied)) == .permissionDenied(node: "/dev/hidraw2"))
        let lost = SystemCallError(call: "write", errno: .operationNotSupportedByDevice)
        #expect(TriggerDeviceError(node: "/dev/hidraw2", lost) == .padLost(node: "/dev/hidraw2", lost))
        #expect(TriggerDeviceError.padLost(node: "/dev/hidraw2", lost).description == "/dev/hidraw2: the pad is gone (write: ENODEV (No such device))")
    }
}
