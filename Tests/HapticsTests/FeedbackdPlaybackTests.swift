import HapticsAudio
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
@testable import Haptics
import HapticsSystem
import HapticsTestSupport
import Testing

/// A theme for these tests: a tick sound (full), a rumble (quiet) and an LED (silent) for one
/// event, a sound whose file is missing for another, an LED alone for a third.
private let theme = try! FeedbackdTheme(decoding: Array("""
    { "name": "test", "profiles": [
      { "name": "full", "feedbacks": [
        { "event-name": "button-pressed", "type": "Sound", "effect": "tick" },
        { "event-name": "camera-shutter", "type": "Sound", "effect": "shutter" }
      ] },
      { "name": "quiet", "feedbacks": [
        { "event-name": "button-pressed", "type": "VibraRumble", "duration": 100, "count": 2, "pause": 20, "magnitude": 0.5 }
      ] },
      { "name": "silent", "feedbacks": [
        { "event-name": "button-pressed", "type": "Led", "color": "blue", "frequency": 1000 },
        { "event-name": "battery-caution", "type": "Led", "color": "red", "frequency": 5000 }
      ] }
    ] }
    """.utf8), file: "test.json")

@Suite("feedbackd events play from a loaded theme: felt, heard from a sound folder, the rest reported")
struct FeedbackdPlaybackTests {
    @Test func anEventIsFeltAsItsThemePatternRendersAndItsPlayerIsKeptUntilItEnds() throws {
        let fixture = EngineFixture()
        defer { fixture.engine.stop() }   // lets go of the players the engine keeps
        let origin = fixture.clock.now()
        let playback = try fixture.engine.play(feedbackdEvent: "button-pressed", from: theme, level: .quiet)
        #expect(playback.outcome == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: origin.advanced(by: 60_000_000)),
                                                              audio: .notPlayed(.noSound)))
        #expect(playback.felt.map(\.typeName) == ["VibraRumble"])
        #expect(playback.notHaptic.map(\.typeName) == ["Led"])
        #expect(playback.heard.isEmpty && playback.unplayedSounds.isEmpty)
        #expect(fixture.engine.keptPlayers.count == 1)
        fixture.run(for: 1_000_000_000)
        let program = Renderer(profile: .genericRumble).render(try theme.pattern(for: "button-pressed", level: .quiet))
        #expect(same(fixture.received(since: origin), expected(program)))
        // Two rumbles of 30 ms, 50 ms apart, at magnitude 0.5.
        #expect(fixture.received(since: origin).filter { !$0.1.isSilent }.count >= 2)
        fixture.engine.performHousekeeping()
        #expect(fixture.engine.keptPlayers.count == 0)
    }

    @Test func onOneDeviceOnlyThatDeviceFeelsIt() throws {
        let fixture = EngineFixture(profiles: [.genericRumble, .genericRumble])
        defer { fixture.engine.stop() }   // lets go of the players the engine keeps
        let origin = fixture.clock.now()
        let second = try #require(fixture.engine.devices.last)
        let playback = try fixture.engine.play(feedbackdEvent: "button-pressed", from: theme, level: .quiet, on: DeviceSelection(second))
        #expect(playback.outcome.haptics.isScheduled)
        fixture.run(for: 1_000_000_000)
        #expect(fixture.received(0, since: origin).isEmpty)
        #expect(!fixture.received(1, since: origin).isEmpty)
    }

    @Test func aSoundIsHeardFromItsFileInTheSoundFolderWithTheHaptic() throws {
        let fixture = try SoundFixture()
        defer { fixture.engine.stop() }   // lets go of the players the engine keeps
        defer { fixture.folder.remove() }
        let tick = (0..<480).map { Int16($0 * 20) }
        try fixture.folder.write(pcm16WAV(tick), to: "tick.wav")
        let playback = try fixture.engine.play(feedbackdEvent: "button-pressed", from: theme, level: .full,
                                               soundFolder: fixture.folder.path)
        let onset = try #require(playback.outcome.onset)
        #expect(playback.outcome.haptics == .scheduled(feltAt: onset))
        #expect(playback.outcome.audio == .scheduled(audibleAt: onset))
        #expect(playback.heard.map(\.typeName) == ["Sound"])
        #expect(playback.felt.map(\.typeName) == ["VibraRumble"])
        fixture.haptics.run(for: 200_000_000)
        fixture.renderSound(periods: 48)
        let left = try fixture.renderedLeft()
        let frame = Int((onset.nanoseconds - fixture.origin.nanoseconds) * 48_000 / 1_000_000_000)
        // Heard as the file's own voice plays it (a mono file at the centre, like every sound cue).
        let voice = AudioVoice(clip: AudioClip(try WAVReader.decode(pcm16WAV(tick)), outputRate: 48_000), volume: 1)
        #expect(Array(left[frame..<frame + 480]) == SoundFixture.pcm16Left(voice))
        #expect(left[frame + 479] != 0)
        #expect(left[..<frame].allSatisfy { $0 == 0 })
    }

    @Test func soundsWithoutAFolderOrAFileAreReportedAndTheRestStillPlays() throws {
        let fixture = try SoundFixture()
        defer { fixture.engine.stop() }   // lets go of the players the engine keeps
        defer { fixture.folder.remove() }
        let noFolder = try fixture.engine.play(feedbackdEvent: "button-pressed", from: theme, level: .full)
        #expect(noFolder.unplayedSounds.map(\.reason) == ["no sound folder was given"])
        #expect(noFolder.outcome.haptics.isScheduled)
        #expect(noFolder.outcome.audio == .notPlayed(.noSound))
        let missing = try fixture.engine.play(feedbackdEvent: "camera-shutter", from: theme, level: .full,
                                              soundFolder: fixture.folder.path)
        #expect(missing.unplayedSounds.map(\.reason) == ["no file shutter.wav in the sound folder"])
        #expect(missing.outcome == PlaybackOutcome.WithSound(haptics: .notPlayed(.unsupported), audio: .notPlayed(.noSound)))
    }

    @Test func anEventWithNothingToFeelOrHearPlaysNothingAndSaysSo() throws {
        let fixture = EngineFixture()
        defer { fixture.engine.stop() }   // lets go of the players the engine keeps
        let origin = fixture.clock.now()
        for event in ["battery-caution", "no-such-event"] {
            let playback = try fixture.engine.play(feedbackdEvent: event, from: theme, level: .full)
            #expect(playback.outcome == PlaybackOutcome.WithSound(haptics: .notPlayed(.unsupported), audio: .notPlayed(.noSound)))
            #expect(playback.felt.isEmpty)
        }
        let led = try fixture.engine.play(feedbackdEvent: "battery-caution", from: theme, level: .silent)
        #expect(led.notHaptic.map(\.summary) == ["battery-caution: Led (silent, theme test) at test.json:11:5"])
        #expect(fixture.engine.keptPlayers.count == 0)
        fixture.run(for: 200_000_000)
        #expect(fixture.received(since: origin).isEmpty)
    }

    @Test func aPlayerMadeOnceStartsAgainAndAgain() throws {
        let fixture = EngineFixture()
        defer { fixture.engine.stop() }   // lets go of the players the engine keeps
        let made = try fixture.engine.makePlayer(feedbackdEvent: "button-pressed", theme: theme, level: .quiet)
        let player = try #require(made.player)
        #expect(made.start().outcome.haptics.isScheduled)
        fixture.run(for: 500_000_000)
        #expect(made.start().outcome.haptics.isScheduled)
        fixture.run(for: 500_000_000)
        #expect(player.programs.count == 1)
        #expect(fixture.engine.keptPlayers.count == 0)
    }

    @Test func stoppingTheEngineLetsGoOfWhatItKeptSoTheEngineGoesToo() throws {
        weak var released: HapticEngine?
        do {
            let fixture = EngineFixture()
            _ = try fixture.engine.play(feedbackdEvent: "button-pressed", from: theme, level: .quiet)
            #expect(fixture.engine.keptPlayers.count == 1)
            fixture.engine.stop()
            #expect(fixture.engine.keptPlayers.count == 0)
            released = fixture.engine
        }
        #expect(released == nil)
    }
}
