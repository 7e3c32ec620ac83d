import HapticsSystem
import HapticsTestSupport
import Testing
@testable import HapticsAudio

@Suite struct WAVReaderTests {
    @Test func eightBitIsUnsignedAroundOneHundredTwentyEight() throws {
        let audio = try WAVReader.decode(
            wavBytes(formatTag: 1, channels: 1, sampleRate: 8_000, bits: 8, data: [0, 64, 128, 192, 255]))
        #expect(audio == WAVSamples(sampleRate: 8_000, channelCount: 1, encoding: .unsignedInteger8,
                                    samples: [-1, -0.5, 0, 0.5, 0.9921875]))
    }

    @Test func sixteenBitStereoIsInterleavedAndScaledByFullScale() throws {
        // Frames (−32768, 16384) and (32767, −1).
        let audio = try WAVReader.decode(wavBytes(
            formatTag: 1, channels: 2, sampleRate: 44_100, bits: 16, data: [0x00, 0x80, 0x00, 0x40, 0xFF, 0x7F, 0xFF, 0xFF]))
        #expect(audio.channelCount == 2)
        #expect(audio.frameCount == 2)
        #expect(audio.encoding == .signedInteger16)
        #expect(audio.samples == [-1, 0.5, 32_767 / 32_768, -1 / 32_768])
    }

    @Test func twentyFourBitIsSignExtendedFromThreeBytes() throws {
        let audio = try WAVReader.decode(wavBytes(
            formatTag: 1, channels: 1, sampleRate: 96_000, bits: 24,
            data: [0x00, 0x00, 0x80, 0x00, 0x00, 0x40, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x00]))
        #expect(audio.encoding == .signedInteger24)
        #expect(audio.samples == [-1, 0.5, -1 / 8_388_608, 1 / 8_388_608])
    }

    @Test func floatSamplesAreTakenAsTheyAre() throws {
        let values: [Float] = [0.25, -0.75, 1.5, 0]
        let data = values.flatMap { value in (0..<4).map { UInt8((value.bitPattern >> (8 * $0)) & 0xFF) } }
        let audio = try WAVReader.decode(wavBytes(formatTag: 3, channels: 2, sampleRate: 48_000, bits: 32, data: data))
        #expect(audio == WAVSamples(sampleRate: 48_000, channelCount: 2, encoding: .float32, samples: values))
    }

    @Test func extensibleFloatIsReadThroughItsSubformat() throws {
        var bytes = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + [40, 0, 0, 0]
        bytes += [0xFE, 0xFF, 1, 0, 0x80, 0xBB, 0, 0, 0x00, 0xEE, 0x02, 0, 4, 0, 32, 0]
        bytes += [22, 0, 32, 0, 4, 0, 0, 0] + [3, 0] + Array(repeating: 0, count: 14)
        bytes += Array("data".utf8) + [4, 0, 0, 0] + [0x00, 0x00, 0x00, 0x3F]   // 0.5
        #expect(try WAVReader.decode(bytes).samples == [0.5])
    }

    @Test func otherChunksAreSkippedWithTheirPaddingAndExtensiblePCMIsRead() throws {
        var bytes = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
        bytes += Array("LIST".utf8) + [3, 0, 0, 0] + [0x61, 0x62, 0x63, 0x00]   // odd size, one pad byte
        bytes += Array("fmt ".utf8) + [40, 0, 0, 0]
        bytes += [0xFE, 0xFF, 1, 0, 0x44, 0xAC, 0, 0, 0x88, 0x58, 0x01, 0, 2, 0, 16, 0]
        bytes += [22, 0, 16, 0, 4, 0, 0, 0] + [1, 0] + Array(repeating: 0, count: 14)   // subformat PCM
        bytes += Array("data".utf8) + [4, 0, 0, 0] + [0x34, 0x12, 0x00, 0x80]
        let audio = try WAVReader.decode(bytes)
        #expect(audio == WAVSamples(sampleRate: 44_100, channelCount: 1, encoding: .signedInteger16,
                                    samples: [4_660 / 32_768, -1]))
        #expect(audio.pcm16Samples == [0x1234, -32_768])
    }

    @Test func malformedFilesSayWhatIsWrongAndWhere() {
        let header = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
        let pcm8 = Array("fmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1F, 0, 0, 0x40, 0x1F, 0, 0, 1, 0, 8, 0]
        func problem(_ bytes: [UInt8]) -> WAVError? {
            do {
                _ = try WAVReader.decode(bytes)
                return nil
            } catch {
                return error
            }
        }
        #expect(problem(Array("RIFX".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8))?.description
            == "not a WAV file: expected \"RIFF\" and \"WAVE\" in the first 12 bytes")
        #expect(problem(header) == WAVError(.missingChunk("fmt ")))
        #expect(problem(header)?.description == "WAV file has no \"fmt \" chunk")
        #expect(problem(header + pcm8)?.description == "WAV file has no \"data\" chunk")
        #expect(problem(header + Array("data".utf8) + [100, 0, 0, 0, 1, 2])
            == WAVError(.truncatedChunk("data", offset: 12, declared: 100, available: 2)))
        #expect(problem(header + Array("data".utf8) + [100, 0, 0, 0, 1, 2])?.description
            == "WAV chunk \"data\" at byte 12 declares 100 bytes but only 2 remain")
        #expect(problem(header + Array("fmt ".utf8) + [4, 0, 0, 0, 1, 0, 1, 0])?.description
            == "WAV \"fmt \" chunk at byte 12 is invalid: 4 bytes, need at least 16")
        #expect(problem(header + Array("LIST".utf8) + [2, 0, 0, 0, 0, 0] + Array(pcm8[..<10]) + [0, 0] + pcm8[12...])?.description
            == "WAV \"fmt \" chunk at byte 22 is invalid: 0 channels")
    }

    @Test func unsupportedEncodingsSayWhatIsExpected() {
        let twelveBit = wavBytes(formatTag: 1, channels: 1, sampleRate: 8_000, bits: 12, data: [0, 0], blockAlign: 2)
        #expect(throws: WAVError(.unsupportedSampleFormat(formatTag: 1, bitsPerSample: 12, offset: 12))) {
            try WAVReader.decode(twelveBit)
        }
        #expect(WAVError(.unsupportedSampleFormat(formatTag: 1, bitsPerSample: 12, offset: 12)).description
            == "WAV \"fmt \" chunk at byte 12: encoding not supported: format tag 1, 12 bits per sample "
            + "(expected 8-, 16- or 24-bit PCM, format tag 1, or 32-bit float, format tag 3)")
        // Float samples must be 32-bit, integers 8, 16 or 24: other combinations are refused.
        for (tag, bits) in [(UInt16(3), UInt16(64)), (3, 16), (1, 32), (1, 0), (0xFFFF, 16)] {
            let bytes = wavBytes(formatTag: tag, channels: 1, sampleRate: 48_000, bits: bits, data: [], blockAlign: 4)
            #expect(throws: WAVError(.unsupportedSampleFormat(formatTag: tag, bitsPerSample: bits, offset: 12))) {
                try WAVReader.decode(bytes)
            }
        }
        let surround = wavBytes(formatTag: 1, channels: 6, sampleRate: 48_000, bits: 16, data: [])
        #expect(throws: WAVError(.unsupportedChannelCount(6, offset: 12))) { try WAVReader.decode(surround) }
        #expect(WAVError(.unsupportedChannelCount(6, offset: 12)).description
            == "WAV \"fmt \" chunk at byte 12: 6 channels (expected 1 or 2)")
        let absurd = wavBytes(formatTag: 1, channels: 65_535, sampleRate: 48_000, bits: 8, data: [], blockAlign: 65_535)
        #expect(throws: WAVError(.unsupportedChannelCount(65_535, offset: 12))) { try WAVReader.decode(absurd) }
        let misaligned = wavBytes(formatTag: 1, channels: 2, sampleRate: 48_000, bits: 24, data: [], blockAlign: 8)
        #expect(throws: WAVError(.invalidFormat("block align 8, expected 6 for 2 channel(s) of 24-bit PCM", offset: 12))) {
            try WAVReader.decode(misaligned)
        }
        #expect(WAVError(.invalidFormat("block align 8, expected 6 for 2 channel(s) of 24-bit PCM", offset: 12)).description
            == "WAV \"fmt \" chunk at byte 12 is invalid: block align 8, expected 6 for 2 channel(s) of 24-bit PCM")
        let nan = wavBytes(formatTag: 3, channels: 1, sampleRate: 48_000, bits: 32, data: [0, 0, 0, 0, 0, 0, 0xC0, 0x7F])
        #expect(throws: WAVError(.nonFiniteSample(frame: 1))) { try WAVReader.decode(nan) }
        #expect(WAVError(.nonFiniteSample(frame: 1)).description == "WAV float sample at frame 1 is not a finite number")
    }

    @Test func sampleRatesOutsideFourToThreeHundredEightyFourKilohertzAreRefusedBeforeDecoding() throws {
        #expect(WAVReader.supportedSampleRates == 4_000...384_000)
        // A 1 KB file claiming 4.29 GHz (the converter would have asked for a 46 GB filter), and one
        // at 1 Hz (48 000 output frames per input frame): both refused at the header.
        let samples = Array(repeating: UInt8(0), count: 1_000)
        let gigahertz = wavBytes(formatTag: 1, channels: 1, sampleRate: 4_294_967_295, bits: 16, data: samples)
        #expect(throws: WAVError(.unsupportedSampleRate(4_294_967_295, offset: 12))) { try WAVReader.decode(gigahertz) }
        #expect(WAVError(.unsupportedSampleRate(4_294_967_295, offset: 12)).description
            == "WAV \"fmt \" chunk at byte 12: sample rate 4294967295 Hz (expected 4000 to 384000 Hz)")
        let oneHertz = wavBytes(formatTag: 1, channels: 1, sampleRate: 1, bits: 16, data: samples)
        #expect(throws: WAVError(.unsupportedSampleRate(1, offset: 12))) { try WAVReader.decode(oneHertz) }
        for rate: UInt32 in [0, 3_999, 384_001] {
            #expect(throws: WAVError(.unsupportedSampleRate(Int(rate), offset: 12))) {
                try WAVReader.decode(wavBytes(formatTag: 1, channels: 1, sampleRate: rate, bits: 8, data: [128]))
            }
        }
        for rate: UInt32 in [4_000, 384_000] {
            #expect(try WAVReader.decode(wavBytes(formatTag: 1, channels: 1, sampleRate: rate, bits: 8, data: [128]))
                .sampleRate == Int(rate))
        }
    }

    @Test func aCallerCanRefuseMoreSamplesThanItsBudgetBeforeTheyAreDecoded() throws {
        let bytes = wavBytes(formatTag: 1, channels: 2, sampleRate: 48_000, bits: 16, data: Array(repeating: 0, count: 40))
        #expect(try WAVReader.decode(bytes, maximumSampleCount: 20).samples.count == 20)
        #expect(throws: WAVError(.tooManySamples(count: 20, limit: 19, offset: 36))) {
            try WAVReader.decode(bytes, maximumSampleCount: 19)
        }
        #expect(WAVError(.tooManySamples(count: 20, limit: 19, offset: 36)).description
            == "WAV chunk \"data\" at byte 36 holds 20 samples, more than the limit of 19")
    }

    @Test func fileErrorsNameTheFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Array("RIFF0000WAVX".utf8), to: "broken.wav")
        let path = folder.path + "/broken.wav"
        #expect(throws: WAVError(.notWAVE, path: path)) { try WAVReader.read(contentsOf: path) }
        #expect(WAVError(.notWAVE, path: path).description
            == "\(path): not a WAV file: expected \"RIFF\" and \"WAVE\" in the first 12 bytes")
        try folder.write(Array("RIFF\0\0\0\0WAVEdata".utf8) + [100, 0, 0, 0, 1, 2], to: "short.wav")
        #expect(throws: WAVError(.truncatedChunk("data", offset: 12, declared: 100, available: 2),
                                 path: folder.path + "/short.wav")) {
            try WAVReader.read(contentsOf: folder.path + "/short.wav")
        }
        let missing = folder.path + "/none.wav"
        #expect(throws: WAVError(.unreadable(.systemCall(SystemCallError(call: "open", errno: .noSuchFileOrDirectory))),
                                 path: missing)) {
            try WAVReader.read(contentsOf: missing)
        }
        #expect(WAVError(.unreadable(.systemCall(SystemCallError(call: "open", errno: .noSuchFileOrDirectory))),
                         path: missing).description
            == "\(missing): cannot open the file: No such file or directory")
        #expect(throws: WAVError(.unreadable(.notRegularFile), path: folder.path)) {
            try WAVReader.read(contentsOf: folder.path)
        }
        #expect(WAVError(.unreadable(.notRegularFile), path: folder.path).description == "\(folder.path): not a regular file")
    }

    @Test func filesAreReadUpToALimitOfSixteenMebibytes() throws {
        #expect(WAVReader.maximumFileSize == 16_777_216)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = pcm16WAV([16_384, -16_384])   // 48 bytes
        try folder.write(bytes, to: "two.wav")
        let path = folder.path + "/two.wav"
        #expect(try WAVReader.read(contentsOf: path, maximumSize: 48).samples == [0.5, -0.5])
        #expect(throws: WAVError(.unreadable(.tooLarge(size: 48, limit: 47)), path: path)) {
            try WAVReader.read(contentsOf: path, maximumSize: 47)
        }
        #expect(WAVError(.unreadable(.tooLarge(size: 48, limit: 47)), path: path).description
            == "\(path): the file is 48 bytes, more than the limit of 47 bytes")
    }

    @Test func sixteenBitWrittenFilesDecodeToTheSameValuesAsFloats() throws {
        let bytes = WAVWriter.encode(samples: [-32_768, 0, 16_384, 32_767], sampleRate: 48_000, channelCount: 2)
        let audio = try WAVReader.decode(bytes)
        #expect(audio.samples == [-1, 0, 0.5, 32_767 / 32_768])
        #expect(audio.frameCount == 2)
    }
}
