import CEvdev
import Foundation
import Glibc
@testable import HapticsCommandLine
import HapticsDevices
import HapticsSystem
import HapticsVirtualDevices
import Testing

/// Runs `doctor` with its slot probe kept to `node`: the devices of tests running beside it are
/// theirs, and the probe's uploads would show in their records.
func runDoctor(_ arguments: [String], probingSlotsOf node: String) -> (status: Int32, output: String, error: String) {
    DoctorChecks.$slotProbe.withValue({ $0 == node ? DoctorChecks.probeSlots($0) : nil }) {
        runHaptics(arguments)
    }
}

/// `haptics doctor` counting the slots another opener holds on a pad the kernel sees.
extension EngineKernelTests {
@Suite struct CLIDoctorSlots {
    /// Runs `doctor --json` probing only `node` (the other suites' devices are theirs) and returns
    /// the holders finding about `node`.
    static func holdersFinding(_ node: String) throws -> [String: Any] {
        let result = runDoctor(["doctor", "--json"], probingSlotsOf: node)
        #expect(result.error == "")
        let line = try #require(result.output.split(separator: "\n").first { $0.contains(#""check":"holders""#) && $0.contains(node + " ") })
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// Expects exactly `count` more effects to fit through `pad`: the probe left no slot taken.
    static func expectFreeSlots(_ count: Int, on pad: FileDescriptor) throws {
        var effect = rawRumble(strong: 0, weak: 0)
        for _ in 0..<count {
            effect.id = -1
            try pad.uploadEffect(&effect)
        }
        effect.id = -1
        #expect(throws: SystemCallError(call: "EVIOCSFF", errno: .noSpace)) { try pad.uploadEffect(&effect) }
    }

    @Test func doctorCountsThreeOfEightSlotsTakenAndErasesEveryEffectOfItsProbe() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test doctor slots", maximumEffects: 8))
        defer { sink.close() }
        let node = sink.eventNodePath
        // Another descriptor, as another process would open the pad, holds three effects.
        let other = try FileDescriptor.open(node, .readWrite)
        defer { try? other.close() }
        var ids: [Int16] = []
        for strength in [0x1000, 0x2000, 0x3000] as [UInt16] {
            var effect = rawRumble(strong: strength, weak: 0)
            try other.uploadEffect(&effect)
            ids.append(effect.id)
        }
        let finding = try Self.holdersFinding(node)
        #expect(finding["status"] as? String == "warning")
        #expect(finding["message"] as? String == "\(node) is open in no other process this user may see; 3 of 8 slots taken by other openers")
        #expect(finding["slots"] as? Int == 8)
        #expect(finding["slots-taken"] as? Int == 3)
        // Three uploads, then the probe's five uploads and five erases (each after the stop the
        // kernel sends as it erases); nothing played.
        let records = sink.waitForRecords(count: 18)
        try #require(records.count == 18)
        let probe = records.dropFirst(3).map(\.event)
        let uploaded = probe.compactMap { (event) -> UploadedForceFeedbackEffect? in if case let .upload(effect, previous: nil) = event { effect } else { nil } }
        let erased = probe.compactMap { (event) -> Int16? in if case let .erase(id) = event { id } else { nil } }
        #expect(uploaded.count == 5)
        #expect(uploaded.allSatisfy { $0.type == UInt16(FF_RUMBLE) && $0.replayLength == 1
            && $0.parameters == .rumble(strongMagnitude: 0, weakMagnitude: 0) })
        let stopped = probe.compactMap { (event) -> Int16? in if case let .stop(id) = event { id } else { nil } }
        #expect(Set(erased) == Set(uploaded.map(\.id)))
        #expect(stopped.sorted() == erased.sorted())
        #expect(Set(uploaded.map(\.id)).isDisjoint(with: ids))
        #expect(!probe.contains { if case .play = $0 { true } else { false } })
        #expect(EvdevKernel.liveEffects(records).final == 3)
        // The other opener's effects are still there: its three slots stay taken, five are free.
        try Self.expectFreeSlots(5, on: other)
    }

    @Test func doctorCountsTheSlotsTakenOnAVirtualDualSenseAndFreesItsOwn() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let other = try FileDescriptor.open(node, .readWrite)
        defer { try? other.close() }
        for _ in 0..<3 {
            var effect = rawRumble(strong: 0x4000, weak: 0x4000)
            try other.uploadEffect(&effect)
        }
        let finding = try Self.holdersFinding(node)
        #expect(finding["message"] as? String == "\(node) is open in no other process this user may see; 3 of 16 slots taken by other openers")
        #expect(finding["slots"] as? Int == 16)
        #expect(finding["slots-taken"] as? Int == 3)
        // ff-memless holds 16: the probe erased all it uploaded, so thirteen more fit, and no more.
        try Self.expectFreeSlots(13, on: other)
        // Nothing played: the motor bytes never left zero.
        #expect(controller.outputReports.allSatisfy { !$0.setsMotors || ($0.weakMotor == 0 && $0.strongMotor == 0) })
    }
}
}
