import Synchronization
import Testing
@testable import HapticsAudio
import HapticsSystem
import HapticsTestSupport

/// The way back: every voice the audio thread is done with (played, cancelled, or let go for want
/// of a slot) goes back to the control side through a bounded queue, to be released there.
@Suite struct AudioVoiceReturnTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func aFullWayBackRefusesNewVoicesAndLosesNoneOfTheFinishedOnes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 4 queued, 2 slots: the way back holds 8 (4 + 2, rounded up to a power of two).
        let output = AudioOutput(sink: WAVFileSink(path: folder.path + "/out.wav", timing: .offline(start: start)),
                                 configuration: AudioOutputConfiguration(queueCapacity: 4, maximumVoices: 2))
        try output.open()
        var voice = AudioVoice(stereoSamples: [0.5, 0.5])
        var accepted = 0
        var refused = 0
        func scheduleFour(at instant: MonotonicInstant) {
            for _ in 0..<4 {
                if output.schedule(voice, audibleAt: instant) { accepted += 1 } else { refused += 1 }
            }
        }
        // Holding the lock stands for a control thread busy releasing: nothing is drained meanwhile.
        output.retireLock.withLock { _ in
            scheduleFour(at: start.advanced(by: 60_000_000_000))
            output.process()                // 2 wait for their instant, 2 find no slot: 2 on the way back
            #expect(output.cancelAll())
            output.process()                // the 2 waiting are cancelled: 4 on the way back
            scheduleFour(at: start)
            output.process()                // 2 play their one frame, 2 find no slot: 8, the way back is full
            #expect(output.heldVoiceCount == 8)
            scheduleFour(at: start)         // refused: a finished voice would find no room
            output.process()
            scheduleFour(at: start)
            output.process()
            #expect(output.heldVoiceCount == 8)
        }
        #expect(accepted == 8)
        #expect(refused == 8)
        let statistics = output.statistics
        #expect(statistics.scheduled == 8)
        #expect(statistics.completed == 2)
        #expect(statistics.cancelled == 2)
        #expect(statistics.dropped == refused + 4)
        // Every accepted voice came back: played, cancelled or let go for want of a slot.
        #expect(statistics.scheduled == statistics.completed + statistics.cancelled + (statistics.dropped - refused))

        // Once a control-side call releases them, voices are accepted again.
        #expect(output.schedule(voice, audibleAt: start))
        #expect(output.heldVoiceCount == 1)
        output.process()
        output.stop()
        #expect(output.statistics.completed == 3)
        #expect(output.heldVoiceCount == 0)
        #expect(isKnownUniquelyReferenced(&voice))
    }

    @Test func voicesFromManyThreadsAreAllReleasedWhileTheAudioThreadRuns() throws {
        // 64-frame periods (1.3 ms), voices of 32 frames, 2 slots: most voices are let go for want
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
        let letGo = statistics.dropped - refused.load(ordering: .relaxed)
        #expect(statistics.scheduled == statistics.completed + statistics.cancelled + letGo)
        #expect(isKnownUniquelyReferenced(&voice))
    }
}
