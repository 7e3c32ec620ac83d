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

    @Test func theFilterTableIsBoundedWhateverTheRates() {
        #expect(Resampler.maximumTableSize == 262_144)
        // 48 000 / 44 100 reduces to 160 phases: each tabulated exactly, 2 × 34 weights apiece.
        #expect(Resampler().tableSize(from: 44_100, to: 48_000) == 160 * 68)
        // The extremes: ratios that reduce and ratios that do not, 96 : 1 either way.
        let pairs = [(44_101, 48_000), (4_000, 384_000), (4_001, 384_000), (384_000, 4_000), (383_999, 4_000),
                     (383_999, 384_000), (384_000, 383_999)]
        for (input, output) in pairs {
            #expect(Resampler().tableSize(from: input, to: output) <= Resampler.maximumTableSize)
        }
        // The widest filter allowed (256 zero crossings, half the band, 96 : 1 down) still fits.
        #expect(Resampler(halfWidth: 256, passband: 0.5).tableSize(from: 383_999, to: 4_000) <= Resampler.maximumTableSize)
    }

    @Test func ratesWithTooManyPhasesInterpolateBetweenTabulatedRows() {
        // 44 101 → 48 000 does not reduce: 48 000 phases, more than the table holds.
        let filter = Resampler.Filter(Resampler(), inputRate: 44_101, outputRate: 48_000, phases: 48_000)
        #expect(!filter.exact)
        var row = [Double](repeating: 0, count: filter.width)
        var worst = 0.0
        for phase in stride(from: 0, to: 48_000, by: 997) {
            filter.weights(phase: phase, of: 48_000, into: &row)
            for tap in 0..<filter.width {
                let exact = filter.shape.weight(Double(phase) / 48_000 - Double(tap - filter.taps + 1))
                worst = max(worst, abs(row[tap] - exact))
            }
        }
        #expect(worst < 1e-6)
        let low = Resampler().resample(sine(frequency: 1_000, rate: 44_101, frames: 4_410), channelCount: 1,
                                       from: 44_101, to: 48_000)
        #expect(interiorError(low, frequency: 1_000, rate: 48_000, margin: 100) < 1e-4)
        let high = Resampler().resample(sine(frequency: 15_000, rate: 44_101, frames: 4_410), channelCount: 1,
                                        from: 44_101, to: 48_000)
        #expect(interiorError(high, frequency: 15_000, rate: 48_000, margin: 100) < 1e-3)
    }

    @Test func theExtremeRatiosStayAccurate() {
        // 96 output frames per input frame, and 96 input frames per output frame, with ratios that
        // reduce (exact rows) and ratios that do not (interpolated rows).
        for input in [4_000, 4_001] {
            let output = Resampler().resample(sine(frequency: 500, rate: input, frames: 400), channelCount: 1,
                                              from: input, to: 384_000)
            #expect(output.count == (400 * 384_000 + input - 1) / input)
            #expect(interiorError(output, frequency: 500, rate: 384_000, margin: 96 * 40) < 1e-4)
        }
        for input in [384_000, 383_999] {
            let output = Resampler().resample(sine(frequency: 500, rate: input, frames: 19_200), channelCount: 1,
                                              from: input, to: 4_000)
            #expect(interiorError(output, frequency: 500, rate: 4_000, margin: 40) < 1e-4)
        }
    }
}
