import Synchronization
import Testing
@testable import HapticsAudio
import HapticsSystem
import HapticsTestSupport

/// The way back: every voice the audio thread is done with (played or cancelled) goes back to the
/// control side through a bounded queue, to be released there; until then it holds its voice slot.
@Suite struct AudioVoiceReturnTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func aFinishedVoiceHoldsItsSlotUntilReleasedAndNoneIsLost() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = AudioOutput(sink: WAVFileSink(path: folder.path + "/out.wav", timing: .offline(start: start)),
                                 configuration: AudioOutputConfiguration(queueCapacity: 4, maximumVoices: 2))
        try output.open()
        var voice = AudioVoice(stereoSamples: [0.5, 0.5])
        var refusals: [AudioVoiceRefusal] = []
        func scheduleFour(at instant: MonotonicInstant) {
            for _ in 0..<4 {
                do {
                    try output.enqueue(voice, audibleAt: instant)
                } catch {
                    refusals.append(error)
                }
            }
        }
        // Holding the lock stands for a control thread busy releasing: nothing is drained meanwhile.
        output.retireLock.withLock { _ in
            scheduleFour(at: start.advanced(by: 60_000_000_000))
            #expect(refusals == [.noVoiceSlot, .noVoiceSlot])   // 2 slots: 2 wait for their instant
            output.process()
            #expect(output.cancelAll())
            output.process()                // the 2 waiting are cancelled, on the way back
            #expect(output.heldVoiceCount == 2)
            scheduleFour(at: start)         // not yet released: their slots are still held
            #expect(refusals.count == 6)
        }
        // A control-side call releases them first: voices are accepted again.
        refusals = []
        scheduleFour(at: start)
        #expect(refusals == [.noVoiceSlot, .noVoiceSlot])
        output.process()                    // both play their one frame
        output.stop()
        let statistics = output.statistics
        #expect(statistics.scheduled == 4)
        #expect(statistics.dropped == 8)
        #expect(statistics.noVoiceSlot == 8)
        // Every accepted voice came back: played or cancelled.
        #expect(statistics.completed == 2)
        #expect(statistics.cancelled == 2)
        // Late (the offline stream had moved on), never let go.
        #expect(output.drainEvents() == [.voiceLate(lateness: .nanoseconds(10_666_666)), .voiceLate(lateness: .nanoseconds(10_666_666))])
        #expect(output.heldVoiceCount == 0)
        #expect(isKnownUniquelyReferenced(&voice))
    }

    @Test func voicesFromManyThreadsAreAllReleasedWhileTheAudioThreadRuns() throws {
        // 64-frame periods (1.3 ms), voices of 32 frames, 2 slots: most voices are refused for want
        // of a slot or cancelled, and come back while others are being scheduled.
        let output = AudioOutput(sink: NullAudioSink(format: AudioStreamFormat(periodFrames: 64), timing: .realtime),
                                 configuration: AudioOutputConfiguration(queueCapacity: 16, maximumVoices: 2))
        var voice = AudioVoice(stereoSamples: Array(repeating: 0.25, count: 2 * 32))
        try output.start()
        let threads = 4
        let perThread = 2_000
        let accepted = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
        do {
            let shared = voice
            runConcurrently(threads) { _ in
                for index in 0..<perThread {
                    // One voice every 50 µs per thread: about 100 ms of overlap, some 75 periods.
                    let now = SystemMonotonicClock().now()
                    while SystemMonotonicClock().now() < now.advanced(by: 50_000) {}
                    if output.schedule(shared, audibleAt: now.advanced(by: Int64(index % 3) * 1_000_000)) {
                        accepted.add(1, ordering: .relaxed)
                    } else {
                        refused.add(1, ordering: .relaxed)
                    }
                    if index % 97 == 0 { _ = output.cancelAll() }
                }
            }
        }
        // Every voice still held comes back within a few periods of 1.3 ms.
        let deadline = SystemMonotonicClock().now().advanced(by: 5_000_000_000)
        while output.heldVoiceCount > 0, SystemMonotonicClock().now() < deadline {
            _ = output.drainEvents()
        }
        #expect(output.heldVoiceCount == 0)
        output.stop()
        let statistics = output.statistics
        #expect(accepted.load(ordering: .relaxed) + refused.load(ordering: .relaxed) == threads * perThread)
        #expect(statistics.scheduled == accepted.load(ordering: .relaxed))
        // Every refusal was said at once; none accepted was let go later.
        #expect(statistics.dropped == refused.load(ordering: .relaxed))
        #expect(statistics.scheduled == statistics.completed + statistics.cancelled)
        #expect(isKnownUniquelyReferenced(&voice))
    }
}
