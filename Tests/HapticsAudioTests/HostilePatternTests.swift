import Foundation
import HapticsPatterns
import HapticsSystem
import HapticsTestSupport
import Testing
@testable import HapticsAudio

/// Pattern bundles built to exhaust memory or time, as found by an attacker's tries: each is a
/// located error, or loads in memory that does not follow what its headers and durations claim.
@Suite struct HostilePatternTests {
    func load(_ json: String, waveforms: [String: [UInt8]] = [:], budgets: [AudioMemoryBudget] = [.pattern])
        throws -> (folder: TemporaryFolder, result: Result<AudioPattern, AudioLoadError>) {
        let folder = try TemporaryFolder()
        for (name, bytes) in waveforms { try folder.write(bytes, to: name) }
        try folder.write(json, to: "p.ahap")
        let result = Result { () throws(AudioLoadError) in
            try AudioPatternLoader(budgets: budgets).load(contentsOf: folder.path + "/p.ahap")
        }
        return (folder, result)
    }

    func custom(_ waveform: String, time: Double = 0.25, duration: Double? = nil, loop: Bool = false) -> String {
        let length = duration.map { #", "EventDuration": \#($0), "EventWaveformLoopEnabled": \#(loop)"# } ?? ""
        return #"""
            {"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}},
                         {"Event": {"Time": \#(time), "EventType": "AudioCustom", "EventWaveformPath": "\#(waveform)"\#(length)}}]}
            """#
    }

    func failure(_ result: Result<AudioPattern, AudioLoadError>) -> String? {
        guard case let .failure(error) = result else { return nil }
        return error.description
    }

    @Test("a 1 KB WAV claiming 4.29 GHz is refused at its header, located at the file, chunk and byte")
    func aGigahertzHeaderIsALocatedError() throws {
        let wav = wavBytes(formatTag: 1, channels: 1, sampleRate: 4_294_967_295, bits: 16,
                           data: Array(repeating: 0, count: 1_000))
        let (folder, result) = try load(custom("ghz.wav"), waveforms: ["ghz.wav": wav])
        defer { folder.remove() }
        #expect(failure(result) == "\(folder.path)/p.ahap:2:88: AudioCustom event at 0.25 s: "
            + "EventWaveformPath \"ghz.wav\": WAV \"fmt \" chunk at byte 12: sample rate 4294967295 Hz "
            + "(expected 4000 to 384000 Hz)")
    }

    @Test("a WAV at 1 Hz is refused at its header, located at the file, chunk and byte")
    func aOneHertzHeaderIsALocatedError() throws {
        let wav = wavBytes(formatTag: 1, channels: 1, sampleRate: 1, bits: 16, data: Array(repeating: 0, count: 4_000))
        let (folder, result) = try load(custom("slow.wav"), waveforms: ["slow.wav": wav])
        defer { folder.remove() }
        #expect(failure(result) == "\(folder.path)/p.ahap:2:88: AudioCustom event at 0.25 s: "
            + "EventWaveformPath \"slow.wav\": WAV \"fmt \" chunk at byte 12: sample rate 1 Hz "
            + "(expected 4000 to 384000 Hz)")
    }

    @Test("forty 599 s AudioContinuous events in a 3 KB file load in a few kilobytes, and play")
    func fortyLongTonesLoadInBoundedMemory() throws {
        let events = Array(repeating: #"{"Event": {"Time": 0, "EventType": "AudioContinuous", "EventDuration": 599}}"#,
                           count: 40)
        let json = #"{"Pattern": [\#(events.joined(separator: ",\n"))]}"#
        #expect(json.utf8.count < 3_500)
        let (folder, result) = try load(json)
        defer { folder.remove() }
        let audio = try result.get()
        // Forty fixed descriptions, however long they sound: 599 s of stereo floats would be 230 MB each.
        #expect(audio.soundByteCount == 40 * AudioVoice.programByteCount)
        #expect(audio.soundByteCount < 64 << 10)
        let voices = AudioRenderer().voices(for: audio)
        #expect(voices.count == 40)
        #expect(voices.allSatisfy { $0.voice.frameCount == 599 * 48_000 && $0.voice.byteCount == AudioVoice.programByteCount })

        // They play: a period's frames are made as it is mixed, and are the up-front rendering's.
        let sink = RecordingSink(periodFrames: 256)
        let output = AudioOutput(sink: sink)
        try output.open()
        #expect(output.schedule(voices, patternStart: sink.origin) == 40)
        for _ in 0..<4 { output.process() }
        output.stop()
        #expect(sink.written.contains { abs($0) > 0.1 })
        let first = try #require(audio.pattern.events.first)
        let reference = UpFrontRendering(sampleRate: 48_000)
        let start = reference.tone(event: first, pattern: audio.pattern, limit: 1_024)
        var mixed = [Float](repeating: 0, count: 2_048)
        for placed in voices {
            let frames = reference.tone(event: audio.pattern.events[placed.eventIndex], pattern: audio.pattern, limit: 1_024)
            for index in 0..<2_048 { mixed[index] += frames[index] }
        }
        #expect(Array(sink.written.prefix(2_048)) == mixed)
        #expect(voices[0].voice.frame(1_000) == (start[2_000], start[2_001]))
    }

    @Test("a looped AudioCustom event plays its clip in place for its duration")
    func aLoopedClipIsNotRepeatedInMemory() throws {
        let clip = pcm16WAV((0..<1_440).map { Int16($0 % 2 == 0 ? 8_192 : -8_192) })   // 30 ms
        let (folder, result) = try load(custom("tick.wav", time: 0, duration: 599, loop: true), waveforms: ["tick.wav": clip])
        defer { folder.remove() }
        let audio = try result.get()
        #expect(audio.soundByteCount == 1_440 * 4 + AudioVoice.programByteCount)
        let voice = try #require(AudioRenderer().voices(for: audio).first?.voice)
        #expect(voice.frameCount == 599 * 48_000)
        #expect(voice.byteCount == AudioVoice.programByteCount)
        // The clip wraps: the last frame of one pass, then the first of the next, minutes in.
        let pass = 10_000 * 1_440
        #expect(voice.frame(pass - 1) == voice.frame(1_439))
        #expect(voice.frame(pass) == voice.frame(0))
    }

    @Test("a waveform whose conversion would not fit the pattern's 32 MiB is refused before it is converted")
    func aWaveformOverThePatternBudgetIsALocatedError() throws {
        #expect(AudioMemoryBudget.patternLimit == 32 << 20)
        #expect(AudioMemoryBudget.engineLimit == 128 << 20)
        // 1 MB of 8-bit audio at 4 kHz: 12 million frames at 48 kHz, 48 MB of floats.
        let wav = wavBytes(formatTag: 1, channels: 1, sampleRate: 4_000, bits: 8, data: Array(repeating: 128, count: 1_000_000))
        let (folder, result) = try load(custom("long.wav"), waveforms: ["long.wav": wav])
        defer { folder.remove() }
        let left = (32 << 20) - AudioVoice.programByteCount
        #expect(failure(result) == "\(folder.path)/p.ahap:2:88: AudioCustom event at 0.25 s: "
            + "EventWaveformPath \"long.wav\": its sound needs 48000000 bytes, more than the \(left) bytes left "
            + "of the pattern's sound budget of 32 MiB")
    }

    @Test("samples that cannot fit are refused from the header, before they are decoded")
    func samplesOverTheBudgetAreNotDecoded() throws {
        let voice = AudioVoice.programByteCount
        let wav = pcm16WAV(Array(repeating: 1, count: 60))
        let budget = AudioMemoryBudget(scope: .pattern, limit: voice + 100)
        let (folder, result) = try load(custom("tick.wav"), waveforms: ["tick.wav": wav], budgets: [budget])
        defer { folder.remove() }
        guard case let .failure(.sound(error)) = result else {
            Issue.record("loaded over its budget")
            return
        }
        #expect(error.problem == .overBudget(needed: 240, budget: AudioMemoryBudget(scope: .pattern, limit: voice + 100,
                                                                                    available: 100)))
        #expect(error.description == "\(folder.path)/p.ahap:2:88: AudioCustom event at 0.25 s: "
            + "EventWaveformPath \"tick.wav\": its sound needs 240 bytes, more than the 100 bytes left "
            + "of the pattern's sound budget of \(voice + 100) bytes")
    }

    @Test("the engine's share is a budget too, and names itself; an AudioContinuous event is located the same way")
    func theEngineShareIsEnforcedAtTheEventThatExceedsIt() throws {
        let voice = AudioVoice.programByteCount
        let json = #"""
            {"Pattern": [{"Event": {"Time": 0, "EventType": "AudioContinuous", "EventDuration": 1}},
                         {"Event": {"Time": 1.5, "EventType": "AudioContinuous", "EventDuration": 1}}]}
            """#
        let engine = AudioMemoryBudget(scope: .engine, limit: 128 << 20, available: 2 * voice - 1)
        let (folder, result) = try load(json, budgets: [.pattern, engine])
        defer { folder.remove() }
        #expect(failure(result) == "\(folder.path)/p.ahap: AudioContinuous event at 1.5 s (events[1]): "
            + "its sound needs \(voice) bytes, more than the \(voice - 1) bytes left of the engine's sound budget of 128 MiB")
        // With one byte more, both fit.
        let roomy = AudioMemoryBudget(scope: .engine, limit: 128 << 20, available: 2 * voice)
        let (again, loaded) = try load(json, budgets: [.pattern, roomy])
        defer { again.remove() }
        #expect(try loaded.get().soundByteCount == 2 * voice)
    }
}
