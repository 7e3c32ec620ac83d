#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HapticsSoundAnalysis

/// The voice-coil shaper against answers worked out from the filters' design (second-order
/// Butterworth sections through the bilinear transform, corners pre-warped), not from the code.
@Suite struct VoiceCoilShaperTests {
    /// `seconds` of a sine of `frequency` Hz and `amplitude` at `rate`, starting at phase 0.
    static func tone(_ frequency: Double, amplitude: Double, seconds: Double, rate: Int = 48_000) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
    }

    /// Everything `shaper` writes for `samples` fed in blocks of `blockSizes` frames (cycled).
    static func shape(_ samples: [Float], with shaper: inout VoiceCoilShaper, blockSizes: [Int] = [256]) -> [Float] {
        var output: [Float] = []
        var position = 0
        var block = 0
        let channels = shaper.channelCount
        while position < samples.count {
            let count = min(blockSizes[block % blockSizes.count] * channels, samples.count - position)
            var drive = [Float](repeating: .nan, count: shaper.maximumOutputFrames(inputFrames: count / channels))
            let written = samples[position..<position + count].withUnsafeBufferPointer { input in
                drive.withUnsafeMutableBufferPointer { shaper.process(input, into: $0) }
            }
            output += drive[..<written]
            position += count
            block += 1
        }
        return output
    }

    /// The amplitude and phase (radians, of a sine) of `frequency` in `samples` from frame `from`
    /// on, frame *k* at instant (`first` + *k*) / `rate`: a least-squares fit over whole cycles.
    static func fit(_ samples: [Float], frequency: Double, rate: Int, from: Int) -> (amplitude: Double, phase: Double) {
        let period = Double(rate) / frequency
        let cycles = Int(Double(samples.count - from) / period)
        let end = from + Int((Double(cycles) * period).rounded())
        var sine = 0.0, cosine = 0.0
        for index in from..<end {
            let angle = 2 * Double.pi * frequency * Double(index) / Double(rate)
            sine += Double(samples[index]) * sin(angle)
            cosine += Double(samples[index]) * cos(angle)
        }
        let count = Double(end - from)
        return ((sine * sine + cosine * cosine).squareRoot() * 2 / count, atan2(cosine, sine))
    }

    /// A second-order Butterworth's response at `frequency` for a corner at `corner`, sampled at
    /// `rate` through the bilinear transform: the analog prototype at Ω = tan(πf/fs) / tan(πfc/fs).
    static func butterworth(_ frequency: Double, corner: Double, rate: Double, highPass: Bool, q: Double = 1 / 2.0.squareRoot())
        -> (gain: Double, phase: Double) {
        let omega = tan(Double.pi * frequency / rate) / tan(Double.pi * corner / rate)
        // Low-pass: 1 / (1 − Ω² + jΩ/Q); high-pass: −Ω² / (1 − Ω² + jΩ/Q).
        let real = 1 - omega * omega, imaginary = omega / q
        let magnitude = 1 / (real * real + imaginary * imaginary).squareRoot()
        let phase = -atan2(imaginary, real)
        return highPass ? (magnitude * omega * omega, phase + Double.pi) : (magnitude, phase)
    }

    /// The default band's filters (and the anti-alias filter for 3 kHz, `antiAlias`) at `frequency`.
    static func designed(_ frequency: Double, rate: Double = 48_000, antiAlias: Double? = nil) -> (gain: Double, phase: Double) {
        var sections = [butterworth(frequency, corner: 50, rate: rate, highPass: true),
                        butterworth(frequency, corner: 500, rate: rate, highPass: false)]
        if let antiAlias {
            sections.append(butterworth(frequency, corner: antiAlias, rate: rate, highPass: false, q: 1 / (2 * cos(Double.pi / 8))))
            sections.append(butterworth(frequency, corner: antiAlias, rate: rate, highPass: false, q: 1 / (2 * cos(3 * Double.pi / 8))))
        }
        return sections.reduce((1, 0)) { ($0.gain * $1.gain, $0.phase + $1.phase) }
    }

    /// No boost and a 0 dBFS level: a quiet sound passes at the filters' gain, the saturation
    /// costing 0.3 % at most at 0.1.
    static var linear: VoiceCoilShaper.Options {
        var options = VoiceCoilShaper.Options()
        options.maximumGain = 0
        options.level = 0
        return options
    }

    static func wrapped(_ angle: Double) -> Double { atan2(sin(angle), cos(angle)) }

    @Test(arguments: [100.0, 158.0, 300.0])
    func aToneInTheBandPassesWithTheFiltersGainAndPhase(frequency: Double) throws {
        var shaper = try VoiceCoilShaper(sampleRate: 48_000, channelCount: 1, outputRate: 48_000, options: Self.linear)
        let output = Self.shape(Self.tone(frequency, amplitude: 0.1, seconds: 1), with: &shaper)
        #expect(output.count == 48_000)
        let measured = Self.fit(output, frequency: frequency, rate: 48_000, from: 24_000)
        let expected = Self.designed(frequency)
        #expect(abs(measured.amplitude / (0.1 * expected.gain) - 1) < 0.005, "\(measured) vs \(expected)")
        #expect(abs(Self.wrapped(measured.phase - expected.phase)) < 0.005, "\(measured) vs \(expected)")
    }

    @Test(arguments: [(12.5, -24.1), (2_000.0, -24.2)])
    func toneOutsideTheBandIsAttenuatedAsDesigned(frequency: Double, roughly decibels: Double) throws {
        var shaper = try VoiceCoilShaper(sampleRate: 48_000, channelCount: 1, outputRate: 48_000, options: Self.linear)
        let output = Self.shape(Self.tone(frequency, amplitude: 0.1, seconds: 2), with: &shaper)
        let measured = 20 * log10(Self.fit(output, frequency: frequency, rate: 48_000, from: 48_000).amplitude / 0.1)
        let designed = 20 * log10(Self.designed(frequency).gain)
        // Two octaves out of a second-order band edge: about 24 dB down.
        #expect(abs(designed - decibels) < 0.1, "\(designed)")
        #expect(abs(measured - designed) < 0.05, "\(measured) dB, designed \(designed) dB")
    }

    @Test func atThreeKilohertzTheBandPassesAndTheAntiAliasFilterGuardsTheFold() throws {
        // 48 kHz → 3 kHz is every 16th frame: output frame k is input frame 16 k.
        var shaper = try VoiceCoilShaper(sampleRate: 48_000, channelCount: 1, outputRate: 3_000, options: Self.linear)
        let inBand = Self.shape(Self.tone(158, amplitude: 0.1, seconds: 1), with: &shaper)
        #expect(inBand.count == 3_000)
        let measured = Self.fit(inBand, frequency: 158, rate: 3_000, from: 1_500)
        let expected = Self.designed(158, antiAlias: 1_200)
        #expect(abs(measured.amplitude / (0.1 * expected.gain) - 1) < 0.005, "\(measured) vs \(expected)")
        #expect(abs(Self.wrapped(measured.phase - expected.phase)) < 0.005, "\(measured) vs \(expected)")

        // 2.5 kHz folds onto 500 Hz at 3 kHz: what is left of it is the filters' gain at 2.5 kHz.
        shaper.reset()
        let folded = Self.shape(Self.tone(2_500, amplitude: 0.5, seconds: 1), with: &shaper)
        let alias = Self.fit(folded, frequency: 500, rate: 3_000, from: 1_500).amplitude
        let designed = Self.designed(2_500, antiAlias: 1_200).gain
        #expect(20 * log10(designed) < -50)
        #expect(abs(alias / (0.5 * designed) - 1) < 0.01, "\(alias) vs \(0.5 * designed)")
    }

    /// The peaks of `output` over 20 ms windows of `seconds` from `start` seconds, at 48 kHz.
    static func peaks(_ output: [Float], from start: Double, seconds: Double) -> [Double] {
        stride(from: Int(start * 48_000), to: Int((start + seconds) * 48_000), by: 960).map { from in
            output[from..<from + 960].map { abs(Double($0)) }.max()!
        }
    }

    @Test func loudAndQuietSoundsEndAtComparableLevelsWithoutPumping() throws {
        // 150 Hz at −2 dBFS and at −34 dBFS, 8 s each: the gain starts at 1 and moves with a 1 s
        // time constant at most.
        func settled(_ amplitude: Double) throws -> (level: Double, swing: Double) {
            var shaper = try VoiceCoilShaper(sampleRate: 48_000, channelCount: 1, outputRate: 48_000)
            let output = Self.shape(Self.tone(150, amplitude: amplitude, seconds: 8), with: &shaper)
            let peaks = Self.peaks(output, from: 7, seconds: 1)
            return (peaks.max()!, peaks.max()! / peaks.min()!)
        }
        let loud = try settled(0.8)
        let quiet = try settled(0.02)
        // −6 dBFS before saturation: the peak envelope settles a little under the sine's peak.
        #expect(loud.level > 0.45 && loud.level < 0.6, "\(loud)")
        #expect(abs(20 * log10(loud.level / quiet.level)) < 0.5, "loud \(loud), quiet \(quiet)")
        // The gain does not move with each cycle: the peaks hold within 1 %.
        #expect(loud.swing < 1.01 && quiet.swing < 1.01, "loud \(loud), quiet \(quiet)")
    }

    @Test func aSoundAfterSilencePlaysAtTheGainTheSoundBeforeItSet() throws {
        // A quiet tone (−34 dBFS) for 4 s raises the gain; 2 s of silence hold it; the tone again
        // starts where it left off, not boosted by the silence (the gain would have risen 30 dB).
        let tone = Self.tone(150, amplitude: 0.02, seconds: 4)
        let sound = tone + [Float](repeating: 0, count: 96_000) + tone[..<48_000]
        var shaper = try VoiceCoilShaper(sampleRate: 48_000, channelCount: 1, outputRate: 48_000)
        let output = Self.shape(sound, with: &shaper)
        let before = Self.peaks(output, from: 3.9, seconds: 0.1).max()!
        let after = Self.peaks(output, from: 6, seconds: 0.06).max()!
        #expect(before > 0.3, "\(before)")
        #expect(abs(20 * log10(after / before)) < 1, "before \(before), after \(after)")
        // Silence is silent.
        #expect(Self.peaks(output, from: 4.1, seconds: 1.8).allSatisfy { $0 < 1e-3 })
    }

    @Test func theOutputNeverExceedsOne() throws {
        // Stereo: 2 s of a quiet tone (−40 dBFS) that raises the gain, then 2 s of full-scale
        // noise, square waves, clicks and samples that are not numbers, met at that gain.
        var random = SystemRandomNumberGenerator()
        var sound = Self.tone(150, amplitude: 0.01, seconds: 2).flatMap { [$0, $0] }
            + (0..<192_000).map { _ in Float.random(in: -1...1, using: &random) }
        for index in 0..<19_200 { sound[192_000 + index] = (index / 200) % 2 == 0 ? 1 : -1 }
        for index in stride(from: 240_000, to: 280_000, by: 2_000) { sound[index] = index % 4_000 == 0 ? 1 : -1 }
        sound[300_000] = .nan
        sound[300_001] = .infinity
        // The loudest level and the most gain: the saturation is reached.
        var options = VoiceCoilShaper.Options()
        options.maximumGain = 60
        options.level = 0
        for rate in [48_000, 3_000] {
            var shaper = try VoiceCoilShaper(sampleRate: 48_000, channelCount: 2, outputRate: rate, options: options)
            let output = Self.shape(sound, with: &shaper)
            #expect(output.count == 4 * rate)
            #expect(output.allSatisfy { $0.isFinite && abs($0) <= 1 })
            #expect(output.contains { abs($0) > 0.9 })
        }
        #expect(VoiceCoilShaper.saturate(3) == 1 && VoiceCoilShaper.saturate(-1e9) == -1)
        #expect(VoiceCoilShaper.saturate(2.999_999) < 1)
    }

    @Test(arguments: [(44_100, 3_000), (48_000, 48_000), (22_050, 48_000)])
    func blocksOfAnySizeGiveTheSameDriveSamples(rate: Int, outputRate: Int) throws {
        let sound = zip(Self.tone(90, amplitude: 0.4, seconds: 0.5, rate: rate),
                        Self.tone(700, amplitude: 0.2, seconds: 0.5, rate: rate)).flatMap { [$0, $1] }
        var whole = try VoiceCoilShaper(sampleRate: rate, channelCount: 2, outputRate: outputRate)
        var pieces = try VoiceCoilShaper(sampleRate: rate, channelCount: 2, outputRate: outputRate)
        let one = Self.shape(sound, with: &whole, blockSizes: [sound.count])
        let other = Self.shape(sound, with: &pieces, blockSizes: [1, 37, 480, 96, 5])
        // Half a second of sound: every output frame at or before the last input frame's instant.
        #expect(one.count == (rate / 2 - 1) * outputRate / rate + 1)
        #expect(one == other)
        #expect(whole.nextOutputFrame == Int64(one.count) && whole.inputFramesRead == Int64(rate / 2))
    }

    @Test func theLatencyIsTheFiltersGroupDelayAtTheBandsCentre() throws {
        let usb = try VoiceCoilShaper(sampleRate: 48_000, channelCount: 2, outputRate: 48_000)
        let bluetooth = try VoiceCoilShaper(sampleRate: 48_000, channelCount: 2, outputRate: 3_000)
        // −dφ/dω of the designed response at √(50 × 500) Hz.
        func delay(antiAlias: Double?) -> Double {
            let centre = (50.0 * 500).squareRoot(), step = 0.01
            let slope = Self.designed(centre + step, antiAlias: antiAlias).phase - Self.designed(centre - step, antiAlias: antiAlias).phase
            return -slope / (2 * Double.pi * 2 * step)
        }
        #expect(abs(usb.latency - delay(antiAlias: nil)) < 1e-6, "\(usb.latency)")
        #expect(abs(bluetooth.latency - delay(antiAlias: 1_200)) < 1e-6, "\(bluetooth.latency)")
        #expect(abs(usb.latency - 0.000_98) < 0.000_01 && abs(bluetooth.latency - 0.001_33) < 0.000_01)
    }

    @Test func optionsOutsideTheirRangeAreRefusedByName() {
        var options = VoiceCoilShaper.Options()
        options.band = 50...2_000
        let band = #expect(throws: SoundAnalysisError.self) {
            try VoiceCoilShaper(sampleRate: 48_000, channelCount: 1, outputRate: 3_000, options: options)
        }
        #expect(band?.description == "band's upper bound 2000 is outside 20…1350")
        options.band = 300...500
        let narrow = #expect(throws: SoundAnalysisError.self) {
            try VoiceCoilShaper(sampleRate: 48_000, channelCount: 1, outputRate: 48_000, options: options)
        }
        #expect(narrow?.description == "band 300…500 Hz is narrower than an octave (the upper bound must be at least twice the lower)")
        let rate = #expect(throws: SoundAnalysisError.self) { try VoiceCoilShaper(sampleRate: 48_000, channelCount: 1, outputRate: 500) }
        #expect(rate?.description == "output rate 500 is outside 1000…384000")
        options = VoiceCoilShaper.Options()
        options.gainRelease = 0.01
        let release = #expect(throws: SoundAnalysisError.self) {
            try VoiceCoilShaper(sampleRate: 48_000, channelCount: 1, outputRate: 48_000, options: options)
        }
        #expect(release?.description == "gain release 0.01 is outside 0.05…10")
    }
}
