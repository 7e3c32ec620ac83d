import HapticsAudio
import HapticsPatterns
import HapticsSystem
import HapticsTestSupport
import Synchronization
import Testing
@testable import HapticsVoiceCoils

/// A card that takes every period at once and counts how often it is opened and closed, with
/// readings that place frame `p` at `origin + p / rate` of its current opening.
final class CountingCard: AudioSink, @unchecked Sendable {
    let format = AudioStreamFormat(sampleRate: 48_000, periodFrames: 48, periodCount: 3, sampleFormat: .signed16, channelCount: 4)
    private let state = OrderedMutex<(opens: Int, closes: Int, written: Int64, origin: MonotonicInstant, loudFramesByOpening: [Int])>(
        (0, 0, 0, .now, []))

    func open() throws(AudioSinkError) -> AudioTimestamp? {
        state.withLock { state in
            state.opens += 1
            state.written = 0
            state.origin = .now
            state.loudFramesByOpening.append(0)
            return AudioTimestamp(framesWritten: 0, delayFrames: 0, instant: state.origin)
        }
    }

    func write(_ period: UnsafePointer<Float>) -> AudioSinkWrite {
        state.withLock { state in
            for frame in 0..<format.periodFrames where period[4 * frame + 2] != 0 {
                state.loudFramesByOpening[state.loudFramesByOpening.count - 1] += 1
            }
            state.written += Int64(format.periodFrames)
            return AudioSinkWrite(status: .written, timestamp: AudioTimestamp(
                framesWritten: state.written, delayFrames: 0, instant: state.origin + .nanoseconds(state.written * 1_000_000_000 / 48_000)))
        }
    }

    func close() {
        state.withLock { $0.closes += 1 }
    }

    var counts: (opens: Int, closes: Int, loudFramesByOpening: [Int]) {
        state.withLock { ($0.opens, $0.closes, $0.loudFramesByOpening) }
    }
}

@Suite("USB HD haptics stream: idle suspension")
struct USBHapticsSuspensionTests {
    @Test("after a second of silence the thread closes the card; a play opens it again and plays, then it closes again")
    func suspendsAndResumes() throws {
        let card = CountingCard()
        let stream = USBHapticsStream(sink: card, device: "counting")
        try stream.start()
        defer { stream.close() }
        waitUntil { stream.isSuspended }
        #expect(stream.isSuspended)
        #expect(card.counts.opens == 1 && card.counts.closes == 1)
        let written = stream.periods
        // 1 s of frames and the card's buffer, with nothing to play.
        #expect(written >= 48_000 / 48 + 3 && written <= 48_000 / 48 + 3 + 1)

        // Asleep: no period is written until something comes.
        SystemMonotonicClock.sleep(until: .now + .milliseconds(50))
        #expect(stream.periods == written)

        stream.play(Pattern(events: [PatternEvent(kind: .hapticTransient, time: 0)]))
        waitUntil { card.counts.closes == 2 }
        let counts = card.counts
        #expect(counts.opens == 2 && counts.closes == 2)
        // The transient (3 cycles at 155 Hz: 929 frames at 48 kHz) played in the second opening.
        #expect(counts.loudFramesByOpening.first == 0)
        #expect((counts.loudFramesByOpening.last ?? 0) > 800)
        #expect(stream.isSuspended)
    }

    @Test("a fed block wakes a suspended stream")
    func feedWakes() throws {
        let card = CountingCard()
        let stream = USBHapticsStream(sink: card, device: "counting")
        try stream.start()
        defer { stream.close() }
        waitUntil { stream.isSuspended }
        let block = [Float](repeating: 0.5, count: 480)
        _ = block.withUnsafeBufferPointer { stream.feed($0, at: .now + .milliseconds(20)) }
        waitUntil { card.counts.opens == 2 }
        #expect(card.counts.opens == 2)
        waitUntil { card.counts.closes == 2 }
        #expect((card.counts.loudFramesByOpening.last ?? 0) > 0)
    }
}
