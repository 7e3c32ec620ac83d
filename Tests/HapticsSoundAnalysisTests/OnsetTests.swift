import HapticsAudio
import HapticsPatterns
import HapticsTestSupport
import Testing
@testable import HapticsSoundAnalysis

@Suite struct OnsetTests {
    static let clickTimes = [0.25, 0.7, 1.1, 1.62]

    /// Every transient within 5 ms of a click, one per click.
    static func expectOnClicks(_ analysis: SoundAnalysis, _ label: String) {
        let times = analysis.transients.map(\.time)
        #expect(times.count == clickTimes.count, "\(label): \(times)")
        for (found, expected) in zip(times, clickTimes) {
            #expect(abs(found - expected) <= 0.005, "\(label): transient at \(found) s for the click at \(expected) s")
        }
    }

    @Test func clicksAtKnownTimesAreTransientsWithinFiveMilliseconds() throws {
        let rate = 48_000
        let analysis = try SoundAnalyzer().analyze(
            Signals.sound(Signals.clicks(at: Self.clickTimes, duration: 2, rate: rate), rate: rate))
        Self.expectOnClicks(analysis, "48 kHz float")
        #expect(analysis.duration == 2)
        for transient in analysis.transients {
            // A click from silence rises by far more than 24 dB: its intensity is its peak level.
            #expect(transient.intensity > 0.9)
        }
    }

    @Test(arguments: [
        (8_000, WAVSampleEncoding.unsignedInteger8, 1),
        (11_025, .signedInteger16, 2),
        (22_050, .signedInteger16, 1),
        (44_100, .signedInteger16, 2),
        (48_000, .signedInteger24, 1),
        (96_000, .float32, 2),
        (192_000, .signedInteger24, 2),
    ])
    func everyEncodingChannelCountAndRateGivesTheSameOnsets(rate: Int, encoding: WAVSampleEncoding, channels: Int) throws {
        let bytes = Signals.wav(Signals.clicks(at: Self.clickTimes, duration: 2, rate: rate), rate: rate,
                                encoding: encoding, channels: channels)
        let analysis = try SoundAnalyzer().analyze(WAVReader.decode(bytes))
        Self.expectOnClicks(analysis, "\(rate) Hz \(encoding) × \(channels)")
    }

    @Test func aSoundThatStartsAtOnceIsAHitAtZero() throws {
        let rate = 48_000
        // A 20 ms tone burst from the first sample, then silence.
        let samples = Signals.tone(1_000, start: 0, length: 0.02, duration: 0.5, rate: rate, amplitude: 0.8)
        let analysis = try SoundAnalyzer().analyze(Signals.sound(samples, rate: rate))
        // The tone's 2 ms ramp reaches a fifth of its peak after 0.6 ms.
        #expect(analysis.transients.map(\.time) == [0.0006])
    }

    @Test func silenceIsNoEvent() throws {
        let rate = 48_000
        let analysis = try SoundAnalyzer().analyze(Signals.sound([Double](repeating: 0, count: rate), rate: rate))
        #expect(analysis == SoundAnalysis(duration: 1, transients: [], segments: []))
        #expect(analysis.pattern(waveformPath: nil) == HapticsPatterns.Pattern())
    }

    @Test func soundBelowMinusFortyEightDecibelsIsSilence() throws {
        let rate = 48_000
        // Clicks peaking at −60 dBFS.
        let quiet = Signals.clicks(at: Self.clickTimes, duration: 2, rate: rate, amplitude: 0.001)
        let analysis = try SoundAnalyzer().analyze(Signals.sound(quiet, rate: rate))
        #expect(analysis.transients.isEmpty)
        #expect(analysis.segments.isEmpty)
    }

    @Test func hitsCloserThanTheMinimumGapKeepTheFirst() throws {
        let rate = 48_000
        let samples = Signals.clicks(at: [0.2, 0.23, 0.5], duration: 1, rate: rate)
        var options = SoundAnalysisOptions()
        options.minimumOnsetGap = 0.1
        let analysis = try SoundAnalyzer(options: options).analyze(Signals.sound(samples, rate: rate))
        let times = analysis.transients.map(\.time)
        #expect(times.count == 2)
        #expect(abs(times[0] - 0.2) <= 0.005 && abs(times[1] - 0.5) <= 0.005, "\(times)")
    }
}
