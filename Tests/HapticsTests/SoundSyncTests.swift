import HapticsAudio
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import Synchronization
import Testing
@testable import Haptics
import HapticsTestSupport

@Suite("Sound and haptics on one timeline")
struct SoundSyncTests {
    /// One 256-frame period at 48 kHz: the offline WAV output's `minimumLeadTime` (no latency).
    let period: Int64 = 5_333_333

    @Test("a feedback with sound is heard exactly when it is felt, after the actuator's rise time")
    func feedbackWithSound() throws {
        let fixture = try SoundFixture()
        defer { fixture.folder.remove() }
        let onset = fixture.origin.advanced(by: 60_000_000)
        let outcome = fixture.engine.play(.impact(.heavy), withSound: true)
        #expect(outcome == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: onset), audio: .scheduled(audibleAt: onset)))
        #expect(outcome.onset == onset)
        fixture.haptics.run(for: 1_000_000_000)
        fixture.renderSound(periods: 48)

        // The rumble starts at onset − 60 ms rise time; the cue's first frame is at 60 ms × 48 kHz.
        let program = Renderer(profile: .genericRumble).render(Feedback.impact(.heavy).canonicalPattern)
        #expect(same(fixture.haptics.received(since: fixture.origin), expected(program)))
        let cue = SoundFixture.pcm16Left(try #require(SoundCueLibrary.builtin().voice(for: .impact(.heavy))))
        let left = try fixture.renderedLeft()
        #expect(left.count == 48 * 256)
        #expect(left == Array(repeating: 0, count: 2_880) + cue + Array(repeating: 0, count: 48 * 256 - 2_880 - cue.count))
    }

    @Test("when the audio output needs longer than the actuator, both wait for the sound")
    func audioLatencyDecides() throws {
        let fixture = try SoundFixture(profiles: [.simulated])
        defer { fixture.folder.remove() }
        let onset = fixture.origin.advanced(by: period)
        let outcome = fixture.engine.play(.selection, withSound: true)
        #expect(outcome == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: onset), audio: .scheduled(audibleAt: onset)))
        fixture.haptics.run(for: 200_000_000)
        fixture.renderSound(periods: 8)
        let program = Renderer(profile: .simulated).render(Feedback.selection.canonicalPattern)
        #expect(same(fixture.haptics.received(since: fixture.origin), expected(program, startingAt: period)))
        let left = try fixture.renderedLeft()
        #expect(left.firstIndex { $0 != 0 } == 256)
    }

    @Test("an AHAP file's AudioCustom sounds land where the pattern puts them, its haptics a rise time earlier")
    func patternFileWithSound() throws {
        let fixture = try SoundFixture()
        defer { fixture.folder.remove() }
        try fixture.folder.write(pcm16WAV(Array(repeating: 8_192, count: 96)), to: "hit/sounds/knock.wav")
        try fixture.folder.write(pcm16WAV(Array(repeating: -8_192, count: 96)), to: "hit/sounds/ring.wav")
        try fixture.folder.write(Array("""
            {
              "Version": 1.0,
              "Metadata": {"Project": "Door", "Created": "2026-11-30"},
              "Pattern": [
                {"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.3,
                           "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8},
                                               {"ParameterID": "HapticSharpness", "ParameterValue": 0.4}]}},
                {"Event": {"Time": 0.1, "EventType": "AudioCustom", "EventWaveformPath": "sounds/knock.wav",
                           "EventParameters": [{"ParameterID": "AudioVolume", "ParameterValue": 1.0}]}},
                {"Event": {"Time": 0.25, "EventType": "AudioCustom", "EventWaveformPath": "sounds/ring.wav",
                           "EventParameters": [{"ParameterID": "AudioVolume", "ParameterValue": 1.0}]}},
              ]
            }
            """.utf8), to: "hit/door.ahap")
        let player = try fixture.engine.makePlayer(contentsOf: fixture.folder.path + "/hit/door.ahap")
        #expect(player.hasSound)
        let onset = fixture.origin.advanced(by: 100_000_000)
        let outcome = player.start(at: onset)
        #expect(outcome == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: onset), audio: .scheduled(audibleAt: onset)))
        fixture.haptics.run(for: 1_000_000_000)
        fixture.renderSound(periods: 72)

        #expect(same(fixture.haptics.received(since: fixture.origin), expected(player.programs[0], startingAt: 40_000_000)))
        let left = try fixture.renderedLeft()
        // Pattern start heard at 100 ms: the knock at 100 + 100 ms, the ring at 100 + 250 ms.
        #expect(left.indices.filter { left[$0] != 0 } == Array(9_600..<9_696) + Array(16_800..<16_896))
        #expect(Set(left[9_600..<9_696]).count == 1 && left[9_600] > 4_000)
        #expect(Set(left[16_800..<16_896]).count == 1 && left[16_800] == -left[9_600])
    }

    @Test("a pattern file whose WAV is missing fails when the player is made, naming the file and event")
    func missingWaveform() throws {
        let fixture = try SoundFixture()
        defer { fixture.folder.remove() }
        try fixture.folder.write(Array("""
            {"Version": 1.0, "Pattern": [{"Event": {"Time": 0.5, "EventType": "AudioCustom", "EventWaveformPath": "gone.wav"}}]}
            """.utf8), to: "p.ahap")
        let path = fixture.folder.path + "/p.ahap"
        #expect(throws: AudioLoadError.self) { try fixture.engine.makePlayer(contentsOf: path) }
        do {
            _ = try fixture.engine.makePlayer(contentsOf: path)
        } catch let error as AudioLoadError {
            // Located at the line and column of the event's EventWaveformPath value.
            #expect("\(error)" == "\(path):1:103: AudioCustom event at 0.5 s: EventWaveformPath \"gone.wav\": no such file")
        }
    }

    @Test("muted sound leaves the haptics exactly as without sound, and the outcome says so")
    func mutedAudio() throws {
        let fixture = try SoundFixture(profiles: [.simulated])
        defer { fixture.folder.remove() }
        fixture.engine.isAudioMuted = true
        #expect(fixture.audio.isMuted)
        let outcome = fixture.engine.play(.selection, withSound: true)
        // Not delayed by the audio output's lead time: felt at once, as a play without sound.
        #expect(outcome == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: fixture.origin), audio: .notPlayed(.muted)))
        fixture.haptics.run(for: 200_000_000)
        fixture.renderSound(periods: 8)
        let program = Renderer(profile: .simulated).render(Feedback.selection.canonicalPattern)
        #expect(same(fixture.haptics.received(since: fixture.origin), expected(program)))
        #expect(try fixture.renderedLeft().allSatisfy { $0 == 0 })
        #expect(fixture.audio.statistics.scheduled == 0)
    }

    @Test("with haptics switched off the sound cue still plays, at the audio output's pace")
    func hapticsOffSoundOn() throws {
        let fixture = try SoundFixture()
        defer { fixture.folder.remove() }
        fixture.engine.isEnabled = false
        let outcome = fixture.engine.play(.notification(.success), withSound: true)
        #expect(outcome == PlaybackOutcome.WithSound(haptics: .notPlayed(.disabled), audio: .scheduled(audibleAt: fixture.origin.advanced(by: period))))
        #expect(outcome.isScheduled)
        fixture.haptics.run(for: 100_000_000)
        fixture.renderSound(periods: 4)
        // Switching haptics off sent the device its stop; nothing played after it.
        #expect(fixture.haptics.devices[0].recording().map(\.command) == [.stop])
        #expect(try fixture.renderedLeft().firstIndex { $0 != 0 } == 256)
    }

    @Test("losing the audio device is an event; later plays keep their haptics, undelayed")
    func audioDeviceLost() throws {
        let fixture = try SoundFixture(profiles: [.simulated], sink: UnpluggedSink(after: 2))
        defer { fixture.folder.remove() }
        let events = OrderedMutex<[HapticEngine.Event]>([])
        fixture.engine.setEventHandler { event in events.withLock { $0.append(event) } }
        #expect(fixture.audio.process())
        #expect(fixture.audio.process())
        #expect(!fixture.audio.process())
        fixture.engine.performHousekeeping()
        #expect(events.withLock { $0 } == [.audioDeviceLost(errno: .operationNotSupportedByDevice)])
        let outcome = fixture.engine.play(.impact(.light), withSound: true)
        #expect(outcome == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: fixture.origin), audio: .notPlayed(.deviceLost)))
        fixture.haptics.run(for: 200_000_000)
        let program = Renderer(profile: .simulated).render(Feedback.impact(.light).canonicalPattern)
        #expect(same(fixture.haptics.received(since: fixture.origin), expected(program)))
        fixture.engine.performHousekeeping()
        #expect(events.withLock { $0 }.count == 1)
    }

    @Test("a sound refused for want of a voice slot says so; its haptic plays as scheduled")
    func soundDroppedForWantOfAVoice() throws {
        let fixture = try SoundFixture(profiles: [.simulated], audioConfiguration: AudioOutputConfiguration(maximumVoices: 1))
        defer { fixture.folder.remove() }
        let events = OrderedMutex<[HapticEngine.Event]>([])
        fixture.engine.setEventHandler { event in events.withLock { $0.append(event) } }
        let first = fixture.engine.play(.impact(.heavy), withSound: true)
        let second = fixture.engine.play(.impact(.light), withSound: true)
        // Both are heard one period ahead, the offline output's lead time.
        let onset = fixture.origin.advanced(by: period)
        #expect(first.audio == .scheduled(audibleAt: onset))
        #expect(second.audio == .notPlayed(.noVoiceSlot))
        #expect(second.haptics.isScheduled)
        fixture.renderSound(periods: 1)
        fixture.engine.performHousekeeping()
        #expect(events.withLock { $0 } == [])
        #expect(fixture.audio.statistics.dropped == 1)
        #expect(fixture.audio.statistics.noVoiceSlot == 1)
        #expect(AudioSilenceReason.noVoiceSlot.description == "every audio voice is taken (sound dropped)")
    }

    @Test("each half says why it did not play")
    func reasons() throws {
        let fixture = try SoundFixture(attach: false)
        defer { fixture.folder.remove() }
        let felt = fixture.origin.advanced(by: 60_000_000)
        #expect(fixture.engine.play(.selection, withSound: true).audio == .notPlayed(.noAudioOutput))
        #expect(fixture.engine.play(.selection, withSound: false) == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: felt), audio: .notPlayed(.notRequested)))
        try fixture.engine.attachAudio(fixture.audio)
        fixture.engine.isApplicationActive = false
        #expect(fixture.engine.play(.selection, withSound: true) == PlaybackOutcome.WithSound(haptics: .notPlayed(.applicationInactive), audio: .notPlayed(.applicationInactive)))
        fixture.engine.isApplicationActive = true
        let player = try fixture.engine.makePlayer(pattern: Feedback.selection.canonicalPattern)
        #expect(!player.hasSound)
        #expect(player.start(at: nil).audio == .notPlayed(.noSound))
        fixture.engine.stop()
        #expect(fixture.engine.play(.selection, withSound: true) == PlaybackOutcome.WithSound(haptics: .notPlayed(.engineStopped), audio: .notPlayed(.engineStopped)))
        #expect(AudioSilenceReason.deviceLost.description == "the audio device was lost")
    }

    @Test("generators play their item's cue when asked to")
    func generatorWithSound() throws {
        let fixture = try SoundFixture()
        defer { fixture.folder.remove() }
        let generator = ImpactFeedbackGenerator(style: .rigid, engine: fixture.engine)
        #expect(!generator.playsSound)
        generator.playsSound = true
        #expect(generator.impactOccurred(intensity: 0.5) == .scheduled(feltAt: fixture.origin.advanced(by: 60_000_000)))
        fixture.renderSound(periods: 24)
        // The cue follows the impact's intensity: every sample at half.
        let voice = try #require(SoundCueLibrary.builtin().voice(for: .impact(.rigid)))
        let cue = (0..<voice.frameCount).map { Int16((min(max(voice.frame($0).left * 0.5, -1), 1) * 32_767).rounded()) }
        let left = try fixture.renderedLeft()
        #expect(Array(left[2_880..<2_880 + cue.count]) == cue)
        #expect(left[..<2_880].allSatisfy { $0 == 0 })
    }
}
