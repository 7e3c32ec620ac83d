import CEvdev
import CHapticsSystem
import HapticsDevices
import Testing

@Suite(.requiresKernelTestbench, .serialized)
struct UInputForceFeedbackSinkTests {
    @Test func rawUploadPlayStopAndCloseReachTheSinkInOrder() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test rumble sink", maximumEffects: 4))
        defer { sink.close() }
        let pad = try FileDescriptor.open(sink.eventNodePath, .readWrite)

        #expect(try pad.effectCapacity() == 4)
        #expect(try pad.capabilities(ofEventType: UInt16(EV_FF)) == [UInt16(FF_RUMBLE)])

        var effect = rawRumble(strong: 0x8000, weak: 0x4000)
        try pad.uploadEffect(&effect)
        #expect(effect.id == 0)  // The kernel assigns the first free slot and writes it back.

        let beforePlay = CHapticsSystem_monotonicNow()
        try pad.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 1)
        let afterPlay = CHapticsSystem_monotonicNow()
        try pad.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 0)
        let afterStop = CHapticsSystem_monotonicNow()
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
        #expect(records[1].timestampNanoseconds >= beforePlay && records[1].timestampNanoseconds <= afterPlay)
        #expect(records[2].timestampNanoseconds >= afterPlay && records[2].timestampNanoseconds <= afterStop)
        #expect(records.map(\.timestampNanoseconds) == records.map(\.timestampNanoseconds).sorted())
    }
}
