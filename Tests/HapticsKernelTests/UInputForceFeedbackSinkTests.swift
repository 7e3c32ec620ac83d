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
}
