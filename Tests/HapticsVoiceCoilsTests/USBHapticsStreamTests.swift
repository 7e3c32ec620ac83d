import HapticsAudio
import HapticsPatterns
import HapticsSystem
import Testing
@testable import HapticsVoiceCoils

/// A sink standing for the pad's sound card: keeps every frame written, and says position 0 is
/// audible at `origin`, each later frame 1/48,000 s after it, as a device with no delay would.
final class RecordingCard: AudioSink, @unchecked Sendable {
    let format = AudioStreamFormat(sampleRate: 48_000, periodFrames: 48, periodCount: 3, sampleFormat: .signed16, channelCount: 4)
    let origin: MonotonicInstant
    var frames: [Float] = []
    var isOpen = false

    init(origin: MonotonicInstant) { self.origin = origin }

    func open() throws(AudioSinkError) -> AudioTimestamp? {
        isOpen = true
        return AudioTimestamp(framesWritten: 0, delayFrames: 0, instant: origin)
    }

    func write(_ period: UnsafePointer<Float>) -> AudioSinkWrite {
        frames.append(contentsOf: UnsafeBufferPointer(start: period, count: 4 * format.periodFrames))
        let written = Int64(frames.count / 4)
        return AudioSinkWrite(status: .written, timestamp: AudioTimestamp(
            framesWritten: written, delayFrames: 0, instant: origin + .nanoseconds(written * 1_000_000_000 / 48_000)))
    }

    func close() { isOpen = false }

    /// Channel `channel` of every frame written.
    func channel(_ channel: Int) -> [Float] { stride(from: channel, to: frames.count, by: 4).map { frames[$0] } }
}

/// The USB stream on a recording card: where a pattern's frames land on channels 2–3, silence elsewhere.
@Suite("USB HD haptics stream")
struct USBHapticsStreamTests {
    let pattern = Pattern(events: [
        PatternEvent(kind: .hapticTransient, time: 0, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 1)),
        PatternEvent(kind: .hapticContinuous, time: 0.02, duration: 0.01, parameters: EventParameters(hapticSharpness: 0)),
    ])

    /// The pattern rendered in one go at 48 kHz.
    func rendered() -> [Float] {
        var renderer = WaveformRenderer(pattern, sampleRate: 48_000)
        var samples = [Float](repeating: 0, count: Int(renderer.frameCount))
        samples.withUnsafeMutableBufferPointer { renderer.render(from: 0, into: $0) }
        return samples
    }

    let origin = MonotonicInstant(nanoseconds: 5_000_000_000)

    /// A stream open on a recording card whose position 0 is audible at `origin`.
    func openStream() throws -> (RecordingCard, USBHapticsStream) {
        let card = RecordingCard(origin: origin)
        let stream = USBHapticsStream(sink: card, device: "recording")
        try stream.open()
        return (card, stream)
    }

    @Test("a pattern starts on the frame audible at its instant, on channels 2 and 3 only, and ends")
    func placesPattern() throws {
        let (card, stream) = try openStream()
        // 12.5 ms after position 0: frame 600.
        stream.play(pattern, at: origin + .microseconds(12_500))
        for _ in 0..<50 { stream.process() }
        let expected = [Float](repeating: 0, count: 600) + rendered()
        let left = card.channel(2)
        #expect(left.count == 2_400)
        #expect(Array(left[..<expected.count]) == expected)
        #expect(left[expected.count...].allSatisfy { $0 == 0 })
        #expect(card.channel(3) == left)
        #expect(card.channel(0).allSatisfy { $0 == 0 } && card.channel(1).allSatisfy { $0 == 0 })
        #expect(stream.periods == 50)
        stream.close()
        #expect(!card.isOpen)
    }

    @Test("a pattern whose instant has passed starts with the next period; stop silences the next one")
    func lateAndStop() throws {
        let (card, stream) = try openStream()
        for _ in 0..<3 { stream.process() }
        stream.play(pattern, at: origin)
        stream.process()
        stream.process()
        stream.stop()
        for _ in 0..<3 { stream.process() }
        let left = card.channel(2)
        #expect(left[..<144].allSatisfy { $0 == 0 })
        #expect(Array(left[144..<240]) == Array(rendered()[..<96]))
        #expect(left[240...].allSatisfy { $0 == 0 })
        stream.close()
    }
}
