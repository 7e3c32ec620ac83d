import HapticsSystem
import HapticsTestSupport
import Testing
@testable import HapticsTriggers

/// The writer on a plain file standing for the hidraw node: every report it wrote, in order.
@Suite("Adaptive triggers writer")
struct AdaptiveTriggersTests {
    /// A writer on an empty plain file, in a fresh folder, standing for the pad's hidraw node.
    func makeTriggers(_ transport: DualSenseTransport) throws -> (AdaptiveTriggers, path: String, folder: TemporaryFolder) {
        let folder = try TemporaryFolder()
        try folder.write([UInt8](), to: "hidraw0")
        let path = folder.path + "/hidraw0"
        return (try AdaptiveTriggers(node: TriggerNode(path: path, transport: transport)), path, folder)
    }

    func reports(in path: String, size: Int) throws -> [[UInt8]] {
        let bytes = try FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 16)
        return stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }

    @Test("each set is one report with the next sequence number; closing sets both triggers off")
    func bluetoothSequence() throws {
        let (triggers, path, folder) = try makeTriggers(.bluetooth)
        defer { folder.remove() }
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

    @Test("at a strength below 1 the effects are written scaled; changing it writes the ones playing again")
    func strength() throws {
        let (triggers, path, folder) = try makeTriggers(.usb)
        defer { folder.remove() }
        let weapon = try TriggerEffect.weapon(start: 2, end: 6, strength: 8)
        let feedback = try TriggerEffect.feedback(zone: 3, strength: 5)
        triggers.strength = 0.5
        try triggers.setEffects(left: weapon, right: feedback)
        try triggers.flush()
        triggers.strength = 1
        try triggers.flush()
        triggers.strength = 1
        try triggers.flush()
        triggers.close()
        #expect(try reports(in: path, size: 63) == [
            DualSenseTriggerReport(transport: .usb, left: try .weapon(start: 2, end: 6, strength: 4),
                                   right: try .feedback(zone: 3, strength: 3), sequence: 0).bytes,
            DualSenseTriggerReport(transport: .usb, left: weapon, right: feedback, sequence: 0).bytes,
            DualSenseTriggerReport(transport: .usb, left: .off, right: .off, sequence: 0).bytes,
        ])
    }

    @Test("effects set before the writer runs are merged: the latest of each trigger, in one report")
    func coalescing() throws {
        let (triggers, path, folder) = try makeTriggers(.usb)
        defer { folder.remove() }
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
        let (triggers, path, folder) = try makeTriggers(.bluetooth)
        defer { folder.remove() }
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

    @Test("a timed effect is written at its instant, in order with the others; a reset drops what waits")
    func timedEffects() throws {
        let (triggers, path, folder) = try makeTriggers(.usb)
        defer { folder.remove() }
        let feedback = try TriggerEffect.feedback(zone: 3, strength: 5)
        let weapon = try TriggerEffect.weapon(start: 2, end: 6, strength: 8)
        let start = MonotonicInstant.now
        // Set out of order: written in the order of their instants, each no sooner than its own.
        try triggers.setEffects(left: weapon, right: nil, at: start + .milliseconds(200))
        try triggers.setEffects(left: feedback, right: nil, at: start + .milliseconds(100))
        try triggers.flush()
        #expect(try reports(in: path, size: 63).isEmpty || MonotonicInstant.now >= start + .milliseconds(100))
        let deadline = start + .seconds(5)
        while try reports(in: path, size: 63).count < 2 && MonotonicInstant.now < deadline {
            SystemMonotonicClock.sleep(until: .now + .milliseconds(5))
        }
        #expect(MonotonicInstant.now >= start + .milliseconds(200))
        #expect(try reports(in: path, size: 63).map { Array($0[22..<33]) } == [feedback.bytes, weapon.bytes])

        // A reset sets both off now and drops the effect set for later.
        try triggers.setEffects(left: nil, right: feedback, at: .now + .milliseconds(100))
        try triggers.reset()
        SystemMonotonicClock.sleep(until: .now + .milliseconds(250))
        triggers.close()
        let written = try reports(in: path, size: 63)
        #expect(written.count == 4)
        #expect(written.dropFirst(2).allSatisfy { $0[1] == 0x0C && Array($0[11..<33]) == TriggerEffect.off.bytes + TriggerEffect.off.bytes })
    }

    @Test("at most 64 effects wait for their instants")
    func timedCapacity() throws {
        let (triggers, path, folder) = try makeTriggers(.usb)
        defer { folder.remove() }
        defer { triggers.close() }
        let later = MonotonicInstant.now + .seconds(60)
        for _ in 0..<AdaptiveTriggers.timedCapacity { try triggers.setEffects(left: .off, right: nil, at: later) }
        #expect(throws: TriggerDeviceError.tooManyTimedEffects(node: path, capacity: 64)) {
            try triggers.setEffects(left: .off, right: nil, at: later)
        }
        #expect(TriggerDeviceError.tooManyTimedEffects(node: path, capacity: 64).description
            == "\(path): 64 trigger effects wait for their instants already; set fewer ahead")
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
