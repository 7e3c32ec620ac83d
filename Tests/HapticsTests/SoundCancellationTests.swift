import HapticsAudio
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Testing
@testable import Haptics

@Suite("Stopping silences the sound; a cue is as loud as its feedback is strong")
struct SoundCancellationTests {
    /// What a 4-frame fade makes of a steady 0.5 (16 384): frame k at 0.5 × (4 − k) / 5.
    let fade: [Int16] = [13_107, 9_830, 6_553, 3_277]

    /// A fixture whose output fades cancelled voices over 4 frames, with `door.ahap`: a 1 s rumble
    /// and, at its start, a 0.5 s stereo hum at 0.5 (16 384 in the WAV file the output writes).
    func doorFixture() throws -> (SoundFixture, String) {
        let fixture = try SoundFixture(audioConfiguration: AudioOutputConfiguration(fadeOutFrames: 4))
        try fixture.folder.write(WAVWriter.encode(samples: Array(repeating: 16_384, count: 2 * 24_000),
                                                  sampleRate: 48_000, channelCount: 2), to: "door/hum.wav")
        try fixture.folder.write(Array("""
            {"Version": 1.0, "Pattern": [
              {"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 1.0,
                         "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0}]}},
              {"Event": {"Time": 0.0, "EventType": "AudioCustom", "EventWaveformPath": "hum.wav",
                         "EventParameters": [{"ParameterID": "AudioVolume", "ParameterValue": 1.0}]}}
            ]}
            """.utf8), to: "door/door.ahap")
        return (fixture, fixture.folder.path + "/door/door.ahap")
    }

    @Test("a player stopped at t is silent from t plus the fade, and its device gets its stop at t")
    func playerStop() throws {
        let (fixture, path) = try doorFixture()
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        let onset = fixture.origin.advanced(by: 100_000_000)                             // frame 4 800
        #expect(player.start(at: onset) == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: onset),
                                                                     audio: .scheduled(audibleAt: onset)))
        #expect(player.stop(at: fixture.origin.advanced(by: 200_000_000)))               // frame 9 600
        fixture.haptics.run(for: 1_200_000_000)
        fixture.renderSound(periods: 48)
        let received = fixture.haptics.received(since: fixture.origin)
        #expect(received.last.map { $0.0 } == 200_000_000)
        #expect(received.last.map { $0.1 } == .stop)
        let left = try fixture.renderedLeft()
        #expect(Array(left[0..<4_800]) == Array(repeating: 0, count: 4_800))
        #expect(Array(left[4_800..<9_600]) == Array(repeating: 16_384, count: 4_800))
        #expect(Array(left[9_600..<9_604]) == fade)
        #expect(left[9_604...].allSatisfy { $0 == 0 })
        #expect(fixture.audio.statistics.cancelled == 1)
    }

    @Test("seek silences the sound until the next start, which plays it from the pattern's start")
    func playerSeek() throws {
        let (fixture, path) = try doorFixture()
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        player.start(at: fixture.origin.advanced(by: 100_000_000))                        // frame 4 800
        #expect(player.seek(to: .milliseconds(500), at: fixture.origin.advanced(by: 200_000_000)))       // frame 9 600
        player.start(at: fixture.origin.advanced(by: 400_000_000))                        // frame 19 200
        fixture.renderSound(periods: 96)
        let left = try fixture.renderedLeft()
        #expect(Array(left[4_800..<9_600]) == Array(repeating: 16_384, count: 4_800))
        #expect(Array(left[9_600..<9_604]) == fade)
        #expect(left.indices.filter { left[$0] != 0 } == Array(4_800..<9_604) + Array(19_200..<24_576))
    }

    @Test("releasing a player silences its sound like stop")
    func playerReleased() throws {
        let (fixture, path) = try doorFixture()
        defer { fixture.folder.remove() }
        do {
            let player = try fixture.engine.makePlayer(contentsOf: path)
            player.start(at: fixture.origin.advanced(by: 100_000_000))
            fixture.haptics.run(for: 200_000_000)                                         // released at 200 ms
        }
        fixture.renderSound(periods: 48)
        let left = try fixture.renderedLeft()
        #expect(Array(left[9_600..<9_604]) == fade)
        #expect(left.indices.filter { left[$0] != 0 } == Array(4_800..<9_604))
    }

    /// Plays the heavy impact's cue (heard at 60 ms, frame 2 880, for 7 680 frames), runs 100 ms,
    /// applies `interrupt`, and returns the cue's left channel as written and the left channel rendered.
    func interruptedCue(_ interrupt: (HapticEngine) -> Void) throws -> (cue: [Int16], left: [Int16], cancelled: Int) {
        let fixture = try SoundFixture()
        defer { fixture.folder.remove() }
        let onset = fixture.origin.advanced(by: 60_000_000)
        #expect(fixture.engine.play(.impact(.heavy), withSound: true).audio == .scheduled(audibleAt: onset))
        fixture.haptics.run(for: 100_000_000)
        interrupt(fixture.engine)
        fixture.renderSound(periods: 48)
        let cue = SoundFixture.pcm16Left(try #require(SoundCueLibrary.builtin().voice(for: .impact(.heavy))))
        return (cue, try fixture.renderedLeft(), fixture.audio.statistics.cancelled)
    }

    @Test("engine stop and the app going inactive cancel the cue at that instant, fading over 240 frames")
    func engineStopAndInactive() throws {
        for interrupt: (HapticEngine) -> Void in [{ $0.stop() }, { $0.isApplicationActive = false }] {
            let (cue, left, cancelled) = try interruptedCue(interrupt)
            #expect(cue.count == 7_680)
            #expect(Array(left[0..<2_880]) == Array(repeating: 0, count: 2_880))
            #expect(Array(left[2_880..<4_800]) == Array(cue[0..<1_920]))                 // until 100 ms
            #expect((4_800..<5_040).allSatisfy { abs(Int(left[$0])) <= abs(Int(cue[$0 - 2_880])) })
            #expect(left[5_040...].allSatisfy { $0 == 0 })
            #expect(cancelled == 1)
        }
    }

    @Test("switching haptics off leaves sound already scheduled to play out whole")
    func hapticsOffKeepsSound() throws {
        let (cue, left, cancelled) = try interruptedCue { $0.isEnabled = false }
        #expect(Array(left[2_880..<2_880 + 7_680]) == cue)
        #expect(cancelled == 0)
    }

    @Test("an impact's cue is played at its intensity: 0.5 is half of every sample of 1.0, 0.3 is 0.3 of it")
    func cueFollowsIntensity() throws {
        let fixture = try SoundFixture()
        defer { fixture.folder.remove() }
        let engine = fixture.engine
        for (intensity, time) in [(0.5, 100_000_000), (1.0, 300_000_000), (0.3, 500_000_000)] as [(Double, Int64)] {
            let onset = fixture.origin.advanced(by: time)
            #expect(engine.play(.impact(.light, intensity: intensity), withSound: true, at: onset).audio
                == .scheduled(audibleAt: onset))
        }
        fixture.renderSound(periods: 104)
        let voice = try #require(SoundCueLibrary.builtin().voice(for: .impact(.light)))
        #expect(voice.frameCount == 1_920)
        func written(_ gain: Float) -> [Int16] {
            (0..<voice.frameCount).map { Int16((min(max(voice.frame($0).left * gain, -1), 1) * 32_767).rounded()) }
        }
        let left = try fixture.renderedLeft()
        let half = Array(left[4_800..<6_720])
        let full = Array(left[14_400..<16_320])
        let third = Array(left[24_000..<25_920])
        #expect(full == SoundFixture.pcm16Left(voice))
        #expect(half == written(0.5))
        #expect(third == written(0.3))
        #expect(zip(half, full).allSatisfy { abs(2 * Int($0) - Int($1)) <= 1 })
        let peaks = [full.max()!, half.max()!, third.max()!, full.min()!, half.min()!]
        #expect(peaks == [7_015, 3_507, 2_104, -6_750, -3_375])      // highest at 1.0, 0.5, 0.3; lowest at 1.0, 0.5
        #expect(left.indices.filter { left[$0] != 0 }.allSatisfy { (4_800..<6_720).contains($0)
            || (14_400..<16_320).contains($0) || (24_000..<25_920).contains($0) })
    }
}
