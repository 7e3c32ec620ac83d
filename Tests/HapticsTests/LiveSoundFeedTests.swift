import HapticsDevices
import HapticsRendering
import HapticsScheduler
import HapticsSoundAnalysis
import HapticsSystem
import HapticsTestSupport
import Glibc
import Testing
@testable import Haptics

/// Live haptics from sound: blocks of the game's audio, followed by `SoundEnvelopeFollower`,
/// drive a pad's motors through the engine's direct levels, each its lead time before it is heard.
@Suite("Live sound feed")
struct LiveSoundFeedTests {
    let ms: Int64 = 1_000_000
    typealias Rig = RumbleTests.Rig

    /// A 10 ms block at 48 kHz, mono: a 50 Hz sine at `amplitude` plus a 3 kHz one at half of it.
    func block(amplitude: Float, frames: Int = 480) -> [Float] {
        (0..<frames).map { index in
            let t = Float(index) / 48_000
            return amplitude * (sin(2 * .pi * 50 * t) + 0.5 * sin(2 * .pi * 3_000 * t))
        }
    }

    /// What a generic rumble pad (lead time 60 ms) is told when the feed's levels are those of a
    /// reference follower run on the same blocks: each change at its instant less the lead, a
    /// stop when both are 0, and a stop one hold (10 ms) after the last level.
    func expected(_ blocks: [[Float]], heardAt first: Int64, t0: Int64, gain: Double = 1, fedAt now: Int64? = nil) throws -> [(Int64, ActuatorCommand)] {
        var follower = try SoundEnvelopeFollower(sampleRate: 48_000, channelCount: 1)
        var frames: [MotorLevelFrame] = []
        var heard = first
        for samples in blocks {
            samples.withUnsafeBufferPointer { follower.process($0, presentationTime: MonotonicInstant(nanoseconds: heard)) { frames.append($0) } }
            heard += Int64(samples.count) * 1_000_000_000 / 48_000
        }
        func q(_ level: Double) -> UInt16 { UInt16((min(max(level * gain, 0), 1) * 65_535).rounded()) }
        // Sent 60 ms before heard, or, fed later than that, from `now` on as spaced as the sound.
        func start(_ frame: MotorLevelFrame) -> Int64 {
            max(frame.time.nanoseconds - 60 * ms, (now ?? 0) + frame.time.nanoseconds - first) - t0
        }
        var commands: [(Int64, ActuatorCommand)] = []
        var last = ActuatorCommand.stop
        for frame in frames {
            let strong = q(frame.strong), weak = q(frame.weak)
            let command: ActuatorCommand = strong == 0 && weak == 0 ? .stop : .rumble(strong: strong, weak: weak)
            if command != last { commands.append((start(frame), command)) }
            last = command
        }
        if last != .stop, let end = frames.last { commands.append((start(end) + 10 * ms, .stop)) }
        return commands
    }

    func same(_ received: [(Int64, ActuatorCommand)], _ expected: [(Int64, ActuatorCommand)]) -> Bool {
        received.count == expected.count && zip(received, expected).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    @Test func eachLevelReachesThePadItsLeadTimeBeforeTheSoundIsHeardAndEndsOneHoldAfterTheLast() throws {
        let rig = Rig()
        let feed = try rig.engine.makeLiveSoundFeed(sampleRate: 48_000, channelCount: 1)
        #expect(feed.holdTime == .milliseconds(10))
        let blocks = [block(amplitude: 0.5), block(amplitude: 0.5), block(amplitude: 0.05)]
        for (index, samples) in blocks.enumerated() {
            let heard = MonotonicInstant(nanoseconds: rig.t0 + 200 * ms + Int64(index) * 10 * ms)
            let outcome = samples.withUnsafeBufferPointer { feed.feed($0, presentationTime: heard) }
            #expect(outcome == .scheduled(feltAt: heard))
        }
        rig.run(until: 1_000 * ms)
        let expected = try expected(blocks, heardAt: rig.t0 + 200 * ms, t0: rig.t0)
        #expect(expected.count > 10)
        #expect(expected.first!.0 == 140 * ms + 2 * ms)
        #expect(same(rig.received, expected), "\(rig.received)")
    }

    @Test func soundHeardSoonerThanTheLeadTimeIsFeltLateByTheDifferenceNotDropped() throws {
        let rig = Rig()
        let feed = try rig.engine.makeLiveSoundFeed(sampleRate: 48_000, channelCount: 1)
        let samples = block(amplitude: 0.5)
        // Heard in 20 ms: 40 ms less than the pad's lead time.
        let heard = MonotonicInstant(nanoseconds: rig.t0 + 20 * ms)
        let felt = MonotonicInstant(nanoseconds: rig.t0 + 60 * ms)
        #expect(samples.withUnsafeBufferPointer { feed.feed($0, presentationTime: heard) } == .scheduled(feltAt: felt))
        rig.run(until: 1_000 * ms)
        let expected = try expected([samples], heardAt: rig.t0 + 20 * ms, t0: rig.t0, fedAt: rig.t0)
        #expect(expected.first!.0 == 2 * ms)
        #expect(same(rig.received, expected), "\(rig.received)")
    }

    @Test func theEngineGainScalesTheLevels() throws {
        let rig = Rig()
        rig.engine.gain = 0.5
        let feed = try rig.engine.makeLiveSoundFeed(sampleRate: 48_000, channelCount: 1)
        let samples = block(amplitude: 0.8)
        samples.withUnsafeBufferPointer { _ = feed.feed($0, presentationTime: MonotonicInstant(nanoseconds: rig.t0 + 100 * ms)) }
        rig.run(until: 1_000 * ms)
        #expect(same(rig.received, try expected([samples], heardAt: rig.t0 + 100 * ms, t0: rig.t0, gain: 0.5)), "\(rig.received)")
    }

    @Test func stopEndsTheLevelsAtTheEndOfTheSoundFedSoFar() throws {
        let rig = Rig()
        let feed = try rig.engine.makeLiveSoundFeed(sampleRate: 48_000, channelCount: 1)
        let samples = block(amplitude: 0.5)
        samples.withUnsafeBufferPointer { _ = feed.feed($0, presentationTime: MonotonicInstant(nanoseconds: rig.t0 + 100 * ms)) }
        feed.stop()
        rig.run(until: 1_000 * ms)
        var expected = try expected([samples], heardAt: rig.t0 + 100 * ms, t0: rig.t0)
        // The last level sent is heard at 108 ms: the stop replaces its hold from then.
        expected[expected.count - 1].0 = 108 * ms - 60 * ms
        #expect(same(rig.received, expected), "\(rig.received)")
    }

    @Test func switchedOffInactiveOrMutedItSendsNothingAndSaysWhy() throws {
        let rig = Rig()
        let feed = try rig.engine.makeLiveSoundFeed(sampleRate: 48_000, channelCount: 2)
        let samples = block(amplitude: 0.5, frames: 960)
        let heard = MonotonicInstant(nanoseconds: rig.t0 + 100 * ms)
        rig.engine.isEnabled = false
        #expect(samples.withUnsafeBufferPointer { feed.feed($0, presentationTime: heard) } == .notPlayed(.disabled))
        rig.engine.isEnabled = true
        rig.engine.isApplicationActive = false
        #expect(samples.withUnsafeBufferPointer { feed.feed($0, presentationTime: heard) } == .notPlayed(.applicationInactive))
        rig.engine.isApplicationActive = true
        rig.engine.gain = 0
        #expect(samples.withUnsafeBufferPointer { feed.feed($0, presentationTime: heard) } == .notPlayed(.muted))
        rig.run(until: 1_000 * ms)
        // Only the stops of switching haptics off and of the app going inactive reach the pad.
        #expect(same(rig.received, [(0, .stop), (0, .stop)]), "\(rig.received)")
    }

    @Test func aFeedOfUnsupportedAudioIsRefusedNamingWhatIsWrong() {
        let rig = Rig()
        #expect(throws: SoundAnalysisError(.invalidOption(name: "channel count", value: 3, range: 1...2))) {
            _ = try rig.engine.makeLiveSoundFeed(sampleRate: 48_000, channelCount: 3)
        }
    }
}
