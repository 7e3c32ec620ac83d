#if canImport(Glibc)
import Glibc
#endif
import HapticsAudio
import Testing
@testable import HapticsSoundAnalysis

@Suite struct SpectrumTests {
    @Test func anImpulseTransformsToAFlatSpectrum() {
        let fft = _FFT(size: 8)
        var real: [Double] = [1, 0, 0, 0, 0, 0, 0, 0]
        var imaginary = [Double](repeating: 0, count: 8)
        fft.transform(real: &real, imaginary: &imaginary)
        #expect(real == [1, 1, 1, 1, 1, 1, 1, 1])
        #expect(imaginary == [0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func aCosineLandsInItsTwoBins() {
        let size = 16
        let fft = _FFT(size: size)
        var real = (0..<size).map { cos(2 * Double.pi * 3 * Double($0) / Double(size)) }
        var imaginary = [Double](repeating: 0, count: size)
        fft.transform(real: &real, imaginary: &imaginary)
        for bin in 0..<size {
            let expected = bin == 3 || bin == size - 3 ? 8.0 : 0
            #expect(abs(real[bin] - expected) < 1e-12 && abs(imaginary[bin]) < 1e-12, "bin \(bin)")
        }
    }

    @Test func aShiftedImpulseTurnsItsPhase() {
        // x[n] = δ[n − 1] → X[k] = e^(−2πik/4): 1, −i, −1, i.
        let fft = _FFT(size: 4)
        var real: [Double] = [0, 1, 0, 0]
        var imaginary: [Double] = [0, 0, 0, 0]
        fft.transform(real: &real, imaginary: &imaginary)
        let expected: [(Double, Double)] = [(1, 0), (0, -1), (-1, 0), (0, 1)]
        for (bin, (re, im)) in expected.enumerated() {
            #expect(abs(real[bin] - re) < 1e-15 && abs(imaginary[bin] - im) < 1e-15, "bin \(bin)")
        }
    }

    @Test func toneBurstsAreSharperAsTheirFrequencyRises() throws {
        let rate = 48_000
        var transients: [Double] = []
        var curves: [Double] = []
        for frequency in [80.0, 200.0, 500.0, 1_250.0, 3_000.0] {
            let samples = Signals.tone(frequency, start: 0.2, length: 0.3, duration: 0.7, rate: rate)
            let analysis = try SoundAnalyzer().analyze(Signals.sound(samples, rate: rate))
            #expect(analysis.transients.count == 1, "\(frequency) Hz: \(analysis.transients)")
            #expect(analysis.segments.count == 1, "\(frequency) Hz: \(analysis.segments.count) segments")
            transients.append(analysis.transients.first?.sharpness ?? -1)
            let middle = analysis.segments.first?.sharpness.first { $0.time >= 0.3 }?.value ?? -1
            curves.append(middle)
        }
        #expect(transients == transients.sorted() && Set(transients).count == transients.count, "\(transients)")
        #expect(curves == curves.sorted() && Set(curves).count == curves.count, "\(curves)")
    }

    @Test func theVoiceCoilBandSpreadsLowFrequenciesWider() throws {
        let rate = 48_000
        let samples = Signals.tone(200, start: 0, length: 0.5, duration: 0.5, rate: rate)
        let rumble = try SoundAnalyzer(options: SoundAnalysisOptions(actuator: .rumble)).analyze(Signals.sound(samples, rate: rate))
        let voiceCoil = try SoundAnalyzer(options: SoundAnalysisOptions(actuator: .voiceCoil)).analyze(Signals.sound(samples, rate: rate))
        let rumbleSharpness = try #require(rumble.segments.first?.sharpness.first { $0.time >= 0.2 }?.value)
        let voiceCoilSharpness = try #require(voiceCoil.segments.first?.sharpness.first { $0.time >= 0.2 }?.value)
        // log(200/50)/log(100) = 0.30; log(200/40)/log(25) = 0.50.
        #expect(abs(rumbleSharpness - 0.30) < 0.03, "\(rumbleSharpness)")
        #expect(abs(voiceCoilSharpness - 0.50) < 0.03, "\(voiceCoilSharpness)")
    }
}
