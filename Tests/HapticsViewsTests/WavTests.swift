import Foundation
import HapticsAudio
import HapticsRendering
import Testing
@testable import HapticsDevices
@testable import HapticsViews
import HapticsTestSupport

@Suite struct WavTests {
    @Test func writerEmitsTheExactRIFFHeaderAndLittleEndianSamples() {
        let bytes = WAVWriter.encode(samples: [0, 1, -1, 0x7FFF], sampleRate: 48_000)
        #expect(bytes == [
            0x52, 0x49, 0x46, 0x46, 0x2C, 0x00, 0x00, 0x00,   // "RIFF", 36 + 8
            0x57, 0x41, 0x56, 0x45,                           // "WAVE"
            0x66, 0x6D, 0x74, 0x20, 0x10, 0x00, 0x00, 0x00,   // "fmt ", 16
            0x01, 0x00, 0x01, 0x00,                           // PCM, mono
            0x80, 0xBB, 0x00, 0x00,                           // 48 000 Hz
            0x00, 0x77, 0x01, 0x00,                           // 96 000 bytes per second
            0x02, 0x00, 0x10, 0x00,                           // 2 bytes per frame, 16 bits
            0x64, 0x61, 0x74, 0x61, 0x08, 0x00, 0x00, 0x00,   // "data", 8
            0x00, 0x00, 0x01, 0x00, 0xFF, 0xFF, 0xFF, 0x7F,
        ])
    }

    @Test func writtenFileReadsBackExactly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/written.wav"
        let samples: [Int16] = [-32768, -2, 3, 32767, 0, 1]
        try WAVWriter.write(samples: samples, sampleRate: 44_100, channelCount: 2, to: path)
        let audio = try WAVReader.read(contentsOf: path)
        #expect(audio == WAVAudio(sampleRate: 44_100, channelCount: 2, samples: samples))
        #expect(audio.frameCount == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 44 + 12)
    }

    @Test func readerSkipsOtherChunksWithTheirPaddingAndAcceptsExtensiblePCM() throws {
        var bytes = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
        bytes += Array("LIST".utf8) + [3, 0, 0, 0] + [0x61, 0x62, 0x63, 0x00]   // odd size, one pad byte
        bytes += Array("fmt ".utf8) + [40, 0, 0, 0]
        bytes += [0xFE, 0xFF, 1, 0, 0x44, 0xAC, 0, 0, 0x88, 0x58, 0x01, 0, 2, 0, 16, 0]
        bytes += [22, 0, 16, 0, 4, 0, 0, 0] + [1, 0] + Array(repeating: 0, count: 14)   // subformat PCM
        bytes += Array("data".utf8) + [4, 0, 0, 0] + [0x34, 0x12, 0x00, 0x80]
        let audio = try WAVReader.decode(bytes)
        #expect(audio == WAVAudio(sampleRate: 44_100, channelCount: 1, samples: [0x1234, -32768]))
    }

    @Test func readerSaysWhatIsWrong() {
        let header = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
        let pcm8 = Array("fmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1F, 0, 0, 0x40, 0x1F, 0, 0, 1, 0, 8, 0]
        #expect(throws: WAVError.notWAVE) { try WAVReader.decode(Array("RIFX".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)) }
        #expect(throws: WAVError.missingChunk("fmt ")) { try WAVReader.decode(header) }
        #expect(throws: WAVError.missingChunk("data")) { try WAVReader.decode(header + pcm8) }
        #expect(throws: WAVError.unsupportedEncoding(formatTag: 1, bitsPerSample: 8)) {
            try WAVReader.decode(header + pcm8 + Array("data".utf8) + [1, 0, 0, 0, 0x80])
        }
        #expect(throws: WAVError.truncatedChunk("data", offset: 12, declared: 100, available: 2)) {
            try WAVReader.decode(header + Array("data".utf8) + [100, 0, 0, 0, 1, 2])
        }
        #expect(WAVError.truncatedChunk("data", offset: 12, declared: 100, available: 2).description
            == "WAV chunk \"data\" at byte 12 declares 100 bytes but only 2 remain")
        #expect(WAVError.unsupportedEncoding(formatTag: 3, bitsPerSample: 32).description
            == "WAV encoding not supported: format tag 3, 32 bits per sample (expected 16-bit PCM, format tag 1)")
    }
}

@Suite struct WavHapticAudioTests {
    let ms: Int64 = 1_000_000

    func periodic(_ period: UInt16, at offset: Int64) -> TimedCommand {
        TimedCommand(offset: offset, intensity: 1, sharpness: 0,
                     command: .periodic(waveform: .sine, periodMilliseconds: period, magnitude: 0x7FFF))
    }

    @Test func periodicPitchIsOnePerPeriodMovedByOctavesIntoTheAudibleRange() {
        let renderer = MotorSound()
        #expect(renderer.frequency(periodMilliseconds: 1) == 1_000)
        #expect(renderer.frequency(periodMilliseconds: 10) == 100)
        #expect(renderer.frequency(periodMilliseconds: 20) == 100)     // 50 Hz, one octave up
        #expect(renderer.frequency(periodMilliseconds: 100) == 80)     // 10 Hz, three octaves up
        #expect(renderer.frequency(periodMilliseconds: 0) == 210)      // no period: the weak motor's pitch
        #expect(MotorSound(highestFrequency: 600).frequency(periodMilliseconds: 1) == 500)
    }

    @Test func sineFollowsTheLevelWithRampsAtExactSamples() {
        // 1 ms period = 1 000 Hz = 48 samples per cycle at 48 kHz; one motor, so full scale is 0.9.
        let timeline = MotorTimeline(commands: [
            periodic(1, at: 0),
            TimedCommand(offset: 20 * ms, intensity: 0, sharpness: 0, command: .stop),
        ], end: 20 * ms)
        let samples = MotorSound().render(timeline)
        #expect(samples.count == 960 + 240)                 // 20 ms + one 5 ms ramp for the fade-out
        #expect(samples[0] == 0)
        #expect(samples[12] == 1_597)                       // a quarter cycle, 13/240 into the ramp-up
        #expect(samples[492] == 29_490)                     // 10.25 ms: peak, 0.9 × 32 767
        #expect(samples[484] == 14_745)                     // a twelfth of a cycle: sin 30° = 0.5
        #expect(samples[516] == -29_490)                    // three quarters: trough
        #expect(samples[972] == 27_893)                     // 13/240 into the fade-out
        #expect(samples[1_199] == 0)
    }

    @Test func phaseRunsOnAcrossAPitchChange() {
        // At 10.25 ms the phase is a quarter cycle; 500 Hz then needs 24 samples per quarter.
        let timeline = MotorTimeline(commands: [
            periodic(1, at: 0),
            periodic(2, at: 10_250_000),
            TimedCommand(offset: 20 * ms, intensity: 0, sharpness: 0, command: .stop),
        ])
        let samples = MotorSound().render(timeline)
        #expect(samples[492] == 29_490)
        #expect(samples[516] == 0)
        #expect(samples[540] == -29_490)
    }

    @Test func rumbleMotorsAreSummedWithinHeadroom() {
        let timeline = MotorTimeline(commands: [
            TimedCommand(offset: 0, intensity: 1, sharpness: 0.5, command: .rumble(strong: 0xFFFF, weak: 0xFFFF)),
            TimedCommand(offset: 20 * ms, intensity: 0, sharpness: 0, command: .stop),
        ])
        let renderer = MotorSound(strongFrequency: 1_000, weakFrequency: 2_000)
        let samples = renderer.render(timeline)
        // Two motors: each at most 0.45 of full scale. At sample 486 the strong tone is at 45°, the weak at 90°.
        #expect(samples[486] == 25_172)
        #expect(samples[492] == 14_745)
        #expect(samples.map { Int($0).magnitude }.max()! <= 29_491)
    }

    @Test func wavFileHoldsTheRenderedSamples() throws {
        let timeline = MotorTimeline(commands: [
            TimedCommand(offset: 0, intensity: 1, sharpness: 0, command: .rumble(strong: 0x8000, weak: 0)),
            TimedCommand(offset: 3 * ms, intensity: 0, sharpness: 0, command: .stop),
        ])
        let renderer = MotorSound()
        let bytes = renderer.renderWAV(timeline)
        #expect(bytes.count == 44 + 2 * (144 + 240))
        #expect(Array(bytes[40..<44]) == [0x00, 0x03, 0x00, 0x00])   // data length 768
        let audio = try WAVReader.decode(bytes)
        #expect(audio.sampleRate == 48_000)
        #expect(audio.channelCount == 1)
        #expect(audio.samples == renderer.render(timeline))
        #expect(audio.duration == 8_000_000)
    }

    @Test func timelineWithoutMotorsIsSilence() {
        let timeline = MotorTimeline(commands: [TimedCommand(offset: 1 * ms, intensity: 0, sharpness: 0, command: .stop)])
        #expect(MotorSound().render(timeline) == Array(repeating: 0, count: 48 + 240))
    }
}
