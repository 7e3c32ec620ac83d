import HapticsAudio
import HapticsSystem
import HapticsTestSupport
import Testing
@testable import Haptics

@Suite("Sound memory budgets of an engine")
struct SoundBudgetTests {
    /// A folder with `p.ahap`: one `AudioCustom` event at 0.5 s playing `second.wav`, 1 s of 48 kHz
    /// mono (192 000 bytes as floats).
    func bundle() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(pcm16WAV(Array(repeating: 8_192, count: 48_000)), to: "second.wav")
        try folder.write(#"""
            {"Pattern": [{"Event": {"Time": 0.5, "EventType": "AudioCustom", "EventWaveformPath": "second.wav"}}]}
            """#, to: "p.ahap")
        return folder
    }

    /// An engine with audio attached whose budget is its cues plus `room` bytes.
    func engine(room: Int, perPattern: Int = AudioMemoryBudget.patternLimit) throws -> HapticEngine {
        let probe = EngineFixture().engine
        try probe.attachAudio(AudioOutput(sink: NullAudioSink()))
        let cues = probe.soundMemory.inUse
        let engine = EngineFixture(configuration: .init(soundBudgetPerPattern: perPattern, soundBudget: cues + room)).engine
        try engine.attachAudio(AudioOutput(sink: NullAudioSink()))
        #expect(engine.soundMemory.inUse == cues)
        return engine
    }

    @Test("the defaults are 32 MiB per pattern and 128 MiB per engine; the built-in cues take a fraction")
    func defaults() throws {
        let configuration = HapticEngine.Configuration()
        #expect(configuration.soundBudgetPerPattern == 32 << 20)
        #expect(configuration.soundBudget == 128 << 20)
        let engine = EngineFixture().engine
        #expect(engine.soundMemory.inUse == 0)
        try engine.attachAudio(AudioOutput(sink: NullAudioSink()))
        #expect(engine.soundMemory.inUse > 0 && engine.soundMemory.inUse < 1 << 20)
    }

    @Test("players share the engine's budget: the one that does not fit is a located error, and a released player gives its share back")
    func playersShareTheEngineBudget() throws {
        let folder = try bundle()
        defer { folder.remove() }
        let path = folder.path + "/p.ahap"
        let each = try AudioPatternLoader().load(contentsOf: path).soundByteCount
        let voice = each - 192_000
        let engine = try engine(room: 2 * each + voice + 1_000)
        let cues = engine.soundMemory.inUse
        let first = try engine.makePlayer(contentsOf: path)
        var second: HapticPatternPlayer? = try engine.makePlayer(contentsOf: path)
        #expect(engine.soundMemory.inUse == cues + 2 * each)
        do {
            _ = try engine.makePlayer(contentsOf: path)
            Issue.record("a third player fit a budget of two")
        } catch let error as AudioLoadError {
            #expect(error.description == "\(path):1:87: AudioCustom event at 0.5 s: EventWaveformPath \"second.wav\": "
                + "its sound needs 192000 bytes, more than the 1000 bytes left of the engine's sound budget of "
                + "\(cues + 2 * each + voice + 1_000) bytes")
        }
        #expect(engine.soundMemory.inUse == cues + 2 * each)
        second = nil
        #expect(engine.soundMemory.inUse == cues + each)
        let third = try engine.makePlayer(contentsOf: path)
        #expect(engine.soundMemory.inUse == cues + 2 * each)
        // A pattern given in memory has no sound to hold.
        _ = try engine.makePlayer(pattern: first.pattern)
        #expect(engine.soundMemory.inUse == cues + 2 * each)
        withExtendedLifetime((first, second, third)) {}
    }

    @Test("the per-pattern budget of the configuration applies to each file")
    func perPatternBudget() throws {
        let folder = try bundle()
        defer { folder.remove() }
        let path = folder.path + "/p.ahap"
        let engine = try engine(room: 1 << 20, perPattern: 100_000)
        do {
            _ = try engine.makePlayer(contentsOf: path)
            Issue.record("a 192 kB clip fit a 100 kB pattern budget")
        } catch let error as AudioLoadError {
            guard case let .sound(sound) = error, case let .overBudget(needed, budget) = sound.problem else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(needed == 192_000)
            #expect(budget.scope == .pattern && budget.limit == 100_000)
            #expect(error.description.hasSuffix("its sound needs 192000 bytes, more than the \(budget.available) bytes left "
                + "of the pattern's sound budget of 100000 bytes"))
        }
    }

    @Test("forty 599 s tones in a 3 KB file make a player at once, holding a few kilobytes, and play")
    func fortyLongTonesThroughTheEngine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let events = Array(repeating: #"{"Event": {"Time": 0, "EventType": "AudioContinuous", "EventDuration": 599}}"#,
                           count: 40)
        try folder.write(#"{"Pattern": [\#(events.joined(separator: ",\n"))]}"#, to: "hum.ahap")
        let haptics = EngineFixture()
        let origin = haptics.clock.now()
        let output = AudioOutput(sink: NullAudioSink(timing: .offline(start: origin)))
        try haptics.engine.attachAudio(output)
        let cues = haptics.engine.soundMemory.inUse
        let player = try haptics.engine.makePlayer(contentsOf: folder.path + "/hum.ahap")
        player.prepare()                                   // the voices are made now
        let held = haptics.engine.soundMemory.inUse - cues
        let sound = try #require(player.sound)
        #expect(held == sound.soundByteCount)
        #expect(held < 16 << 10)                           // 599 s of stereo floats would be 230 MB per tone
        let onset = origin.advanced(by: .milliseconds(100))
        #expect(player.start(at: onset).audio == .scheduled(audibleAt: onset))
        for _ in 0..<40 { output.process() }
        #expect(output.statistics.scheduled == 40)
        #expect(output.statistics.late == 0 && output.statistics.dropped == 0)
    }

    @Test("a pattern made in memory plays the sounds it names from the folder of the path it is given, within the same budgets")
    func patternInMemoryWithItsSound() throws {
        let folder = try bundle()
        defer { folder.remove() }
        let path = folder.path + "/p.ahap"
        let fromFile = try AudioPatternLoader().load(contentsOf: path)
        let engine = try engine(room: 2 * fromFile.soundByteCount)
        let cues = engine.soundMemory.inUse
        let pattern = try decodePattern(contentsOf: path).pattern
        let player = try engine.makePlayer(pattern: pattern, soundRelativeTo: folder.path + "/not-written.ahap")
        #expect(engine.soundMemory.inUse == cues + fromFile.soundByteCount)
        #expect(player.hasSound)
        // A sound that is not there is an error naming the path given and the event, never silence.
        var missing = pattern
        missing.events[0].waveformPath = "gone.wav"
        do {
            _ = try engine.makePlayer(pattern: missing, soundRelativeTo: folder.path + "/not-written.ahap")
            Issue.record("a missing sound loaded")
        } catch let error as AudioLoadError {
            #expect(error.description == "\(folder.path)/not-written.ahap: AudioCustom event at 0.5 s (events[0]): "
                + "EventWaveformPath \"gone.wav\": no such file")
        }
    }
}
