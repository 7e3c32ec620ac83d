import Testing
@testable import HapticsAudio
import HapticsTestSupport

@Suite struct WAVSampleDecodingTests {
    @Test func eightBitIsUnsignedAroundOneHundredTwentyEight() throws {
        let audio = try WAVReader.decodeSamples(
            wavBytes(formatTag: 1, channels: 1, sampleRate: 8_000, bits: 8, data: [0, 64, 128, 192, 255]))
        #expect(audio == WAVSamples(sampleRate: 8_000, channelCount: 1, encoding: .unsignedInteger8,
                                    samples: [-1, -0.5, 0, 0.5, 0.9921875]))
    }

    @Test func sixteenBitStereoIsInterleavedAndScaledByFullScale() throws {
        // Frames (−32768, 16384) and (32767, −1).
        let audio = try WAVReader.decodeSamples(wavBytes(
            formatTag: 1, channels: 2, sampleRate: 44_100, bits: 16, data: [0x00, 0x80, 0x00, 0x40, 0xFF, 0x7F, 0xFF, 0xFF]))
        #expect(audio.channelCount == 2)
        #expect(audio.frameCount == 2)
        #expect(audio.encoding == .signedInteger16)
        #expect(audio.samples == [-1, 0.5, 32_767 / 32_768, -1 / 32_768])
    }

    @Test func twentyFourBitIsSignExtendedFromThreeBytes() throws {
        let audio = try WAVReader.decodeSamples(wavBytes(
            formatTag: 1, channels: 1, sampleRate: 96_000, bits: 24,
            data: [0x00, 0x00, 0x80, 0x00, 0x00, 0x40, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x00]))
        #expect(audio.encoding == .signedInteger24)
        #expect(audio.samples == [-1, 0.5, -1 / 8_388_608, 1 / 8_388_608])
    }

    @Test func floatSamplesAreTakenAsTheyAre() throws {
        let values: [Float] = [0.25, -0.75, 1.5, 0]
        let data = values.flatMap { value in (0..<4).map { UInt8((value.bitPattern >> (8 * $0)) & 0xFF) } }
        let audio = try WAVReader.decodeSamples(wavBytes(formatTag: 3, channels: 2, sampleRate: 48_000, bits: 32, data: data))
        #expect(audio == WAVSamples(sampleRate: 48_000, channelCount: 2, encoding: .float32, samples: values))
    }

    @Test func extensibleFloatIsReadThroughItsSubformat() throws {
        var bytes = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + [40, 0, 0, 0]
        bytes += [0xFE, 0xFF, 1, 0, 0x80, 0xBB, 0, 0, 0x00, 0xEE, 0x02, 0, 4, 0, 32, 0]
        bytes += [22, 0, 32, 0, 4, 0, 0, 0] + [3, 0] + Array(repeating: 0, count: 14)
        bytes += Array("data".utf8) + [4, 0, 0, 0] + [0x00, 0x00, 0x00, 0x3F]   // 0.5
        #expect(try WAVReader.decodeSamples(bytes).samples == [0.5])
    }

    @Test func unsupportedEncodingsSayWhatIsExpected() {
        let twelveBit = wavBytes(formatTag: 1, channels: 1, sampleRate: 8_000, bits: 12, data: [0, 0], blockAlign: 2)
        #expect(throws: WAVError.unsupportedSampleFormat(formatTag: 1, bitsPerSample: 12)) {
            try WAVReader.decodeSamples(twelveBit)
        }
        #expect(WAVError.unsupportedSampleFormat(formatTag: 1, bitsPerSample: 12).description
            == "WAV encoding not supported: format tag 1, 12 bits per sample "
            + "(expected 8-, 16- or 24-bit PCM, format tag 1, or 32-bit float, format tag 3)")
        let surround = wavBytes(formatTag: 1, channels: 6, sampleRate: 48_000, bits: 16, data: [])
        #expect(throws: WAVError.unsupportedChannelCount(6)) { try WAVReader.decodeSamples(surround) }
        #expect(WAVError.unsupportedChannelCount(6).description == "WAV file has 6 channels (expected 1 or 2)")
        let misaligned = wavBytes(formatTag: 1, channels: 2, sampleRate: 48_000, bits: 24, data: [], blockAlign: 8)
        #expect(throws: WAVError.invalidFormat("block align 8, expected 6 for 2 channel(s) of 24-bit PCM")) {
            try WAVReader.decodeSamples(misaligned)
        }
        let nan = wavBytes(formatTag: 3, channels: 1, sampleRate: 48_000, bits: 32, data: [0, 0, 0, 0, 0, 0, 0xC0, 0x7F])
        #expect(throws: WAVError.nonFiniteSample(frame: 1)) { try WAVReader.decodeSamples(nan) }
    }

    @Test func fileErrorsNameTheFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Array("RIFF0000WAVX".utf8), to: "broken.wav")
        let path = folder.path + "/broken.wav"
        #expect(throws: WAVFileError(path: path, problem: .notWAVE)) { try WAVReader.readSamples(contentsOf: path) }
        #expect(WAVFileError(path: path, problem: .notWAVE).description
            == "\(path): not a WAV file: expected \"RIFF\" and \"WAVE\" in the first 12 bytes")
        do {
            _ = try WAVReader.readSamples(contentsOf: folder.path + "/none.wav")
            Issue.record("a missing file was read")
        } catch {
            #expect(error.path == folder.path + "/none.wav")
            #expect(error.description.hasPrefix("cannot read \(folder.path)/none.wav: "))
        }
    }

    @Test func sixteenBitWrittenFilesDecodeToTheSameValuesAsFloats() throws {
        let bytes = WAVWriter.encode(samples: [-32_768, 0, 16_384, 32_767], sampleRate: 48_000, channelCount: 2)
        let audio = try WAVReader.decodeSamples(bytes)
        #expect(audio.samples == [-1, 0, 0.5, 32_767 / 32_768])
        #expect(audio.frameCount == 2)
    }
}
