import HapticsAudio
import HapticsPatterns
import HapticsSystem
import Testing
@testable import HapticsVoiceCoils

/// A sink standing for the pad's sound card: keeps every frame written, and says position 0 is
/// audible at `origin`, each later frame 1/48,000 s after it, as a device with no delay would —
/// or, from its `jump.write`th write on, `jump.frames` frames later (its pointer wrapped unseen
/// during a stall: no underrun).
final class RecordingCard: AudioSink, @unchecked Sendable {
    let format = AudioStreamFormat(sampleRate: 48_000, periodFrames: 48, periodCount: 3, sampleFormat: .signed16, channelCount: 4)
    let origin: MonotonicInstant
    let jump: (write: Int, frames: Int64)?
    var frames: [Float] = []
    var isOpen = false

    init(origin: MonotonicInstant, jump: (write: Int, frames: Int64)? = nil) {
        self.origin = origin
        self.jump = jump
    }

    func open() throws(AudioSinkError) -> AudioTimestamp? {
        isOpen = true
        return AudioTimestamp(framesWritten: 0, delayFrames: 0, instant: origin)
    }

    func write(_ period: UnsafePointer<Float>) -> AudioSinkWrite {
        frames.append(contentsOf: UnsafeBufferPointer(start: period, count: 4 * format.periodFrames))
        let written = Int64(frames.count / 4)
        let later = jump.map { written / 48 >= $0.write ? $0.frames : 0 } ?? 0
        return AudioSinkWrite(status: .written, timestamp: AudioTimestamp(
            framesWritten: written, delayFrames: 0, instant: origin + .nanoseconds((written + later) * 1_000_000_000 / 48_000)))
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

    /// The pattern played at `instant` for `periods` periods on a card whose position jumps 1 536
    /// frames (32 ms) later from its 20th write on (frame 960): the frame its first sample landed
    /// on, after checking that it sounded whole there and nothing else did, and the jumps counted.
    func playAcrossAJump(at instant: MonotonicInstant, periods: Int) throws -> (firstFrame: Int, jumps: Int) {
        let card = RecordingCard(origin: origin, jump: (write: 20, frames: 1_536))
        let stream = USBHapticsStream(sink: card, device: "recording")
        try stream.open()
        defer { stream.close() }
        stream.play(pattern, at: instant)
        for _ in 0..<periods { stream.process() }
        #expect(stream.underruns == 0)
        let left = card.channel(2)
        let burst = rendered()
        let first = try #require(left.firstIndex { $0 != 0 }) - burst.firstIndex { $0 != 0 }!
        try #require(first + burst.count <= left.count, "the pattern from frame \(first) runs past the \(left.count) frames written")
        #expect(Array(left[first..<(first + burst.count)]) == burst)
        #expect(left[..<first].allSatisfy { $0 == 0 } && left[(first + burst.count)...].allSatisfy { $0 == 0 })
        return (first, stream.timingJumps)
    }

    @Test("a pattern not yet sounding when the card's position jumps is placed again by the new timing")
    func placedAgainAfterAJump() throws {
        // Placed at frame 4 800 (100 ms) by the first period; after the jump the instant is frame
        // 3 264 — not 4 800, a jump late.
        let played = try playAcrossAJump(at: origin + .milliseconds(100), periods: 120)
        #expect(played.firstFrame == 3_264 && played.jumps == 1)
    }

    @Test("a pattern sounding when the card's position jumps plays on, not started again")
    func soundingPlaysOnAcrossAJump() throws {
        // Frame 600 on; the jump comes at frame 960, 360 frames into it.
        let played = try playAcrossAJump(at: origin + .microseconds(12_500), periods: 50)
        #expect(played.firstFrame == 600 && played.jumps == 1)
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

/// The USB stream on a card that takes rewinds, its buffer of 16 periods kept full: a handover
/// takes back what the card has not taken, all but the margin, and writes it again.
@Suite("USB HD haptics stream, rewinding")
struct USBHapticsStreamRewindTests {
    let origin = MonotonicInstant(nanoseconds: 5_000_000_000)
    let pattern = Pattern(events: [
        PatternEvent(kind: .hapticTransient, time: 0, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 1)),
    ])
    let long = Pattern(events: [PatternEvent(kind: .hapticContinuous, time: 0, duration: 1, parameters: EventParameters(hapticIntensity: 1))])

    func rendered(_ pattern: Pattern, frames: Int? = nil) -> [Float] {
        var renderer = WaveformRenderer(pattern, sampleRate: 48_000)
        var samples = [Float](repeating: 0, count: frames ?? Int(renderer.frameCount))
        samples.withUnsafeMutableBufferPointer { renderer.render(from: 0, into: $0) }
        return samples
    }

    /// A stream on a 16-period card, run for 40 periods: frames 0..<1920 written, 0..<1152 taken.
    func runningStream() throws -> (RewindingCard, USBHapticsStream) {
        let card = RewindingCard(origin: origin, periodCount: 16)
        let stream = USBHapticsStream(sink: card, device: "rewinding", now: { card.now })
        try stream.open()
        for _ in 0..<40 { stream.process() }
        #expect(card.applicationPointer == 1_920 && card.hardwarePointer == 1_152)
        return (card, stream)
    }

    @Test("the card model: rewindable frames are those not taken, a rewind stops there, a write replaces them")
    func cardModel() throws {
        let card = RewindingCard(origin: origin, periodCount: 2)
        _ = try card.open()
        let periods: [[Float]] = (1...4).map { value in (0..<192).map { Float(value) + Float($0 % 4) / 10 } }
        for period in periods[..<2] { _ = card.write(period) }
        #expect(card.rewindable() == 96 && card.played.isEmpty)
        _ = card.write(periods[2])  // full: the device takes the first period
        #expect(card.played == periods[0])
        #expect(card.rewind(200) == 96 && card.rewindable() == 0)
        _ = card.write(periods[3])  // in place of periods[1]
        let reading = card.write(periods[3])
        card.take(96)
        #expect(card.played == periods[0] + periods[3] + periods[3])
        #expect(reading.timestamp == AudioTimestamp(framesWritten: 144, delayFrames: 96, instant: origin + .microseconds(1_000)))
    }

    @Test("a play now on a full buffer starts 48 frames (1 ms) past the card's position, not after its buffer")
    func playNowRewinds() throws {
        let (card, stream) = try runningStream()
        stream.play(pattern, at: origin)
        for _ in 0..<40 { stream.process() }
        card.take(.max)
        let expected = [Float](repeating: 0, count: 1_200) + rendered(pattern)
        let left = card.channel(2)
        #expect(Array(left[..<expected.count]) == expected)
        #expect(left[expected.count...].allSatisfy { $0 == 0 })
        #expect(card.channel(3) == left)
        #expect(card.channel(0).allSatisfy { $0 == 0 } && card.channel(1).allSatisfy { $0 == 0 })
        // 720 frames taken back, written again as 15 periods by the first process() after the play.
        #expect(stream.rewoundFrames == 720)
        #expect(left.count == 1_200 + (15 + 39) * 48 && stream.periods == 40 + 15 + 39)
    }

    @Test("a play at an instant written already starts on its frame: the clock holds across the rewind")
    func playWrittenInstant() throws {
        let (card, stream) = try runningStream()
        stream.play(pattern, at: origin + .microseconds(31_250))  // frame 1500
        for _ in 0..<40 { stream.process() }
        stream.play(pattern, at: origin + .microseconds(80_000))  // frame 3840, not written yet
        for _ in 0..<60 { stream.process() }
        card.take(.max)
        let burst = rendered(pattern)
        var expected = [Float](repeating: 0, count: 3_840 + burst.count)
        expected.replaceSubrange(1_500..<(1_500 + burst.count), with: burst)
        expected.replaceSubrange(3_840..., with: burst)
        let left = card.channel(2)
        #expect(Array(left[..<expected.count]) == expected)
        #expect(left[expected.count...].allSatisfy { $0 == 0 })
    }

    @Test("a card that moved on while the first periods were rendered is rewound only to a period still ahead of it")
    func cardMovedMeanwhile() throws {
        let (card, stream) = try runningStream()
        // The handover reads the card twice: before rendering (position 1152) and before the
        // rewind, when it has taken 96 frames more (1248): the rewind starts at 1296, the first
        // rendered period at least 48 frames past it, and the pattern placed at 1200 loses 96 frames.
        card.takesBeforeReading = [2: 96]
        stream.play(pattern, at: origin)
        for _ in 0..<40 { stream.process() }
        card.take(.max)
        let burst = rendered(pattern)
        let left = card.channel(2)
        #expect(left[..<1_296].allSatisfy { $0 == 0 })
        #expect(Array(left[1_296..<(1_200 + burst.count)]) == Array(burst[96...]))
        #expect(left[(1_200 + burst.count)...].allSatisfy { $0 == 0 })
        #expect(stream.rewoundFrames == 1_920 - 1_296)
    }

    @Test("a stop on a full buffer silences from 48 frames (1 ms) past the card's position")
    func stopRewinds() throws {
        let card = RewindingCard(origin: origin, periodCount: 16)
        let stream = USBHapticsStream(sink: card, device: "rewinding", now: { card.now })
        try stream.open()
        stream.play(long, at: origin)
        for _ in 0..<40 { stream.process() }
        stream.stop()
        for _ in 0..<20 { stream.process() }
        card.take(.max)
        let left = card.channel(2)
        #expect(Array(left[..<1_200]) == rendered(long, frames: 1_200))
        #expect(left[1_200...].allSatisfy { $0 == 0 })
        #expect(left.count == 1_200 + (15 + 19) * 48)
    }
}
