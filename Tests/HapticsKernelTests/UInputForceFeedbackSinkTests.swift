import CEvdev
import HapticsDevices
import Testing
import HapticsSystem
import HapticsVirtualDevices

@Suite(.requiresKernelTestbench, .serialized)
struct UInputForceFeedbackSinkTests {
    @Test func rawUploadPlayStopAndCloseReachTheSinkInOrder() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test rumble sink", maximumEffects: 4))
        defer { sink.close() }
        let pad = try FileDescriptor.open(sink.eventNodePath, .readWrite)

        #expect(try pad.effectCapacity() == 4)
        #expect(try EvdevDeviceInfo(describing: pad, path: sink.eventNodePath).forceFeedbackCodes == [.rumble])

        var effect = rawRumble(strong: 0x8000, weak: 0x4000)
        try pad.uploadEffect(&effect)
        #expect(effect.id == 0)  // The kernel assigns the first free slot and writes it back.

        let beforePlay = MonotonicInstant.now
        try pad.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 1)
        let afterPlay = MonotonicInstant.now
        try pad.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 0)
        let afterStop = MonotonicInstant.now
        // Closing the uploader's descriptor stops and erases what it uploaded.
        try pad.close()

        let records = sink.waitForRecords(count: 5)
        let uploaded = UploadedForceFeedbackEffect(type: UInt16(FF_RUMBLE), id: 0, direction: 0, replayLength: 0,
                                                   replayDelay: 0,
                                                   parameters: .rumble(strongMagnitude: 0x8000, weakMagnitude: 0x4000))
        #expect(records.map(\.event) == [
            .upload(uploaded, previous: nil),
            .play(effectID: 0, count: 1),
            .stop(effectID: 0),
            .stop(effectID: 0),
            .erase(effectID: 0),
        ])
        try #require(records.count == 5)
        // Play and stop carry the kernel's CLOCK_MONOTONIC stamp of the moment write() reached it.
        #expect(records[1].timestamp >= beforePlay && records[1].timestamp <= afterPlay)
        #expect(records[2].timestamp >= afterPlay && records[2].timestamp <= afterStop)
        #expect(records.map(\.timestamp) == records.map(\.timestamp).sorted())
    }

    @Test func aOneSlotDeviceRefusesASecondEffectUntilTheFirstIsErased() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test one-slot sink", maximumEffects: 1))
        defer { sink.close() }
        let pad = try FileDescriptor.open(sink.eventNodePath, .readWrite)
        defer { try? pad.close() }

        var first = rawRumble(strong: 0x1000, weak: 0x2000, length: 100)
        try pad.uploadEffect(&first)
        var second = rawRumble(strong: 0x3000, weak: 0x4000)
        // The input core refuses without asking the device: no upload reaches the sink.
        #expect(throws: SystemCallError(call: "EVIOCSFF", errno: .noSpace)) { try pad.uploadEffect(&second) }
        #expect(second.id == -1)

        // An update in place keeps the slot; the device sees the previous version alongside.
        first.u.rumble.strong_magnitude = 0xFFFF
        try pad.uploadEffect(&first)
        #expect(first.id == 0)
        try pad.eraseEffect(id: first.id)
        try pad.uploadEffect(&second)
        #expect(second.id == 0)

        let records = sink.waitForRecords(count: 5)
        func rumble(_ strong: UInt16, _ weak: UInt16, length: UInt16) -> UploadedForceFeedbackEffect {
            UploadedForceFeedbackEffect(type: UInt16(FF_RUMBLE), id: 0, direction: 0, replayLength: length,
                                        replayDelay: 0, parameters: .rumble(strongMagnitude: strong, weakMagnitude: weak))
        }
        #expect(records.map(\.event) == [
            .upload(rumble(0x1000, 0x2000, length: 100), previous: nil),
            .upload(rumble(0xFFFF, 0x2000, length: 100), previous: rumble(0x1000, 0x2000, length: 100)),
            .stop(effectID: 0),  // Erasing stops the effect first, then frees the slot.
            .erase(effectID: 0),
            .upload(rumble(0x3000, 0x4000, length: 0), previous: nil),
        ])
    }

    @Test func sinksOfOneNameEachFindTheirOwnNodeAndHearOnlyTheirOwnPads() throws {
        // Eight sinks answered by one reader thread; the same name on purpose: a sink finds its node
        // by its own sysfs name, not by scanning for the first node with its name.
        let sinks = try (0..<8).map { _ in try UInputForceFeedbackSink(.init(name: "haptics-test twin sink")) }
        defer { for sink in sinks { sink.close() } }
        #expect(Set(sinks.map(\.eventNodePath)).count == 8)
        let pads = try sinks.map { try FileDescriptor.open($0.eventNodePath, .readWrite) }
        defer { for pad in pads { try? pad.close() } }

        // Each pad uploads its own level and plays it; every upload needs the shared thread's answer.
        for (index, pad) in pads.enumerated() {
            var effect = rawRumble(strong: UInt16(index + 1) * 0x1000, weak: 0)
            try pad.uploadEffect(&effect)
            #expect(effect.id == 0)
            try pad.writeInputEvent(type: UInt16(EV_FF), code: 0, value: 1)
        }
        for (index, sink) in sinks.enumerated() {
            let uploaded = UploadedForceFeedbackEffect(
                type: UInt16(FF_RUMBLE), id: 0, direction: 0, replayLength: 0, replayDelay: 0,
                parameters: .rumble(strongMagnitude: UInt16(index + 1) * 0x1000, weakMagnitude: 0))
            #expect(sink.waitForRecords(count: 2).map(\.event) == [.upload(uploaded, previous: nil), .play(effectID: 0, count: 1)])
        }

        // Closing half of them leaves the others answered: a stop still reaches each of those.
        for sink in sinks.prefix(4) { sink.close() }
        for pad in pads.suffix(4) { try pad.writeInputEvent(type: UInt16(EV_FF), code: 0, value: 0) }
        for sink in sinks.suffix(4) {
            #expect(sink.waitForRecords(count: 3).map(\.event).last == .stop(effectID: 0))
        }
        // A closed sink's node is gone: its pad's writes fail with ENODEV.
        #expect(throws: SystemCallError(call: "write", errno: .operationNotSupportedByDevice)) {
            try pads[0].writeInputEvent(type: UInt16(EV_FF), code: 0, value: 0)
        }
    }
}
