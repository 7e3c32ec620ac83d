import HapticsSystem
import HapticsTestSupport
import Testing
@testable import HapticsAudio

@Suite struct WAVWriterTests {
    @Test func theWriterEmitsTheExactRIFFHeaderAndLittleEndianSamples() {
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

    @Test func aWrittenFileReadsBackExactly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/stereo.wav"
        let samples: [Int16] = [-32_768, -2, 3, 32_767, 0, 1]
        try WAVWriter.write(samples: samples, sampleRate: 44_100, channelCount: 2, to: path)
        let audio = try WAVReader.read(contentsOf: path)
        #expect(audio.sampleRate == 44_100)
        #expect(audio.channelCount == 2)
        #expect(audio.encoding == .signedInteger16)
        #expect(audio.frameCount == 3)
        #expect(audio.pcm16Samples == samples)
        #expect(try FileDescriptor.readContents(ofFile: path, maximumSize: 1_000)
            == WAVWriter.encode(samples: samples, sampleRate: 44_100, channelCount: 2))
    }

    @Test func writingReplacesTheFileAndAFailureNamesIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/out.wav"
        try WAVWriter.write(samples: [1, 2, 3], sampleRate: 8_000, to: path)
        try WAVWriter.write(samples: [4], sampleRate: 8_000, to: path)
        #expect(try WAVReader.read(contentsOf: path).pcm16Samples == [4])
        let nowhere = folder.path + "/no/such/folder/out.wav"
        let failure = WAVError(.unwritable(SystemCallError(call: "open", errno: .noSuchFileOrDirectory)), path: nowhere)
        #expect(throws: failure) { try WAVWriter.write(samples: [1], sampleRate: 8_000, to: nowhere) }
        #expect(failure.description == "\(nowhere): cannot write the file: open: No such file or directory")
    }
}
