import HapticsAudio
import HapticsPatterns
import HapticsScheduler
import Testing
@testable import Haptics
import HapticsSystem
import HapticsTestSupport

@Suite("Sound cue configuration")
struct SoundCueConfigurationTests {
    @Test("an app's cue folder without a cue is an error when audio is attached, naming the file")
    func missingCueFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let engine = HapticEngine(clock: ManualClock(), outputs: [], configuration: .init(soundCueFolder: folder.path))
        let audio = AudioOutput(sink: NullAudioSink(timing: .offline(start: MonotonicInstant(nanoseconds: 0))))
        #expect(throws: EngineError.self) { try engine.attachAudio(audio) }
        do {
            try engine.attachAudio(audio)
        } catch {
            #expect(error.description == "sound cue: \(folder.path)/notification-success.wav: cannot open the file: No such file or directory")
        }
        #expect(engine.audioOutput == nil)
    }

    @Test("a library lacking cues is refused; a second output is refused")
    func incompleteLibraryAndSecondOutput() throws {
        let engine = HapticEngine(clock: ManualClock(), outputs: [])
        let audio = AudioOutput(sink: NullAudioSink(timing: .offline(start: MonotonicInstant(nanoseconds: 0))))
        var library = SoundCueLibrary.builtin()
        library.clips["selection"] = nil
        #expect(throws: EngineError.soundCuesMissing(["selection"])) { try engine.attachAudio(audio, soundCues: library) }
        try engine.attachAudio(audio)
        #expect(engine.audioOutput === audio)
        #expect(throws: EngineError.audioAlreadyAttached) { try engine.attachAudio(audio) }
    }

    @Test("an app that plays its own sound gets the haptic felt when its sound is heard")
    func gameAudioSync() throws {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        #expect(fixture.engine.leadTime(for: .impact(.heavy)) == .milliseconds(60))
        #expect(fixture.engine.play(.impact(.heavy), withSoundAudibleAt: origin.advanced(by: 200_000_000)) == .scheduled(feltAt: origin.advanced(by: 200_000_000)))
        #expect(fixture.engine.play(.selection, withSoundStartingNow: .milliseconds(90)) == .scheduled(feltAt: origin.advanced(by: 90_000_000)))
        // Sooner than the motor can spin up: felt as soon as it can, and the outcome says when.
        #expect(fixture.engine.play(.selection, withSoundStartingNow: .milliseconds(20)) == .scheduled(feltAt: origin.advanced(by: 60_000_000)))
        // An audio engine counting frames: two readings map its frames to the monotonic clock.
        let mapping = try AudioClockMapping(
            AudioClockMapping.Reading(frame: 48_000, instant: origin.advanced(by: -1_000_000_000)),
            AudioClockMapping.Reading(frame: 96_000, instant: origin))
        let heard = mapping.instant(ofFrame: 96_000 + 14_400)        // 300 ms after the second reading
        #expect(fixture.engine.play(.notification(.error), withSoundAudibleAt: heard) == .scheduled(feltAt: origin.advanced(by: 300_000_000)))
    }
}
