import Foundation
import Testing
@testable import HapticsAudio

@Suite struct ResamplerTests {
    func sine(frequency: Double, rate: Int, frames: Int) -> [Float] {
        (0..<frames).map { Float(sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
    }

    /// The largest difference from the ideal sine, away from the edges (where the input ends).
    func interiorError(_ output: [Float], frequency: Double, rate: Int, margin: Int) -> Float {
        var worst: Float = 0
        for frame in margin..<(output.count - margin) {
            let ideal = Float(sin(2 * Double.pi * frequency * Double(frame) / Double(rate)))
            worst = max(worst, abs(output[frame] - ideal))
        }
        return worst
    }

    @Test func upsamplingFortyFourOneToFortyEightKeepsASineWithinOneTenThousandth() {
        let input = sine(frequency: 1_000, rate: 44_100, frames: 4_410)
        let output = Resampler().resample(input, channelCount: 1, from: 44_100, to: 48_000)
        #expect(output.count == 4_800)
        #expect(interiorError(output, frequency: 1_000, rate: 48_000, margin: 100) < 1e-4)
    }

    @Test func upsamplingAHighToneStaysAccurateToo() {
        // 15 kHz at 44.1 kHz: 2.9 samples per cycle, where linear interpolation is off by tens of percent.
        let input = sine(frequency: 15_000, rate: 44_100, frames: 4_410)
        let output = Resampler().resample(input, channelCount: 1, from: 44_100, to: 48_000)
        #expect(interiorError(output, frequency: 15_000, rate: 48_000, margin: 100) < 1e-3)
    }

    @Test func downsamplingRemovesWhatTheLowerRateCannotHold() {
        // 1 kHz survives 48 → 16 kHz; 12 kHz (above the new 8 kHz Nyquist) must not alias into it.
        let kept = Resampler().resample(sine(frequency: 1_000, rate: 48_000, frames: 4_800), channelCount: 1,
                                        from: 48_000, to: 16_000)
        #expect(kept.count == 1_600)
        #expect(interiorError(kept, frequency: 1_000, rate: 16_000, margin: 60) < 1e-4)
        let removed = Resampler().resample(sine(frequency: 12_000, rate: 48_000, frames: 4_800), channelCount: 1,
                                           from: 48_000, to: 16_000)
        #expect(removed[60..<1_540].map { abs($0) }.max()! < 1e-3)
    }

    @Test func channelsStayApartAndEqualRatesAreUntouched() {
        let left = sine(frequency: 500, rate: 22_050, frames: 2_205)
        let stereo = left.flatMap { [$0, -$0] }
        let output = Resampler().resample(stereo, channelCount: 2, from: 22_050, to: 48_000)
        #expect(output.count == 2 * 4_800)
        for frame in stride(from: 0, to: 4_800, by: 7) { #expect(output[2 * frame] == -output[2 * frame + 1]) }
        #expect(Resampler().resample(stereo, channelCount: 2, from: 48_000, to: 48_000) == stereo)
    }

    @Test func aClipIsConvertedToTheOutputRate() {
        let audio = WAVSamples(sampleRate: 24_000, channelCount: 1, encoding: .signedInteger16,
                               samples: sine(frequency: 1_000, rate: 24_000, frames: 2_400))
        let clip = AudioClip(audio, outputRate: 48_000)
        #expect(clip.sampleRate == 48_000)
        #expect(clip.channelCount == 1)
        #expect(clip.frameCount == 4_800)
        #expect(interiorError(clip.samples, frequency: 1_000, rate: 48_000, margin: 100) < 1e-4)
    }
}
