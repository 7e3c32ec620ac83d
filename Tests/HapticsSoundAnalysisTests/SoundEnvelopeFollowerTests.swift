#if canImport(Glibc)
import Glibc
#endif
import HapticsSystem
import Testing
@testable import HapticsSoundAnalysis

@Suite struct SoundEnvelopeFollowerTests {
    static let rate = 48_000
    static let start = MonotonicInstant(nanoseconds: 5_000_000_000)

    /// Every frame the follower emits for `samples` fed in blocks of `blockSizes` (cycled).
    static func follow(_ samples: [Float], channels: Int = 1, blockSizes: [Int] = [256],
                       options: SoundEnvelopeFollower.Options = .init()) throws -> [MotorLevelFrame] {
        var follower = try SoundEnvelopeFollower(sampleRate: rate, channelCount: channels, options: options)
        var frames: [MotorLevelFrame] = []
        var position = 0
        var block = 0
        while position < samples.count {
            let count = min(blockSizes[block % blockSizes.count] * channels, samples.count - position)
            let time = start.advanced(by: Int64(position / channels) * 1_000_000_000 / Int64(rate))
            samples[position..<position + count].withUnsafeBufferPointer { buffer in
                follower.process(buffer, presentationTime: time) { frames.append($0) }
            }
            position += count
            block += 1
        }
        return frames
    }

    static func tone(_ frequency: Double, from: Int, count: Int, total: Int, amplitude: Double = 0.5) -> [Float] {
        (0..<total).map { index in
            guard index >= from && index < from + count else { return 0 }
            return Float(amplitude * sin(2 * Double.pi * frequency * Double(index - from) / Double(rate)))
        }
    }

    @Test func framesComeEveryControlIntervalOnTheSoundsClock() throws {
        // Blocks of 10 ms, whose presentation times are whole nanoseconds.
        let frames = try Self.follow([Float](repeating: 0, count: 4_800), blockSizes: [480])
        // 0.1 s at one frame per 2 ms (96 samples).
        #expect(frames.count == 50)
        #expect(frames.map(\.time) == (0..<50).map { Self.start.advanced(by: Int64($0) * 2_000_000) })
        #expect(frames.allSatisfy { $0.strong == 0 && $0.weak == 0 })
    }

    @Test func blocksOfAnySizeGiveTheSameFrames() throws {
        let high = Self.tone(2_500, from: 3_000, count: 3_000, total: 12_000)
        let sound = zip(Self.tone(80, from: 1_000, count: 6_000, total: 12_000), high).map { $0 + $1 }
        let whole = try Self.follow(sound, blockSizes: [12_000])
        let pieces = try Self.follow(sound, blockSizes: [1, 37, 480, 96, 5])
        #expect(whole.count == 125)
        try #require(whole.count == pieces.count)
        for (one, other) in zip(whole, pieces) {
            // The same levels; the instants agree to the nanosecond a block's start was rounded to.
            #expect(one.strong == other.strong && one.weak == other.weak)
            #expect(abs(one.time.nanoseconds - other.time.nanoseconds) <= 1)
        }
    }

    @Test func lowSoundDrivesTheStrongMotorAndHighSoundTheWeak() throws {
        let low = try Self.follow(Self.tone(60, from: 0, count: 24_000, total: 24_000))
        let high = try Self.follow(Self.tone(2_000, from: 0, count: 24_000, total: 24_000))
        let settledLow = try #require(low.last)
        let settledHigh = try #require(high.last)
        // A 0.5 sine is −6 dBFS: 0.875; the other band is more than 18 dB down.
        #expect(abs(settledLow.strong - 0.875) < 0.03, "\(settledLow)")
        #expect(settledLow.weak < settledLow.strong - 0.375, "\(settledLow)")
        #expect(abs(settledHigh.weak - 0.875) < 0.03, "\(settledHigh)")
        #expect(settledHigh.strong < settledHigh.weak - 0.375, "\(settledHigh)")
    }

    @Test(arguments: [0, 17, 95, 96, 191])
    func aStepIsReportedWithinFiveMilliseconds(offset: Int) throws {
        // Silence, then a 100 Hz tone from 0.05 s + offset samples.
        let stepSample = 2_400 + offset
        let frames = try Self.follow(Self.tone(100, from: stepSample, count: 24_000, total: 28_800), blockSizes: [128])
        let final = try #require(frames.last).strong
        let heard = Self.start.advanced(by: Int64(stepSample) * 1_000_000_000 / Int64(Self.rate))
        let reached = try #require(frames.first { $0.strong >= 0.9 * final })
        #expect(heard.span(to: reached.time) <= .milliseconds(5), "\(heard.span(to: reached.time))")
        #expect(heard.span(to: reached.time) >= .zero)
    }

    @Test func theEnvelopeFallsWithTheReleaseAfterTheSoundStops() throws {
        let frames = try Self.follow(Self.tone(100, from: 0, count: 4_800, total: 24_000))
        let stopped = Self.start.advanced(by: 100_000_000)
        let after = frames.filter { $0.time > stopped }
        for (earlier, later) in zip(after, after.dropFirst()) { #expect(later.strong <= earlier.strong) }
        // 0.06 s time constant: 8.7 dB per 60 ms; from −6 dBFS to −48 dBFS in about 0.29 s.
        #expect(try #require(frames.first { $0.time >= stopped.advanced(by: 60_000_000) }).strong > 0.6)
        #expect(try #require(frames.last).strong == 0)
    }

    @Test func stereoIsMixed() throws {
        let mono = Self.tone(80, from: 0, count: 9_600, total: 9_600)
        let stereo = mono.flatMap { [$0, $0] }
        #expect(try Self.follow(stereo, channels: 2) == Self.follow(mono))
    }

    @Test func optionsOutsideTheirRangeAreRefusedByName() {
        var options = SoundEnvelopeFollower.Options()
        options.attack = 0.2
        let attack = #expect(throws: SoundAnalysisError.self) { try SoundEnvelopeFollower(sampleRate: 48_000, channelCount: 1, options: options) }
        #expect(attack?.description == "attack 0.2 is outside 0.0001…0.05")
        let channels = #expect(throws: SoundAnalysisError.self) { try SoundEnvelopeFollower(sampleRate: 48_000, channelCount: 3) }
        #expect(channels?.description == "channel count 3 is outside 1…2")
        let rate = #expect(throws: SoundAnalysisError.self) { try SoundEnvelopeFollower(sampleRate: 1_000, channelCount: 1) }
        #expect(rate?.description == "sample rate 1000 is outside 4000…384000")
    }
}
