import HapticsAudio
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Testing
@testable import Haptics

@Suite("Loop passes repeat the sound on the haptics' timeline")
struct SoundLoopTests {
    /// A fixture with `loop.ahap`: a 0.1 s rumble, a half-strength tap at 0.15 s, and at time 0 a
    /// 10 ms click at 0.5 (16 384 in the WAV file the output writes). On the generic rumble profile
    /// (20 ms ticks, 60 ms rise time and minimum pulse) the program lasts 220 ms: rumble at 0, stop
    /// at 100 ms, tap at 160 ms, final stop at 220 ms.
    func loopFixture() throws -> (SoundFixture, String) {
        let fixture = try SoundFixture()
        try fixture.folder.write(WAVWriter.encode(samples: Array(repeating: 16_384, count: 2 * 480),
                                                  sampleRate: 48_000, channelCount: 2), to: "loop/click.wav")
        try fixture.folder.write(Array("""
            {"Version": 1.0, "Pattern": [
              {"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.1,
                         "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0}]}},
              {"Event": {"Time": 0.15, "EventType": "HapticTransient",
                         "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}]}},
              {"Event": {"Time": 0.0, "EventType": "AudioCustom", "EventWaveformPath": "click.wav",
                         "EventParameters": [{"ParameterID": "AudioVolume", "ParameterValue": 1.0}]}}
            ]}
            """.utf8), to: "loop/loop.ahap")
        return (fixture, fixture.folder.path + "/loop/loop.ahap")
    }

    /// Runs the engine for `nanoseconds` like its housekeeping timer would: processing every
    /// millisecond and housekeeping every `housekeepingInterval` (50 ms).
    func drive(_ fixture: SoundFixture, for nanoseconds: Int64) {
        var left = nanoseconds
        while left > 0 {
            let step = min(left, 50_000_000)
            fixture.haptics.run(for: step)
            fixture.engine.performHousekeeping()
            left -= step
        }
    }

    /// The WAV frames of clicks heard at `starts` (nanoseconds after the fixture's origin).
    func clicks(at starts: [Int64]) -> [Range<Int>] {
        starts.map { start in
            let frame = Int(start * 48_000 / 1_000_000_000)
            return frame..<(frame + 480)
        }
    }

    /// The runs of frames that are not silent in the rendered WAV file's left channel.
    func heardRuns(_ fixture: SoundFixture) throws -> [Range<Int>] {
        let left = try fixture.renderedLeft()
        var runs: [Range<Int>] = []
        for index in left.indices where left[index] != 0 {
            if let last = runs.last, last.upperBound == index {
                runs[runs.count - 1] = last.lowerBound..<(index + 1)
            } else {
                runs.append(index..<(index + 1))
            }
        }
        return runs
    }

    /// When the device got the first command of the program again: the start of each pass.
    func passStarts(_ fixture: SoundFixture, _ program: Program) -> [Int64] {
        fixture.haptics.received(since: fixture.origin).filter { $0.1 == program.commands[0].command }.map(\.0)
    }

    /// What the device gets from a player started at `start` that loops `passes` times: every
    /// command but the final stop, pass after pass `length` apart, then the final stop.
    func looped(_ program: Program, start: Int64, length: Int64, passes: Int) -> [(Int64, ActuatorCommand)] {
        (0..<passes).flatMap { pass in
            program.commands.dropLast().map { (start + Int64(pass) * length + $0.offsetNanoseconds, $0.command) }
        } + [(start + Int64(passes) * length, .stop)]
    }

    @Test("the loop length is the program duration the scheduler wraps at, lead time aside")
    func loopLength() throws {
        let (fixture, path) = try loopFixture()
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        let program = try #require(player.programs.first)
        #expect(program.loopLength == .nanoseconds(program.durationNanoseconds))
        #expect(program.durationNanoseconds == 220_000_000)
        #expect(program.leadTimeNanoseconds == 60_000_000)
        #expect(program.commands.map(\.offsetNanoseconds) == [0, 100_000_000, 160_000_000, 220_000_000])
        let silent = Program(profileName: "x", commands: [TimedCommand(offsetNanoseconds: 0, intensity: 0, sharpness: 0, command: .stop)],
                             durationNanoseconds: 0, leadTimeNanoseconds: 0)
        #expect(silent.loopLength == nil)
    }

    @Test("at a playback rate, pass n begins n × L / rate after the onset and wraps its lead time before")
    func passesAtARate() {
        let onset = MonotonicInstant(nanoseconds: 1_000_000_000)
        var passes = LoopTimeline.Passes(onset: onset, length: .milliseconds(300), leadTime: .milliseconds(60),
                                         scheduled: 0, player: 0)
        #expect((0...2).map { passes.start(of: $0).nanoseconds } == [1_000_000_000, 1_300_000_000, 1_600_000_000])
        passes.rate = 1.5
        #expect((0...2).map { passes.start(of: $0).nanoseconds } == [1_000_000_000, 1_200_000_000, 1_400_000_000])
        #expect(passes.wrap(into: 2).nanoseconds == 1_340_000_000)
        passes.rate = 0.25
        #expect(passes.start(of: 1).nanoseconds == 2_200_000_000)
    }

    @Test("a looping player's sound is heard at onset + n × L for n = 0, 1, 2, as each pass is felt")
    func onsetsOnEveryPass() throws {
        let (fixture, path) = try loopFixture()
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        let program = try #require(player.programs.first)
        let length: Int64 = 220_000_000
        #expect(player.setLooping(true))
        let onset = fixture.origin.advanced(by: 100_000_000)                             // frame 4 800
        #expect(player.start(at: onset) == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: onset),
                                                                     audio: .scheduled(audibleAt: onset)))
        drive(fixture, for: 550_000_000)                        // felt in pass 2: 480 ms to 700 ms
        #expect(player.setLooping(false))
        drive(fixture, for: 400_000_000)
        fixture.renderSound(periods: 200)
        let heard: [Int64] = [100_000_000, 100_000_000 + length, 100_000_000 + 2 * length]
        #expect(try heardRuns(fixture) == clicks(at: heard))
        #expect(clicks(at: heard).map(\.lowerBound) == [4_800, 15_360, 25_920])
        // The device wraps at the same length, one lead time before each pass is heard.
        let received = fixture.haptics.received(since: fixture.origin)
        #expect(same(received, looped(program, start: 40_000_000, length: length, passes: 3)))
        #expect(received.last.map { $0.0 } == 700_000_000)
        #expect(fixture.audio.statistics.scheduled == 3)
        #expect(fixture.audio.statistics.late == 0)
    }

    @Test("after stop no pass is scheduled")
    func stopEndsPasses() throws {
        let (fixture, path) = try loopFixture()
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        player.setLooping(true)
        player.start(at: fixture.origin.advanced(by: 100_000_000))
        drive(fixture, for: 350_000_000)                                        // pass 1 heard at 320 ms
        #expect(fixture.audio.statistics.scheduled == 2)
        #expect(player.stop())
        drive(fixture, for: 600_000_000)
        fixture.renderSound(periods: 200)
        #expect(try heardRuns(fixture) == clicks(at: [100_000_000, 320_000_000]))
        #expect(fixture.audio.statistics.scheduled == 2)
        let received = fixture.haptics.received(since: fixture.origin)
        #expect(received.last.map { $0.0 } == 350_000_000)
        #expect(received.last.map { $0.1 } == .stop)
    }

    @Test("setLooping(false) lets the current pass finish and takes back the pass already queued")
    func loopingOffEndsAfterCurrentPass() throws {
        let (fixture, path) = try loopFixture()
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        let program = try #require(player.programs.first)
        player.setLooping(true)
        player.start(at: fixture.origin.advanced(by: 100_000_000))
        drive(fixture, for: 450_000_000)                   // pass 1 heard at 320 ms; pass 2 (540 ms) queued
        #expect(fixture.audio.statistics.scheduled == 3)
        #expect(player.setLooping(false))                       // at 450 ms: before pass 2's wrap at 480 ms
        drive(fixture, for: 600_000_000)
        fixture.renderSound(periods: 200)
        #expect(try heardRuns(fixture) == clicks(at: [100_000_000, 320_000_000]))
        #expect(fixture.audio.statistics.scheduled == 3)
        #expect(fixture.audio.statistics.cancelled == 1)
        #expect(same(fixture.haptics.received(since: fixture.origin),
                     looped(program, start: 40_000_000, length: 220_000_000, passes: 2)))
    }

    @Test("a rate change ends the repetition: the haptics loop on, the sound plays the passes begun")
    func rateChangeEndsPasses() throws {
        let (fixture, path) = try loopFixture()
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        let program = try #require(player.programs.first)
        player.setLooping(true)
        player.start(at: fixture.origin.advanced(by: 100_000_000))
        drive(fixture, for: 250_000_000)                                        // pass 1 (320 ms) queued
        #expect(fixture.audio.statistics.scheduled == 2)
        #expect(try player.setPlaybackRate(2))                                                  // at 250 ms
        drive(fixture, for: 400_000_000)
        // Started at rate 2: the sound plays once, the haptics loop.
        player.start(at: fixture.origin.advanced(by: 800_000_000))
        drive(fixture, for: 400_000_000)
        fixture.renderSound(periods: 250)
        #expect(try heardRuns(fixture) == clicks(at: [100_000_000, 800_000_000]))
        #expect(fixture.audio.statistics.scheduled == 3)
        // At rate 2 the 10 ms left of pass 0 at 250 ms take 5 ms, and each pass after it 110 ms.
        let rumble = program.commands[0].command
        let passStarts = fixture.haptics.received(since: fixture.origin).filter { $0.1 == rumble }.map(\.0)
        #expect(Array(passStarts.prefix(4)) == [40_000_000, 255_000_000, 365_000_000, 475_000_000])
    }

    @Test("a pass too close to be heard on time when housekeeping comes late is skipped, not played late")
    func lateHousekeepingSkipsPass() throws {
        let (fixture, path) = try loopFixture()
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        player.setLooping(true)
        player.start(at: fixture.origin.advanced(by: 100_000_000))
        fixture.haptics.run(for: 318_000_000)                  // no housekeeping until 2 ms before pass 1
        fixture.engine.performHousekeeping()
        drive(fixture, for: 200_000_000)                                        // pass 2 queued at 468 ms
        player.setLooping(false)                                                // at 518 ms
        drive(fixture, for: 400_000_000)
        fixture.renderSound(periods: 200)
        #expect(try heardRuns(fixture) == clicks(at: [100_000_000, 540_000_000]))
        #expect(fixture.audio.statistics.scheduled == 2)
        #expect(fixture.audio.statistics.late == 0)
    }

    @Test("while the sound is muted no pass is scheduled; the passes after it are, on the same timeline")
    func mutedPassesAreSkipped() throws {
        let (fixture, path) = try loopFixture()
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        player.setLooping(true)
        player.start(at: fixture.origin.advanced(by: 100_000_000))
        drive(fixture, for: 200_000_000)
        fixture.engine.isAudioMuted = true                                      // pass 1 (320 ms) muted
        drive(fixture, for: 150_000_000)
        fixture.engine.isAudioMuted = false
        drive(fixture, for: 200_000_000)                                        // pass 2 queued at 450 ms
        player.setLooping(false)                                                // at 550 ms
        drive(fixture, for: 400_000_000)
        fixture.renderSound(periods: 200)
        #expect(try heardRuns(fixture) == clicks(at: [100_000_000, 540_000_000]))
        #expect(fixture.audio.statistics.scheduled == 2)
    }
}
