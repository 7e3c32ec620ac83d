import HapticsAudio
import HapticsTestSupport
import Testing
@testable import HapticsSoundAnalysis

@Suite struct ErrorTests {
    @Test func anADPCMFileIsRefusedWithItsFileAndChunk() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // IMA ADPCM: format tag 0x11, 4 bits per sample.
        try folder.write(wavBytes(formatTag: 0x11, channels: 1, sampleRate: 22_050, bits: 4, data: [0, 0, 0, 0], blockAlign: 256),
                         to: "door.wav")
        let path = folder.path + "/door.wav"
        #expect(throws: SoundAnalysisError(.wav(.unsupportedSampleFormat(formatTag: 0x11, bitsPerSample: 4, offset: 12)), path: path)) {
            try SoundAnalyzer().analyze(contentsOf: path)
        }
        do {
            _ = try SoundAnalyzer().analyze(contentsOf: path)
        } catch {
            #expect(error.description == "\(path): WAV \"fmt \" chunk at byte 12: encoding not supported: format tag 17, "
                + "4 bits per sample (expected 8-, 16- or 24-bit PCM, format tag 1, or 32-bit float, format tag 3)")
        }
    }

    @Test func aMissingFileIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/none.wav"
        let error = #expect(throws: SoundAnalysisError.self) { try SoundAnalyzer().analyze(contentsOf: path) }
        #expect(error?.path == path)
        #expect(error?.description.hasPrefix("\(path): ") == true)
    }

    @Test func aSoundLongerThanTheLimitIsRefusedBeforeAnalysis() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Signals.wav([Double](repeating: 0, count: 8_000 * 3 + 8), rate: 8_000, encoding: .unsignedInteger8), to: "long.wav")
        var options = SoundAnalysisOptions()
        options.maximumDuration = 2
        let path = folder.path + "/long.wav"
        let error = #expect(throws: SoundAnalysisError.self) { try SoundAnalyzer(options: options).analyze(contentsOf: path) }
        #expect(error?.description == "\(path): sound is 3.001 s long, more than the limit of 2 s")
    }

    static func options(_ change: (inout SoundAnalysisOptions) -> Void) -> SoundAnalysisOptions {
        var options = SoundAnalysisOptions()
        change(&options)
        return options
    }

    @Test(arguments: [
        (options { $0.sensitivity = 1.5 }, "sensitivity 1.5 is outside 0…1"),
        (options { $0.sensitivity = .nan }, "sensitivity nan is outside 0…1"),
        (options { $0.gain = -60 }, "gain -60 is outside -48…48"),
        (options { $0.band = 5...5_000 }, "band lower bound 5 is outside 10…20000"),
        (options { $0.band = 100...150 }, "band 100…150 Hz is narrower than an octave (the upper bound must be at least twice the lower)"),
        (options { $0.minimumOnsetGap = 0.001 }, "minimum onset gap 0.001 is outside 0.02…10"),
        (options { $0.minimumEventLength = 20 }, "minimum event length 20 is outside 0.02…10"),
        (options { $0.curveTolerance = 0 }, "curve tolerance 0 is outside 0.001…0.5"),
        (options { $0.maximumDuration = 601 }, "maximum duration 601 is outside 0…600"),
    ])
    func optionsOutsideTheirRangeAreRefusedByName(options: SoundAnalysisOptions, message: String) {
        let error = #expect(throws: SoundAnalysisError.self) { try SoundAnalyzer(options: options) }
        #expect(error?.description == message)
    }

    @Test func aPatternTooLargeToReadBackIsRefused() throws {
        // 100 ms of tone in every 200 ms for 600 s: 3,000 segments, each an event, two curves and
        // two parameters, and a transient, and the sound's event: more than the 10,000 entries a
        // pattern file may hold.
        let rate = 4_000
        var samples = [Double](repeating: 0, count: 600 * rate)
        let burst = Signals.tone(500, start: 0, length: 0.1, duration: 0.1, rate: rate)
        for start in stride(from: 0, to: samples.count, by: rate / 5) {
            samples.replaceSubrange(start..<start + burst.count, with: burst)
        }
        var options = SoundAnalysisOptions()
        options.maximumDuration = 600
        let error = #expect(throws: SoundAnalysisError.self) {
            try SoundAnalyzer(options: options).analyze(Signals.sound(samples, rate: rate))
        }
        #expect(error?.description
            == "the pattern would hold 18001 events, parameters and curves, more than the limit of 10000 "
            + "(raise the minimum onset gap or the minimum event length, or cut the sound)")
    }
}
