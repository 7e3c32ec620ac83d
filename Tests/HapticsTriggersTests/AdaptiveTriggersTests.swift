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

    @Test("effects set from several threads at once reach the node as whole reports, the latest last")
    func concurrentSets() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write([UInt8](), to: "hidraw0")
        let path = folder.path + "/hidraw0"
        let triggers = try AdaptiveTriggers(node: TriggerNode(path: path, transport: .bluetooth))
        // Thread n sets zone n of the left trigger, 200 times; the writer thread writes meanwhile.
        runConcurrently(4) { thread in
            for strength in 1...200 {
                try? triggers.setEffects(left: try? .feedback(zone: thread, strength: strength % 8 + 1), right: nil)
            }
        }
        try triggers.setEffects(left: nil, right: .weapon(start: 2, end: 6, strength: 8))
        try triggers.flush()
        triggers.close()
        let written = try reports(in: path, size: 78)
        // Each report is whole: its CRC is right and each trigger it sets is an effect that decodes.
        for report in written {
            #expect(report.count == 78 && report[0] == 0x31 && report[2] == 0x10)
            #expect(Array(report[74...]) == (0..<4).map { UInt8(truncatingIfNeeded: CRC32.checksum([0xA2] + report[..<74]) >> (8 * $0)) })
            if report[3] & 0x08 != 0 { #expect((try? TriggerEffect(bytes: report[24..<35])) != nil) }
            if report[3] & 0x04 != 0 { #expect((try? TriggerEffect(bytes: report[13..<24])) != nil) }
        }
        // Sequence numbers count up from 0, modulo 16, one per report.
        #expect(written.enumerated().allSatisfy { $0.element[1] == UInt8($0.offset % 16) << 4 })
        // The last two: the weapon on the right (alone, or with the left's latest), then both off.
        #expect(written.dropLast().last.map { Array($0[13..<24]) } == [0x25, 0x44, 0x00, 0x07, 0, 0, 0, 0, 0, 0, 0])
        #expect(written.last.map { Array($0[3...3]) + Array($0[13..<35]) } == [0x0C] + TriggerEffect.off.bytes + TriggerEffect.off.bytes)
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
