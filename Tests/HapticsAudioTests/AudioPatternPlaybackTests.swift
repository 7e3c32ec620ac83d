import Foundation
import HapticsPatterns
import HapticsScheduler
import Testing
@testable import HapticsAudio
import HapticsSystem
import HapticsTestSupport

@Suite struct AudioPatternPlaybackTests {
    @Test func anAHAPFilesAudioCustomEventSoundsWhereThePatternPutsIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A 44.1 kHz cue, so playback also goes through the resampler.
        try folder.write(pcm16WAV(Array(repeating: 16_384, count: 441), sampleRate: 44_100), to: "cues/thud.wav")
        try folder.write("""
            {"Version": 1.0, "Pattern": [
              {"Event": {"Time": 0.0, "EventType": "HapticTransient"}},
              {"Event": {"Time": 0.1, "EventType": "AudioCustom", "EventWaveformPath": "cues/thud.wav",
                         "EventParameters": [{"ParameterID": "AudioVolume", "ParameterValue": 1.0},
                                             {"ParameterID": "AudioPan", "ParameterValue": -1.0}]}}
            ]}
            """, to: "hit.ahap")
        let audio = try AudioPatternLoader().load(contentsOf: folder.path + "/hit.ahap")
        let voices = AudioRenderer().voices(for: audio)
        #expect(voices.map(\.frameOffset) == [4_800])

        let start = MonotonicInstant(nanoseconds: 42_000_000_000)
        let output = AudioOutput(sink: WAVFileSink(path: folder.path + "/out.wav", timing: .offline(start: start)))
        try output.open()
        #expect(output.schedule(voices, patternStart: start) == 1)
        for _ in 0..<24 { output.process() }           // 6 144 frames
        output.stop()
        let samples = try #require(WAVReader.read(contentsOf: folder.path + "/out.wav").pcm16Samples)
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
        let sounding = left.indices.filter { abs(Int(left[$0])) > 1_000 }
        // 10 ms of sound from 100 ms on (the resampler's ringing stays below 1 000 at the edges).
        #expect(sounding.first == 4_800)
        #expect(sounding.last == 5_279)
        #expect(left[4_800..<4_810].allSatisfy { $0 > 15_000 })
        #expect(left[..<4_790].allSatisfy { $0 == 0 })
        #expect(right.allSatisfy { $0 == 0 })
    }
}
